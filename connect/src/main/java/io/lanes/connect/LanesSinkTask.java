package io.lanes.connect;

import io.lanes.connect.internal.ChangeEventReader;
import io.lanes.connect.internal.PartitionAssembler;
import io.lanes.connect.internal.PartitionPipeline;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task of the {@link LanesSinkConnector}: for each topic-partition it owns, a {@link PartitionAssembler} reassembles
 * whole transactions and a {@link PartitionPipeline} applies them with a Lanes engine, exactly once.
 *
 * <p>Connect calls every method on the task's one thread. {@link #put} reads and reassembles records and queues complete
 * transactions without blocking; it pauses a partition whose queue is over its budget and resumes it at half, so a slow
 * target never holds the consumer past its poll interval. {@link #open} reads each partition's checkpoint from the
 * target and seeks there ({@code context.offset}); {@link #preCommit} reports the applied low-water mark for lag only;
 * {@link #close} drains and checkpoints.
 */
public class LanesSinkTask extends SinkTask {
    private static final Logger LOG = LoggerFactory.getLogger(LanesSinkTask.class);

    /**
     * A partition this task owns: its assembler (records Connect converted), its pipeline, and the records of the
     * current {@link #put} whose values are still bytes (converted by the pipeline's own thread).
     */
    private record Owned(PartitionAssembler assembler, PartitionPipeline pipeline, List<SinkRecord> raw) {
    }

    private static final int OPEN_ATTEMPTS = 15;

    private LanesSinkConfig config;
    private PartitionPipeline.Settings settings;
    private final ChangeEventReader reader = new ChangeEventReader();
    private final Map<TopicPartition, Owned> owned = new HashMap<>();
    private final java.util.Set<TopicPartition> paused = new java.util.HashSet<>();

    @Override
    public String version() {
        return LanesSinkConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        config = new LanesSinkConfig(props);
        settings = LanesSinkConnector.settings(props.getOrDefault("name", "lanes-sink"), config);
    }

    @Override
    public void open(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            PartitionPipeline pipeline = null;
            long offset = -1;
            for (int attempt = 1; pipeline == null; attempt++) {
                PartitionPipeline p = new PartitionPipeline(tp.toString(), settings);
                try {
                    offset = p.open();
                    pipeline = p;
                } catch (Exception e) {
                    p.abort();
                    // A target that is restarting: wait a little (bounded, open() holds the rebalance) before failing.
                    if (attempt >= OPEN_ATTEMPTS || !unreachable(e)) {
                        throw new ConnectException("cannot open " + tp + " on the target: " + e.getMessage(), e);
                    }
                    LOG.warn("{}: target unreachable ({}), trying again ({} of {})", tp, e.getMessage(), attempt,
                            OPEN_ATTEMPTS);
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        throw new ConnectException("interrupted while opening " + tp, ie);
                    }
                }
            }
            if (offset >= 0) {
                context.offset(tp, offset);
            }
            long maxTransactionBytes = config.maxTransactionBytes(Runtime.getRuntime().maxMemory());
            PartitionAssembler assembler = new PartitionAssembler(tp.toString(), config.transactionEnd(),
                    config.snapshotChunkRows(), pipeline.resumedSource(), pipeline::offer)
                    .limitOpenBytes(maxTransactionBytes);
            pipeline.assembleRawWith(config.transactionEnd(), config.snapshotChunkRows(), maxTransactionBytes);
            owned.put(tp, new Owned(assembler, pipeline, new ArrayList<>()));
        }
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        for (Map.Entry<TopicPartition, Owned> e : owned.entrySet()) {
            Throwable f = e.getValue().pipeline().failure();
            if (f != null) {
                throw new ConnectException(e.getKey() + ": the Lanes engine stopped: " + f.getMessage(), f);
            }
        }
        for (SinkRecord r : records) {
            TopicPartition tp = new TopicPartition(r.topic(), r.kafkaPartition());
            Owned o = owned.get(tp);
            if (o == null) {
                throw new ConnectException("record of " + tp + ", which this task was not given (open() not called)");
            }
            if (r.value() instanceof byte[] || r.value() == null && o.pipeline().convertsRaw()) {
                if (o.assembler().holdsIncomplete()) {
                    throw new ConnectException("record at " + ChangeEventReader.where(r) + ": its value is bytes but "
                            + "the partition's open transaction came converted; the connector's value.converter changed "
                            + "mid-transaction");
                }
                o.raw().add(r);
            } else {
                if (o.pipeline().convertsRaw()) {
                    throw new ConnectException("record at " + ChangeEventReader.where(r) + ": its value came converted "
                            + "after values as bytes (ByteArrayConverter); use one value.converter for the connector");
                }
                o.assembler().accept(reader.read(r));
            }
        }
        for (Owned o : owned.values()) {
            if (!o.raw().isEmpty()) {
                o.pipeline().offerRaw(o.raw(), config::rawValueConverter);
                o.raw().clear();
            }
        }
        balance();
    }

    /** Whether a failure is the target being unreachable (connection refused or lost), which may pass. */
    static boolean unreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLTransientConnectionException || t instanceof java.sql.SQLNonTransientConnectionException
                    || t instanceof java.net.ConnectException
                    || (t instanceof java.sql.SQLException s && s.getSQLState() != null && s.getSQLState().startsWith("08"))) {
                return true;
            }
        }
        return false;
    }

    /** Pauses a partition over its queue budget, resumes it at half. */
    private void balance() {
        List<TopicPartition> pause = new ArrayList<>();
        List<TopicPartition> resume = new ArrayList<>();
        for (Map.Entry<TopicPartition, Owned> e : owned.entrySet()) {
            PartitionPipeline p = e.getValue().pipeline();
            boolean over = p.queuedTransactions() >= config.bufferTransactions() || p.queuedBytes() >= config.bufferBytes();
            boolean under = p.queuedTransactions() <= config.bufferTransactions() / 2 && p.queuedBytes() <= config.bufferBytes() / 2;
            if (over && paused.add(e.getKey())) {
                pause.add(e.getKey());
            } else if (under && paused.remove(e.getKey())) {
                resume.add(e.getKey());
            }
        }
        if (!pause.isEmpty()) {
            context.pause(pause.toArray(TopicPartition[]::new));
        }
        if (!resume.isEmpty()) {
            context.resume(resume.toArray(TopicPartition[]::new));
        }
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        for (Map.Entry<TopicPartition, Owned> e : owned.entrySet()) {
            long offset = e.getValue().pipeline().committedOffset();
            if (offset >= 0) {
                out.put(e.getKey(), new OffsetAndMetadata(offset));
            }
        }
        return out;
    }

    @Override
    public void close(Collection<TopicPartition> partitions) {
        RuntimeException first = null;
        for (TopicPartition tp : partitions) {
            Owned o = owned.remove(tp);
            paused.remove(tp);
            if (o == null) {
                continue;
            }
            try {
                o.pipeline().close();
                LOG.info("{}: closed ({} transactions taken, {} duplicates skipped, {} taken without their END record)",
                        tp, o.pipeline().dispatched(), o.pipeline().skippedDuplicates(),
                        o.assembler().endsInferred() + o.pipeline().endsInferred());
            } catch (Exception e) {
                if (first == null) {
                    first = new ConnectException(tp + ": closing failed: " + e.getMessage(), e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public void stop() {
        for (Owned o : owned.values()) {
            o.pipeline().abort();
        }
        owned.clear();
    }
}
