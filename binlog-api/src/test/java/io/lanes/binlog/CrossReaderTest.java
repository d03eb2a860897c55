package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.CrossBinlogRows.RowImage;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The project's {@link BinlogReader}/{@link RowCursor} and the test's minimal walker ({@link CrossBinlogRows#walk}) give
 * the same row images for every fixture with row events: same order, kinds, columns, column metadata the values depend on
 * (type, meta, signedness, collation, ENUM/SET names) and values.
 */
class CrossReaderTest {
    private static final Path FIXTURES = Paths.get("src/test/resources/binlogs");

    @ParameterizedTest
    @ValueSource(strings = {
        "mariadb-10.11/types-full-metadata.000001",
        "mariadb-10.11/sysbench-10schemas-update-index.000001.gz",
        "rust_mysql_common/mariadb-bin.000001",
        "mysql-binlog-connector-java/mysql-bin.checksum-crc32",
        "mysql-binlog-connector-java/mysql-bin.checksum-none",
        "mysql-binlog-connector-java/mysql-bin.sakila",
        "rust-mysql-binlog/bin-log.000001",
        "go-mysql/tcb-eval002c-bin.003320",
        "rust_mysql_common/binlog-invisible-columns.000001",
        "rust_mysql_common/binlog_transaction_with_GTID_TAG.000001",
        "rust_mysql_common/json-opaque.binlog",
        "rust_mysql_common/json.binlog.000001",
        "rust_mysql_common/minimal_row_metadata.000001",
        "rust_mysql_common/mysql-enum-string-set.000001",
        "rust_mysql_common/mysql_type_bit.000001",
        "rust_mysql_common/time_issue.000001",
        "rust_mysql_common/vector.binlog",
    })
    void readerAndWalkerAgree(String fixture) throws Exception {
        Path file = FIXTURES.resolve(fixture);
        List<RowImage> reader = CrossBinlogRows.read(file);
        List<RowImage> walker = CrossBinlogRows.walk(file);
        assertEquals(walker.size(), reader.size(), fixture + ": row images");
        assertTrue(reader.size() > 0, fixture);
        for (int r = 0; r < reader.size(); r++) {
            RowImage a = reader.get(r);
            RowImage b = walker.get(r);
            String where = fixture + " event at " + a.offset() + ", image " + r;
            assertEquals(b.offset(), a.offset(), where);
            assertEquals(b.kind(), a.kind(), where);
            assertEquals(b.present(), a.present(), where);
            assertEquals(b.table().schema() + "." + b.table().name(), a.table().schema() + "." + a.table().name(), where);
            for (int i = 0; i < a.table().columns().size(); i++) {
                ColumnDef x = a.table().columns().get(i);
                ColumnDef y = b.table().columns().get(i);
                String col = where + ", column " + i;
                assertEquals(y.type(), x.type(), col);
                assertEquals(y.meta(), x.meta(), col);
                assertEquals(y.unsigned(), x.unsigned(), col + " unsigned");
                assertEquals(y.charsetId(), x.charsetId(), col + " collation");
                assertEquals(y.enumValues(), x.enumValues(), col);
                assertEquals(y.setValues(), x.setValues(), col);
                assertTrue(Arrays.deepEquals(new Object[] {b.values()[i]}, new Object[] {a.values()[i]}),
                        col + ": walker " + b.values()[i] + ", reader " + a.values()[i]);
            }
        }
    }

    /** MySQL 9 counts VECTOR columns in the charset metadata: the TEXT column after a VECTOR is utf8mb4, not binary. */
    @Test
    void vectorColumnsAndTheTextBesideThem() {
        List<RowImage> rows = CrossBinlogRows.read(FIXTURES.resolve("rust_mysql_common/vector.binlog"));
        RowImage bar = rows.stream().filter(r -> r.table().name().equals("bar") && r.values()[2] != null).findFirst()
                .orElseThrow();
        assertEquals("bar", bar.values()[2]);
        assertTrue(Arrays.equals(new float[] {1.01f, -1.01f}, (float[]) bar.values()[1]));
        assertTrue(Arrays.equals(new float[] {42f, 43f, 44f, 45f}, (float[]) bar.values()[3]));
    }
}
