package io.lanes.applier.internal;

import io.lanes.applier.internal.SqlToken.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a statement the source logged as text is, and which schemas its text names: read from its tokens, for any
 * statement (DDL the translator knows, DML of statement-based logging, routines, grants...). Immutable.
 *
 * <p>A schema is named by the qualifier of an object in an object position (after FROM, JOIN, INTO, UPDATE, TABLE,
 * REFERENCES, LIKE, TO of RENAME, ON of CREATE TRIGGER/INDEX, CALL, the object of CREATE/ALTER/DROP VIEW, PROCEDURE,
 * FUNCTION, TRIGGER, EVENT, SEQUENCE, and continued by commas in a table list), by the first part of a three-part name
 * ({@code db.t.c}) and of a qualified call ({@code db.f(...)}) anywhere, and by the name of a database statement
 * ({@code CREATE DATABASE db}). A two-part name elsewhere ({@code t.c} in an expression) is a table's column, not a
 * schema. {@link #qualifiers()} lists every other {@code x.} qualifier, which the caller may treat as a schema when
 * {@code x} is a schema it renames or excludes (a position this reader does not know is then never mistaken for
 * none).
 *
 * <p>Statements inside a routine or trigger body are read the same way, so their tables count too.
 */
public record StatementScope(Kind kind, List<SqlToken> schemaTokens, List<SqlToken> qualifiers) {

    /** What kind of statement it is, as far as where it may run and what it may touch is concerned. */
    public enum Kind {
        /** Users, roles, grants, passwords, server definitions: the source server's accounts, never data. */
        ACCOUNT_MANAGEMENT,
        /** CREATE/ALTER/DROP DATABASE (or SCHEMA): needs no default database. */
        DATABASE,
        /** CREATE TRIGGER. */
        CREATE_TRIGGER,
        /** DROP TRIGGER. */
        DROP_TRIGGER,
        /** CREATE/ALTER/DROP of a view, procedure, function or event: a program object, no rows. */
        PROGRAM,
        /** Anything else: tables, indexes, rows. */
        OTHER
    }

    public StatementScope {
        schemaTokens = List.copyOf(schemaTokens);
        qualifiers = List.copyOf(qualifiers);
    }

    /** The schema names in {@link #schemaTokens()} (unquoted), in order of first appearance. */
    public Set<String> schemas() {
        Set<String> out = new LinkedHashSet<>();
        for (SqlToken t : schemaTokens) {
            out.add(t.text());
        }
        return out;
    }

    /** Keywords after which an object name follows. */
    private static final Set<String> OBJECT_KEYWORDS = Set.of("FROM", "JOIN", "STRAIGHT_JOIN", "INTO", "UPDATE",
            "TABLE", "TABLES", "REFERENCES", "CALL", "VIEW", "PROCEDURE", "FUNCTION", "TRIGGER", "EVENT", "SEQUENCE",
            "DELETE", "INSERT", "REPLACE", "TRUNCATE", "USING");
    /** Of those, the ones after which a comma continues a list of tables. */
    private static final Set<String> LIST_STARTS = Set.of("FROM", "JOIN", "STRAIGHT_JOIN", "UPDATE", "TABLE", "TABLES",
            "DELETE", "USING");
    /** Modifiers that may stand between such a keyword and the name. */
    private static final Set<String> TRANSPARENT = Set.of("LOW_PRIORITY", "HIGH_PRIORITY", "DELAYED", "IGNORE", "QUICK",
            "IF", "NOT", "EXISTS", "TEMPORARY", "ONLY", "LOCAL", "NO_WRITE_TO_BINLOG", "CONCURRENT");
    /** Keywords that end a comma-separated table list. */
    private static final Set<String> LIST_ENDS = Set.of("SET", "WHERE", "ON", "GROUP", "ORDER", "HAVING", "LIMIT",
            "SELECT", "VALUES", "VALUE", "WINDOW", "UNION", "EXCEPT", "INTERSECT", "RETURNING", "PARTITION", "FOR",
            "LOCK", "READ", "WRITE", "AS", "BEGIN", "RETURNS", "DO", "BEFORE", "AFTER", "DEFAULT", "CHARACTER",
            "CHARSET", "COLLATE", "ENGINE", "COMMENT", "SQL", "SECURITY", "ALGORITHM", "DEFINER", "WITH", "IN", "OUT",
            "INOUT", "DUPLICATE");
    /** Words before a parenthesis that opens a subquery or a list rather than a function's arguments. */
    private static final Set<String> NOT_CALLS = Set.of("IN", "EXISTS", "FROM", "JOIN", "VALUES", "VALUE", "AS", "ON",
            "USING", "INTO", "SELECT", "ANY", "ALL", "SOME", "TABLE", "LATERAL", "WHERE", "AND", "OR", "NOT", "WITH",
            "UNION", "EXCEPT", "INTERSECT", "SET", "RETURN", "THEN", "ELSE", "WHEN", "DO");
    /** The words that say what a CREATE, ALTER or DROP statement acts on. */
    private static final Set<String> OBJECT_TYPES = Set.of("USER", "ROLE", "SERVER", "DATABASE", "SCHEMA", "TRIGGER",
            "VIEW", "PROCEDURE", "FUNCTION", "EVENT", "PACKAGE", "TABLE", "INDEX", "SEQUENCE", "TABLESPACE", "LOGFILE",
            "SPATIAL", "FULLTEXT", "UNIQUE", "TEMPORARY", "ONLINE", "IGNORE");

    /** One level of parentheses: whether a comma there continues a table list, and whether it holds arguments. */
    private static final class Frame {
        boolean tableList;
        final boolean call;
        boolean select;

        Frame(boolean call) {
            this.call = call;
        }

        /** Whether FROM, JOIN and the like name tables here (not FROM of EXTRACT(YEAR FROM d) or TRIM). */
        boolean namesTables() {
            return !call || select;
        }
    }

    /**
     * Reads a statement.
     *
     * @param sqlMode the source session's sql_mode (ANSI_QUOTES and NO_BACKSLASH_ESCAPES change the tokens)
     * @throws DdlSyntaxException when the text does not even tokenize (an unterminated quote or comment)
     */
    public static StatementScope of(String sql, long sqlMode) {
        List<SqlToken> tokens = MySqlTokenizer.tokenize(sql, (sqlMode & MySqlDdlParser.MODE_ANSI_QUOTES) != 0,
                (sqlMode & MySqlDdlParser.MODE_NO_BACKSLASH_ESCAPES) == 0);
        Kind kind = kind(tokens);
        List<SqlToken> schemas = new ArrayList<>();
        List<SqlToken> qualifiers = new ArrayList<>();
        if (kind == Kind.ACCOUNT_MANAGEMENT) {
            // GRANT ... ON db.* names a schema of the source's privilege tables, not an object to write.
            return new StatementScope(kind, schemas, qualifiers);
        }
        boolean createStatement = at(tokens, 0).is("CREATE");
        boolean firstOnIsTable = isIndexStatement(tokens);
        boolean rename = at(tokens, 0).is("RENAME") || at(tokens, 0).is("ALTER");
        Deque<Frame> frames = new ArrayDeque<>();
        frames.push(new Frame(false));
        for (int i = 0; i < tokens.size(); i++) {
            SqlToken t = tokens.get(i);
            Frame frame = frames.peek();
            if (t.isSymbol("(")) {
                SqlToken before = at(tokens, i - 1);
                frames.push(new Frame(before.isName() && !(before.type() == Type.WORD
                        && NOT_CALLS.contains(before.upper()))));
                continue;
            }
            if (t.isSymbol(")")) {
                if (frames.size() > 1) {
                    frames.pop();
                }
                continue;
            }
            if (t.isSymbol(";")) {
                frame.tableList = false;
                continue;
            }
            if (t.type() == Type.WORD) {
                String word = t.upper();
                if (word.equals("SELECT")) {
                    frame.select = true;
                }
                if ((word.equals("DATABASE") || word.equals("SCHEMA")) && kind == Kind.DATABASE && schemas.isEmpty()) {
                    int name = skipTransparent(tokens, i + 1);
                    if (at(tokens, name).isName() && !at(tokens, name + 1).isSymbol(".")) {
                        schemas.add(at(tokens, name));
                    }
                }
                boolean objectKeyword = OBJECT_KEYWORDS.contains(word) && frame.namesTables()
                        || word.equals("LIKE") && createStatement && frame.namesTables()
                        || word.equals("TO") && rename
                        || word.equals("ON") && (firstOnIsTable || previousIsTriggerEvent(tokens, i));
                if (objectKeyword && !at(tokens, i + 1).isSymbol("(") && !at(tokens, i + 1).isSymbol("=")) {
                    if (word.equals("ON")) {
                        firstOnIsTable = false;
                    }
                    objectAt(tokens, skipTransparent(tokens, i + 1), schemas);
                    if (LIST_STARTS.contains(word)) {
                        frame.tableList = true;
                    }
                    continue;
                }
                if (LIST_ENDS.contains(word)) {
                    frame.tableList = false;
                }
            }
            if (t.isSymbol(",") && frame.tableList) {
                objectAt(tokens, i + 1, schemas);
                continue;
            }
            // db.t.c and db.f(...) anywhere
            if (t.isName() && at(tokens, i + 1).isSymbol(".") && !at(tokens, i - 1).isSymbol(".")
                    && at(tokens, i + 2).isName()) {
                boolean threePart = at(tokens, i + 3).isSymbol(".") && at(tokens, i + 4).isName();
                boolean call = at(tokens, i + 3).isSymbol("(");
                if (threePart || call) {
                    addOnce(schemas, t);
                } else {
                    qualifiers.add(t);
                }
            }
        }
        qualifiers.removeIf(q -> contains(schemas, q));
        return new StatementScope(kind, schemas, qualifiers);
    }

    /** The token at {@code i}, or the END token past either end. */
    private static SqlToken at(List<SqlToken> tokens, int i) {
        return i < 0 || i >= tokens.size() ? tokens.get(tokens.size() - 1) : tokens.get(i);
    }

    /**
     * Records the schema of the object named at {@code at} when it is qualified ({@code db.t} followed by what may follow
     * a table reference, not by an operator: {@code UPDATE t.c = 1} of ON DUPLICATE KEY UPDATE is a column).
     */
    private static void objectAt(List<SqlToken> tokens, int at, List<SqlToken> schemas) {
        SqlToken t = at(tokens, at);
        if (!t.isName() || !at(tokens, at + 1).isSymbol(".") || !at(tokens, at + 2).isName()) {
            return;
        }
        SqlToken after = at(tokens, at + 3);
        if (after.type() == Type.SYMBOL && !after.isSymbol(",") && !after.isSymbol("(") && !after.isSymbol(")")
                && !after.isSymbol(";")) {
            return;
        }
        addOnce(schemas, t);
    }

    private static void addOnce(List<SqlToken> schemas, SqlToken t) {
        if (!contains(schemas, t)) {
            schemas.add(t);
        }
    }

    private static boolean contains(List<SqlToken> list, SqlToken t) {
        for (SqlToken s : list) {
            if (s.offset() == t.offset()) {
                return true;
            }
        }
        return false;
    }

    private static int skipTransparent(List<SqlToken> tokens, int at) {
        while (at < tokens.size() - 1 && tokens.get(at).type() == Type.WORD
                && TRANSPARENT.contains(tokens.get(at).upper())) {
            at++;
        }
        return at;
    }

    /** ON after BEFORE/AFTER INSERT/UPDATE/DELETE (a trigger's event) names the trigger's table. */
    private static boolean previousIsTriggerEvent(List<SqlToken> tokens, int i) {
        SqlToken p = at(tokens, i - 1);
        return (p.is("INSERT") || p.is("UPDATE") || p.is("DELETE"))
                && (at(tokens, i - 2).is("BEFORE") || at(tokens, i - 2).is("AFTER"));
    }

    /** CREATE [UNIQUE|FULLTEXT|SPATIAL] INDEX and DROP INDEX: their first ON names the table. */
    private static boolean isIndexStatement(List<SqlToken> tokens) {
        if (!at(tokens, 0).is("CREATE") && !at(tokens, 0).is("DROP")) {
            return false;
        }
        for (int i = 1; i < 5; i++) {
            if (at(tokens, i).is("INDEX")) {
                return true;
            }
            if (at(tokens, i).is("TABLE")) {
                return false;
            }
        }
        return false;
    }

    private static Kind kind(List<SqlToken> tokens) {
        SqlToken first = at(tokens, 0);
        if (first.is("GRANT") || first.is("REVOKE")) {
            return Kind.ACCOUNT_MANAGEMENT;
        }
        if (first.is("SET")) {
            SqlToken second = at(tokens, 1);
            boolean account = second.is("PASSWORD") || second.is("ROLE")
                    || second.is("DEFAULT") && at(tokens, 2).is("ROLE");
            return account ? Kind.ACCOUNT_MANAGEMENT : Kind.OTHER;
        }
        if (first.is("FLUSH")) {
            for (SqlToken t : tokens) {
                if (t.is("PRIVILEGES")) {
                    return Kind.ACCOUNT_MANAGEMENT;
                }
            }
            return Kind.OTHER;
        }
        if (first.is("RENAME") && at(tokens, 1).is("USER")) {
            return Kind.ACCOUNT_MANAGEMENT;
        }
        if (!first.is("CREATE") && !first.is("ALTER") && !first.is("DROP")) {
            return Kind.OTHER;
        }
        // CREATE [OR REPLACE] [ALGORITHM=..] [DEFINER=user@host] [SQL SECURITY ..] [AGGREGATE] OBJECT ...: the first
        // word that names a kind of object says what it is (a DEFINER's user@host is never one of those words unquoted
        // directly after DEFINER =, which the loop skips).
        for (int i = 1; i < Math.min(tokens.size(), 24); i++) {
            SqlToken t = tokens.get(i);
            if (t.isSymbol("(")) {
                break;
            }
            if (t.type() != Type.WORD || at(tokens, i - 1).isSymbol("=") || at(tokens, i - 1).is("@")) {
                continue;
            }
            String word = t.upper();
            if (OBJECT_TYPES.contains(word)) {
                return switch (word) {
                    case "USER", "ROLE", "SERVER" -> Kind.ACCOUNT_MANAGEMENT;
                    case "DATABASE", "SCHEMA" -> Kind.DATABASE;
                    case "TRIGGER" -> first.is("DROP") ? Kind.DROP_TRIGGER : Kind.CREATE_TRIGGER;
                    case "VIEW", "PROCEDURE", "FUNCTION", "EVENT", "PACKAGE" -> Kind.PROGRAM;
                    default -> Kind.OTHER;
                };
            }
        }
        return Kind.OTHER;
    }
}
