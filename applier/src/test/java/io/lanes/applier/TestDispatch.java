package io.lanes.applier;

import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.TransactionReader;
import io.lanes.core.Engine;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.Transaction;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The dispatching loop: reads binlog transactions, converts them with a {@link BinlogBridge} and submits them to the
 * engine, resuming after a {@link RecoveryPoint}. After a barrier (DDL) it waits until the barrier is applied and makes
 * the bridge forget the table shapes it knew, so the transactions after a DDL are keyed by the new shapes.
 *
 * <p>Resuming from files: the input is read from its beginning and the transactions up to the recovery point's position
 * are passed over (only the GTID state follows them), so the first transaction submitted gets
 * {@link RecoveryPoint#nextSequence()}, as the engine expects.
 *
 * <p>Runs on the thread that calls {@link #run}: the engine's dispatching thread.
 *
 * <p>Test code only (issue #20): this was the public {@code BinlogDispatcher} of the applier's main code, which nothing
 * but tests used. {@link Lanes} has its own loop (source order check, schema-history saving, progress, apply delay);
 * this one lets the reliability tests drive an {@link Engine} they build themselves (fault-injecting appliers,
 * decorators). It lives in this package to use the package-private {@link ResumeCursor} that Lanes uses.
 */
public final class TestDispatch {
    private final Engine<SourceTransaction> engine;
    private final BinlogBridge bridge;
    private final UnaryOperator<Transaction<SourceTransaction>> decorator;
    private long submitted;
    private long passedOver;

    public TestDispatch(Engine<SourceTransaction> engine, BinlogBridge bridge) {
        this(engine, bridge, UnaryOperator.identity());
    }

    /**
     * @param decorator applied to each converted transaction before it is submitted (e.g. to add an audit row to every
     *     transaction); it must keep the position and must not drop the keys or the barrier flag
     */
    public TestDispatch(Engine<SourceTransaction> engine, BinlogBridge bridge,
            UnaryOperator<Transaction<SourceTransaction>> decorator) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.bridge = Objects.requireNonNull(bridge, "bridge");
        this.decorator = Objects.requireNonNull(decorator, "decorator");
    }

    /**
     * Submits every transaction of {@code reader} after {@code from}'s position; returns when the input is exhausted
     * (the engine keeps applying; stop it to wait for the end).
     *
     * @throws IllegalStateException when the recovery position is not in the input
     * @throws io.lanes.core.ApplierFailedException when the engine stopped after a failure
     */
    public void run(TransactionReader reader, RecoveryPoint from) throws Exception {
        ResumeCursor resume = new ResumeCursor(from);
        BinlogTransaction t;
        while ((t = reader.next()) != null) {
            if (resume.passing()) {
                resume.passed(bridge.skip(t));
                passedOver++;
                continue;
            }
            Transaction<SourceTransaction> txn = decorator.apply(bridge.convert(t));
            long sequence = engine.submit(txn);
            submitted++;
            if (txn.isBarrier()) {
                if (!engine.awaitLowWaterMark(sequence, java.time.Duration.ofDays(365))) {
                    engine.stop(); // throws the failure that halted the engine
                    throw new IllegalStateException("the engine stopped before applying " + txn.position());
                }
                bridge.metadata().invalidate();
            }
        }
        engine.flush(); // the input is exhausted: with 0 workers, commit the open batch now

        if (resume.passing()) {
            throw new IllegalStateException("the recovery position " + from.position() + " is not in the input ("
                    + passedOver + " transactions read): were the binlog files given in full and in order?");
        }
    }

    /** Transactions submitted by {@link #run}. */
    public long submitted() {
        return submitted;
    }

    /** Transactions passed over because they were at or before the recovery point. */
    public long passedOver() {
        return passedOver;
    }
}
