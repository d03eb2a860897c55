package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class SqlSecretsTest {

    @Test
    void accountStatementsLoseTheirSecrets() {
        assertEquals("ALTER USER 'repl'@'%' IDENTIFIED BY '<redacted>' WITH MAX_USER_CONNECTIONS 3",
                SqlSecrets.redact("ALTER USER 'repl'@'%' IDENTIFIED BY 'zk<9ZL)lp''Roe\\'452n' WITH MAX_USER_CONNECTIONS 3"));
        assertEquals("CREATE USER u IDENTIFIED WITH mysql_native_password AS '<redacted>'",
                SqlSecrets.redact("CREATE USER u IDENTIFIED WITH mysql_native_password AS '*94BDCEBE19083CE2A1F959FD02F964C7AF4CFC29'"));
        assertEquals("create user u identified via ed25519 using PASSWORD('<redacted>')",
                SqlSecrets.redact("create user u identified via ed25519 using PASSWORD('s3cret')"));
        assertEquals("CREATE USER u IDENTIFIED VIA mysql_native_password USING '<redacted>'",
                SqlSecrets.redact("CREATE USER u IDENTIFIED VIA mysql_native_password USING '*94BDCEBE'"));
        assertEquals("SET PASSWORD FOR u = PASSWORD('<redacted>')", SqlSecrets.redact("SET PASSWORD FOR u = PASSWORD('x y')"));
        assertEquals("SET PASSWORD = '<redacted>'", SqlSecrets.redact("SET PASSWORD = \"x\""));
        // forms a server logs as written that the first version of this class let through
        assertEquals("SET PASSWORD FOR 'repl'@'%' = '<redacted>'",
                SqlSecrets.redact("SET PASSWORD FOR 'repl'@'%' = 'clear text'"));
        assertEquals("SET PASSWORD FOR `u`@`h` = PASSWORD('<redacted>')",
                SqlSecrets.redact("SET PASSWORD FOR `u`@`h` = PASSWORD('pw')"));
        assertEquals("SET PASSWORD FOR u@localhost = '<redacted>'", SqlSecrets.redact("SET PASSWORD FOR u@localhost = 'pw'"));
        assertEquals("ALTER USER u IDENTIFIED BY '<redacted>' REPLACE '<redacted>'",
                SqlSecrets.redact("ALTER USER u IDENTIFIED BY 'new' REPLACE 'old'"));
        assertEquals("CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'r', PASSWORD '<redacted>', HOST 'h')",
                SqlSecrets.redact("CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'r', PASSWORD 'pw', HOST 'h')"));
        // REPLACE as a statement or function keeps its literals
        String replace = "REPLACE INTO t VALUES ('a'), (REPLACE('b', 'c', 'd'))";
        assertSame(replace, SqlSecrets.redact(replace));
        assertEquals("CHANGE MASTER TO MASTER_HOST='h', MASTER_PASSWORD = '<redacted>', MASTER_PORT=3306",
                SqlSecrets.redact("CHANGE MASTER TO MASTER_HOST='h', MASTER_PASSWORD = 'pw', MASTER_PORT=3306"));
        assertEquals("GRANT ALL ON *.* TO a IDENTIFIED BY PASSWORD '<redacted>'",
                SqlSecrets.redact("GRANT ALL ON *.* TO a IDENTIFIED BY PASSWORD '*ABC'"));
        // A literal cut off by abbreviation is still hidden.
        assertEquals("CREATE USER x IDENTIFIED BY '<redacted>'", SqlSecrets.redact("CREATE USER x IDENTIFIED BY 'abc"));
        String plain = "UPDATE t SET password = password + 1 WHERE note = 'identified by nobody'";
        assertSame(plain, SqlSecrets.redact(plain));
    }

    @Test
    void exceptionChainsAreCopiedWithoutTheSecretButWithTheirCodes() {
        SQLException driver = new SQLException("Syntax error in SQL statement \"ALTER USER r IDENTIFIED BY 'hunter2'\"",
                "42000", 42001);
        Exception wrapped = new IllegalStateException("applying", driver);
        Throwable clean = SqlSecrets.redact(wrapped);
        StringWriter printed = new StringWriter();
        clean.printStackTrace(new PrintWriter(printed));
        assertFalse(printed.toString().contains("hunter2"), printed.toString());
        assertTrue(printed.toString().contains("IDENTIFIED BY '<redacted>'"), printed.toString());
        SQLException cause = (SQLException) clean.getCause();
        assertEquals("42000", cause.getSQLState());
        assertEquals(42001, cause.getErrorCode());
        Exception harmless = new IllegalStateException("no secret", new SQLException("duplicate key"));
        assertSame(harmless, SqlSecrets.redact(harmless));
    }
}
