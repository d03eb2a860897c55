package io.lanes.examples;

import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogReader;
import io.lanes.binlog.ColumnType;
import io.lanes.binlog.Row;
import io.lanes.binlog.RowsEvent;
import io.lanes.binlog.TableMapEvent;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Example 5: binlog-api alone (no engine, no target): read a binlog file and print the row changes of one table.
 *
 * <pre>
 * java -cp examples/target/lanes.jar io.lanes.examples.PrintTableChanges mysql-bin.000001 shop customers
 * </pre>
 */
public final class PrintTableChanges {
    private PrintTableChanges() {
    }

    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: PrintTableChanges BINLOG_FILE SCHEMA TABLE");
            System.exit(2);
        }
        int n = print(Path.of(args[0]), args[1], args[2], System.out);
        System.err.println(n + " row changes");
    }

    /** Prints one line per changed row of {@code schema.table}; returns how many. */
    public static int print(Path binlog, String schema, String table, PrintStream out) {
        int count = 0;
        try (BinlogReader reader = BinlogReader.open(binlog)) {
            for (BinlogEvent e; (e = reader.next()) != null; ) {
                if (!(e instanceof RowsEvent rows)) {
                    continue;
                }
                TableMapEvent map = rows.tableMap();
                if (map == null || !map.schema().equals(schema) || !map.table().equals(table)) {
                    continue;
                }
                // Column names are in the log with binlog_row_metadata=FULL; otherwise columns are shown by position.
                List<String> names = map.columnNames();
                for (Row row : rows.rows()) {
                    out.println(rows.kind() + " @" + e.header().position() + " " + format(names, map, row.before())
                            + " -> " + format(names, map, row.after()));
                    count++;
                }
            }
        }
        return count;
    }

    private static String format(List<String> names, TableMapEvent map, List<Object> values) {
        if (values == null) {
            return "-";
        }
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < values.size(); i++) {
            Object v = values.get(i);
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(names.get(i) == null ? "@" + (i + 1) : names.get(i)).append('=')
                    .append(v instanceof byte[] b ? b.length + " bytes"
                            // BIT(n) arrives as a Long of its n bits: BIT(64) with the top bit set is negative
                            : v instanceof Long bits && map.columns().get(i).type() == ColumnType.BIT
                                    ? Long.toUnsignedString(bits) : String.valueOf(v));
        }
        return sb.append('}').toString();
    }
}
