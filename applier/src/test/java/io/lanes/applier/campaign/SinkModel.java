package io.lanes.applier.campaign;

import io.lanes.applier.Change;
import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.applier.sink.TransactionSink;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CDC consumer's view of the source kept in memory: the rows of each table, built only from what a
 * {@link TransactionSink} is handed (row changes with column names and typed values, and statements). An UPDATE or
 * DELETE finds its row by the before image (the first row whose values equal every column the image carries, as a
 * replica without a key does); an image that matches no row is recorded as an anomaly. The statements the campaign's
 * DDL writes are interpreted for their effect on existing rows (RENAME TABLE, RENAME COLUMN, TRUNCATE, DROP TABLE;
 * ADD COLUMN without a default leaves NULL, which an absent value reads as); CREATE statements need nothing; a data
 * statement (statement-based logging) cannot be interpreted by a consumer and is refused.
 *
 * <p>Thread-safe: deliveries are serialised (the engine delivers in dependency order; this model needs no more).
 */
final class SinkModel implements TransactionSink {
    private static final Pattern RENAME_TABLE = Pattern.compile("RENAME TABLE `([^`]+)` TO `([^`]+)`");
    private static final Pattern RENAME_COLUMN = Pattern.compile("ALTER TABLE `([^`]+)` RENAME COLUMN `([^`]+)` TO `([^`]+)`");
    private static final Pattern TRUNCATE = Pattern.compile("TRUNCATE TABLE `([^`]+)`");
    private static final Pattern DROP_TABLE = Pattern.compile("DROP TABLE `([^`]+)`.*");
    private static final Pattern DROP_COLUMN = Pattern.compile("ALTER TABLE `([^`]+)` DROP COLUMN `([^`]+)`");
    private static final Pattern HARMLESS = Pattern.compile("(?is)\\s*(CREATE|ALTER TABLE `[^`]+` (ADD|MODIFY) COLUMN|SAVEPOINT"
            + "|ROLLBACK TO|BEGIN|COMMIT).*");

    private final Map<String, List<Map<String, Object>>> tables = new HashMap<>();
    private final List<String> anomalies = new ArrayList<>();
    private long transactions;

    @Override
    public synchronized CompletableFuture<Void> deliver(SourceTransaction transaction, int workerId) {
        for (Change change : transaction.changes()) {
            if (change instanceof RowChange row) {
                apply(row, transaction.position());
            } else if (change instanceof SourceStatement statement) {
                apply(statement, transaction.position());
            }
        }
        transactions++;
        return CompletableFuture.completedFuture(null);
    }

    private void apply(RowChange change, String position) {
        List<Map<String, Object>> rows = tables.computeIfAbsent(key(change.table().schema(), change.table().table()),
                k -> new ArrayList<>());
        switch (change.kind()) {
            case INSERT -> rows.add(toMap(change.after()));
            case UPDATE, DELETE -> {
                int at = find(rows, change.before());
                if (at < 0) {
                    anomalies.add(change.kind() + " of " + change.table() + " at " + position + " matched no row: "
                            + change.before());
                } else if (change.kind() == RowChange.Kind.DELETE) {
                    rows.remove(at);
                } else {
                    rows.get(at).putAll(toMap(change.after()));
                }
            }
        }
    }

    private void apply(SourceStatement statement, String position) {
        String sql = statement.sql().trim();
        String schema = statement.defaultSchema();
        Matcher m;
        if ((m = RENAME_TABLE.matcher(sql)).matches()) {
            List<Map<String, Object>> rows = tables.remove(key(schema, m.group(1)));
            tables.put(key(schema, m.group(2)), rows == null ? new ArrayList<>() : rows);
        } else if ((m = RENAME_COLUMN.matcher(sql)).matches()) {
            for (Map<String, Object> row : tables.getOrDefault(key(schema, m.group(1)), List.of())) {
                row.put(m.group(3), row.remove(m.group(2)));
            }
        } else if ((m = DROP_COLUMN.matcher(sql)).matches()) {
            for (Map<String, Object> row : tables.getOrDefault(key(schema, m.group(1)), List.of())) {
                row.remove(m.group(2));
            }
        } else if ((m = TRUNCATE.matcher(sql)).matches()) {
            tables.remove(key(schema, m.group(1)));
        } else if ((m = DROP_TABLE.matcher(sql)).matches()) {
            tables.remove(key(schema, m.group(1)));
        } else if (!HARMLESS.matcher(sql).matches()) {
            throw new IllegalStateException("statement-based change delivered to the sink as SQL text at " + position
                    + ", which a consumer cannot apply to its table model: " + statement.abbreviated());
        }
    }

    private static int find(List<Map<String, Object>> rows, RowImage before) {
        outer:
        for (int i = 0; i < rows.size(); i++) {
            Map<String, Object> row = rows.get(i);
            for (int c = 0; c < before.columns().size(); c++) {
                if (!sameValue(row.get(before.columns().get(c)), before.values()[c])) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /**
     * Equal values, numbers by value: after a widening MODIFY COLUMN (SMALLINT to INT) the same number is decoded as
     * another Java type than when the row was stored.
     */
    private static boolean sameValue(Object stored, Object logged) {
        if (stored instanceof Number a && logged instanceof Number b && !(a instanceof Float || a instanceof Double)
                && !(b instanceof Float || b instanceof Double)) {
            return new java.math.BigDecimal(a.toString()).compareTo(new java.math.BigDecimal(b.toString())) == 0;
        }
        return Objects.deepEquals(stored, logged);
    }

    private static Map<String, Object> toMap(RowImage image) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int c = 0; c < image.columns().size(); c++) {
            m.put(image.columns().get(c), image.values()[c]);
        }
        return m;
    }

    private static String key(String schema, String table) {
        return schema + "." + table;
    }

    synchronized List<String> anomalies() {
        return List.copyOf(anomalies);
    }

    synchronized long transactions() {
        return transactions;
    }

    /** The model's rows in the digest's canonical form, for the given source tables (cascade children left out). */
    synchronized Map<String, List<String>> digest(List<TableDigest.SourceTable> shapes) {
        Map<String, List<String>> out = new java.util.TreeMap<>();
        for (TableDigest.SourceTable t : shapes) {
            List<String> rows = new ArrayList<>();
            for (Map<String, Object> row : tables.getOrDefault(t.key(), List.of())) {
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < t.columns().size(); i++) {
                    TableDigest.SourceColumn col = t.columns().get(i);
                    b.append(i > 0 ? "\u001f" : "").append(TableDigest.sinkValue(row.get(col.name()), col));
                }
                rows.add(b.toString());
            }
            java.util.Collections.sort(rows);
            out.put(t.key(), rows);
        }
        return out;
    }
}
