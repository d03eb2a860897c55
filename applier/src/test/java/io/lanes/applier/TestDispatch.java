package io.lanes.applier;

import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.TransactionReader;
import io.lanes.core.Engine;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.Transaction;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Drives an engine the test built itself (fault-injecting appliers, decorators) through the same {@link Pipeline} that
 * {@link Lanes} runs: reads binlog transactions, passes over those up to the recovery point's position (only the GTID
 * state and definitions follow them), converts the rest with the given {@link BinlogBridge}, submits them and waits at
 * barriers. The first transaction submitted gets {@link RecoveryPoint#nextSequence()}, as the engine expects.
 *
 * <p>Runs on the thread that calls {@link #run}: the engine's dispatching thread. Unlike {@link Lanes} it returns when the
 * input is exhausted without waiting for the engine (stop it to wait for the end).
 */
public final class TestDispatch {
    private final Engine<SourceTransaction> engine;
    private final BinlogBridge bridge;
    private final UnaryOperator<Transaction<SourceTransaction>> decorator;
    private Pipeline pipeline;

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
     * @throws LanesException when the recovery position is not in the input
     * @throws io.lanes.core.ApplierFailedException when the engine stopped after a failure
     */
    public void run(TransactionReader reader, RecoveryPoint from) throws Exception {
        pipeline = Pipeline.builder(engine, bridge, from).decorator(decorator).build();
        BinlogTransaction t;
        while ((t = reader.next()) != null) {
            if (!pipeline.offer(t)) {
                engine.stop(); // throws the failure that halted the engine
                throw new IllegalStateException("the engine stopped at " + t.endFile() + ":" + t.endPosition());
            }
        }
        engine.flush(); // the input is exhausted: with 0 workers, commit the open batch now
        pipeline.requireResumePointReached();
    }

    /** Transactions submitted by {@link #run}. */
    public long submitted() {
        return pipeline == null ? 0 : pipeline.transactionsRead();
    }

    /** Transactions passed over because they were at or before the recovery point. */
    public long passedOver() {
        return pipeline == null ? 0 : pipeline.transactionsSkipped();
    }
}
