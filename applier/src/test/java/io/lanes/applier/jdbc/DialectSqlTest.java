package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The row statements and DDL words of each dialect, to the letter (the round trips through real targets are elsewhere). */
class DialectSqlTest {
    private static final TargetColumn ID = new TargetColumn("id", 1, Types.INTEGER, "INT", 10, 0, false);
    private static final TargetColumn V = new TargetColumn("v", 2, Types.VARCHAR, "VARCHAR", 10, 0, true);
    private static final TargetColumn W = new TargetColumn("w", 3, Types.INTEGER, "INT", 10, 0, false);
    private static final TargetColumn X = new TargetColumn("x", 4, Types.VARCHAR, "VARCHAR", 10, 0, true);
    private static final TargetTable KEYED = new TargetTable("s", "t", List.of(ID, V), List.of("id"), List.of());
    private static final TargetTable KEYLESS = new TargetTable("s", "t", List.of(ID, V), List.of(), List.of());
    private static final TargetTable KEY_ONLY = new TargetTable("s", "k", List.of(ID), List.of("id"), List.of());

    @Test
    void mysql() {
        Dialect d = Dialect.mysql();
        assertEquals("INSERT INTO `s`.`t` (`id`, `v`) VALUES (?, ?)", d.insert(KEYED).sql());
        assertEquals("INSERT INTO `s`.`t` (`v`) VALUES (?)", d.insert(KEYED, List.of("v")).sql());
        assertEquals("UPDATE `s`.`t` SET `v` = ? WHERE `id` = ?", d.update(KEYED, List.of("v")).sql());
        assertEquals("UPDATE `s`.`t` SET `v` = ? WHERE `id` = ? AND `v` <=> ? LIMIT 1", d.update(KEYLESS, List.of("v")).sql());
        assertEquals("DELETE FROM `s`.`t` WHERE `id` = ?", d.delete(KEYED).sql());
        assertEquals("DELETE FROM `s`.`t` WHERE `id` = ? AND `v` <=> ? LIMIT 1", d.delete(KEYLESS).sql());
        assertEquals("SELECT `v` FROM `s`.`t` WHERE `id` = ?", d.select(KEYED, List.of("v")).sql());
        assertEquals("INSERT INTO `s`.`t` (`id`, `v`) VALUES (?, ?) ON DUPLICATE KEY UPDATE `v` = VALUES(`v`)",
                d.upsert(KEYED).sql());
        assertEquals("INSERT INTO `s`.`k` (`id`) VALUES (?) ON DUPLICATE KEY UPDATE `id` = VALUES(`id`)",
                d.upsert(KEY_ONLY).sql());
        assertEquals("CREATE DATABASE IF NOT EXISTS `s` CHARACTER SET utf8mb4", d.createSchemaIfAbsent("s"));
        assertEquals("s", d.metadataCatalog("s"));
        assertNull(d.metadataSchema("s"));
        assertEquals(List.of("LONGBLOB", "LONGTEXT", "DATETIME(6)"), List.of(d.binaryType(), d.textType(), d.timestampType()));
        assertEquals(Dialect.Kind.MYSQL, d.kind());
        assertEquals(64, d.maxIdentifierLength());
        // Many rows per statement (RowBatches): a CASE per set column, the keys listed once more in the WHERE clause.
        assertEquals("UPDATE `s`.`t` SET `v` = CASE `id` WHEN ? THEN ? WHEN ? THEN ? ELSE `v` END WHERE `id` IN (?, ?)",
                d.updateRows(KEYED, List.of(V), List.of(ID), 2));
        assertEquals("UPDATE `s`.`t` SET `v` = CASE WHEN `id` = ? AND `w` = ? THEN ? WHEN `id` = ? AND `w` = ? THEN ? "
                + "ELSE `v` END, `x` = CASE WHEN `id` = ? AND `w` = ? THEN ? WHEN `id` = ? AND `w` = ? THEN ? ELSE `x` END "
                + "WHERE (`id` = ? AND `w` = ?) OR (`id` = ? AND `w` = ?)", d.updateRows(KEYED, List.of(V, X), List.of(ID, W), 2));
        assertEquals("DELETE FROM `s`.`t` WHERE `id` IN (?, ?, ?)", d.deleteRows(KEYED, List.of(ID), 3));
        assertEquals("DELETE FROM `s`.`t` WHERE (`id` = ? AND `w` = ?) OR (`id` = ? AND `w` = ?)",
                d.deleteRows(KEYED, List.of(ID, W), 2));
    }

