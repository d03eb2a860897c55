package io.lanes.applier.internal;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.TableRef;
import io.lanes.applier.ddl.DdlHandler;
import io.lanes.applier.ddl.DdlResult;
import io.lanes.applier.ddl.SessionVariables;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.applier.internal.MySqlDdl.Statement;
import io.lanes.applier.internal.MySqlDdl.TableName;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.TargetCatalog;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The default {@link DdlHandler} of MySQL and MariaDB targets: the statement runs as written, in the source session's
 * context, which is reset to the applier's afterwards. Schema names the mapping renames are replaced in the text when
 * the statement parses (qualified table names, database statements); a statement that does not parse runs with only its
 * default database renamed. Thread-safe (stateless).
 */
public final class MySqlDdlHandler implements DdlHandler {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MySqlDdlHandler.class);
    private static final int ER_BAD_DB_ERROR = 1049;

    private final SchemaMapping mapping;
    private final TargetCatalog catalog;
    private final Dialect dialect = Dialect.mysql();

    public MySqlDdlHandler(SchemaMapping mapping, TargetCatalog catalog) {
        this.mapping = Objects.requireNonNull(mapping, "mapping");
        this.catalog = catalog;
    }

    @Override
    public DdlResult apply(Connection target, SourceStatement statement) throws SQLException {
        Statement parsed = null;
        String sqlToRun = statement.sql();
        try {
            MySqlDdlParser.Parsed detailed = MySqlDdlParser.parseDetailed(statement.sql(), statement.defaultSchema(),
                    statement.sqlMode());
            parsed = detailed.statement();
            sqlToRun = renameSchemas(statement.sql(), detailed.schemaTokens());
        } catch (DdlSyntaxException notParsed) {
            // Not needed to run it; only the filters, renames and the catalog refresh get coarser.
        }
        if (parsed != null ? DdlStatements.excluded(parsed, mapping)
                : statement.defaultSchema() != null && !mapping.includesSchema(statement.defaultSchema())) {
            return DdlResult.skipped("excluded by the schema mapping");
        }
        List<String> executed = new ArrayList<>();
        try {
            if (statement.defaultSchema() != null) {
                String use = "USE " + dialect.quoteIdentifier(mapping.targetSchema(statement.defaultSchema()));
                try {
                    DdlStatements.execute(target, use);
                    executed.add(use);
                } catch (SQLException e) {
                    if (e.getErrorCode() != ER_BAD_DB_ERROR) {
                        throw e;
                    }
                    // The default database does not exist (yet, or any more): statements that need it fail below.
                }
            }
            List<String> context = new ArrayList<>();
            context.add("SET SESSION sql_mode = " + Long.toUnsignedString(statement.sqlMode()));
            if (statement.collationConnection() != null) {
                context.add("SET SESSION collation_connection = " + statement.collationConnection());
            }
            if (statement.collationServer() != null) {
                context.add("SET SESSION collation_server = " + statement.collationServer());
            }
            if (statement.timeZone() != null) {
                context.add("SET SESSION time_zone = '" + statement.timeZone().replace("\\", "\\\\").replace("'", "''")
                        + "'");
            }
            if (statement.timestamp() != null) {
                Instant t = statement.timestamp();
                context.add("SET SESSION timestamp = " + t.getEpochSecond() + "." + String.format("%06d", t.getNano() / 1000));
            }
            SessionVariables vars = statement.variables();
            if (vars.insertId() != null) {
                context.add("SET INSERT_ID = " + Long.toUnsignedString(vars.insertId()));
            }
            if (vars.lastInsertId() != null) {
                context.add("SET LAST_INSERT_ID = " + Long.toUnsignedString(vars.lastInsertId()));
            }
            if (vars.randSeed1() != null) {
                context.add("SET @@rand_seed1 = " + Long.toUnsignedString(vars.randSeed1()) + ", @@rand_seed2 = "
                        + Long.toUnsignedString(vars.randSeed2()));
            }
            for (String sql : context) {
                DdlStatements.execute(target, sql);
                executed.add(sql);
            }
            for (var e : vars.userVariables().entrySet()) {
                // The value goes through a parameter; the name is quoted as an identifier.
                String sql = "SET @" + dialect.quoteIdentifier(e.getKey()) + " = ?";
                try (java.sql.PreparedStatement ps = target.prepareStatement(sql)) {
                    ps.setObject(1, e.getValue() instanceof java.math.BigInteger b ? new java.math.BigDecimal(b) : e.getValue());
                    ps.execute();
                }
                executed.add(sql);
            }
            try {
                DdlStatements.execute(target, sqlToRun);
                executed.add(sqlToRun);
            } catch (SQLException e) {
                if (!DdlStatements.alreadyApplied(dialect, e, sqlToRun)) {
                    throw e;
                }
                LOG.warn("DDL{} had already been applied before a restart ({}): {}", statement.position() == null ? ""
                        : " at " + statement.position(), e.getMessage(), statement.abbreviated());
            }
        } finally {
            reset(target);
            invalidate(parsed, statement);
        }
        Set<TableRef> tables = new LinkedHashSet<>();
        Set<String> schemas = new LinkedHashSet<>();
        if (parsed != null) {
            for (TableName t : DdlStatements.tablesOf(parsed)) {
                tables.add(new TableRef(mapping.targetSchema(t.schema()), t.name()));
            }
            String schema = DdlStatements.schemaOf(parsed);
            if (schema != null) {
                schemas.add(mapping.targetSchema(schema));
            }
        }
        return new DdlResult(executed, tables, schemas, List.of(), false);
    }

    /** The statement with every schema name the mapping renames replaced in place by the target's, quoted. */
    private String renameSchemas(String sql, List<SqlToken> schemaTokens) {
        StringBuilder out = new StringBuilder(sql);
        for (int i = schemaTokens.size() - 1; i >= 0; i--) {
            SqlToken t = schemaTokens.get(i);
            String mapped = mapping.targetSchema(t.text());
            if (!mapped.equals(t.text())) {
                out.replace(t.offset(), t.end(), dialect.quoteIdentifier(mapped));
            }
        }
        return out.toString();
    }

    private void reset(Connection target) throws SQLException {
        if (target.isClosed()) {
            return;
        }
        DdlStatements.execute(target, "SET SESSION timestamp = DEFAULT, time_zone = '+00:00', sql_mode = '"
                + MySqlDialect.APPLY_SQL_MODE + "', collation_server = DEFAULT");
        DdlStatements.execute(target, "SET NAMES utf8mb4");
    }

    private void invalidate(Statement parsed, SourceStatement statement) {
        if (catalog == null) {
            return;
        }
        if (parsed == null) {
            catalog.invalidateAll();
            return;
        }
        for (TableName t : DdlStatements.tablesOf(parsed)) {
            catalog.invalidate(mapping.targetSchema(t.schema()), t.name());
        }
        String schema = DdlStatements.schemaOf(parsed);
        if (schema != null) {
            catalog.invalidateSchema(mapping.targetSchema(schema));
        }
    }
}
