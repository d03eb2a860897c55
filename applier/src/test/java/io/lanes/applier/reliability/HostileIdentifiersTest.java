package io.lanes.applier.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.encode.BinlogFlavor;
import io.lanes.binlog.encode.BinlogWriter;
import io.lanes.binlog.encode.Table;
import io.lanes.core.ApplierFailedException;
import io.lanes.core.Engine;
import io.lanes.core.WritesetScheduler;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile identifiers end to end: a binlog synthesized with the encoder whose schema, table and column names hold
 * backticks, quotes, semicolons, spaces, comment markers, unicode, reserved words and the longest name the target keeps,
 * and whose string values look like SQL. Its DDL (MySQL syntax, backtick-quoted as a server logs it) and rows are applied
 * through bridge, engine and JDBC applier into H2, PostgreSQL and MariaDB: the tables exist with exactly those names
 * (read back from information_schema), every value round-trips, and a sentinel table the values try to drop survives.
 */
class HostileIdentifiersTest {
    @TempDir
    Path temp;

    static Stream<String> targets() {
        return Stream.of("H2", "POSTGRESQL", "MYSQL");
    }

    static TestTarget open(String kind) {
        return switch (kind) {
            case "H2" -> TestTarget.h2();
            case "POSTGRESQL" -> TestTarget.postgres();
            default -> TestTarget.mariadb();
        };
    }

    /** Table names; the last as long as both source and target allow (64 characters; PostgreSQL 63 bytes). */
    static List<String> tableNames(Dialect d) {
        List<String> names = new ArrayList<>(List.of("select", "weird name", "a`b", "a\"b", "x'; DROP TABLE sentinel; --",
                "semi;colon", "ünïcödé_名前", "%_like_", "Order", "`); DROP TABLE sentinel; --",
                "\"); DROP TABLE sentinel; --", "/* c */ -- x", "back\\slash"));
        names.add("T".repeat(Math.min(64, d.maxIdentifierLength()) - 1) + "z");
        return names;
    }

    /** Column names of every table: a key and three value columns. */
    static final List<String> COLUMNS = List.of("from", "v`\"';--", "select * from x", "ü ✓");

    /** String values that look like SQL (no NUL: PostgreSQL text cannot hold it). */
    static final List<String> VALUES = List.of("'); DROP TABLE sentinel; --", "\\'; DROP TABLE sentinel; --",
            "`; DROP DATABASE x; `", "\"; DROP SCHEMA x CASCADE; --", "$$; DROP TABLE sentinel; $$", "*/ SELECT 1; /*",
            "' OR '1'='1", "Robert'); DROP TABLE Students;--", "ünïcödé ✓ 名前", "%_\\%");

