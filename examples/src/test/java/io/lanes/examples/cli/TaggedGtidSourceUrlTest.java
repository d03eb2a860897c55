package io.lanes.examples.cli;

import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.replication.StartPosition;
import io.lanes.examples.cli.DumpCommandTest.Result;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code --source mysql://USER@HOST:PORT?gtid=SET} with MySQL 8.3+ tagged GTID sets, as typed or %-escaped. */
class TaggedGtidSourceUrlTest {
    static final String A = "3E11FA47-71CA-11E1-9E33-C80AA9429562";
    static final String B = "4e11fa47-71ca-11e1-9e33-c80aa9429562";

    @Test
    void aTaggedSetIsAMySqlStartAsTypedOrEscaped() {
        String set = A + ":1-5:MyTag:1-3," + B + ":3";
        SourceUrl plain = SourceUrl.parse("mysql://repl@db1:3306?gtid=" + set);
        assertEquals(new SourceUrl("repl", "db1:3306", "gtid=" + set), plain);
        // %-escaped, and as SELECT @@gtid_executed prints it (a newline after the comma)
        String escaped = URLEncoder.encode(A + ":1-5:MyTag:1-3,\n" + B + ":3", StandardCharsets.UTF_8);
        assertTrue(escaped.contains("%3A") && escaped.contains("%2C%0A"), escaped);
        assertEquals(plain, SourceUrl.parse("mysql://repl@db1:3306?gtid=" + escaped));
        StartPosition start = StartPosition.parse(plain.start());
        assertEquals(StartPosition.mysqlGtidSet(set), start);
        assertEquals(new SourceUrl("repl", "db1:3306", "gtid=" + A + ":tag_1:7"),
                SourceUrl.parse("mysql://repl@db1?gtid=" + A + "%3Atag_1%3A7"));
    }

    @Test
    void aMalformedTaggedSetIsRefusedNamingTheOffset() {
        String bad = A + ":1-5:9tag:1";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SourceUrl.parse("mysql://repl@db1:3306?gtid=" + bad));
        assertTrue(e.getMessage().startsWith("--source mysql://...") && e.getMessage().contains("offset 42"),
                e.getMessage());
        String tooLong = A + ":" + "t".repeat(33) + ":1";
        Result r = DumpCommandTest.run("apply", "--source", "mysql://repl@h:1?gtid=" + tooLong, "--target",
                "jdbc:h2:mem:tagged-bad");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--source") && r.err().contains("at most 32"), r.err());
    }
}
