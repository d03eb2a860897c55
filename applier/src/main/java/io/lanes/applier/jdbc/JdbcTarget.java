package io.lanes.applier.jdbc;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.ddl.DdlHandler;
import io.lanes.applier.internal.JdbcCheckpointStore;
import io.lanes.core.ApplierFactory;
import io.lanes.core.CheckpointStore;
import java.util.Objects;

/**
 * A JDBC target and how to apply to it: the shared part of every worker's {@link JdbcApplier}. Immutable and
 * thread-safe (the catalog it shares is thread-safe).
 *
 * <pre>{@code
 * JdbcTarget target = JdbcTarget.builder(ConnectionFactory.of(url, props), Dialect.forJdbcUrl(url)).pipeline("main").build();
 * Engine<SourceTransaction> engine = Engine.builder(target.applierFactory())
 *         .checkpointStore(target.checkpointStore()).workers(8).build();
 * }</pre>
 */
public final class JdbcTarget implements io.lanes.applier.Target {
    private final ConnectionFactory connections;
    private final boolean inProcess;
    private final Dialect dialect;
    private final SchemaMapping mapping;
    private final ConversionOptions conversions;
    private final TargetCatalog catalog;
    private final DdlHandler ddlHandler;
    private final JdbcCheckpointTable checkpointTable;
    private final String pipeline;
    private final int statementCacheSize;
    private final TargetErrorPolicy errorPolicy;
    private final java.util.concurrent.atomic.LongAdder skipped = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder triggersNotCreated = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder accountStatementsNotRun =
            new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder definitionsNotTranslated =
            new java.util.concurrent.atomic.LongAdder();
    private final io.lanes.applier.ddl.StatementPolicy statementPolicy;

    private JdbcTarget(Builder b) {
        connections = b.connections;
        dialect = b.dialect;
        mapping = b.mapping;
        conversions = b.conversions;
        catalog = new TargetCatalog(dialect);
        checkpointTable = b.checkpointTable != null ? b.checkpointTable : new JdbcCheckpointTable(dialect);
        statementPolicy = new io.lanes.applier.ddl.StatementPolicy(b.triggers, b.collations, checkpointTable.schema());
        ddlHandler = b.ddlHandler != null ? b.ddlHandler
                : DdlHandler.forDialect(dialect, mapping, catalog, statementPolicy);
        pipeline = b.pipeline;
        statementCacheSize = b.statementCacheSize;
        errorPolicy = b.errorPolicy;
        inProcess = b.inProcess != null ? b.inProcess : dialect.kind() == Dialect.Kind.H2;
    }

    private final Object lockWaitSampleLock = new Object();
    private long lockWaitSampledAt;
    private long[] lockWaitSample = new long[0];

    /**
     * Every lock wait in the target as (waiting session, blocking session) pairs, read through {@code c} at most once per
     * {@link io.lanes.applier.internal.LockViews#minIntervalNanos()} for all this target's appliers (see
     * {@link io.lanes.applier.internal.LockViews}: one query for all the waiting workers, and reading MariaDB's views
     * more often keeps them from refreshing);
     * between reads, the last sample. Thread-safe: workers asking meanwhile wait for the one reading.
     */
    long[] lockWaitSample(java.sql.Connection c, io.lanes.applier.internal.LockViews views) throws java.sql.SQLException {
        synchronized (lockWaitSampleLock) {
            if (lockWaitSampledAt != 0 && System.nanoTime() - lockWaitSampledAt < views.minIntervalNanos()) {
                return lockWaitSample;
            }
            long[] pairs = new long[8];
            int n = 0;
            try (java.sql.Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(views.waitsSql())) {
                while (rs.next()) {
                    if (n == pairs.length) {
                        pairs = java.util.Arrays.copyOf(pairs, n * 2);
                    }
                    pairs[n++] = rs.getLong(1);
                    pairs[n++] = rs.getLong(2);
                }
            }
            lockWaitSample = java.util.Arrays.copyOf(pairs, n);
            lockWaitSampledAt = System.nanoTime();
            return lockWaitSample;
        }
    }

    public static Builder builder(ConnectionFactory connections, Dialect dialect) {
        return new Builder(connections, dialect);
    }

    /**
     * Creates one {@link JdbcApplier} per worker; declared {@linkplain ApplierFactory#appliesInProcess() in process} for
     * a database that runs inside this JVM (see {@link Builder#appliesInProcess}).
     */
    @Override
    public ApplierFactory<SourceTransaction> applierFactory() {
        ApplierFactory<SourceTransaction> f = workerId -> new JdbcApplier(this, workerId);
        return inProcess ? ApplierFactory.inProcess(f) : f;
    }

    /** Whether the database runs inside this JVM (its work costs this process's processors). */
    public boolean appliesInProcess() {
        return inProcess;
    }

    /**
     * Whether a JDBC URL names a database that runs inside this JVM: H2 embedded (in memory or in a file), not H2's
     * TCP or SSL server mode.
     */
    public static boolean isInProcessUrl(String url) {
        String u = url.toLowerCase(java.util.Locale.ROOT);
        return u.startsWith("jdbc:h2:") && !u.startsWith("jdbc:h2:tcp:") && !u.startsWith("jdbc:h2:ssl:");
    }

    /**
     * The checkpoint store that goes with the appliers: {@code load} reads the {@code lanes_checkpoint} rows of this
     * pipeline (creating the table when absent), worker checkpoints are written by the appliers inside their commits, the
     * engine's low-water mark on a connection of the store's own.
     */
    @Override
    public CheckpointStore checkpointStore() {
        return new JdbcCheckpointStore(connections, dialect, checkpointTable, pipeline);
    }

