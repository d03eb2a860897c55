package io.lanes.applier.internal;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.TableRef;
import io.lanes.applier.ddl.DdlHandler;
import io.lanes.applier.ddl.DdlResult;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.applier.ddl.StatementPolicy;
import io.lanes.applier.ddl.UnsupportedDdlException;
import io.lanes.applier.internal.MySqlDdl.Statement;
import io.lanes.applier.internal.MySqlDdl.TableName;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.TargetCatalog;
import io.lanes.applier.jdbc.TargetTable;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default {@link DdlHandler} of PostgreSQL and H2: parse the MySQL DDL, translate, run. Account management is never
 * run (it means nothing to these targets and carries passwords); the source's triggers are never created (MySQL trigger
 * bodies do not run here, and a row-based log carries the rows they wrote); definitions of views, stored routines and
 * events that cannot run here are skipped with a warning; foreign keys whose parent does not exist yet (the source had
 * foreign_key_checks=0) wait in {@link PendingForeignKeys} until it does. Thread-safe (its state is thread-safe).
 */
public final class TranslatingDdlHandler implements DdlHandler {
    private static final Logger LOG = LoggerFactory.getLogger(TranslatingDdlHandler.class);

    private final Dialect dialect;
    private final SchemaMapping mapping;
    private final TargetCatalog catalog;
    private final PendingForeignKeys pendingForeignKeys;

    public TranslatingDdlHandler(Dialect dialect, SchemaMapping mapping, TargetCatalog catalog) {
        this(dialect, mapping, catalog, StatementPolicy.DEFAULT);
    }

