package io.lanes.connect.internal;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.RowChange;
import io.lanes.applier.Change;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.CatalogTableMetadata;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.core.Checkpoint;
import io.lanes.core.CheckpointStore;
import io.lanes.core.CommitOrder;
import io.lanes.core.Engine;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.Transaction;
import io.lanes.core.WritesetScheduler;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.storage.Converter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka Connect target for one topic-partition: a Lanes {@link Engine} (writeset scheduler, W workers) applying the
 * partition's reassembled transactions into a JDBC target, exactly once. This is the sink side's glue to the applier's
 * APIs ({@link JdbcTarget}, {@link Engine}); it will move behind the Target interface of the pipeline redesign (#20).
 *
 * <p>Exactly once: every transaction's engine position is a {@link KafkaPosition} (the offset past its last record and
 * its source position), so the checkpoint rows the workers write with their data say which Kafka offsets are applied.
 * {@link #open} takes the partition over ({@link OwnerFence}), reads the checkpoint and returns the offset to re-read
 * from; re-read transactions get the same sequence numbers and the engine skips those already applied. A transaction
 * whose source position is at or below the highest one taken (a source's duplicate) is skipped and counted.
 *
 * <p>Threads: the task thread calls {@link #open}, {@link #offer}, {@link #committedOffset}, {@link #queuedTransactions},
 * {@link #close}; a dispatching thread of its own ({@code lanes-connect-<partition>}) owns the engine (start, submit,
 * stop) and the write-key lookups, so that {@link #offer} never blocks the task thread.
 */
public final class PartitionPipeline {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionPipeline.class);
    private static final AssembledTransaction STOP = new AssembledTransaction(null, java.util.List.of(), 0, 0,
            SourceOrder.NONE, false, false, 0, null);

    /** Everything a pipeline needs besides its partition. */
    public record Settings(String connector, String url, ConnectionFactory connections, Dialect dialect, SchemaMapping mapping,
            String checkpointSchema, int workers, CommitOrder commitOrder, boolean skipDuplicates) {
    }

    private final String partition;
    private final String pipelineName;
    private final Settings settings;
    private final OwnerFence fence;
    /** Complete transactions ({@link AssembledTransaction}) and records still to convert ({@link RawRecords}), in order. */
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    /** The raw assembler's limit on one open transaction's bytes (0: none). */
    private long maxTransactionBytes;
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicLong skippedDuplicates = new AtomicLong();
    private final AtomicLong applied = new AtomicLong();
    private volatile Throwable failure;
    private Thread dispatcher;
    private Engine<SourceTransaction> engine;
    private volatile boolean engineStarted;
    /** The Kafka offset of the last low-water mark saved in the target (-1: none yet). */
    private volatile long savedOffset = -1;
    private SourceOrder resumedSource = SourceOrder.NONE;
    /** Converts raw values ({@link #offerRaw}); set by the task thread before its first raw records are queued. */
    private volatile Converter valueConverter;
    /** Reads and reassembles the converted raw records; dispatching thread only, made on the first raw records. */
    private final ChangeEventReader reader = new ChangeEventReader();
    private PartitionAssembler rawAssembler;
    private PartitionAssembler.End assemblerEnd = PartitionAssembler.End.MARKER;
    private int snapshotChunkRows;
    private final java.util.ArrayDeque<AssembledTransaction> assembled = new java.util.ArrayDeque<>();
    /** The highest source position taken (dispatching thread). */
    private SourceOrder highest = SourceOrder.NONE;

    public PartitionPipeline(String partition, Settings settings) {
        this.partition = partition;
        this.settings = settings;
        this.pipelineName = pipelineName(settings.connector(), partition);
        this.fence = new OwnerFence(settings.dialect(), settings.checkpointSchema(), pipelineName);
    }

    /** The checkpoint rows' pipeline name: {@code connector/topic-partition}, shortened with a hash past 64 characters. */
    public static String pipelineName(String connector, String partition) {
        String name = connector + "/" + partition;
        if (name.length() <= 64) {
            return name;
        }
        byte[] digest;
        try {
            digest = java.security.MessageDigest.getInstance("SHA-256").digest(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return name.substring(0, 47) + "~" + java.util.HexFormat.of().formatHex(digest, 0, 8);
    }

    public String pipelineName() {
        return pipelineName;
    }

    /**
     * Takes the partition over and starts the engine. Returns the Kafka offset to re-read from (the low-water mark's
     * next offset), or -1 when the target holds no checkpoint for the partition (Connect's committed offset applies).
     */
    public long open() throws Exception {
        long epoch = fence.acquire(settings.connections());
        JdbcTarget target = JdbcTarget.builder(settings.connections(), settings.dialect()).pipeline(pipelineName)
                .mapping(settings.mapping())
                .checkpointTable(fence.guard(new JdbcCheckpointTable(settings.dialect(), settings.checkpointSchema(),
                        JdbcCheckpointTable.DEFAULT_TABLE)))
                .build();
        CheckpointStore store = target.checkpointStore();
        CheckpointStore remembering = new CheckpointStore() {
            @Override
            public java.util.Collection<Checkpoint> load() throws Exception {
                return store.load();
            }

            @Override
            public void saveWorkerCheckpoint(Checkpoint checkpoint) throws Exception {
                store.saveWorkerCheckpoint(checkpoint);
            }

            @Override
            public void saveLowWaterMark(Checkpoint checkpoint) throws Exception {
                store.saveLowWaterMark(checkpoint);
                if (checkpoint.position() != null) {
                    savedOffset = KafkaPosition.parse(checkpoint.position()).nextOffset();
                }
            }

            @Override
            public void engineStopped() {
                store.engineStopped(); // the JDBC store's kept connection
            }
        };
        engine = Engine.builder(target.applierFactory()).scheduler(new WritesetScheduler()).workers(settings.workers())
                .commitOrder(settings.commitOrder()).checkpointStore(remembering)
                .name("connect-" + partition).build();
        CompletableFuture<RecoveryPoint> started = new CompletableFuture<>();
        CatalogTableMetadata metadata = new CatalogTableMetadata(settings.connections(), target.catalog());
        RowKeys keys = new RowKeys(metadata, settings.mapping());
        dispatcher = new Thread(() -> dispatch(started, keys, metadata), "lanes-connect-" + partition);
        dispatcher.setDaemon(true);
        dispatcher.start();
        RecoveryPoint from;
        try {
            from = started.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
        long next = from.position() == null ? -1 : KafkaPosition.parse(from.position()).nextOffset();
        resumedSource = from.position() == null ? SourceOrder.NONE : KafkaPosition.parse(from.position()).source();
        if (next >= 0) {
            savedOffset = next;
        }
        LOG.info("{}: owner epoch {}, resuming at Kafka offset {} (low-water mark {}, {} applied beyond it)", partition,
                epoch, next < 0 ? "(committed by Connect)" : next, from.lowWaterMark(), from.alreadyApplied().length);
        return next;
    }

    /** The source position of the checkpoint's last transaction (after {@link #open}), NONE on a fresh start. */
    public SourceOrder resumedSource() {
        return resumedSource;
    }

    /** Queues a complete transaction for the dispatching thread. Never blocks. */
    public void offer(AssembledTransaction t) {
        queuedBytes.addAndGet(t.sizeBytes());
        queue.add(t);
    }

    /** How raw records ({@link #offerRaw}) are reassembled: as the task's assembler would. Call before the first. */
    public void assembleRawWith(PartitionAssembler.End end, int snapshotChunkRows, long maxTransactionBytes) {
        this.assemblerEnd = end;
        this.snapshotChunkRows = snapshotChunkRows;
        this.maxTransactionBytes = maxTransactionBytes;
    }

    /** Whether raw records were queued: the partition's values come as bytes and this pipeline converts them. */
    public boolean convertsRaw() {
        return valueConverter != null;
    }

    /** Records whose values are still the bytes Kafka holds, with their size; converted on the dispatching thread. */
    private record RawRecords(java.util.List<SinkRecord> records, long bytes) {
    }

    /**
     * Queues records whose values are still bytes (the connector's {@code value.converter} is
     * {@code ByteArrayConverter}): the dispatching thread converts them with {@code converter}, reads and reassembles
     * them and applies the transactions, so that the conversion, which Connect otherwise runs for every partition on the
     * task's one thread, runs on one thread per partition. Never blocks.
     *
     * @param converter the converter of this partition's values (given each time; the first one is kept)
     */
    public void offerRaw(java.util.List<SinkRecord> records, java.util.function.Supplier<Converter> converter) {
        if (valueConverter == null) {
            valueConverter = converter.get();
        }
        long bytes = 0;
        for (SinkRecord r : records) {
            bytes += 64 + (r.value() instanceof byte[] b ? b.length : 0);
        }
        queuedBytes.addAndGet(bytes);
        queue.add(new RawRecords(java.util.List.copyOf(records), bytes));
    }

    public int queuedTransactions() {
        return queue.size();
    }

    public long queuedBytes() {
        return queuedBytes.get();
    }

    /** The failure that stopped the pipeline, or null. */
    public Throwable failure() {
        return failure;
    }

    public long skippedDuplicates() {
        return skippedDuplicates.get();
    }

    /**
     * Transactions that the raw-record assembler handed on without their END record (a source that resumed after their
     * last event); 0 when the task assembles. Read it after {@link #close()}.
     */
    public long endsInferred() {
        PartitionAssembler raw = rawAssembler;
        return raw == null ? 0 : raw.endsInferred();
    }

    /** Transactions handed to the engine (applied or in flight). */
    public long dispatched() {
        return applied.get();
    }

    /**
     * The Kafka offset of the last low-water mark saved in the target (every record before it is applied and the
     * target's checkpoint says so), or -1 when none was saved yet. For Connect's offset commit, i.e. lag monitoring only:
     * the checkpoint rows are what a restart reads. Never an offset the target's checkpoint does not yet cover: should a
     * restart find no checkpoint position, it reads from Connect's committed offset, which must then still be where
     * the engine's first transaction began.
     */
    public long committedOffset() {
        return savedOffset;
    }

    /**
     * Drains: everything queued is applied and checkpointed, then the engine stops. Records of an incomplete transaction
     * were never queued: a restart re-reads them from the checkpoint.
     */
    public void close() throws Exception {
        if (dispatcher == null) {
            return;
        }
        queue.add(STOP);
        dispatcher.join();
        dispatcher = null;
        if (failure != null) {
            throw failure instanceof Exception e ? e : new IllegalStateException(failure);
        }
    }

    /** Hard stop (the task is being killed): nothing more is applied; what was committed is in the checkpoint. */
    public void abort() {
        if (engine != null) {
            engine.abort();
        }
        if (dispatcher != null) {
            dispatcher.interrupt();
        }
    }

    private void dispatch(CompletableFuture<RecoveryPoint> started, RowKeys keys, CatalogTableMetadata metadata) {
        try {
            RecoveryPoint from = engine.start();
            engineStarted = true;
            highest = from.position() == null ? SourceOrder.NONE : KafkaPosition.parse(from.position()).source();
            started.complete(from);
            while (true) {
                Object item = queue.poll(200, java.util.concurrent.TimeUnit.MILLISECONDS);
                if (item == null) {
                    engine.flush(); // idle: throws once the engine stopped after a failure (e.g. a fenced commit)
                    continue;
                }
                if (item == STOP) {
                    break;
                }
                if (item instanceof RawRecords raw) {
                    queuedBytes.addAndGet(-raw.bytes());
                    convertAndAssemble(raw);
                    for (AssembledTransaction t; (t = assembled.poll()) != null; ) {
                        take(t, keys);
                    }
                } else {
                    AssembledTransaction t = (AssembledTransaction) item;
                    queuedBytes.addAndGet(-t.sizeBytes());
                    take(t, keys);
                }
            }
            engine.stop();
            logSummary(engine.stats());
        } catch (Throwable e) {
            failure = e;
            started.completeExceptionally(e);
            if (engine != null) {
                engine.abort();
            }
            if (!(e instanceof InterruptedException)) {
                LOG.error("{}: stopped: {}", partition, e.toString());
            }
        } finally {
            try {
                metadata.close();
            } catch (Exception ignored) {
                // only the catalog connection
            }
        }
    }

    /** One line at a clean stop: how much was applied in how many target commits, and where the workers' time went. */
    private void logSummary(io.lanes.core.EngineStats stats) {
        long[] nanos = new long[io.lanes.core.WorkerStats.TIMED_STATES.size()];
        long transactions = 0;
        for (io.lanes.core.WorkerStats w : stats.workers()) {
            transactions += w.transactions();
            for (int i = 0; i < nanos.length; i++) {
                nanos[i] += w.nanosIn(io.lanes.core.WorkerStats.TIMED_STATES.get(i));
            }
        }
        StringBuilder time = new StringBuilder();
        for (int i = 0; i < nanos.length; i++) {
            time.append(i == 0 ? "" : ", ").append(io.lanes.core.WorkerStats.TIMED_STATES.get(i).name().toLowerCase())
                    .append(' ').append(String.format(java.util.Locale.ROOT, "%.2f s", nanos[i] / 1e9));
        }
        LOG.info("{}: stopped after {} transactions in {} target commits over {} workers (their time: {})", partition,
                transactions, stats.commits(), stats.workers().size(), time);
    }

    /** Applies one complete transaction (dispatching thread): skipped when a source's duplicate, else submitted. */
    private void take(AssembledTransaction t, RowKeys keys) throws Exception {
        if (settings.skipDuplicates() && isDuplicate(t, highest)) {
            skippedDuplicates.incrementAndGet();
            LOG.info("{}: skipped transaction {} at offset {} (source {}): at or below {}, already taken", partition,
                    t.id(), t.firstOffset(), t.source(), highest);
            return;
        }
        if (t.source().isKnown() && t.source().compareTo(highest) > 0) {
            highest = t.source();
        }
        long seq = engine.submit(toEngine(t, keys));
        applied.incrementAndGet();
        if (t.ddl()) {
            // Later transactions' keys come from the catalog as this DDL leaves it.
            while (!engine.awaitLowWaterMark(seq, Duration.ofSeconds(5))) {
                engine.flush(); // throws once the engine stopped after a failure
            }
            keys.invalidate();
        }
    }

    /**
     * Converts raw records with the partition's value converter, reads them and feeds the partition's assembler, whose
     * complete transactions wait in {@link #assembled} (dispatching thread). A record that does not convert or read
     * stops the pipeline with its topic-partition and offset, as on the task thread.
     */
    private void convertAndAssemble(RawRecords raw) {
        if (rawAssembler == null) {
            rawAssembler = new PartitionAssembler(partition, assemblerEnd, snapshotChunkRows, resumedSource, assembled::add)
                    .limitOpenBytes(maxTransactionBytes);
        }
        for (SinkRecord r : raw.records()) {
            SinkRecord converted = r;
            if (r.value() instanceof byte[] bytes) {
                org.apache.kafka.connect.data.SchemaAndValue v;
                try {
                    v = valueConverter.toConnectData(r.topic(), bytes);
                } catch (RuntimeException e) {
                    throw new org.apache.kafka.connect.errors.DataException("cannot convert the record at "
                            + ChangeEventReader.where(r) + ": " + e.getMessage(), e);
                }
                converted = r.newRecord(r.topic(), r.kafkaPartition(), r.keySchema(), r.key(), v.schema(), v.value(),
                        r.timestamp(), r.headers());
            }
            rawAssembler.accept(reader.read(converted));
        }
    }

    /**
     * A source's duplicate: at or below the highest source position taken (a snapshot chunk: strictly below, as every
     * chunk of a snapshot reports the snapshot's one position).
     */
    private static boolean isDuplicate(AssembledTransaction t, SourceOrder highest) {
        if (!t.source().isKnown() || !highest.isKnown()) {
            return false;
        }
        int c = t.source().compareTo(highest);
        return t.snapshot() ? c < 0 : c <= 0;
    }

    private Transaction<SourceTransaction> toEngine(AssembledTransaction t, RowKeys keys) throws Exception {
        String position = new KafkaPosition(t.nextOffset(), t.source()).toString();
        SourceTransaction payload = new SourceTransaction(position, t.source().gtid().isEmpty() ? null : t.source().gtid(),
                null, t.changes());
        Set<String> schemas = new LinkedHashSet<>();
        for (Change c : t.changes()) {
            if (c instanceof RowChange r) {
                schemas.add(r.table().schema());
            } else if (c instanceof SourceStatement s && s.defaultSchema() != null) {
                schemas.add(s.defaultSchema());
            }
        }
        Transaction.Builder<SourceTransaction> b = Transaction.builder(payload).position(position)
                .sizeBytes(Math.max(1, t.sizeBytes())).partitionKeys(java.util.List.copyOf(schemas));
        if (t.ddl() || (t.lanes() != null && t.lanes().barrier())) {
            return b.barrier(true).build();
        }
        if (t.lanes() != null && t.lanes().clock() != null) {
            b.logicalClock(t.lanes().clock());
        }
        b.startsAfterAllBefore(t.lanes() != null && t.lanes().startsAfterAllBefore());
        long[] k = t.lanes() != null && t.lanes().writeKeys().length > 0 ? t.lanes().writeKeys() : keys.of(t.changes());
        if (k == null) {
            b.barrier(true);
        } else {
            b.writeKeys(k);
        }
        return b.build();
    }

    @Override
    public String toString() {
        return "PartitionPipeline[" + partition + " -> " + settings.url().replaceAll("password=[^&;]*", "password=***") + "]";
    }
}
