package io.lanes.applier.statements;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lanes.applier.internal.StatementScope;
import io.lanes.applier.internal.StatementScope.Kind;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What a logged statement is and which schemas it names, for the statement forms real logs carry: sysbench's
 * statement-based DML, account management as MariaDB and MySQL 8 log it, sakila's triggers, views and routines, and
 * the positions where a {@code x.y} is a table's column rather than a schema's table.
 */
class StatementScopeTest {
    private static void scope(String sql, Kind kind, String... schemas) {
        StatementScope s = StatementScope.of(sql, 0);
        assertEquals(kind, s.kind(), sql);
        assertEquals(List.of(schemas), List.copyOf(s.schemas()), sql);
    }

    @Test
    void accountManagement() {
        scope("ALTER USER 'repl'@'%' IDENTIFIED BY 'x' WITH MAX_USER_CONNECTIONS 0", Kind.ACCOUNT_MANAGEMENT);
        scope("GRANT REPLICATION REPLICA ON *.* TO 'repl'@'%'", Kind.ACCOUNT_MANAGEMENT);
        scope("GRANT SELECT ON shop.* TO u", Kind.ACCOUNT_MANAGEMENT);
        scope("REVOKE ALL ON *.* FROM u", Kind.ACCOUNT_MANAGEMENT);
        scope("CREATE USER IF NOT EXISTS u@'%' IDENTIFIED VIA ed25519 USING PASSWORD('x')", Kind.ACCOUNT_MANAGEMENT);
        scope("CREATE OR REPLACE USER u", Kind.ACCOUNT_MANAGEMENT);
        scope("DROP USER u", Kind.ACCOUNT_MANAGEMENT);
        scope("RENAME USER a TO b", Kind.ACCOUNT_MANAGEMENT);
        scope("CREATE ROLE r", Kind.ACCOUNT_MANAGEMENT);
        scope("DROP ROLE IF EXISTS r", Kind.ACCOUNT_MANAGEMENT);
        scope("SET PASSWORD FOR u = PASSWORD('x')", Kind.ACCOUNT_MANAGEMENT);
        scope("SET DEFAULT ROLE r FOR u", Kind.ACCOUNT_MANAGEMENT);
        scope("FLUSH PRIVILEGES", Kind.ACCOUNT_MANAGEMENT);
        scope("CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (PASSWORD 'x')", Kind.ACCOUNT_MANAGEMENT);
        scope("/*!80000 ALTER USER 'root'@'localhost' IDENTIFIED WITH 'caching_sha2_password' AS 'x' */",
                Kind.ACCOUNT_MANAGEMENT);
        scope("SET @x = 1", Kind.OTHER);
        scope("FLUSH TABLES", Kind.OTHER);
    }

    @Test
    void definitionsAndTriggers() {
        scope("CREATE DEFINER=`msandbox`@`%` TRIGGER `ins_film` AFTER INSERT ON `film` FOR EACH ROW BEGIN "
                + "INSERT INTO film_text (film_id, title) VALUES (new.film_id, new.title); END", Kind.CREATE_TRIGGER);
        scope("CREATE DEFINER=root@localhost TRIGGER s.t BEFORE INSERT ON s.customer FOR EACH ROW SET NEW.d = NOW()",
                Kind.CREATE_TRIGGER, "s");
        scope("CREATE TRIGGER t AFTER DELETE ON other.p FOR EACH ROW DELETE FROM log.c WHERE id = OLD.id",
                Kind.CREATE_TRIGGER, "other", "log");
        scope("DROP TRIGGER IF EXISTS x.t", Kind.DROP_TRIGGER, "x");
        scope("CREATE ALGORITHM=UNDEFINED DEFINER=`u`@`%` SQL SECURITY DEFINER VIEW `v` AS SELECT a.id FROM t a "
                + "JOIN other.u b ON a.id = b.id", Kind.PROGRAM, "other");
        scope("CREATE DEFINER=`u`@`%` PROCEDURE `p`(IN x INT) READS SQL DATA BEGIN SELECT COUNT(*) FROM r.rental; END",
                Kind.PROGRAM, "r");
        scope("CREATE FUNCTION f(x INT) RETURNS INT RETURN x + 1", Kind.PROGRAM);
        scope("DROP EVENT IF EXISTS e.tick", Kind.PROGRAM, "e");
    }

    @Test
    void databasesAndTables() {
        scope("CREATE DATABASE IF NOT EXISTS shop", Kind.DATABASE, "shop");
        scope("DROP SCHEMA sakila", Kind.DATABASE, "sakila");
        scope("CREATE TABLE shop.t (id INT, p INT REFERENCES other.p (id))", Kind.OTHER, "shop", "other");
        scope("CREATE TABLE t LIKE tpl.t", Kind.OTHER, "tpl");
        scope("RENAME TABLE a.x TO b.y, c.z TO d.w", Kind.OTHER, "a", "b", "c", "d");
        scope("ALTER TABLE a.t RENAME TO b.t", Kind.OTHER, "a", "b");
        scope("CREATE UNIQUE INDEX i ON s.t (a)", Kind.OTHER, "s");
        scope("TRUNCATE TABLE s.t", Kind.OTHER, "s");
        scope("DROP TABLE IF EXISTS a.t, b.t", Kind.OTHER, "a", "b");
    }

    @Test
    void dataStatements() {
        scope("UPDATE sbtest2 SET k=k+1 WHERE id=502645", Kind.OTHER);
        scope("UPDATE sbtest2 SET c='1-2' WHERE sbtest2.id=5", Kind.OTHER);
        scope("DELETE FROM sbtest3 WHERE id=5", Kind.OTHER);
        scope("INSERT INTO sbtest1 (id, k, c, pad) VALUES (1, 2, '3', '4')", Kind.OTHER);
        scope("INSERT INTO b.t SELECT id + 100 FROM a.t", Kind.OTHER, "b", "a");
        scope("INSERT IGNORE b.t VALUES (1)", Kind.OTHER, "b");
        scope("REPLACE INTO s.t VALUES (REPLACE('a', 'b', 'c'))", Kind.OTHER, "s");
        scope("UPDATE LOW_PRIORITY a.t x, b.u y SET x.v = y.v WHERE x.id = y.id", Kind.OTHER, "a", "b");
        scope("DELETE x, y FROM a.t x JOIN b.u y ON x.id = y.id WHERE x.id > 5", Kind.OTHER, "a", "b");
        scope("DELETE FROM t1 USING s.t1, s.t2 WHERE t1.id = t2.id", Kind.OTHER, "s");
        scope("SELECT EXTRACT(YEAR FROM t.d), TRIM(LEADING 'x' FROM t.c) FROM t", Kind.OTHER);
        scope("SELECT * FROM a.t WHERE id IN (SELECT id FROM b.u)", Kind.OTHER, "a", "b");
        scope("INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE t.v = 2", Kind.OTHER);
        scope("INSERT INTO t VALUES (db.f(1), x.y.z)", Kind.OTHER, "db", "x");
        scope("CALL shop.refresh()", Kind.OTHER, "shop");
        scope("LOAD DATA INFILE 'x' INTO TABLE s.t", Kind.OTHER, "s");
    }

    @Test
    void qualifiersOutsideTablePositionsAreReportedApart() {
        StatementScope s = StatementScope.of("UPDATE t SET v = other.f WHERE id = 1", 0);
        assertEquals(Set.of(), s.schemas());
        assertEquals(List.of("other"), s.qualifiers().stream().map(q -> q.text()).toList());
    }
}