    public ConnectionFactory connections() {
        return connections;
    }

    public Dialect dialect() {
        return dialect;
    }

    public SchemaMapping mapping() {
        return mapping;
    }

    public ConversionOptions conversions() {
        return conversions;
    }

    public TargetCatalog catalog() {
        return catalog;
    }

    public DdlHandler ddlHandler() {
        return ddlHandler;
    }

    public JdbcCheckpointTable checkpointTable() {
        return checkpointTable;
    }

    public String pipeline() {
        return pipeline;
    }

    /** What the appliers retry, stop on, or skip. */
    public TargetErrorPolicy errorPolicy() {
        return errorPolicy;
    }

    /** Transactions the skip list skipped and whose batch committed, over every applier of this target. */
    public long transactionsSkippedByErrorPolicy() {
        return skipped.sum();
    }

    void countSkipped(int transactions) {
        skipped.add(transactions);
    }

    /** How the default DDL handlers treat triggers and collations (whether or not a handler of the user's replaced them). */
    public io.lanes.applier.ddl.StatementPolicy statementPolicy() {
        return statementPolicy;
    }

    /** CREATE/DROP TRIGGER statements the DDL handler passed over, in committed batches, over every applier. */
    public long triggersNotCreated() {
        return triggersNotCreated.sum();
    }

    /** View, routine and event definitions the DDL handler could not run here, in committed batches. */
    public long definitionsNotTranslated() {
        return definitionsNotTranslated.sum();
    }

    /** Account statements asked for that the DDL handler did not run (H2 and PostgreSQL never run them). */
    public long accountStatementsNotRun() {
        return accountStatementsNotRun.sum();
    }

    void countStatementsNotApplied(int triggers, int definitions, int accounts) {
        triggersNotCreated.add(triggers);
        definitionsNotTranslated.add(definitions);
        accountStatementsNotRun.add(accounts);
    }

    int statementCacheSize() {
        return statementCacheSize;
    }

    @Override
    public String toString() {
        return "JdbcTarget[" + dialect + ", " + connections + ", pipeline=" + pipeline + "]";
    }

    /** Not thread-safe. */
    public static final class Builder {
        private final ConnectionFactory connections;
        private final Dialect dialect;
        private SchemaMapping mapping = SchemaMapping.identity();
        private ConversionOptions conversions = ConversionOptions.DEFAULTS;
        private DdlHandler ddlHandler;
        private JdbcCheckpointTable checkpointTable;
        private String pipeline = "default";
        private int statementCacheSize = 256;
        private TargetErrorPolicy errorPolicy = TargetErrorPolicy.defaults();
        private Boolean inProcess;
        private io.lanes.applier.ddl.StatementPolicy.Triggers triggers = io.lanes.applier.ddl.StatementPolicy.Triggers.GUARD;
        private CollationMap collations = CollationMap.defaults();

        private Builder(ConnectionFactory connections, Dialect dialect) {
            this.connections = Objects.requireNonNull(connections, "connections");
            this.dialect = Objects.requireNonNull(dialect, "dialect");
        }

        /**
         * Whether the database runs inside this JVM, so that applying costs this process's processors and the engine
         * keeps the work on as many workers as there are processors to run them (see
         * {@link ApplierFactory#appliesInProcess()}). Default: true for the H2 dialect (embedded, as Lanes uses it;
         * set false for an H2 server reached over TCP), false otherwise.
         */
        public Builder appliesInProcess(boolean inProcess) {
            this.inProcess = inProcess;
            return this;
        }

        public Builder mapping(SchemaMapping mapping) {
            this.mapping = Objects.requireNonNull(mapping, "mapping");
            return this;
        }

        public Builder conversions(ConversionOptions conversions) {
            this.conversions = Objects.requireNonNull(conversions, "conversions");
            return this;
        }

        /** Replaces the dialect's default {@link DdlHandler}. */
        public Builder ddlHandler(DdlHandler handler) {
            this.ddlHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** Where checkpoints live; default {@code lanes.lanes_checkpoint}. */
        public Builder checkpointTable(JdbcCheckpointTable table) {
            this.checkpointTable = Objects.requireNonNull(table, "table");
            return this;
        }

        /** The name of this pipeline's checkpoint rows (several pipelines may share a target), 1..64 characters. */
        public Builder pipeline(String name) {
            if (name == null || name.isEmpty() || name.length() > 64) {
                throw new IllegalArgumentException("pipeline name must be 1..64 characters");
            }
            this.pipeline = name;
            return this;
        }

        /** Prepared statements kept open per worker connection; default 256. */
        public Builder statementCacheSize(int size) {
            if (size < 1) {
                throw new IllegalArgumentException("statement cache size < 1");
            }
            this.statementCacheSize = size;
            return this;
        }

        /** What to retry, stop on or skip; default {@link TargetErrorPolicy#defaults()} (skip nothing). */
        public Builder errorPolicy(TargetErrorPolicy policy) {
            this.errorPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** What a MySQL/MariaDB target does with the source's triggers; default {@code GUARD}. */
        public Builder triggers(io.lanes.applier.ddl.StatementPolicy.Triggers triggers) {
            this.triggers = Objects.requireNonNull(triggers, "triggers");
            return this;
        }

        /** The collations a MySQL/MariaDB target uses for source collations it lacks; default {@link CollationMap#defaults()}. */
        public Builder collations(CollationMap collations) {
            this.collations = Objects.requireNonNull(collations, "collations");
            return this;
        }

        public JdbcTarget build() {
            return new JdbcTarget(this);
        }
    }
}
