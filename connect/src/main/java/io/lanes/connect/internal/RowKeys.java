package io.lanes.connect.internal;

import io.lanes.applier.Change;
import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.TableMetadata;
import io.lanes.applier.TableShape;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.utils.Utils;

/**
 * The write keys of a reassembled transaction, for the writeset scheduler: one 64-bit hash per unique key of each row
 * image (before and after) and one per foreign key's parent row, with the keys taken from the table's shape (by default
 * the target's catalog: a change event's record key carries only the primary key). A row with no usable unique key (a
 * table without one, or NULL in every unique key) gets its table's key instead, as the binlog path does
 * ({@code BinlogBridge}): the transactions that change such a table are ordered among themselves, and only among
 * themselves. A table whose shape is unknown makes the transaction run alone ({@link #of} returns null).
 *
 * <p>Values are hashed in a normalised text form (strings lower-cased without trailing spaces, numbers without trailing
 * zeros), so values a case-insensitive collation compares equal hash equal: normalising more than the target does can
 * only make transactions look dependent, never independent. The seam for the source's schema history (issue #18) is the
 * {@link TableMetadata} passed in. Not thread-safe: the partition's dispatching thread owns it.
 */
public final class RowKeys {
    private final TableMetadata metadata;
    private final SchemaMapping mapping;
    private final Map<String, TableShape> shapes = new HashMap<>();

    public RowKeys(TableMetadata metadata, SchemaMapping mapping) {
        this.metadata = metadata;
        this.mapping = mapping;
    }

    /** Forgets known shapes (after a schema change was applied). */
    public void invalidate() {
        shapes.clear();
        metadata.invalidate();
    }

    /** The transaction's write keys, or null when it must run alone. */
    public long[] of(List<Change> changes) throws Exception {
        long[] keys = new long[Math.max(4, changes.size() * 2)];
        int n = 0;
        for (Change c : changes) {
            if (!(c instanceof RowChange row)) {
                return null;
            }
            TableShape shape = shape(row.table().schema(), row.table().table());
            if (shape == null) {
                return null;
            }
            for (RowImage image : new RowImage[] {row.before(), row.after()}) {
                if (image == null) {
                    continue;
                }
                boolean any = false;
                String schema = mapping.targetSchema(row.table().schema());
                for (TableShape.Key key : shape.uniqueKeys()) {
                    long h = hash(key.name(), schema, row.table().table(), key.columns(), image);
                    if (h != 0) {
                        keys = grow(keys, n);
                        keys[n++] = h;
                        any = true;
                    }
                }
                if (!any) {
                    // Why the table's key is enough: two transactions changing the same row of such a table both carry
                    // it; a row whose nullable unique key is set in one change and NULL in another meets through the
                    // change between, which carries both the value's key and the table's.
                    keys = grow(keys, n);
                    keys[n++] = tableKey(schema, row.table().table());
                }
                for (TableShape.ForeignKey fk : shape.foreignKeys()) {
                    long h = hash(fk.parentKey().name(), fk.parent().schema(), fk.parent().table(), fk.columns(), image);
                    if (h != 0) {
                        keys = grow(keys, n);
                        keys[n++] = h;
                    }
                }
            }
        }
        return java.util.Arrays.copyOf(keys, n);
    }

    private TableShape shape(String sourceSchema, String table) throws Exception {
        String target = mapping.targetSchema(sourceSchema);
        String k = target + '\u0000' + table;
        if (shapes.containsKey(k)) {
            return shapes.get(k);
        }
        TableShape s = metadata.shape(target, table);
        shapes.put(k, s);
        return s;
    }

    private static long[] grow(long[] a, int n) {
        return n < a.length ? a : java.util.Arrays.copyOf(a, a.length * 2);
    }

    /** The key of a whole table (no index name holds NUL, so it meets no index's key). */
    private static long tableKey(String schema, String table) {
        return digest("\u0000table\u0001" + schema + "\u0001" + table);
    }

    /** A key's 64-bit hash, never 0. */
    private static long digest(String text) {
        byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        long h = ((long) Utils.murmur2(bytes) << 32) ^ (java.util.Arrays.hashCode(bytes) & 0xffffffffL);
        return h == 0 ? 1 : h;
    }

    /** 0 when a key column is absent or NULL (such a row is not identified by that key). */
    private static long hash(String index, String schema, String table, List<String> columns, RowImage image) {
        StringBuilder text = new StringBuilder(64).append(index).append('\u0001').append(schema).append('\u0001')
                .append(table);
        for (String column : columns) {
            int at = image.indexOf(column);
            if (at < 0 || image.values()[at] == null) {
                return 0;
            }
            text.append('\u0001').append(normalised(image.values()[at]));
        }
        return digest(text.toString());
    }

    private static String normalised(Object v) {
        if (v instanceof String s) {
            return "s" + s.stripTrailing().toLowerCase(Locale.ROOT);
        }
        if (v instanceof BigDecimal d) {
            return "n" + (d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString());
        }
        if (v instanceof Number n) {
            return "n" + n;
        }
        if (v instanceof byte[] b) {
            return "b" + java.util.HexFormat.of().formatHex(b);
        }
        return "o" + v;
    }
}
