package io.lanes.applier.schema;

import io.lanes.applier.TableRef;
import io.lanes.applier.internal.MySqlDdl;
import io.lanes.applier.internal.MySqlDdlParser;
import io.lanes.applier.internal.MySqlTokenizer;
import io.lanes.applier.internal.SqlScript;
import io.lanes.applier.internal.SqlToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The source's table definitions, followed through the log's own DDL: what Debezium calls a schema history. It answers
 * "which columns, in which order, of which types, did {@code db.t} have at this event", which a binlog written with
 * {@code binlog_row_metadata=MINIMAL} (MySQL's default; MariaDB's NO_LOG says even less) does not carry: no column
 * names, no ENUM/SET members, and on MariaDB's NO_LOG no signedness.
 *
 * <p>Definitions come, in this order of precedence, from the log's own statements (QUERY events in log order with
 * their default database: CREATE/ALTER/DROP/RENAME/TRUNCATE TABLE, CREATE ... LIKE, CREATE/DROP INDEX, DROP
 * DATABASE), from the seed given before the first event (a schema file of {@code mariadb-dump --no-data} /
 * {@code mysqldump --no-data} output, or the source server's information_schema), and only when neither knows a table
 * the reader falls back to the target's catalog. A table statement the parser cannot read makes that table's definition
 * unknown (with the reason kept for messages), never silently stale.
 *
 * <p>Not thread-safe: the dispatching thread applies statements and reads definitions in source order.
 */
public final class SchemaHistory {
    private final Map<TableRef, SourceTable> tables = new HashMap<>();
    private final Map<TableRef, String> lost = new HashMap<>();
    private long version;

    /** A history that knows no table yet. */
    public SchemaHistory() {
    }

    /** The definition in force, or null when the history does not know the table. */
    public SourceTable table(String schema, String table) {
        return tables.get(new TableRef(schema, table));
    }

    /** Why the history lost a table's definition (a statement it could not read), or null. */
    public String whyUnknown(String schema, String table) {
        return lost.get(new TableRef(schema, table));
    }

    /** Every known definition. */
    public Collection<SourceTable> tables() {
        return List.copyOf(tables.values());
    }

    /** Counts changes: it differs after any statement that changed a definition. */
    public long version() {
        return version;
    }

    /** Adds or replaces a definition (seeding from information_schema, or a test). */
    public void put(SourceTable table) {
        TableRef ref = new TableRef(table.schema(), table.name());
        tables.put(ref, table);
        lost.remove(ref);
        version++;
    }

    /**
     * Follows one statement of the log. Statements that do not define tables (data statements of a statement-based
     * log, account management, SET, ...) change nothing.
     *
     * @param sql the statement text
     * @param defaultDatabase the statement's default database (USE), or null
     * @param sqlMode the source session's sql_mode bits (ANSI_QUOTES and NO_BACKSLASH_ESCAPES change tokenizing)
     * @param where where the statement is, for {@link SourceTable#origin()} and messages
     * @return whether a definition changed
     */
    public boolean apply(String sql, String defaultDatabase, long sqlMode, String where) {
        return follow(sql, defaultDatabase, sqlMode, where, "the log at " + where);
    }

    /**
     * Like {@link #apply}, for definitions from elsewhere than the log (a schema file, the source's information_schema):
     * {@code origin} is what {@link SourceTable#origin()} says.
     */
    public boolean define(String sql, String defaultDatabase, String origin) {
        return follow(sql, defaultDatabase, 0, origin, origin);
    }

    private boolean follow(String sql, String defaultDatabase, long sqlMode, String where, String origin) {
        if (!mayDefine(sql)) {
            return false; // a data statement of a statement-based log, SET, GRANT, ...: not tokenized at all
        }
        String db = defaultDatabase == null || defaultDatabase.isEmpty() ? null : defaultDatabase;
        MySqlDdl.Statement statement;
        try {
            statement = MySqlDdlParser.parseDefinitions(sql, db, sqlMode);
        } catch (RuntimeException unreadable) {
            return forget(sql, db, sqlMode, where, unreadable.getMessage());
        }
        long before = version;
        try {
            applyParsed(statement, origin);
        } catch (RuntimeException inconsistent) {
            // e.g. ALTER of a column the history does not have: the definition it holds is not the source's
            return forget(sql, db, sqlMode, where, inconsistent.getMessage());
        }
        return version != before;
    }

    /**
     * Reads a schema file: {@code mariadb-dump --no-data} or {@code mysqldump --no-data} output (CREATE DATABASE, USE,
     * CREATE TABLE, ...; DELIMITER blocks and executable comments as the dump tools write them). Statements other than
     * table definitions are passed over.
     *
     * @throws IOException when the file cannot be read
     */
    public void loadSchemaFile(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String db = null;
        String origin = "schema file " + file.getFileName();
        for (SqlScript.Statement s : SqlScript.split(text)) {
            String use = SqlScript.useDatabase(s.sql());
            if (use != null) {
                db = use;
                continue;
            }
            define(s.sql(), db, origin + " line " + s.line());
        }
    }

    private boolean forget(String sql, String db, long sqlMode, String where, String reason) {
        TableRef target = tableNamed(sql, db, sqlMode);
        if (target == null) {
            return false; // not a table statement (a DML of a statement-based log, a GRANT, ...)
        }
        tables.remove(target);
        lost.put(target, "the statement at " + where + " could not be read (" + reason + ")");
        version++;
        return true;
    }

    /**
     * Whether a statement may change a definition: its first word (after whitespace and plain comments) is CREATE,
     * ALTER, DROP or RENAME, or it starts with an executable comment (whose content is SQL). A cheap look, so that the
     * data statements of a statement-based log are not parsed.
     */
    static boolean mayDefine(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (sql.startsWith("/*!", i) || sql.startsWith("/*M!", i)) {
                return true;
            } else if (sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                if (end < 0) {
                    return false;
                }
                i = end + 2;
            } else if (sql.startsWith("--", i) || c == '#') {
                int end = sql.indexOf('\n', i);
                if (end < 0) {
                    return false;
                }
                i = end + 1;
            } else {
                break;
            }
        }
        for (String word : new String[] {"CREATE", "ALTER", "DROP", "RENAME"}) {
            if (sql.regionMatches(true, i, word, 0, word.length())
                    && (i + word.length() == n || !Character.isLetterOrDigit(sql.charAt(i + word.length()))
                    && sql.charAt(i + word.length()) != '_')) {
                return true;
            }
        }
        return false;
    }

    /** The table a CREATE/ALTER/DROP/RENAME TABLE statement names first, by tokens alone; null for other statements. */
    private static TableRef tableNamed(String sql, String db, long sqlMode) {
        List<SqlToken> t;
        try {
            t = MySqlTokenizer.tokenize(sql, (sqlMode & MySqlDdlParser.MODE_ANSI_QUOTES) != 0,
                    (sqlMode & MySqlDdlParser.MODE_NO_BACKSLASH_ESCAPES) == 0);
        } catch (RuntimeException untokenizable) {
            return null;
        }
        if (t.isEmpty() || !(t.get(0).is("CREATE") || t.get(0).is("ALTER") || t.get(0).is("DROP")
                || t.get(0).is("RENAME"))) {
            return null;
        }
        for (int i = 1; i < Math.min(t.size(), 8); i++) {
            if (t.get(i).is("TEMPORARY")) {
                return null;
            }
            if (t.get(i).is("TABLE")) {
                int k = i + 1;
                while (k < t.size() && (t.get(k).is("IF") || t.get(k).is("NOT") || t.get(k).is("EXISTS"))) {
                    k++;
                }
                if (k >= t.size() || !t.get(k).isName()) {
                    return null;
                }
                if (k + 2 < t.size() && t.get(k + 1).isSymbol(".") && t.get(k + 2).isName()) {
                    return new TableRef(t.get(k).text(), t.get(k + 2).text());
                }
                return db == null ? null : new TableRef(db, t.get(k).text());
            }
        }
        return null;
    }

    private void applyParsed(MySqlDdl.Statement statement, String origin) {
        if (statement instanceof MySqlDdl.CreateTable c) {
            TableRef ref = ref(c.table());
            if (c.ifNotExists() && tables.containsKey(ref)) {
                return;
            }
            if (c.likeTable() != null) {
                SourceTable like = tables.get(ref(c.likeTable()));
                if (like == null) {
                    String why = lost.get(ref(c.likeTable()));
                    throw new IllegalStateException("CREATE TABLE ... LIKE " + ref(c.likeTable())
                            + ", a table the history does not know" + (why == null ? "" : ": " + why));
                }
                set(ref, like.renamed(ref.schema(), ref.table(), origin));
                return;
            }
            set(ref, create(c, origin));
        } else if (statement instanceof MySqlDdl.DropTable d) {
            if (d.temporary()) {
                return;
            }
            for (MySqlDdl.TableName n : d.tables()) {
                TableRef ref = ref(n);
                if (tables.remove(ref) != null | lost.remove(ref) != null) {
                    version++;
                }
            }
        } else if (statement instanceof MySqlDdl.RenameTables r) {
            for (MySqlDdl.TableName[] pair : r.pairs()) {
                rename(ref(pair[0]), ref(pair[1]), origin);
            }
        } else if (statement instanceof MySqlDdl.AlterTable a) {
            alter(a, origin);
        } else if (statement instanceof MySqlDdl.CreateIndex ci) {
            if (ci.unique()) {
                SourceTable t = known(ref(ci.table()));
                List<SourceTable.Key> keys = new ArrayList<>(t.uniqueKeys());
                keys.add(new SourceTable.Key(ci.name(), ci.columns()));
                set(ref(ci.table()), new SourceTable(t.schema(), t.name(), t.columns(), keys, t.foreignKeys(), origin));
            }
        } else if (statement instanceof MySqlDdl.DropIndex di) {
            SourceTable t = tables.get(ref(di.table()));
            if (t != null) {
                set(ref(di.table()), withoutKey(t, di.name(), origin));
            }
        } else if (statement instanceof MySqlDdl.DropDatabase dd) {
            boolean changed = tables.keySet().removeIf(r -> r.schema().equals(dd.name()));
            changed |= lost.keySet().removeIf(r -> r.schema().equals(dd.name()));
            if (changed) {
                version++;
            }
        }
        // CREATE/ALTER DATABASE and TRUNCATE TABLE change no table definition.
    }

    private void set(TableRef ref, SourceTable table) {
        tables.put(ref, table);
        lost.remove(ref);
        version++;
    }

    private SourceTable known(TableRef ref) {
        SourceTable t = tables.get(ref);
        if (t == null) {
            String why = lost.get(ref);
            throw new IllegalStateException("table " + ref + " is not in the history"
                    + (why == null ? "" : ": " + why));
        }
        return t;
    }

    private void rename(TableRef from, TableRef to, String origin) {
        SourceTable t = tables.remove(from);
        String why = lost.remove(from);
        if (t != null) {
            set(to, t.renamed(to.schema(), to.table(), origin));
        } else {
            tables.remove(to);
            if (why != null) {
                lost.put(to, why);
            } else {
                lost.remove(to);
            }
            version++;
        }
    }

    private static TableRef ref(MySqlDdl.TableName n) {
        return new TableRef(n.schema(), n.name());
    }

    private static SourceColumn column(MySqlDdl.Column c) {
        MySqlDdl.DataType type = c.type();
        String charset = c.charset();
        if (charset == null && c.collation() != null && c.collation().equals("binary")) {
            charset = "binary";
        }
        String name = type.name();
        List<String> params = type.params();
        if (name.equals("bool") || name.equals("boolean")) {
            name = "tinyint";
            params = List.of("1");
        } else if (name.equals("integer")) {
            name = "int";
        } else if (name.equals("dec") || name.equals("numeric") || name.equals("fixed")) {
            name = "decimal";
        } else if (name.equals("real")) {
            name = "double";
        } else if (name.equals("float") && params.size() == 1 && type.param(0) != null && type.param(0) > 24) {
            name = "double"; // FLOAT(p) with p 25..53 is a DOUBLE
            params = List.of();
        } else if (name.equals("int1") || name.equals("int2") || name.equals("int3") || name.equals("int4")
                || name.equals("int8") || name.equals("middleint")) {
            name = switch (name) {
                case "int1" -> "tinyint";
                case "int2" -> "smallint";
                case "int3", "middleint" -> "mediumint";
                case "int4" -> "int";
                default -> "bigint";
            };
        }
        boolean nullable = c.nullable() == null ? !c.primaryKey() : c.nullable();
        return new SourceColumn(c.name(), name, params, type.unsigned(), charset, nullable, c.generated(),
                c.invisible());
    }

    private static SourceTable create(MySqlDdl.CreateTable c, String origin) {
        List<SourceColumn> columns = new ArrayList<>();
        List<SourceTable.Key> keys = new ArrayList<>();
        List<SourceTable.ForeignKey> fks = new ArrayList<>();
        for (MySqlDdl.Column col : c.columns()) {
            columns.add(column(col));
            if (col.primaryKey()) {
                keys.add(0, new SourceTable.Key(SourceTable.PRIMARY, List.of(col.name())));
            } else if (col.unique()) {
                keys.add(new SourceTable.Key(col.name(), List.of(col.name())));
            }
            if (col.references() != null) {
                fks.add(foreignKey(col.references()));
            }
        }
        SourceTable t = new SourceTable(c.table().schema(), c.table().name(), columns, keys, fks, origin);
        for (MySqlDdl.Constraint k : c.constraints()) {
            t = withConstraint(t, k, origin);
        }
        return t;
    }

    private static SourceTable.ForeignKey foreignKey(MySqlDdl.ForeignKey f) {
        return new SourceTable.ForeignKey(f.name(), f.columns(), f.parent().schema(), f.parent().name(),
                f.parentColumns());
    }

    private static SourceTable withConstraint(SourceTable t, MySqlDdl.Constraint k, String origin) {
        List<SourceTable.Key> keys = new ArrayList<>(t.uniqueKeys());
        List<SourceTable.ForeignKey> fks = new ArrayList<>(t.foreignKeys());
        List<SourceColumn> columns = new ArrayList<>(t.columns());
        if (k instanceof MySqlDdl.PrimaryKey p) {
            keys.removeIf(SourceTable.Key::isPrimary);
            keys.add(0, new SourceTable.Key(SourceTable.PRIMARY, p.columns()));
            for (String name : p.columns()) { // primary key columns are NOT NULL
                int at = t.indexOf(name);
                if (at >= 0) {
                    SourceColumn c = columns.get(at);
                    columns.set(at, new SourceColumn(c.name(), c.type(), c.params(), c.unsigned(), c.charset(), false,
                            c.generated(), c.invisible()));
                }
            }
        } else if (k instanceof MySqlDdl.Unique u) {
            String name = u.name() != null ? u.name() : u.columns().isEmpty() ? "UNIQUE" + keys.size()
                    : u.columns().get(0);
            keys.add(new SourceTable.Key(name, u.columns()));
        } else if (k instanceof MySqlDdl.ForeignKey f) {
            fks.add(foreignKey(f));
        }
        return new SourceTable(t.schema(), t.name(), columns, keys, fks, origin);
    }

    private static SourceTable withoutKey(SourceTable t, String name, String origin) {
        List<SourceTable.Key> keys = new ArrayList<>(t.uniqueKeys());
        keys.removeIf(k -> k.name().equalsIgnoreCase(name));
        return new SourceTable(t.schema(), t.name(), t.columns(), keys, t.foreignKeys(), origin);
    }

    private void alter(MySqlDdl.AlterTable a, String origin) {
        TableRef ref = ref(a.table());
        SourceTable t = known(ref);
        for (MySqlDdl.AlterOp op : a.ops()) {
            t = alterOne(t, op, origin);
        }
        if (!t.schema().equals(ref.schema()) || !t.name().equals(ref.table())) {
            tables.remove(ref);
            set(new TableRef(t.schema(), t.name()), t);
        } else {
            set(ref, t);
        }
    }

    private static SourceTable alterOne(SourceTable t, MySqlDdl.AlterOp op, String origin) {
        List<SourceColumn> columns = new ArrayList<>(t.columns());
        if (op instanceof MySqlDdl.AddColumn add) {
            if (t.indexOf(add.column().name()) >= 0) {
                return t; // ADD COLUMN IF NOT EXISTS of an existing column
            }
            columns.add(place(t, add.after(), columns.size()), column(add.column()));
            SourceTable out = new SourceTable(t.schema(), t.name(), columns, t.uniqueKeys(), t.foreignKeys(), origin);
            return withColumnKeys(out, add.column(), origin);
        }
        if (op instanceof MySqlDdl.DropColumn drop) {
            int at = t.indexOf(drop.name());
            if (at < 0) {
                if (drop.ifExists()) {
                    return t;
                }
                throw new IllegalStateException("DROP COLUMN " + drop.name() + ": no such column in " + t.columnNames());
            }
            columns.remove(at);
            List<SourceTable.Key> keys = new ArrayList<>();
            for (SourceTable.Key k : t.uniqueKeys()) {
                List<String> rest = k.columns().stream().filter(c -> !c.equalsIgnoreCase(drop.name())).toList();
                if (!rest.isEmpty()) {
                    keys.add(new SourceTable.Key(k.name(), rest));
                }
            }
            List<SourceTable.ForeignKey> fks = t.foreignKeys().stream()
                    .filter(f -> f.columns().stream().noneMatch(c -> c.equalsIgnoreCase(drop.name()))).toList();
            return new SourceTable(t.schema(), t.name(), columns, keys, fks, origin);
        }
        if (op instanceof MySqlDdl.ModifyColumn m) {
            int at = t.indexOf(m.oldName());
            if (at < 0) {
                throw new IllegalStateException("MODIFY/CHANGE COLUMN " + m.oldName() + ": no such column in "
                        + t.columnNames());
            }
            columns.remove(at);
            int to = m.after() == null ? at : place(withColumns(t, columns), m.after(), at);
            columns.add(to, column(m.column()));
            SourceTable out = renameInKeys(withColumns(t, columns), m.oldName(), m.column().name(), origin);
            return withColumnKeys(out, m.column(), origin);
        }
        if (op instanceof MySqlDdl.RenameColumn r) {
            int at = t.indexOf(r.oldName());
            if (at < 0) {
                throw new IllegalStateException("RENAME COLUMN " + r.oldName() + ": no such column in "
                        + t.columnNames());
            }
            SourceColumn c = columns.get(at);
            columns.set(at, new SourceColumn(r.newName(), c.type(), c.params(), c.unsigned(), c.charset(),
                    c.nullable(), c.generated(), c.invisible()));
            return renameInKeys(withColumns(t, columns), r.oldName(), r.newName(), origin);
        }
        if (op instanceof MySqlDdl.AddConstraint c) {
            return withConstraint(t, c.constraint(), origin);
        }
        if (op instanceof MySqlDdl.DropPrimaryKey) {
            return withoutKey(t, SourceTable.PRIMARY, origin);
        }
        if (op instanceof MySqlDdl.DropIndexOp d) {
            return withoutKey(t, d.name(), origin);
        }
        if (op instanceof MySqlDdl.DropForeignKey d) {
            List<SourceTable.ForeignKey> fks = t.foreignKeys().stream()
                    .filter(f -> f.name() == null || !f.name().equalsIgnoreCase(d.name())).toList();
            return new SourceTable(t.schema(), t.name(), t.columns(), t.uniqueKeys(), fks, origin);
        }
        if (op instanceof MySqlDdl.RenameTo r) {
            return t.renamed(r.table().schema(), r.table().name(), origin);
        }
        return t; // SET/DROP DEFAULT, table options, ENABLE KEYS, ...: no change to the columns or keys
    }

    private static SourceTable withColumns(SourceTable t, List<SourceColumn> columns) {
        return new SourceTable(t.schema(), t.name(), columns, t.uniqueKeys(), t.foreignKeys(), t.origin());
    }

    /** PRIMARY KEY / UNIQUE / REFERENCES written on a column of ADD or MODIFY. */
    private static SourceTable withColumnKeys(SourceTable t, MySqlDdl.Column c, String origin) {
        if (c.primaryKey()) {
            t = withConstraint(t, new MySqlDdl.PrimaryKey(List.of(c.name())), origin);
        } else if (c.unique()) {
            t = withConstraint(t, new MySqlDdl.Unique(c.name(), List.of(c.name())), origin);
        }
        if (c.references() != null) {
            t = withConstraint(t, c.references(), origin);
        }
        return t;
    }

    private static SourceTable renameInKeys(SourceTable t, String from, String to, String origin) {
        List<SourceTable.Key> keys = t.uniqueKeys().stream().map(k -> new SourceTable.Key(k.name(),
                k.columns().stream().map(c -> c.equalsIgnoreCase(from) ? to : c).toList())).toList();
        List<SourceTable.ForeignKey> fks = t.foreignKeys().stream().map(f -> new SourceTable.ForeignKey(f.name(),
                f.columns().stream().map(c -> c.equalsIgnoreCase(from) ? to : c).toList(), f.parentSchema(),
                f.parentTable(), f.parentColumns())).toList();
        return new SourceTable(t.schema(), t.name(), t.columns(), keys, fks, origin);
    }

    /** Where a column goes: FIRST (""), AFTER x, or {@code otherwise} (null). */
    private static int place(SourceTable t, String after, int otherwise) {
        if (after == null) {
            return otherwise;
        }
        if (after.isEmpty()) {
            return 0;
        }
        int at = t.indexOf(after);
        if (at < 0) {
            throw new IllegalStateException("AFTER " + after + ": no such column in " + t.columnNames());
        }
        return at + 1;
    }

    // ------------------------------------------------------------------------------------------------ persistence

    /**
     * The history as text, one table a line, sorted: what a checkpoint stores beside its position, and what
     * {@link #fromText} reads back. Tables whose definition was lost are kept with their reason.
     */
    public String toText() {
        return SchemaHistoryText.write(new TreeMap<>(byName(tables)), new TreeMap<>(byNameLost(lost)));
    }

    /** Reads {@link #toText()} output. */
    public static SchemaHistory fromText(String text) {
        SchemaHistory h = new SchemaHistory();
        SchemaHistoryText.read(text, h.tables, h.lost);
        return h;
    }

    /** Replaces this history's content with another's (a restart loading the definitions in force at its position). */
    public void replaceWith(SchemaHistory other) {
        tables.clear();
        tables.putAll(other.tables);
        lost.clear();
        lost.putAll(other.lost);
        version++;
    }

    private static Map<String, SourceTable> byName(Map<TableRef, SourceTable> m) {
        Map<String, SourceTable> out = new HashMap<>();
        m.forEach((k, v) -> out.put(k.schema() + "\u0000" + k.table(), v));
        return out;
    }

    private static Map<String, String[]> byNameLost(Map<TableRef, String> m) {
        Map<String, String[]> out = new HashMap<>();
        m.forEach((k, v) -> out.put(k.schema() + "\u0000" + k.table(), new String[] {k.schema(), k.table(), v}));
        return out;
    }

    @Override
    public String toString() {
        return "SchemaHistory[" + tables.size() + " tables" + (lost.isEmpty() ? "" : ", " + lost.size() + " lost")
                + "]";
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