    /** Only MySQL and MariaDB take many rows per UPDATE or DELETE statement (PostgreSQL would need a cast per value). */
    @Test
    void multiRowStatementsAreMySqlOnly() {
        for (Dialect d : List.of(Dialect.postgresql(), Dialect.h2())) {
            assertNull(d.updateRows(KEYED, List.of(V), List.of(ID), 4), d.kind().toString());
            assertNull(d.deleteRows(KEYED, List.of(ID), 4), d.kind().toString());
        }
    }

    @Test
    void postgresql() {
        Dialect d = Dialect.postgresql();
        assertEquals("INSERT INTO \"s\".\"t\" (\"id\", \"v\") VALUES (?, ?)", d.insert(KEYED).sql());
        assertEquals("UPDATE \"s\".\"t\" SET \"v\" = ? WHERE \"id\" = ?", d.update(KEYED, List.of("v")).sql());
        assertEquals("UPDATE \"s\".\"t\" SET \"v\" = ? WHERE ctid = (SELECT ctid FROM \"s\".\"t\" WHERE \"id\" = ? AND \"v\" "
                + "IS NOT DISTINCT FROM ? LIMIT 1)", d.update(KEYLESS, List.of("v")).sql());
        assertEquals("DELETE FROM \"s\".\"t\" WHERE ctid = (SELECT ctid FROM \"s\".\"t\" WHERE \"id\" = ? AND \"v\" "
                + "IS NOT DISTINCT FROM ? LIMIT 1)", d.delete(KEYLESS).sql());
        assertEquals("INSERT INTO \"s\".\"t\" (\"id\", \"v\") VALUES (?, ?) ON CONFLICT (\"id\") DO UPDATE SET \"v\" = "
                + "EXCLUDED.\"v\"", d.upsert(KEYED).sql());
        assertEquals("INSERT INTO \"s\".\"k\" (\"id\") VALUES (?) ON CONFLICT (\"id\") DO NOTHING", d.upsert(KEY_ONLY).sql());
        assertEquals("CREATE SCHEMA IF NOT EXISTS \"s\"", d.createSchemaIfAbsent("s"));
        assertNull(d.metadataCatalog("s"));
        assertEquals("s", d.metadataSchema("s"));
        assertEquals(List.of("bytea", "text", "timestamp(6) with time zone"),
                List.of(d.binaryType(), d.textType(), d.timestampType()));
        assertEquals(Dialect.Kind.POSTGRESQL, d.kind());
        assertEquals(63, d.maxIdentifierLength());
    }

    @Test
    void h2() {
        Dialect d = Dialect.h2();
        assertEquals("UPDATE \"s\".\"t\" SET \"v\" = ? WHERE \"id\" = ? AND \"v\" IS NOT DISTINCT FROM ? FETCH FIRST ROW ONLY",
                d.update(KEYLESS, List.of("v")).sql());
        assertEquals("DELETE FROM \"s\".\"t\" WHERE \"id\" = ? AND \"v\" IS NOT DISTINCT FROM ? FETCH FIRST ROW ONLY",
                d.delete(KEYLESS).sql());
        assertEquals("MERGE INTO \"s\".\"t\" (\"id\", \"v\") KEY (\"id\") VALUES (?, ?)", d.upsert(KEYED).sql());
        assertEquals("CREATE SCHEMA IF NOT EXISTS \"s\"", d.createSchemaIfAbsent("s"));
        assertNull(d.metadataCatalog("s"));
        assertEquals("s", d.metadataSchema("s"));
        assertEquals(List.of("VARBINARY", "VARCHAR(1000000000)", "TIMESTAMP(6)"),
                List.of(d.binaryType(), d.textType(), d.timestampType()));
        assertEquals(Dialect.Kind.H2, d.kind());
        assertEquals(256, d.maxIdentifierLength());
    }
}
