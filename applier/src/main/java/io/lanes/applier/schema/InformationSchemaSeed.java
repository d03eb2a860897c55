package io.lanes.applier.schema;

import io.lanes.applier.SchemaMapping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Seeds a {@link SchemaHistory} from a live source server's {@code information_schema}: the definitions of the tables
 * the pipeline applies that the history does not know yet (a schema file's definitions win). Each table is rebuilt as
 * a CREATE TABLE (columns in ordinal order with their COLUMN_TYPE, charset, nullability, generated and invisible
 * flags; primary and unique keys; foreign keys) and read by the same parser as the log's DDL.
 *
 * <p>These are the definitions of now, not of the stream's start: a stream that starts before later DDL reads its
 * first row events with them; a column count or type that does not match refuses the event (see
 * {@code BinlogBridge}), and the log's own DDL replaces them as it comes. The account needs to see the tables in
 * information_schema (any privilege on them, e.g. SELECT); the replication privileges alone show none.
 */
public final class InformationSchemaSeed {
    static final String COLUMNS = "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, CHARACTER_SET_NAME,"
            + " IS_NULLABLE, EXTRA FROM information_schema.COLUMNS WHERE TABLE_SCHEMA NOT IN ('mysql',"
            + " 'information_schema', 'performance_schema', 'sys') ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION";
    static final String KEYS = "SELECT TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, COLUMN_NAME FROM"
            + " information_schema.STATISTICS WHERE NON_UNIQUE = 0 AND TABLE_SCHEMA NOT IN ('mysql',"
            + " 'information_schema', 'performance_schema', 'sys') ORDER BY TABLE_SCHEMA, TABLE_NAME, INDEX_NAME,"
            + " SEQ_IN_INDEX";
    static final String FOREIGN_KEYS = "SELECT TABLE_SCHEMA, TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME,"
            + " REFERENCED_TABLE_SCHEMA, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM"
            + " information_schema.KEY_COLUMN_USAGE WHERE REFERENCED_TABLE_NAME IS NOT NULL AND TABLE_SCHEMA NOT IN"
            + " ('mysql', 'information_schema', 'performance_schema', 'sys') ORDER BY TABLE_SCHEMA, TABLE_NAME,"
            + " CONSTRAINT_NAME, ORDINAL_POSITION";
    /** The statements {@link #seed} needs answered, in order. */
    public static final List<String> STATEMENTS = List.of(COLUMNS, KEYS, FOREIGN_KEYS);

    private InformationSchemaSeed() {
    }

    /**
     * Adds the tables of {@code mapping}'s schemas that {@code history} does not know.
     *
     * @param query runs {@link #STATEMENTS} on the source and returns each one's rows (e.g.
     *     {@code ReplicationClient::queryRows})
     * @param origin names the server, for {@link SourceTable#origin()}
     * @return the number of tables added
     */
    public static int seed(SchemaHistory history, SchemaMapping mapping,
            Function<List<String>, List<List<List<String>>>> query, String origin) {
        List<List<List<String>>> answers = query.apply(STATEMENTS);
        Map<String, Table> tables = new LinkedHashMap<>();
        for (List<String> r : answers.get(0)) {
            Table t = tables.computeIfAbsent(r.get(0) + "\u0000" + r.get(1), k -> new Table(r.get(0), r.get(1)));
            StringBuilder col = new StringBuilder(q(r.get(2))).append(' ').append(r.get(3));
            if (r.get(4) != null) {
                col.append(" CHARACTER SET ").append(r.get(4));
            }
            // MySQL 8 says DEFAULT_GENERATED for an expression default: not a generated column
            String extra = r.get(6) == null ? "" : r.get(6).toUpperCase(Locale.ROOT).replace("DEFAULT_GENERATED", "");
            if (extra.contains("GENERATED") || extra.contains("VIRTUAL") || extra.contains("PERSISTENT")) {
                col.append(" AS (0)"); // the expression does not matter to the history
            }
            col.append("YES".equals(r.get(5)) ? " NULL" : " NOT NULL");
            if (extra.contains("INVISIBLE")) {
                col.append(" INVISIBLE");
            }
            t.parts.add(col.toString());
        }
        Map<String, List<String>> keys = new LinkedHashMap<>();
        for (List<String> r : answers.get(1)) {
            keys.computeIfAbsent(r.get(0) + "\u0000" + r.get(1) + "\u0000" + r.get(2), k -> new ArrayList<>())
                    .add(r.get(3));
        }
        keys.forEach((k, cols) -> {
            String[] p = k.split("\u0000", -1);
            Table t = tables.get(p[0] + "\u0000" + p[1]);
            if (t != null) {
                t.parts.add((p[2].equals("PRIMARY") ? "PRIMARY KEY" : "UNIQUE KEY " + q(p[2])) + " (" + list(cols)
                        + ")");
            }
        });
        Map<String, List<List<String>>> fks = new LinkedHashMap<>();
        for (List<String> r : answers.get(2)) {
            fks.computeIfAbsent(r.get(0) + "\u0000" + r.get(1) + "\u0000" + r.get(2), k -> new ArrayList<>()).add(r);
        }
        fks.forEach((k, rows) -> {
            String[] p = k.split("\u0000", -1);
            Table t = tables.get(p[0] + "\u0000" + p[1]);
            if (t != null) {
                List<String> child = rows.stream().map(r -> r.get(3)).toList();
                List<String> parent = rows.stream().map(r -> r.get(6)).toList();
                t.parts.add("CONSTRAINT " + q(p[2]) + " FOREIGN KEY (" + list(child) + ") REFERENCES "
                        + q(rows.get(0).get(4)) + "." + q(rows.get(0).get(5)) + " (" + list(parent) + ")");
            }
        });
        int added = 0;
        for (Table t : tables.values()) {
            if (!mapping.includesTable(t.schema, t.name) || history.table(t.schema, t.name) != null) {
                continue;
            }
            String sql = "CREATE TABLE " + q(t.schema) + "." + q(t.name) + " (" + String.join(", ", t.parts) + ")";
            if (history.define(sql, null, origin) && history.table(t.schema, t.name) != null) {
                added++;
            }
        }
        return added;
    }

    private static final class Table {
        final String schema;
        final String name;
        final List<String> parts = new ArrayList<>();

        Table(String schema, String name) {
            this.schema = schema;
            this.name = name;
        }
    }

    private static String q(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    private static String list(List<String> names) {
        return String.join(", ", names.stream().map(InformationSchemaSeed::q).toList());
    }
}
