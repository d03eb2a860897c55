package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.CrossBinlogRows.RowImage;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.binlog.value.BinlogValueText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Decoding is lossless end to end: the edge-value rows a MariaDB server logged, decoded and written back through
 * {@link BinlogValueText#sqlLiteral} into copies of their tables, leave the copies identical to the originals (same
 * SELECT output, same CHECKSUM TABLE).
 */
class CrossSqlLiteralTest {

    @Test
    void decodedValuesWrittenBackGiveIdenticalTables() throws Exception {
        String inserts = CrossMariadbBinlogTest.EDGE_SQL.substring(0, CrossMariadbBinlogTest.EDGE_SQL.indexOf("UPDATE ints"));
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-metadata=FULL",
                "--default-time-zone=+00:00")) {
            server.sql("SET SESSION sql_mode = 'ALLOW_INVALID_DATES';\n" + inserts);
            server.sql("FLUSH BINARY LOGS");
            List<RowImage> images = new ArrayList<>();
            for (Path f : server.binlogFiles()) {
                images.addAll(CrossBinlogRows.read(f));
            }
            Set<String> tables = new LinkedHashSet<>();
            StringBuilder sql = new StringBuilder("SET SESSION time_zone = '+00:00';\n"
                    + "SET SESSION sql_mode = 'ALLOW_INVALID_DATES';\nCREATE DATABASE e2;\n");
            for (RowImage r : images) {
                assertEquals("INSERT", r.kind());
                String table = r.table().name();
                if (tables.add(table)) {
                    sql.append("CREATE TABLE e2.`").append(table).append("` LIKE e.`").append(table).append("`;\n");
                }
                sql.append("INSERT INTO e2.`").append(table).append("` VALUES (");
                for (int i = 0; i < r.values().length; i++) {
                    if (i > 0) {
                        sql.append(", ");
                    }
                    sql.append(BinlogValueText.sqlLiteral(r.values()[i], r.table().columns().get(i)));
                }
                sql.append(");\n");
            }
            server.sql(sql.toString());
            assertEquals(List.of("ints", "nums", "times", "strs"), new ArrayList<>(tables));
            for (String t : tables) {
                String original = server.sql("SELECT * FROM e.`" + t + "`");
                String copy = server.sql("SELECT * FROM e2.`" + t + "`");
                assertTrue(original.split("\n").length >= 2, t + ": " + original);
                assertEquals(original, copy, t);
                String sum1 = server.sql("CHECKSUM TABLE e.`" + t + "`").split("\t")[1];
                String sum2 = server.sql("CHECKSUM TABLE e2.`" + t + "`").split("\t")[1];
                assertEquals(sum1, sum2, t + " checksum");
            }
        }
    }
}
