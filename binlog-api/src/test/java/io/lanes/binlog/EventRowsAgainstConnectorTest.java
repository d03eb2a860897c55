package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.shyiko.mysql.binlog.BinaryLogFileReader;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Row framing checked against an independent decoder (mysql-binlog-connector-java): for every row event of every fixture
 * it can read, the same number of rows and the same included-column sets. Values are compared by the values work.
 */
class EventRowsAgainstConnectorTest {

    static Stream<String> fixtures() {
        return Stream.of("mysql-binlog-connector-java/mysql-bin.checksum-crc32",
                "mysql-binlog-connector-java/mysql-bin.checksum-none", "mysql-binlog-connector-java/mysql-bin.sakila",
                "go-mysql/tcb-eval002c-bin.003320", "rust-mysql-binlog/bin-log.000001",
                "rust_mysql_common/binlog-invisible-columns.000001", "rust_mysql_common/mysql-enum-string-set.000001",
                "rust_mysql_common/mysql_type_bit.000001", "rust_mysql_common/time_issue.000001",
                "rust_mysql_common/json.binlog.000001", "rust_mysql_common/minimal_row_metadata.000001",
                "rust_mysql_common/mariadb-bin.000001", "mariadb-10.11/types-full-metadata.000001");
    }

    record Shape(String kind, int rows, String columns) {
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void sameRowsAsConnectorJava(String fixture) throws Exception {
        Path file = FixtureSupport.path(fixture);
        List<Shape> ours = new ArrayList<>();
        try (BinlogReader r = BinlogReader.open(file)) {
            for (BinlogEvent e; (e = r.next()) != null; ) {
                if (e instanceof RowsEvent rows && rows.kind() != RowsEvent.Kind.PARTIAL_UPDATE) {
                    List<Row> decoded = rows.rows();
                    for (Row row : decoded) {
                        assertEquals(rows.columnCount(), (row.after() != null ? row.after() : row.before()).size());
                    }
                    String kind = rows.kind() == RowsEvent.Kind.WRITE ? "W" : rows.kind() == RowsEvent.Kind.UPDATE ? "U" : "D";
                    ours.add(new Shape(kind, decoded.size(), rows.includedColumns().toString()));
                }
            }
        }
        List<Shape> theirs = new ArrayList<>();
        EventDeserializer d = new EventDeserializer();
        d.setCompatibilityMode(EventDeserializer.CompatibilityMode.DATE_AND_TIME_AS_LONG,
                EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        try (InputStream in = FixtureSupport.open(file); BinaryLogFileReader reader = new BinaryLogFileReader(in, d)) {
            for (Event e; (e = reader.readEvent()) != null; ) {
                EventData data = e.getData();
                if (data instanceof WriteRowsEventData w) {
                    theirs.add(new Shape("W", w.getRows().size(), w.getIncludedColumns().toString()));
                } else if (data instanceof UpdateRowsEventData u) {
                    theirs.add(new Shape("U", u.getRows().size(), u.getIncludedColumnsBeforeUpdate().toString()));
                } else if (data instanceof DeleteRowsEventData del) {
                    theirs.add(new Shape("D", del.getRows().size(), del.getIncludedColumns().toString()));
                }
            }
        }
        assertTrue(!ours.isEmpty(), "the fixture has row events");
        assertEquals(theirs, ours);
    }
}
