package io.lanes.applier.ddl;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.internal.MySqlDdlHandler;
import io.lanes.applier.internal.TranslatingDdlHandler;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.TargetCatalog;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Applies the source's DDL to a target. The defaults ({@link #forDialect}):
 *
 * <ul>
 *   <li>MySQL/MariaDB: the statement runs as is, in the source session's context (default database, sql_mode,
 *       collation_connection, collation_server, time_zone, timestamp, foreign_key_checks, unique_checks), which is
 *       restored afterwards; it runs in its own default database or fails (never in another). Schema renames are applied
 *       to the default database and to every schema name in its text. Collations the target lacks (MySQL 8's 0900
 *       collations on MariaDB) follow the {@link io.lanes.applier.jdbc.CollationMap}; triggers follow
 *       {@link StatementPolicy.Triggers}.
 *   <li>PostgreSQL: CREATE/ALTER/DROP of databases and tables, CREATE/DROP INDEX, RENAME and TRUNCATE TABLE are parsed and
 *       translated (see the type mapping in the project docs); anything else is an {@link UnsupportedDdlException} naming
 *       the statement.
 *   <li>H2: translated as for PostgreSQL with H2 types; a statement the translator does not know runs as is in H2's MySQL
 *       mode, and only when H2 refuses it too is it an {@link UnsupportedDdlException}. DML text (statement-based
 *       logging) is an {@link UnsupportedDdlException} at once, as on PostgreSQL: H2 would run it with its own semantics.
 *   <li>H2 and PostgreSQL: a transaction's SAVEPOINT, ROLLBACK TO SAVEPOINT and RELEASE SAVEPOINT run in the target's
 *       transaction.
 *   <li>H2 and PostgreSQL never create the source's triggers, and skip (with a warning) definitions of views, stored
 *       routines and events they cannot run; a foreign key whose parent table does not exist yet (the source ran the
 *       statement with foreign_key_checks=0) is created once the parent is.
 * </ul>
 *
 * <p>Replays: MySQL and H2 commit DDL on their own, before the checkpoint that records it, so after a crash in between
 * the statement comes again. The defaults then treat the errors that say "already done" (table or database exists or
 * is gone, duplicate column, key or foreign key, nothing to drop) as applied, with a warning. PostgreSQL DDL commits with
 * the checkpoint and is never replayed.
 *
 * <p>Statements on schemas or tables the {@link SchemaMapping} excludes are skipped. After a statement the handler
 * invalidates the {@link TargetCatalog} entries it touched.
 *
 * <p>Called on a worker thread with that worker's connection, after every earlier transaction has committed (DDL is a
 * barrier); the handler does not commit (PostgreSQL DDL is transactional and commits with the checkpoint; MySQL and H2
 * commit DDL implicitly). Implementations must be thread-safe.
 */
public interface DdlHandler {

    /**
     * Applies one statement.
     *
     * @throws UnsupportedDdlException when the statement cannot be applied faithfully
     * @throws SQLException when the target refuses it
     */
    DdlResult apply(Connection target, SourceStatement statement) throws SQLException;

    /** The default handler for the dialect, with the {@link StatementPolicy#DEFAULT default policy}. */
    static DdlHandler forDialect(Dialect dialect, SchemaMapping mapping, TargetCatalog catalog) {
        return forDialect(dialect, mapping, catalog, StatementPolicy.DEFAULT);
    }

    /** The default handler for the dialect. */
    static DdlHandler forDialect(Dialect dialect, SchemaMapping mapping, TargetCatalog catalog, StatementPolicy policy) {
        return dialect.kind() == Dialect.Kind.MYSQL ? new MySqlDdlHandler(mapping, catalog, policy)
                : new TranslatingDdlHandler(dialect, mapping, catalog, policy);
    }
}
