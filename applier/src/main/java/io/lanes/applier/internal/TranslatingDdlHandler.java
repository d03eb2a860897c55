package io.lanes.applier.internal;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.TableRef;
import io.lanes.applier.ddl.DdlHandler;
import io.lanes.applier.ddl.DdlResult;
import io.lanes.applier.ddl.SourceStatement;
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

/** The default {@link DdlHandler} of PostgreSQL and H2: parse the MySQL DDL, translate, run. Thread-safe (stateless). */
public final class TranslatingDdlHandler implements DdlHandler {
    private static final Logger LOG = LoggerFactory.getLogger(TranslatingDdlHandler.class);

    /** Statements that manage the source server's accounts: users, roles, grants, passwords. */
    private static final java.util.regex.Pattern ACCOUNT_MANAGEMENT = java.util.regex.Pattern.compile(
            "(?is)\\s*(?:/\\*.*?\\*/\\s*)*(?:(?:CREATE(?:\\s+OR\\s+REPLACE)?|ALTER|DROP|RENAME)\\s+(?:USER|ROLE)\\b"
                    + "|GRANT\\b|REVOKE\\b|SET\\s+(?:PASSWORD|DEFAULT\\s+ROLE|ROLE)\\b|FLUSH\\s+PRIVILEGES\\b)");

    private final Dialect dialect;
    private final SchemaMapping mapping;
    private final TargetCatalog catalog;

    public TranslatingDdlHandler(Dialect dialect, SchemaMapping mapping, TargetCatalog catalog) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.mapping = Objects.requireNonNull(mapping, "mapping");
        this.catalog = catalog;
    }

    @Override
    public DdlResult apply(Connection target, SourceStatement statement) throws SQLException {
        if (ACCOUNT_MANAGEMENT.matcher(statement.sql()).lookingAt()) {
            // Users, roles and grants of the source server mean nothing to an H2 or PostgreSQL target (and carry
            // passwords): like a filtered table, they are skipped, visibly.
            LOG.info("DDL{}: account management is not replicated to {} targets: {}", statement.position() == null ? ""
                    : " at " + statement.position(), dialect.kind(), statement.abbreviated());
            return DdlResult.skipped("account management is not replicated to " + dialect.kind() + " targets");
        }
        Statement parsed;
        try {
            parsed = MySqlDdlParser.parse(statement.sql(), statement.defaultSchema(), statement.sqlMode());
        } catch (DdlSyntaxException e) {
            return notTranslated(target, statement, e);
        }
        if (DdlStatements.excluded(parsed, mapping)) {
            return DdlResult.skipped("excluded by the schema mapping");
        }
        DdlTranslator.Translation translation;
        try {
            translation = new DdlTranslator(dialect, mapping::targetSchema, new CatalogLookup(target)).translate(parsed);
        } catch (DdlSyntaxException e) {
            return notTranslated(target, statement, e);
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
            for (String sql : translation.sql()) {
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

    private void invalidate(DdlTranslator.Translation translation) {
        if (catalog == null) {
            return;
        }
        translation.tables().forEach(t -> catalog.invalidate(t.schema(), t.name()));
        translation.schemas().forEach(catalog::invalidateSchema);
    }

    private DdlResult notTranslated(Connection target, SourceStatement statement, DdlSyntaxException why)
            throws SQLException {
        if (dialect.kind() != Dialect.Kind.H2) {
            throw new UnsupportedDdlException(statement, "PostgreSQL translation: " + why.getMessage(), why);
        }
        // H2 in MySQL mode accepts much MySQL DDL itself: try it as written, in the statement's default schema.
        List<String> executed = new ArrayList<>();
        try {
            if (statement.defaultSchema() != null) {
                String sql = "SET SCHEMA " + dialect.quoteIdentifier(mapping.targetSchema(statement.defaultSchema()));
                DdlStatements.execute(target, sql);
                executed.add(sql);
            }
            DdlStatements.execute(target, statement.sql());
            executed.add(statement.sql());
        } catch (SQLException h2Refused) {
            UnsupportedDdlException e = new UnsupportedDdlException(statement, "not translated (" + why.getMessage()
                    + ") and H2 refused it as written (" + h2Refused.getMessage() + ")", h2Refused);
            throw e;
        } finally {
            if (catalog != null) {
                catalog.invalidateAll();
            }
        }
        LOG.warn("statement{} ran as written on H2 (not translated: {}): {}", statement.position() == null ? ""
                : " at " + statement.position(), why.getMessage(), statement.abbreviated());
        return new DdlResult(executed, Set.of(), Set.of(), List.of("ran as written: " + why.getMessage()), false);
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
}
