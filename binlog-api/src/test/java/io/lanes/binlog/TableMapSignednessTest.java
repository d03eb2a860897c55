package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.internal.ByteReader;
import io.lanes.binlog.internal.TableMapParser;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SIGNEDNESS metadata of TABLE_MAP events, read by the rule of the server that wrote the log (issue 18, defect 1).
 */
class TableMapSignednessTest {
    /**
     * The body (after the 19-byte header, before the CRC32) of a TABLE_MAP written by MariaDB 10.11.19 with
     * binlog_row_metadata=MINIMAL for {@code d1.t (id BIGINT UNSIGNED PRIMARY KEY, y YEAR, i64 BIGINT, b BINARY(16),
     * e ENUM('a','b'), dd DECIMAL(5,2) UNSIGNED, bt BIT(3), f FLOAT UNSIGNED)}, copied from {@code mariadb-binlog}'s
     * BINLOG block. Its SIGNEDNESS field is {@code 01 01 d8}: bits 1 1 0 1 1 for id, y, i64, dd, f; MariaDB gives the
     * YEAR column a bit, MySQL's rule does not.
     */
    private static final String MARIADB_10_11_MINIMAL = "120000000000" + "0100" + "02643100" + "017400"
            + "08" + "080d08fefef61004" + "09" + "fe10f701050203" + "0004" + "fe" + "0101d8" + "02013f";

    @Test
    void mariaDbCountsYearInTheSignednessBitmap() {
        TableMapEvent t = parse(MARIADB_10_11_MINIMAL, true);
        assertEquals(List.of(true, true, false, false, false, true, false, true), unsigned(t),
                "id BIGINT UNSIGNED, y YEAR, i64 BIGINT (signed), b, e, dd UNSIGNED, bt, f UNSIGNED");
        assertTrue(t.hasSignedness());
        assertTrue(t.hasCharsets());
        assertFalse(t.hasColumnNames());
    }

    @Test
    void mySqlDoesNotCountYear() {
        // The same bytes read by MySQL's rule: the bits 1 1 0 1 go to id, i64, dd, f. This is the misreading that made
        // the signed BIGINT unsigned (-2^63 became 2^63) on MariaDB logs.
        TableMapEvent t = parse(MARIADB_10_11_MINIMAL, false);
        assertEquals(List.of(true, false, true, false, false, false, false, true), unsigned(t));
    }

    @Test
    void eventsWithoutOptionalMetadataSayTheirSignednessIsUnknown() {
        // Cut the optional metadata: a MariaDB log with binlog_row_metadata=NO_LOG (its default).
        String noLog = MARIADB_10_11_MINIMAL.substring(0, MARIADB_10_11_MINIMAL.length() - "0101d802013f".length());
        TableMapEvent t = parse(noLog, true);
        assertFalse(t.hasSignedness());
        assertFalse(t.hasCharsets());
        assertEquals(List.of(false, false, false, false, false, false, false, false), unsigned(t));
    }

    private static List<Boolean> unsigned(TableMapEvent t) {
        return t.columns().stream().map(ColumnDef::unsigned).toList();
    }

    private static TableMapEvent parse(String hex, boolean mariaDb) {
        byte[] body = HexFormat.of().parseHex(hex);
        EventHeader h = new EventHeader(0, 0, 19, 1, 19 + body.length, 19 + body.length, 0);
        return TableMapParser.parse(new ByteReader(body, "test", 19), h, 8, mariaDb);
    }
}
