package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lanes.binlog.testing.MariaDbServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ENUM and SET member names of binlog_row_metadata=FULL are logged in the column's character set
 * (ENUM_AND_SET_DEFAULT_CHARSET / ENUM_AND_SET_COLUMN_CHARSET, written after the names): they were read as UTF-8, so
 * a latin1 member 'é' (the byte E9) became U+FFFD and a target got '\uFFFD' (or refused it as a truncated ENUM value).
 * Found by the differential campaign (seeds 53 and 81: ENUM in a latin1 database). Checked on a real MariaDB.
 */
class EnumSetNamesCharsetLiveTest {
    @Test
    void memberNamesAreDecodedInTheColumnsCharacterSet() throws Exception {
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-metadata=FULL")) {
            server.sql("CREATE DATABASE cs CHARACTER SET latin1; CREATE TABLE cs.t (id INT PRIMARY KEY,"
                    + " e ENUM('a','é','ÿ z'), s SET('x','ü'), u ENUM('€','日本') CHARACTER SET utf8mb4);"
                    + "INSERT INTO cs.t VALUES (1, 'é', 'x,ü', '日本');");
            Path file = server.binlogFiles().get(0);
            List<RowsEvent> rows = new ArrayList<>();
            try (BinlogReader r = BinlogReader.open(file)) {
                for (BinlogEvent e; (e = r.next()) != null; ) {
                    if (e instanceof RowsEvent re) {
                        rows.add(re);
                    }
                }
            }
            TableMapEvent map = rows.get(0).tableMap();
            assertEquals(List.of("a", "é", "ÿ z"), map.columns().get(1).enumValues());
            assertEquals(List.of("x", "ü"), map.columns().get(2).setValues());
            assertEquals(List.of("€", "日本"), map.columns().get(3).enumValues());
        }
    }
}
