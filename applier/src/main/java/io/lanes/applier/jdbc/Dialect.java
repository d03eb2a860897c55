package io.lanes.applier.jdbc;

import io.lanes.applier.internal.H2Dialect;
import io.lanes.applier.internal.MySqlDialect;
import io.lanes.applier.internal.PostgresDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What differs between JDBC targets: identifier quoting, the SQL of row changes and upserts, catalog lookups, session
 * set-up and the checkpoint table's DDL.
 *
 * <p>Every identifier that reaches SQL goes through {@link #quoteIdentifier(String)}, the one quoting function of the
 * dialect; every value goes through a {@code ?} parameter. Generated SQL never contains data.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface Dialect {

    /** The target families Lanes knows. */
    enum Kind { H2, POSTGRESQL, MYSQL }

    /** The embedded default: H2 (use it in MySQL mode, see {@link #h2RecommendedUrlOptions()}). */
    static Dialect h2() {
        return H2Dialect.INSTANCE;
    }

    /** PostgreSQL 12 or later. */
    static Dialect postgresql() {
        return PostgresDialect.INSTANCE;
    }

    /** MySQL 5.7+/8.x and MariaDB 10.3+. */
    static Dialect mysql() {
        return MySqlDialect.INSTANCE;
    }

    /**
     * The dialect for a JDBC URL ({@code jdbc:h2:}, {@code jdbc:postgresql:}, {@code jdbc:mariadb:}, {@code jdbc:mysql:}).
     *
     * @throws IllegalArgumentException naming the URL's scheme (never the whole URL, which may hold a password) when no
     *     dialect serves it
     */
    static Dialect forJdbcUrl(String url) {
        String lower = url == null ? "" : url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("jdbc:h2:")) {
            return h2();
        }
        if (lower.startsWith("jdbc:postgresql:")) {
            return postgresql();
        }
        if (lower.startsWith("jdbc:mariadb:") || lower.startsWith("jdbc:mysql:")) {
            return mysql();
        }
        int secondColon = lower.indexOf(':', 5);
        String scheme = secondColon > 0 ? lower.substring(0, secondColon) : "(not a jdbc: URL)";
        throw new IllegalArgumentException("no Lanes dialect for JDBC URL scheme " + scheme
                + "; supported: jdbc:h2:, jdbc:postgresql:, jdbc:mariadb:, jdbc:mysql:");
    }

    /**
     * H2 URL options under which H2 accepts the most MySQL DDL and behaves closest to MySQL: MySQL mode, unquoted names
     * folded to lower case as MySQL on Linux keeps them, and the MySQL names that are keywords in H2 usable as names.
     * Append to an H2 URL: {@code "jdbc:h2:mem:x" + Dialect.h2RecommendedUrlOptions()}.
     */
    static String h2RecommendedUrlOptions() {
        return H2Dialect.RECOMMENDED_URL_OPTIONS;
    }

    Kind kind();

    /** The longest identifier the target keeps intact, in the unit {@link #quoteIdentifier} checks (see its Javadoc). */
    int maxIdentifierLength();

    /**
     * Quotes one identifier (schema, table, column, index) so that the target reads it back exactly: MySQL wraps it in
     * backticks and doubles inner backticks; H2 and PostgreSQL wrap it in double quotes and double inner double quotes.
     *
     * @throws InvalidIdentifierException for null, empty, NUL-containing, unpaired-surrogate or over-long names (MySQL and
     *     H2 count characters, PostgreSQL counts UTF-8 bytes because it silently truncates beyond 63)
     */
    String quoteIdentifier(String name);

    /** {@code quote(schema).quote(table)}. */
    default String qualify(String schema, String table) {
        return quoteIdentifier(schema) + "." + quoteIdentifier(table);
    }

    /** {@code INSERT INTO t (c1, ..) VALUES (?, ..)} over every column of the table in catalog order. */
    RowSql insert(TargetTable table);

    /** {@code INSERT INTO t (c1, ..) VALUES (?, ..)} over the named columns (an image that lacks some). */
    RowSql insert(TargetTable table, List<String> columns);

    /**
     * {@code UPDATE t SET c = ?, .. WHERE <row key>}: parameters are the {@code setColumns} values, then the before-image
     * values of the row key columns. When the table has no usable key the WHERE clause covers every column null-safely and
     * the statement changes at most one row.
     */
    RowSql update(TargetTable table, List<String> setColumns);

    /**
     * One statement that updates {@code rows} rows found by their key, each to its own values, or {@code null} when
     * this dialect has none (the rows then go one statement each). Parameters: for each of {@code setColumns}, for each
     * row, the row's {@code key} values then its value of that column; then, for each row, its key values. Columns not
     * set keep their values. Its update count is the number of rows it matched (MySQL's found rows); the caller lists
     * distinct keys of a real key ({@link TargetTable.KeyKind#PRIMARY} or {@link TargetTable.KeyKind#UNIQUE_NOT_NULL})
     * and rows whose order among themselves does not matter.
     */
    default String updateRows(TargetTable table, List<TargetColumn> setColumns, List<TargetColumn> key, int rows) {
        return null;
    }

    /**
     * One statement that deletes {@code rows} rows found by their key, or {@code null} when this dialect has none.
     * Parameters: for each row its {@code key} values. Its update count is the number of rows deleted.
     */
    default String deleteRows(TargetTable table, List<TargetColumn> key, int rows) {
        return null;
    }

    /**
     * {@code SELECT c1, .. FROM t WHERE <row key>}: reads columns of one row (the JSON document a partial JSON update
     * changes). Parameters are the row key's before-image values.
     */
    RowSql select(TargetTable table, List<String> columns);

    /** {@code DELETE FROM t WHERE <row key>}; like {@link #update} at most one row when the table has no usable key. */
    RowSql delete(TargetTable table);

    /**
     * The idempotent form of an insert: H2 {@code MERGE INTO .. KEY (..)}, PostgreSQL
     * {@code INSERT .. ON CONFLICT (..) DO UPDATE}, MySQL {@code INSERT .. ON DUPLICATE KEY UPDATE}. Parameters as for
     * {@link #insert}.
     *
     * @throws IllegalStateException naming the table when it has neither a primary key nor a NOT NULL unique index
     */
    RowSql upsert(TargetTable table);

    /**
     * JDBC connection properties that make batches faster on this target (PostgreSQL {@code reWriteBatchedInserts},
     * MariaDB {@code useBulkStmtsForInserts}). They never change results.
     */
    Map<String, String> recommendedConnectionProperties();

    /**
     * Prepares a fresh connection for applying: UTC session time zone where the target has one (so that TIMESTAMP values,
     * which the binlog carries as UTC instants, land unchanged) and, on MySQL, {@code utf8mb4} and a {@code sql_mode}
     * without auto-value or zero-date surprises. Leaves auto-commit off.
     */
    void initSession(Connection connection) throws SQLException;

    /** DDL creating a schema (database on MySQL) if it does not exist. */
    String createSchemaIfAbsent(String schema);

    /**
     * The catalog argument of {@link java.sql.DatabaseMetaData} lookups for a schema: on MySQL a database is a catalog,
     * elsewhere {@code null}.
     */
    String metadataCatalog(String schema);

    /** The schema argument of {@link java.sql.DatabaseMetaData} lookups: {@code null} on MySQL, else the schema. */
    String metadataSchema(String schema);

    /**
     * A query for the foreign keys one table holds, to read in place of {@link java.sql.DatabaseMetaData#getImportedKeys}
     * where the driver's is slow: the same rows, with the columns Lanes reads named as that method names them
     * ({@code FK_NAME}, {@code PKTABLE_SCHEM}, {@code PKTABLE_NAME}, {@code KEY_SEQ}, {@code FKCOLUMN_NAME},
     * {@code PKCOLUMN_NAME}), and the table's schema and name as its two parameters. Null (the default): the driver's
     * method is called.
     */
    default String importedKeysQuery() {
        return null;
    }

    /** SQL type names this dialect uses in generated DDL: BINARY data, long text, 64-bit integer, UTC-ish timestamp. */
    String binaryType();

    String textType();

    String timestampType();
}