    static String bt(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** A schema name with the same hazards, unique per run (the mapping keeps it as it is). */
    static String schemaName() {
        return "h`\"';  x ü" + Long.toHexString(System.nanoTime() & 0xffffff);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void hostileNamesAndSqlLookingValuesAreAppliedAsDataOnEveryTarget(String kind) throws Exception {
        try (TestTarget target = open(kind)) {
            Dialect d = target.dialect();
            String schema = schemaName();
            target.dropOnClose(schema);
            String ckpt = target.newSchema("ckpt");
            List<String> tables = tableNames(d);

            Path binlog = temp.resolve("hostile.000001");
            Map<String, Map<Integer, List<String>>> expected = new TreeMap<>();
            try (BinlogWriter w = BinlogWriter.open(binlog, BinlogWriter.Options.builder(BinlogFlavor.MARIADB).build())) {
                w.ddl("", "CREATE DATABASE " + bt(schema));
                w.ddl(schema, "CREATE TABLE sentinel (id INT NOT NULL PRIMARY KEY)");
                Table sentinel = Table.builder(schema, "sentinel").integer("id").notNull().primaryKey().build();
                w.beginTransaction();
                w.insert(sentinel, new Object[] {1});
                w.commit();
                for (String name : tables) {
                    w.ddl(schema, "CREATE TABLE " + bt(name) + " (" + bt(COLUMNS.get(0)) + " INT NOT NULL, "
                            + bt(COLUMNS.get(1)) + " VARCHAR(100), " + bt(COLUMNS.get(2)) + " VARCHAR(100), "
                            + bt(COLUMNS.get(3)) + " TEXT, PRIMARY KEY (" + bt(COLUMNS.get(0)) + "))");
                    Table t = Table.builder(schema, name).integer(COLUMNS.get(0)).notNull().primaryKey()
                            .varchar(COLUMNS.get(1), 400, Table.UTF8MB4).varchar(COLUMNS.get(2), 400, Table.UTF8MB4)
                            .text(COLUMNS.get(3), 2, Table.UTF8MB4).build();
                    Map<Integer, List<String>> rows = new TreeMap<>();
                    w.beginTransaction();
                    List<Object[]> inserts = new ArrayList<>();
                    for (int i = 0; i < VALUES.size(); i++) {
                        Object[] row = {i, VALUES.get(i), VALUES.get((i + 1) % VALUES.size()),
                                VALUES.get((i + 2) % VALUES.size())};
                        inserts.add(row);
                        rows.put(i, List.of(VALUES.get(i), VALUES.get((i + 1) % VALUES.size()),
                                VALUES.get((i + 2) % VALUES.size())));
                    }
                    w.insert(t, inserts);
                    w.commit();
                    // an update keyed by a hostile key column to another SQL-looking value, and a delete
                    w.beginTransaction();
                    Object[] before = inserts.get(0);
                    Object[] after = {0, VALUES.get(7), name, VALUES.get(0)};
                    w.update(t, before, after);
                    rows.put(0, List.of(VALUES.get(7), name, VALUES.get(0)));
                    w.delete(t, inserts.get(1));
                    rows.remove(1);
                    w.commit();
                    expected.put(name, rows);
                }
                w.stop();
            }

            Properties props = new Properties();
            if (d.kind() != Dialect.Kind.H2) {
                props.setProperty("user", d.kind() == Dialect.Kind.POSTGRESQL ? "postgres" : "root");
            }
            JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(target.url(), props), d)
                    .mapping(SchemaMapping.identity())
                    .checkpointTable(new JdbcCheckpointTable(d, ckpt, "lanes_checkpoint")).build();
            Engine<SourceTransaction> engine = Engine.builder(jdbc.applierFactory()).checkpointStore(jdbc.checkpointStore())
                    .scheduler(new WritesetScheduler()).workers(4).build();
            Fixtures.dispatch(jdbc, engine, binlog, engine.start());
            engine.stop();

            try (Connection c = target.session()) {
                // exactly those tables, by exact name
                TreeSet<String> want = new TreeSet<>(tables);
                want.add("sentinel");
                assertEquals(want, tablesOf(c, schema), "tables of the hostile schema on " + kind);
                for (String name : tables) {
                    assertEquals(COLUMNS, columnsOf(c, schema, name), "columns of " + name);
                    assertEquals(expected.get(name), rowsOf(c, d, schema, name), "rows of " + name);
                }
                try (Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT id FROM " + d.qualify(schema, "sentinel"))) {
                    assertTrue(rs.next(), "the sentinel row survived");
                    assertEquals(1, rs.getInt(1));
                }
                c.commit();
            }
            System.out.printf("HOSTILE-IDENTIFIERS target=%s tables=%d columns=%d values=%d exact=true%n", kind,
                    tables.size(), COLUMNS.size(), VALUES.size());
        }
    }

    /** A name one longer than PostgreSQL keeps stops the apply with a clear error; PostgreSQL never truncates it. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aNameLongerThanTheTargetKeepsStopsWithAClearErrorInsteadOfBeingTruncated(String kind) throws Exception {
        try (TestTarget target = open(kind)) {
            Dialect d = target.dialect();
            String schema = target.newSchema("long");
            String ckpt = target.newSchema("ckpt");
            String tooLong = "N".repeat(d.maxIdentifierLength() + 1); // in DDL text only: a TABLE_MAP holds 255 bytes
            Path binlog = temp.resolve("long.000001");
            try (BinlogWriter w = BinlogWriter.open(binlog, BinlogWriter.Options.builder(BinlogFlavor.MARIADB).build())) {
                w.ddl(schema, "CREATE TABLE " + bt(tooLong) + " (id INT NOT NULL PRIMARY KEY)");
                w.stop();
            }
            Properties props = new Properties();
            if (d.kind() != Dialect.Kind.H2) {
                props.setProperty("user", d.kind() == Dialect.Kind.POSTGRESQL ? "postgres" : "root");
            }
            JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(target.url(), props), d)
                    .checkpointTable(new JdbcCheckpointTable(d, ckpt, "lanes_checkpoint")).build();
            Engine<SourceTransaction> engine = Engine.builder(jdbc.applierFactory()).checkpointStore(jdbc.checkpointStore())
                    .workers(2).retries(1).retryBackoff(java.time.Duration.ofMillis(1), java.time.Duration.ofMillis(2))
                    .build();
            ApplierFailedException e = assertThrows(ApplierFailedException.class, () -> {
                Fixtures.dispatch(jdbc, engine, binlog, engine.start());
                engine.stop();
            });
            String message = (e.getMessage() + " / " + e.getCause()).toLowerCase(Locale.ROOT);
            assertTrue(e.failedPosition() != null && message.contains(e.failedPosition()), message);
            assertTrue(message.contains("long") || message.contains("length") || message.contains("64")
                    || message.contains("63"), message);
            try (Connection c = target.session()) {
                assertEquals(new TreeSet<>(), tablesOf(c, schema), "nothing was created, truncated or not");
            }
            System.out.printf("HOSTILE-IDENTIFIERS target=%s over-long-name stopped-at=%s message=%s%n", kind,
                    e.failedPosition(), (e.getMessage() + " / " + e.getCause()).replace('\n', ' '));
        }
    }

    static TreeSet<String> tablesOf(Connection c, String schema) throws SQLException {
        TreeSet<String> out = new TreeSet<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = ?")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        c.commit();
        return out;
    }

    static List<String> columnsOf(Connection c, String schema, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT column_name FROM information_schema.columns "
                + "WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        c.commit();
        return out;
    }

    static Map<Integer, List<String>> rowsOf(Connection c, Dialect d, String schema, String table) throws SQLException {
        Map<Integer, List<String>> out = new TreeMap<>();
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < COLUMNS.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(d.quoteIdentifier(COLUMNS.get(i)));
        }
        sql.append(" FROM ").append(d.qualify(schema, table));
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql.toString())) {
            while (rs.next()) {
                out.put(rs.getInt(1), List.of(rs.getString(2), rs.getString(3), rs.getString(4)));
            }
        }
        c.commit();
        return out;
    }
}