    public TranslatingDdlHandler(Dialect dialect, SchemaMapping mapping, TargetCatalog catalog, StatementPolicy policy) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.mapping = Objects.requireNonNull(mapping, "mapping");
        this.catalog = catalog;
        this.pendingForeignKeys = new PendingForeignKeys(dialect, policy.bookkeepingSchema());
    }

    @Override
    public DdlResult apply(Connection target, SourceStatement statement) throws SQLException {
        StatementScope.Kind kind;
        try {
            kind = StatementScope.of(statement.sql(), statement.sqlMode()).kind();
        } catch (DdlSyntaxException unreadable) {
            kind = StatementScope.Kind.OTHER;
        }
        if (kind == StatementScope.Kind.ACCOUNT_MANAGEMENT) {
            // Users, roles and grants of the source server mean nothing to an H2 or PostgreSQL target (and carry
            // passwords): like a filtered table, they are skipped, visibly.
            LOG.info("DDL{}: account management is not replicated to {} targets: {}", at(statement), dialect.kind(),
                    statement.abbreviated());
            return DdlResult.skipped("account management is not replicated to " + dialect.kind() + " targets");
        }
        if (kind == StatementScope.Kind.CREATE_TRIGGER || kind == StatementScope.Kind.DROP_TRIGGER) {
            LOG.info("DDL{}: the source's triggers are not created on {} targets (a row-based log carries the rows they "
                    + "wrote): {}", at(statement), dialect.kind(), statement.abbreviated());
            return DdlResult.skipped("triggers are not created on " + dialect.kind() + " targets");
        }
        String savepoint = savepointStatement(statement.sql());
        if (savepoint != null) {
            // The source's transaction logged its savepoint (rows it rolled back to one are cut from the log, but the
            // SAVEPOINT, and ROLLBACK TO when a non-transactional table was changed, stay): the same in the target's
            // open transaction keeps the rows after a ROLLBACK TO out, as on the source.
            try (java.sql.Statement s = target.createStatement()) {
                s.execute(savepoint);
            }
            return new DdlResult(List.of(savepoint), Set.of(), Set.of(), List.of(), false);
        }
        Statement parsed;
        try {
            parsed = MySqlDdlParser.parse(statement.sql(), statement.defaultSchema(), statement.sqlMode());
        } catch (DdlSyntaxException e) {
            return notTranslated(target, statement, e, kind);
        }
        if (DdlStatements.excluded(parsed, mapping)) {
            return DdlResult.skipped("excluded by the schema mapping");
        }
        DdlTranslator.Translation translation;
        try {
            translation = new DdlTranslator(dialect, mapping::targetSchema, new CatalogLookup(target))
                    .foreignKeyChecks(statement.foreignKeyChecks()).translate(parsed);
        } catch (DdlSyntaxException e) {
            return notTranslated(target, statement, e, kind);
        }
        List<String> executed = new ArrayList<>();
        List<String> warnings = new ArrayList<>(translation.warnings());
        if (dialect.kind() == Dialect.Kind.H2) {
            for (TableName t : translation.tables()) {
                if (H2InterruptedAlter.repair(target, t.schema(), t.name())) {
                    warnings.add("renamed back H2's copy of " + t.schema() + "." + t.name() + " left by an ALTER TABLE"
                            + " that a crash cut short");
                }
            }
        }
        try {
            for (DdlTranslator.DeferredForeignKey k : translation.deferredForeignKeys()) {
                pendingForeignKeys.add(target, k);
            }
            for (String sql : translation.sql()) {
                runToleratingReplay(target, sql, executed, warnings);
            }
            forgetDropped(target, parsed);
            for (TableName created : translation.tables()) {
                for (String sql : pendingForeignKeys.takeFor(target, created)) {
                    warnings.add("foreign key created now that " + created.schema() + "." + created.name()
                            + " exists: " + sql);
                    runToleratingReplay(target, sql, executed, warnings);
                }
            }
        } finally {
            invalidate(translation);
        }
        for (String w : warnings) {
            LOG.warn("DDL{}: {} (statement: {})", statement.position() == null ? "" : " at " + statement.position(), w,
                    statement.abbreviated());
        }
        Set<TableRef> tables = new LinkedHashSet<>();
        for (TableName t : translation.tables()) {
            tables.add(new TableRef(t.schema(), t.name()));
        }
        return new DdlResult(executed, tables, translation.schemas(), warnings, executed.isEmpty());
    }

    private static String at(SourceStatement statement) {
        return statement.position() == null ? "" : " at " + statement.position();
    }

    private void runToleratingReplay(Connection target, String sql, List<String> executed, List<String> warnings)
            throws SQLException {
        try {
            DdlStatements.execute(target, sql);
            executed.add(sql);
        } catch (SQLException e) {
            if (!DdlStatements.alreadyApplied(dialect, e, sql)) {
                throw e;
            }
            warnings.add("already applied before a restart (" + e.getMessage() + "): " + sql);
        }
    }

    /** A dropped table or schema takes the foreign keys it was waiting to get with it. */
    private void forgetDropped(Connection target, Statement parsed) throws SQLException {
        if (parsed instanceof MySqlDdl.DropTable d && !d.temporary()) {
            for (TableName t : d.tables()) {
                pendingForeignKeys.forget(target, mapping.targetSchema(t.schema()), t.name());
            }
        } else if (parsed instanceof MySqlDdl.DropDatabase d) {
            pendingForeignKeys.forget(target, mapping.targetSchema(d.name()), null);
        }
    }

    private void invalidate(DdlTranslator.Translation translation) {
        if (catalog == null) {
            return;
        }
        translation.tables().forEach(t -> catalog.invalidate(t.schema(), t.name()));
        translation.schemas().forEach(catalog::invalidateSchema);
    }

    private DdlResult notTranslated(Connection target, SourceStatement statement, DdlSyntaxException why,
            StatementScope.Kind kind) throws SQLException {
        if (dialect.kind() != Dialect.Kind.H2) {
            if (kind == StatementScope.Kind.PROGRAM) {
                return definitionSkipped(statement, why.getMessage());
            }
            throw new UnsupportedDdlException(statement, "PostgreSQL translation: " + why.getMessage(), why);
        }
        if (MySqlDdlParser.isDataStatement(statement.sql())) {
            // H2 would run MySQL DML text with its own semantics (a JSON literal becomes a JSON string, functions and
            // conversions differ) and the rows would differ from the source's without a word: refused as on PostgreSQL.
            throw new UnsupportedDdlException(statement, "H2: " + why.getMessage(), why);
        }
        // H2 in MySQL mode accepts much MySQL DDL itself: try it as written, in the statement's default schema (or
        // fail: never in another), and give the session its schema back afterwards.
        List<String> executed = new ArrayList<>();
        String sessionSchema = target.getSchema();
        try {
            if (statement.defaultSchema() != null) {
                String sql = "SET SCHEMA " + dialect.quoteIdentifier(mapping.targetSchema(statement.defaultSchema()));
                DdlStatements.execute(target, sql);
                executed.add(sql);
            }
            DdlStatements.execute(target, statement.sql());
            executed.add(statement.sql());
        } catch (SQLException h2Refused) {
            boolean ranInItsSchema = statement.defaultSchema() == null || !executed.isEmpty();
            if (kind == StatementScope.Kind.PROGRAM && ranInItsSchema) {
                return definitionSkipped(statement, why.getMessage() + "; H2 refused it as written: "
                        + h2Refused.getMessage());
            }
            UnsupportedDdlException e = new UnsupportedDdlException(statement, "not translated (" + why.getMessage()
                    + ") and H2 refused it as written (" + h2Refused.getMessage() + ")", h2Refused);
            throw e;
        } finally {
            if (sessionSchema != null && !target.isClosed()) {
                target.setSchema(sessionSchema);
            }
            if (catalog != null) {
                catalog.invalidateAll();
            }
        }
        LOG.warn("statement{} ran as written on H2 (not translated: {}): {}", statement.position() == null ? ""
                : " at " + statement.position(), why.getMessage(), statement.abbreviated());
        return new DdlResult(executed, Set.of(), Set.of(), List.of("ran as written: " + why.getMessage()), false);
    }

    /**
     * A view, stored routine or event definition this target cannot run as MySQL wrote it: it holds no rows, so it is
     * skipped with a warning and counted rather than stopping the apply.
     */
    private DdlResult definitionSkipped(SourceStatement statement, String why) {
        LOG.warn("DDL{}: a view, routine or event definition {} cannot run is not created ({}): {}", at(statement),
                dialect.kind(), why, statement.abbreviated());
        return DdlResult.skipped("definition not translated for " + dialect.kind() + ": " + why);
    }

    /** Looks primary keys up in the target's catalog on the worker's connection. */
    private final class CatalogLookup implements DdlTranslator.TargetLookup {
        private final Connection connection;

        CatalogLookup(Connection connection) {
            this.connection = connection;
        }

        @Override
        public String primaryKeyName(TableName table) {
            try {
                DatabaseMetaData md = connection.getMetaData();
                try (ResultSet rs = md.getPrimaryKeys(dialect.metadataCatalog(table.schema()),
                        dialect.metadataSchema(table.schema()), table.name())) {
                    return rs.next() ? rs.getString("PK_NAME") : null;
                }
            } catch (SQLException e) {
                throw new DdlSyntaxException("cannot read the primary key of " + table.name() + ": " + e.getMessage(), 0);
            }
        }

        @Override
        public boolean tableExists(TableName table) {
            try (ResultSet rs = connection.getMetaData().getTables(dialect.metadataCatalog(table.schema()),
                    dialect.metadataSchema(table.schema()), table.name(), null)) {
                return rs.next();
            } catch (SQLException e) {
                throw new DdlSyntaxException("cannot look up table " + table.name() + ": " + e.getMessage(), 0);
            }
        }

        @Override
        public DdlTranslator.TargetShape shape(TableName table) {
            try {
                DatabaseMetaData md = connection.getMetaData();
                String catalogArg = dialect.metadataCatalog(table.schema());
                String schemaArg = dialect.metadataSchema(table.schema());
                String escape = md.getSearchStringEscape();
                List<DdlTranslator.ShapeColumn> columns = new ArrayList<>();
                try (ResultSet rs = md.getColumns(catalogArg, schemaArg == null ? null : pattern(schemaArg, escape),
                        pattern(table.name(), escape), "%")) {
                    while (rs.next()) {
                        if (!table.name().equals(rs.getString("TABLE_NAME"))
                                || schemaArg != null && !schemaArg.equals(rs.getString("TABLE_SCHEM"))) {
                            continue;
                        }
                        columns.add(new DdlTranslator.ShapeColumn(rs.getString("COLUMN_NAME"),
                                rs.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls, rs.getString("COLUMN_DEF"),
                                "YES".equals(rs.getString("IS_AUTOINCREMENT")),
                                "YES".equals(rs.getString("IS_GENERATEDCOLUMN"))));
                    }
                }
                if (columns.isEmpty()) {
                    return null;
                }
                java.util.TreeMap<Short, String> pk = new java.util.TreeMap<>();
                String pkName = null;
                try (ResultSet rs = md.getPrimaryKeys(catalogArg, schemaArg, table.name())) {
                    while (rs.next()) {
                        pk.put(rs.getShort("KEY_SEQ"), rs.getString("COLUMN_NAME"));
                        pkName = rs.getString("PK_NAME");
                    }
                }
                java.util.Map<String, java.util.TreeMap<Short, String>> indexColumns = new java.util.LinkedHashMap<>();
                java.util.Map<String, Boolean> unique = new java.util.HashMap<>();
                try (ResultSet rs = md.getIndexInfo(catalogArg, schemaArg, table.name(), false, false)) {
                    while (rs.next()) {
                        String index = rs.getString("INDEX_NAME");
                        if (index == null || rs.getShort("TYPE") == DatabaseMetaData.tableIndexStatistic) {
                            continue;
                        }
                        indexColumns.computeIfAbsent(index, k -> new java.util.TreeMap<>())
                                .put(rs.getShort("ORDINAL_POSITION"), rs.getString("COLUMN_NAME"));
                        unique.put(index, !rs.getBoolean("NON_UNIQUE"));
                    }
                }
                List<DdlTranslator.ShapeIndex> indexes = new ArrayList<>();
                List<String> pkColumns = List.copyOf(pk.values());
                for (var e : indexColumns.entrySet()) {
                    List<String> cols = List.copyOf(e.getValue().values());
                    // The primary key's own index: PostgreSQL names it as the constraint, H2 PRIMARY_KEY_...
                    boolean primary = e.getKey().equals(pkName) || unique.get(e.getKey()) && cols.equals(pkColumns)
                            && e.getKey().startsWith("PRIMARY_KEY_");
                    if (!primary) {
                        indexes.add(new DdlTranslator.ShapeIndex(e.getKey(), unique.get(e.getKey()), cols));
                    }
                }
                return new DdlTranslator.TargetShape(columns, pkColumns, indexes);
            } catch (SQLException e) {
                throw new DdlSyntaxException("cannot read the target's definition of " + table.name() + ": "
                        + e.getMessage(), 0);
            }
        }

        private static String pattern(String name, String escape) {
            if (escape == null || escape.isEmpty()) {
                return name;
            }
            StringBuilder sb = new StringBuilder();
            for (char c : name.toCharArray()) {
                if (c == '_' || c == '%' || escape.indexOf(c) >= 0) {
                    sb.append(escape);
                }
                sb.append(c);
            }
            return sb.toString();
        }

        @Override
        public boolean isPrimaryKeyColumn(TableName table, String column) {
            try {
                TargetTable t = catalog != null ? catalog.find(connection, table.schema(), table.name())
                        : new TargetCatalog(dialect).find(connection, table.schema(), table.name());
                return t != null && t.primaryKey().contains(column);
            } catch (SQLException e) {
                throw new DdlSyntaxException("cannot read the primary key of " + table.name() + ": " + e.getMessage(), 0);
            }
        }
    }
    private static final java.util.regex.Pattern SAVEPOINT = java.util.regex.Pattern.compile(
            "(?is)\\s*(SAVEPOINT|ROLLBACK\\s+(?:WORK\\s+)?TO\\s+(?:SAVEPOINT\\s+)?|RELEASE\\s+SAVEPOINT)\\s*"
                    + "(`(?:[^`]|``)+`|[A-Za-z0-9_$]+)\\s*;?\\s*");

    /**
     * The target's form of a SAVEPOINT, ROLLBACK TO SAVEPOINT or RELEASE SAVEPOINT statement of the source's
     * transaction, or null when the statement is none of them.
     */
    String savepointStatement(String sql) {
        java.util.regex.Matcher m = SAVEPOINT.matcher(sql);
        if (!m.matches()) {
            return null;
        }
        String name = m.group(2);
        if (name.startsWith("`")) {
            name = name.substring(1, name.length() - 1).replace("``", "`");
        }
        String verb = m.group(1).toUpperCase(java.util.Locale.ROOT);
        String prefix = verb.startsWith("SAVEPOINT") ? "SAVEPOINT " : verb.startsWith("RELEASE") ? "RELEASE SAVEPOINT "
                : "ROLLBACK TO SAVEPOINT ";
        return prefix + dialect.quoteIdentifier(name);
    }

}
