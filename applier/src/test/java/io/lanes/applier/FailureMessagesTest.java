package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.internal.DdlSyntaxException;
import io.lanes.applier.internal.FailureMessages;
import io.lanes.applier.internal.MySqlDdlParser;
import io.lanes.applier.jdbc.TargetUrls;
import io.lanes.core.ApplierFailedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How failures read (issue #18, defect 12): one message that names the position once, the chain without repeats or
 * "null", a directory called a directory, a data statement not called a DDL statement.
 */
class FailureMessagesTest {
    @TempDir
    Path temp;

    @Test
    void theChainIsJoinedOnceEachWithoutNullOrCycles() {
        SQLException driver = new SQLException("Duplicate entry '7' for key 'PRIMARY'", "23000", 1062);
        RuntimeException refused = new RuntimeException("target refused the transaction at bin.000002:579 gtid=0-1-3 on "
                + "shop.t: " + driver.getMessage(), driver);
        ApplierFailedException engine = new ApplierFailedException("transaction 1 at bin.000002:579 gtid=0-1-3 failed "
                + "on worker 0", 1, "bin.000002:579 gtid=0-1-3", 0, 0, refused);
        String d = FailureMessages.describe(engine);
        assertEquals("transaction 1 at bin.000002:579 gtid=0-1-3 failed on worker 0: target refused the transaction at "
                + "bin.000002:579 gtid=0-1-3 on shop.t: Duplicate entry '7' for key 'PRIMARY'", d);
        assertEquals("transaction 1 failed on worker 0: target refused the transaction on shop.t: Duplicate entry '7' "
                + "for key 'PRIMARY'", FailureMessages.withoutPosition(d, "bin.000002:579 gtid=0-1-3"));
        assertEquals("the same without its GTID at bin.000002:5790", FailureMessages.withoutPosition(
                "the same without its GTID at bin.000002:579 at bin.000002:5790", "bin.000002:579 gtid=0-1-3"),
                "only the position's own mentions go (a longer offset stays)");

        assertEquals("cannot apply the statement: reason", FailureMessages.withoutPosition(
                "cannot apply the statement at bin.000002:579 gtid=0-1-3: reason", "bin.000002:579 gtid=0-1-3"));
        String mysql = "bin.000009:4 gtid=3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5";
        assertEquals("refused on t: reason; also at " + mysql + ":7", FailureMessages.withoutPosition(
                "refused at " + mysql + " on t: reason; also at " + mysql + ":7", mysql), "a longer GTID set stays");

        assertEquals("NullPointerException", FailureMessages.describe(new NullPointerException()));
        assertEquals("IllegalStateException: broken", FailureMessages.describe(
                new RuntimeException(new IllegalStateException("broken"))).replace("java.lang.", ""));
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertEquals("a: b", FailureMessages.describe(a), "a cycle is followed once");
    }

    @Test
    void aRefusedTransactionNamesItsPositionOnce() throws Exception {
        Path binlog = temp.resolve("types-full-metadata.000001");
        try (java.io.InputStream in = getClass().getResourceAsStream(FixtureApplyTest.FIXTURE)) {
            Files.copy(in, binlog);
        }
        String url = "jdbc:h2:mem:refused-once" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
        Lanes lanes = Lanes.builder().source(binlog).target(url).workers(2).retries(0).build();
        lanes.start();
        assertTrue(lanes.awaitCaughtUp(java.time.Duration.ofMinutes(3)));
        lanes.stop();
        // Again under another pipeline name: the first transaction's rows are there already.
        Lanes again = Lanes.builder().source(binlog).target(url).workers(2).retries(0).pipeline("again").build();
        again.start();
        LanesException e = assertThrows(LanesException.class, () -> again.awaitCaughtUp(java.time.Duration.ofMinutes(3)));
        assertEquals(e.getMessage(), assertThrows(LanesException.class, again::stop).getMessage());
        String offset = e.position().substring(0, e.position().indexOf(' '));
        assertEquals(1, Pattern.compile(Pattern.quote(offset)).matcher(e.getMessage()).results().count(),
                e.getMessage());
        assertTrue(e.getMessage().startsWith("pipeline 'again' failed at " + e.position() + ": "), e.getMessage());
    }

    @Test
    void aDirectoryIsNotAMissingFile() throws Exception {
        Path dir = Files.createDirectories(temp.resolve("logs"));
        assertTrue(SourceFiles.unusable(dir).startsWith("source " + dir + " is a directory"), SourceFiles.unusable(dir));
        assertEquals("source file " + dir.resolve("x") + " does not exist", SourceFiles.unusable(dir.resolve("x")));
        Path file = Files.writeString(dir.resolve("bin.000001"), "x");
        assertEquals(null, SourceFiles.unusable(file));
        Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("gone"));
        assertTrue(SourceFiles.unusable(dir.resolve("dangling")).contains("symbolic link"));

        Lanes lanes = Lanes.builder().source(dir).target("jdbc:h2:mem:dir").build();
        LanesException e = assertThrows(LanesException.class, lanes::start);
        assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
    }

    @Test
    void aDataStatementIsNotCalledADdlStatement() {
        for (String sql : new String[] {"UPDATE t SET v = 2 WHERE id = 1", "insert into t values (1)",
            "/* c */ DELETE FROM t", "REPLACE INTO t VALUES (1)", "LOAD DATA INFILE 'x' INTO TABLE t"}) {
            DdlSyntaxException e = assertThrows(DdlSyntaxException.class, () -> MySqlDdlParser.parse(sql, "db", 0));
            assertTrue(e.getMessage().contains("is a data statement (DML), not DDL")
                    && e.getMessage().contains("binlog_format=ROW"), sql + ": " + e.getMessage());
        }
        DdlSyntaxException other = assertThrows(DdlSyntaxException.class,
                () -> MySqlDdlParser.parse("ANALYZE TABLE t", "db", 0));
        assertTrue(other.getMessage().contains("not a DDL statement Lanes translates"), other.getMessage());
    }

    @Test
    void theUrlAPipelineOpensIsTheOneToReadBackWith() {
        String file = TargetUrls.asOpened("jdbc:h2:/data/replica", true);
        assertTrue(file.startsWith("jdbc:h2:/data/replica;MODE=MySQL") && file.endsWith(";DB_CLOSE_ON_EXIT=FALSE")
                && !file.contains("DB_CLOSE_DELAY"), file);
        assertEquals("jdbc:h2:mem:x;DB_CLOSE_DELAY=-1;DB_CLOSE_ON_EXIT=FALSE", TargetUrls.asOpened("jdbc:h2:mem:x",
                false));
        assertEquals("jdbc:h2:/d;MODE=PostgreSQL;DB_CLOSE_ON_EXIT=TRUE",
                TargetUrls.asOpened("jdbc:h2:/d;MODE=PostgreSQL;DB_CLOSE_ON_EXIT=TRUE", true), "settings given win");
        assertEquals("jdbc:h2:tcp://h/db" + io.lanes.applier.jdbc.Dialect.h2RecommendedUrlOptions(),
                TargetUrls.asOpened("jdbc:h2:tcp://h/db", true), "a server's database closes on the server's terms");
        assertEquals("jdbc:postgresql://h/db", TargetUrls.asOpened("jdbc:postgresql://h/db", true));
    }

    /**
     * The differential campaign's seed 9225 stopped its own run: a refused statement full of emoji was cut at 297
     * characters between the two halves of one, and writing the message with {@code Files.writeString} threw
     * UnmappableCharacterException (a log shows '?' there instead).
     */
    @Test
    void abbreviatingNeverCutsACharacterInHalf() throws Exception {
        String emoji = "\uD83D\uDE00";
        String sql = "INSERT INTO t VALUES ('" + "a".repeat(273) + emoji + " more text after the cut')";
        assertEquals(Character.MIN_HIGH_SURROGATE, sql.charAt(296) & 0xFC00, "the emoji straddles the cut at 297");
        String shown = new io.lanes.applier.ddl.SourceStatement(sql, "db", 0, null, null, java.time.Instant.EPOCH, null,
                "bin.000001:4", io.lanes.applier.ddl.SessionVariables.NONE).abbreviated();
        assertEquals(sql.substring(0, 296) + "...", shown, "the whole emoji goes, not half of it");
        assertEncodable(shown);
        Files.writeString(temp.resolve("message.txt"), shown, java.nio.charset.StandardCharsets.UTF_8);

        String value = "x".repeat(36) + emoji + "tail";
        String row = new RowImage(java.util.List.of("c"), new Object[] {value}).toString();
        assertEquals("{c=" + "x".repeat(36) + "...}", row);
        assertEncodable(row);

        assertEquals("abc", FailureMessages.abbreviate("abc", 4));
        assertEquals("abcd", FailureMessages.abbreviate("abcd", 4));
        assertEquals("a...", FailureMessages.abbreviate("abcde", 4));
        assertEquals("ab" + emoji + "...", FailureMessages.abbreviate("ab" + emoji + "cdef", 7), "a whole emoji stays");
        assertEquals("ab...", FailureMessages.abbreviate("ab" + emoji + "cdef", 6));
        assertThrows(IllegalArgumentException.class, () -> FailureMessages.abbreviate("abcdef", 3));
    }

    private static void assertEncodable(String text) throws java.nio.charset.CharacterCodingException {
        java.nio.charset.StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                .encode(java.nio.CharBuffer.wrap(text));
    }
}
