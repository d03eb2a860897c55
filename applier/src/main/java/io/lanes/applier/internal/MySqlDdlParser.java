package io.lanes.applier.internal;

import io.lanes.applier.internal.MySqlDdl.AddColumn;
import io.lanes.applier.internal.MySqlDdl.AddConstraint;
import io.lanes.applier.internal.MySqlDdl.AlterDatabase;
import io.lanes.applier.internal.MySqlDdl.AlterOp;
import io.lanes.applier.internal.MySqlDdl.AlterTable;
import io.lanes.applier.internal.MySqlDdl.Check;
import io.lanes.applier.internal.MySqlDdl.Column;
import io.lanes.applier.internal.MySqlDdl.Constraint;
import io.lanes.applier.internal.MySqlDdl.CreateDatabase;
import io.lanes.applier.internal.MySqlDdl.CreateIndex;
import io.lanes.applier.internal.MySqlDdl.CreateTable;
import io.lanes.applier.internal.MySqlDdl.DataType;
import io.lanes.applier.internal.MySqlDdl.DefaultValue;
import io.lanes.applier.internal.MySqlDdl.DropColumn;
import io.lanes.applier.internal.MySqlDdl.DropDatabase;
import io.lanes.applier.internal.MySqlDdl.DropForeignKey;
import io.lanes.applier.internal.MySqlDdl.DropIndex;
import io.lanes.applier.internal.MySqlDdl.DropIndexOp;
import io.lanes.applier.internal.MySqlDdl.DropPrimaryKey;
import io.lanes.applier.internal.MySqlDdl.DropTable;
import io.lanes.applier.internal.MySqlDdl.ForeignKey;
import io.lanes.applier.internal.MySqlDdl.Ignored;
import io.lanes.applier.internal.MySqlDdl.Index;
import io.lanes.applier.internal.MySqlDdl.ModifyColumn;
import io.lanes.applier.internal.MySqlDdl.PrimaryKey;
import io.lanes.applier.internal.MySqlDdl.RenameColumn;
import io.lanes.applier.internal.MySqlDdl.RenameTables;
import io.lanes.applier.internal.MySqlDdl.RenameTo;
import io.lanes.applier.internal.MySqlDdl.SetDefault;
import io.lanes.applier.internal.MySqlDdl.Statement;
import io.lanes.applier.internal.MySqlDdl.TableName;
import io.lanes.applier.internal.MySqlDdl.TruncateTable;
import io.lanes.applier.internal.MySqlDdl.Unique;
import io.lanes.applier.internal.SqlToken.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses the MySQL DDL statements Lanes translates for targets that do not speak MySQL: CREATE/ALTER/DROP DATABASE,
 * CREATE/ALTER/DROP/RENAME/TRUNCATE TABLE, CREATE/DROP INDEX. Anything else, or any clause it does not know, is a
 * {@link DdlSyntaxException}: a statement is either understood fully or refused, never half-translated.
 */
public final class MySqlDdlParser extends SqlTokenCursor {
    /** sql_mode bits that change how SQL is tokenized. */
    public static final long MODE_ANSI_QUOTES = 4;
    public static final long MODE_NO_BACKSLASH_ESCAPES = 1L << 20;

    private static final Set<String> REFERENCE_ACTIONS = Set.of("RESTRICT", "CASCADE", "SET", "NO");

    private final String defaultSchema;
    private final List<SqlToken> schemaTokens = new ArrayList<>();
    /** The schema history reads definitions only: generated columns and CREATE OR REPLACE are understood. */
    private boolean definitionsOnly;
    private String columnCharset;
    private String columnCollation;
    /** Operations one ALTER clause stands for beyond the one it returns (ADD (a, b) in definitions-only mode). */
    private final List<AlterOp> pendingOps = new ArrayList<>();
    /** Whether the last index column list had a prefix length or an expression part. */
    private boolean partialIndex;

    /**
     * A parsed statement and the tokens that name schemas in its text (qualifiers of table names, the database of
     * database statements), so that a schema rename can rewrite the text in place.
     */
    public record Parsed(Statement statement, List<SqlToken> schemaTokens) {
    }

    private MySqlDdlParser(List<SqlToken> tokens, String defaultSchema) {
        super(tokens);
        this.defaultSchema = defaultSchema;
    }

    /**
     * @param defaultSchema the statement's default database (USE), or {@code null}
     * @param sqlMode the source session's sql_mode bits (ANSI_QUOTES and NO_BACKSLASH_ESCAPES matter)
     */
    public static Statement parse(String sql, String defaultSchema, long sqlMode) {
        return parseDetailed(sql, defaultSchema, sqlMode).statement();
    }

    /** {@link #parse} with the schema-naming tokens. */
    public static Parsed parseDetailed(String sql, String defaultSchema, long sqlMode) {
        return parse(sql, defaultSchema, sqlMode, false);
    }

    /**
     * Parses a statement for what it says of table definitions (the schema history): unlike {@link #parse}, generated
     * columns are parsed (their expression skipped) and CREATE OR REPLACE TABLE is a CREATE TABLE (the history replaces
     * the definition); the translation for a target still refuses both.
     */
    public static Statement parseDefinitions(String sql, String defaultSchema, long sqlMode) {
        return parse(sql, defaultSchema, sqlMode, true).statement();
    }

    private static Parsed parse(String sql, String defaultSchema, long sqlMode, boolean definitionsOnly) {
        List<SqlToken> tokens = MySqlTokenizer.tokenize(sql, (sqlMode & MODE_ANSI_QUOTES) != 0,
                (sqlMode & MODE_NO_BACKSLASH_ESCAPES) == 0);
        MySqlDdlParser p = new MySqlDdlParser(tokens, defaultSchema);
        p.definitionsOnly = definitionsOnly;
        Statement s = p.statement();
        while (p.peek().isSymbol(";")) {
            p.pos++;
        }
        if (p.peek().type() != Type.END) {
            throw p.error("unexpected " + p.describe(p.peek()));
        }
        return new Parsed(s, List.copyOf(p.schemaTokens));
    }

    private Statement statement() {
        if (accept("CREATE")) {
            if (accept("OR")) {
                if (!definitionsOnly) {
                    throw error("CREATE OR REPLACE is not translated");
                }
                expect("REPLACE");
            }
            if (accept("DATABASE") || accept("SCHEMA")) {
                boolean ifNotExists = acceptSequence("IF", "NOT", "EXISTS");
                String name = schemaName();
                skipToEnd();
                return new CreateDatabase(name, ifNotExists);
            }
            if (peek().is("TEMPORARY")) {
                throw error("temporary tables are not replicated");
            }
            if (accept("TABLE")) {
                return createTable();
            }
            boolean unique = accept("UNIQUE");
            String kind = "INDEX";
            if (!unique && (peek().is("FULLTEXT") || peek().is("SPATIAL"))) {
                kind = next().upper();
            }
            if (accept("INDEX")) {
                String name = name();
                skipUsing();
                expect("ON");
                TableName table = tableName();
                List<String> columns = indexColumns();
                if (unique) {
                    columns = exactKey(columns);
                }
                skipIndexOptions();
                skipToEnd();
                return new CreateIndex(name, table, columns, unique, kind);
            }
            throw error("only CREATE DATABASE, TABLE and INDEX are translated");
        }
        if (accept("DROP")) {
            if (accept("DATABASE") || accept("SCHEMA")) {
                boolean ifExists = acceptSequence("IF", "EXISTS");
                return new DropDatabase(schemaName(), ifExists);
            }
            boolean temporary = accept("TEMPORARY");
            if (accept("TABLE") || accept("TABLES")) {
                boolean ifExists = acceptSequence("IF", "EXISTS");
                List<TableName> tables = new ArrayList<>();
                do {
                    tables.add(tableName());
                } while (acceptSymbol(","));
                if (!accept("RESTRICT")) {
                    accept("CASCADE");
                }
                return new DropTable(tables, ifExists, temporary);
            }
            if (accept("INDEX")) {
                String name = name();
                expect("ON");
                TableName table = tableName();
                skipToEnd();
                return new DropIndex(name, table);
            }
            throw error("only DROP DATABASE, TABLE and INDEX are translated");
        }
        if (accept("ALTER")) {
            if (accept("DATABASE") || accept("SCHEMA")) {
                String name = peek().isName() && !isTableOptionStart() ? schemaName() : defaultSchema;
                skipToEnd();
                return new AlterDatabase(name);
            }
            accept("ONLINE");
            accept("IGNORE");
            expect("TABLE");
            TableName table = tableName();
            List<AlterOp> ops = new ArrayList<>();
            if (peek().type() != Type.END && !peek().isSymbol(";")) {
                do {
                    ops.add(alterOp(table));
                    ops.addAll(pendingOps);
                    pendingOps.clear();
                } while (acceptSymbol(","));
            }
            return new AlterTable(table, ops);
        }
        if (accept("RENAME")) {
            if (!accept("TABLE")) {
                expect("TABLES");
            }
            List<TableName[]> pairs = new ArrayList<>();
            do {
                TableName from = tableName();
                expect("TO");
                pairs.add(new TableName[] {from, tableName()});
            } while (acceptSymbol(","));
            return new RenameTables(pairs);
        }
        if (accept("TRUNCATE")) {
            accept("TABLE");
            return new TruncateTable(tableName());
        }
        for (String dml : DATA_STATEMENTS) {
            if (peek().is(dml)) {
                // Statement-based logging (binlog_format=STATEMENT or MIXED) puts data changes in the log as SQL text.
                throw error(dml + " is a data statement (DML), not DDL: the source logged this change as SQL text "
                        + "(binlog_format=STATEMENT or MIXED) instead of row events; Lanes translates only DDL, so log "
                        + "with binlog_format=ROW");
            }
        }
        throw error("not a DDL statement Lanes translates");
    }

    /** The first words of the statements that change or read data rather than definitions. */
    private static final List<String> DATA_STATEMENTS = List.of("INSERT", "UPDATE", "DELETE", "REPLACE", "LOAD",
            "CALL", "DO", "SELECT", "WITH", "HANDLER", "VALUES", "TABLE");

    private static final java.util.regex.Pattern FIRST_WORD = java.util.regex.Pattern.compile(
            "(?s)\\s*(?:(?:/\\*(?!!).*?\\*/|--[^\\n]*\\n|#[^\\n]*\\n)\\s*)*([A-Za-z]+).*");

    /** Whether the statement changes or reads data (statement-based logging of DML) rather than definitions. */
    public static boolean isDataStatement(String sql) {
        java.util.regex.Matcher m = FIRST_WORD.matcher(sql);
        return m.matches() && DATA_STATEMENTS.contains(m.group(1).toUpperCase(java.util.Locale.ROOT));
    }

    private Statement createTable() {
        boolean ifNotExists = acceptSequence("IF", "NOT", "EXISTS");
        TableName table = tableName();
        if (accept("LIKE")) {
            return new CreateTable(table, ifNotExists, List.of(), List.of(), tableName());
        }
        if (!peek().isSymbol("(")) {
            throw error("CREATE TABLE without a column list (CREATE TABLE ... SELECT) is not translated");
        }
        pos++;
        if (accept("LIKE")) {
            TableName like = tableName();
            expectSymbol(")");
            return new CreateTable(table, ifNotExists, List.of(), List.of(), like);
        }
        List<Column> columns = new ArrayList<>();
        List<Constraint> constraints = new ArrayList<>();
        do {
            Constraint c = constraintDefinition(table);
            if (c != null) {
                constraints.add(c);
            } else {
                Column col = column(table);
                columns.add(col);
            }
        } while (acceptSymbol(","));
        expectSymbol(")");
        tableOptions();
        return new CreateTable(table, ifNotExists, columns, constraints, null);
    }

    private void tableOptions() {
        while (peek().type() != Type.END && !peek().isSymbol(";")) {
            SqlToken t = peek();
            if (t.is("SELECT") || t.is("AS") || t.isSymbol("(")) {
                throw error("CREATE TABLE ... SELECT is not translated");
            }
            if (t.is("PARTITION")) {
                // Partitioning is physical layout; the rows are the same.
                skipToEnd();
                return;
            }
            next();
            if (peek().isSymbol("(")) {
                skipBalanced();
            }
        }
    }

    /** A table-level constraint or index, or null when the next definition is a column. */
    private Constraint constraintDefinition(TableName table) {
        String constraintName = null;
        if (peek().is("CONSTRAINT")) {
            pos++;
            if (!(peek().is("PRIMARY") || peek().is("UNIQUE") || peek().is("FOREIGN") || peek().is("CHECK"))) {
                constraintName = name();
            }
        }
        SqlToken t = peek();
        if (t.is("PRIMARY") && peekAt(1).is("KEY")) {
            pos += 2;
            skipUsing();
            List<String> cols = exactKey(indexColumns());
            skipIndexOptions();
            return new PrimaryKey(cols);
        }
        if (t.is("UNIQUE")) {
            pos++;
            if (!accept("KEY")) {
                accept("INDEX");
            }
            String name = peek().isName() && !peek().is("USING") ? name() : constraintName;
            skipUsing();
            List<String> cols = exactKey(indexColumns());
            skipIndexOptions();
            return new Unique(name, cols);
        }
        if ((t.is("KEY") || t.is("INDEX")) && constraintName == null) {
            pos++;
            String name = peek().isName() && !peek().is("USING") ? name() : null;
            skipUsing();
            List<String> cols = indexColumns();
            skipIndexOptions();
            return new Index(name, cols, "INDEX");
        }
        if ((t.is("FULLTEXT") || t.is("SPATIAL")) && constraintName == null) {
            pos++;
            if (!accept("KEY")) {
                accept("INDEX");
            }
            String name = peek().isName() ? name() : null;
            List<String> cols = indexColumns();
            skipIndexOptions();
            return new Index(name, cols, t.upper());
        }
        if (t.is("FOREIGN") && peekAt(1).is("KEY")) {
            pos += 2;
            String name = peek().isName() ? name() : constraintName;
            List<String> cols = indexColumns();
            return foreignKeyReference(name, cols, table);
        }
        if (t.is("CHECK")) {
            pos++;
            skipBalanced();
            accept("ENFORCED");
            acceptSequence("NOT", "ENFORCED");
            return new Check(constraintName);
        }
        if (t.is("PERIOD")) {
            throw error("PERIOD FOR (system versioning) is not translated");
        }
        if (constraintName != null) {
            throw error("CONSTRAINT " + constraintName + " followed by " + describe(t));
        }
        return null;
    }

    private ForeignKey foreignKeyReference(String name, List<String> cols, TableName table) {
        expect("REFERENCES");
        TableName parent = tableName(table.schema());
        List<String> parentCols = indexColumns();
        String onDelete = null;
        String onUpdate = null;
        while (true) {
            if (accept("MATCH")) {
                next();
            } else if (peek().is("ON") && peekAt(1).is("DELETE")) {
                pos += 2;
                onDelete = referenceAction();
            } else if (peek().is("ON") && peekAt(1).is("UPDATE")) {
                pos += 2;
                onUpdate = referenceAction();
            } else {
                break;
            }
        }
        return new ForeignKey(name, cols, parent, parentCols, onDelete, onUpdate);
    }

    private String referenceAction() {
        SqlToken t = next();
        if (!REFERENCE_ACTIONS.contains(t.upper())) {
            throw error("unknown referential action " + describe(t));
        }
        if (t.is("SET")) {
            SqlToken second = next();
            if (!second.is("NULL") && !second.is("DEFAULT")) {
                throw error("unknown referential action SET " + describe(second));
            }
            return "SET " + second.upper();
        }
        if (t.is("NO")) {
            expect("ACTION");
            return "NO ACTION";
        }
        return t.upper();
    }

    private Column column(TableName table) {
        String name = name();
        columnCharset = null;
        columnCollation = null;
        boolean generated = false;
        List<SqlToken> generation = null;
        boolean invisible = false;
        DataType type = dataType();
        Boolean nullable = null;
        DefaultValue defaultValue = null;
        boolean autoIncrement = false;
        boolean primaryKey = false;
        boolean unique = false;
        ForeignKey references = null;
        if (type.name().equals("serial")) {
            // SERIAL = BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE
            type = new DataType("bigint", List.of(), true);
            nullable = false;
            autoIncrement = true;
            unique = true;
        }
        while (true) {
            SqlToken t = peek();
            if (t.is("NOT") && peekAt(1).is("NULL")) {
                pos += 2;
                nullable = false;
            } else if (t.is("NULL")) {
                pos++;
                nullable = true;
            } else if (t.is("DEFAULT")) {
                pos++;
                defaultValue = defaultValue();
            } else if (t.is("AUTO_INCREMENT")) {
                pos++;
                autoIncrement = true;
            } else if (t.is("PRIMARY") && peekAt(1).is("KEY")) {
                pos += 2;
                primaryKey = true;
            } else if (t.is("KEY")) {
                pos++;
                primaryKey = true;
            } else if (t.is("UNIQUE")) {
                pos++;
                accept("KEY");
                unique = true;
            } else if (t.is("COMMENT")) {
                pos++;
                expectType(Type.STRING);
            } else if (t.is("ON") && peekAt(1).is("UPDATE")) {
                // ON UPDATE CURRENT_TIMESTAMP: the applier writes the source's values, so the target needs no trigger.
                pos += 2;
                defaultValueExpression();
            } else if (t.is("COLLATE")) {
                pos++;
                accept("=");
                columnCollation = next().text().toLowerCase(Locale.ROOT);
            } else if (t.is("CHARACTER") && peekAt(1).is("SET") || t.is("CHARSET")) {
                pos += t.is("CHARSET") ? 1 : 2;
                columnCharset = next().text().toLowerCase(Locale.ROOT);
            } else if (t.is("CHECK") || t.is("CONSTRAINT")) {
                if (t.is("CONSTRAINT")) {
                    pos++;
                    name();
                }
                expect("CHECK");
                skipBalanced();
            } else if (t.is("REFERENCES")) {
                references = foreignKeyReference(null, List.of(name), table);
            } else if (t.is("GENERATED") || t.is("AS")) {
                if (accept("GENERATED")) {
                    expect("ALWAYS");
                }
                expect("AS");
                int open = pos;
                skipBalanced();
                if (!definitionsOnly) {
                    // the tokens inside the parentheses; the translator decides whether it can keep their meaning
                    generation = List.copyOf(tokens.subList(open + 1, pos - 1));
                }
                if (!accept("VIRTUAL") && !accept("STORED")) {
                    accept("PERSISTENT");
                }
                generated = true;
            } else if (t.is("INVISIBLE") || t.is("VISIBLE") || t.is("SIGNED")) {
                invisible |= t.is("INVISIBLE");
                pos++;
            } else if (t.is("COLUMN_FORMAT") || t.is("STORAGE")) {
                pos += 2;
            } else {
                break;
            }
        }
        return new Column(name, type, nullable, defaultValue, autoIncrement, primaryKey, unique, references,
                columnCharset, columnCollation, generated, invisible, generation);
    }

    private DataType dataType() {
        SqlToken t = next();
        if (t.type() != Type.WORD) {
            throw error("expected a column type, found " + describe(t));
        }
        String name = t.text().toLowerCase(Locale.ROOT);
        if (name.equals("national")) {
            name = next().text().toLowerCase(Locale.ROOT);
        }
        if (name.equals("double") && accept("PRECISION")) {
            name = "double";
        } else if ((name.equals("char") || name.equals("character")) && accept("VARYING")) {
            name = "varchar";
        } else if (name.equals("character")) {
            name = "char";
        } else if (name.equals("long") && (peek().is("VARCHAR") || peek().is("VARBINARY"))) {
            name = next().is("VARCHAR") ? "mediumtext" : "mediumblob";
        } else if (name.equals("long")) {
            name = "mediumtext";
        } else if (name.equals("nchar")) {
            name = "char";
        } else if (name.equals("nvarchar")) {
            name = "varchar";
        }
        List<String> params = new ArrayList<>();
        if (acceptSymbol("(")) {
            do {
                SqlToken p = next();
                if (p.type() != Type.NUMBER && p.type() != Type.STRING) {
                    throw error("unexpected " + describe(p) + " in the parameters of type " + name);
                }
                params.add(p.text());
            } while (acceptSymbol(","));
            expectSymbol(")");
        }
        boolean unsigned = false;
        while (true) {
            if (accept("UNSIGNED")) {
                unsigned = true;
            } else if (accept("SIGNED") || accept("ZEROFILL") || accept("BINARY") || accept("ASCII")
                    || accept("UNICODE") || accept("BYTE")) {
                // ZEROFILL is display only; BINARY on a char type is a collation.
                continue;
            } else if (peek().is("CHARACTER") && peekAt(1).is("SET") || peek().is("CHARSET")) {
                pos += peek().is("CHARSET") ? 1 : 2;
                columnCharset = next().text().toLowerCase(Locale.ROOT);
            } else if (peek().is("COLLATE")) {
                pos++;
                columnCollation = next().text().toLowerCase(Locale.ROOT);
            } else {
                break;
            }
        }
        if (name.equals("zerofill")) {
            throw error("expected a column type");
        }
        return new DataType(name, params, unsigned);
    }

    private DefaultValue defaultValue() {
        SqlToken t = peek();
        if (t.type() == Type.WORD && t.text().startsWith("_") && peekAt(1).type() == Type.STRING) {
            pos++; // a charset introducer: _utf8mb4'text'
            t = peek();
        }
        switch (t.type()) {
            case STRING, NUMBER, HEX, BITS -> {
                pos++;
                // a literal token: the default kinds of literals are named as the token types are
                return new DefaultValue(DefaultValue.Kind.valueOf(t.type().name()), t.text());
            }
            case SYMBOL -> {
                if ((t.text().equals("-") || t.text().equals("+")) && peekAt(1).type() == Type.NUMBER) {
                    pos += 2;
                    return new DefaultValue(DefaultValue.Kind.NUMBER, (t.text().equals("-") ? "-" : "")
                            + tokens.get(pos - 1).text());
                }
                if (t.text().equals("(")) {
                    skipBalanced();
                    return new DefaultValue(DefaultValue.Kind.EXPRESSION, "(...)");
                }
                throw error("unexpected " + describe(t) + " after DEFAULT");
            }
            case WORD -> {
                if (t.is("NULL")) {
                    pos++;
                    return new DefaultValue(DefaultValue.Kind.NULL, "NULL");
                }
                if (t.is("TRUE") || t.is("FALSE")) {
                    pos++;
                    return new DefaultValue(DefaultValue.Kind.NUMBER, t.is("TRUE") ? "1" : "0");
                }
                return defaultValueExpression();
            }
            default -> throw error("unexpected " + describe(t) + " after DEFAULT");
        }
    }

    /** CURRENT_TIMESTAMP, NOW(), LOCALTIMESTAMP and the like; any other function call is an expression. */
    private DefaultValue defaultValueExpression() {
        SqlToken t = next();
        String u = t.upper();
        if (peek().isSymbol("(")) {
            skipBalanced();
        }
        if (u.equals("CURRENT_TIMESTAMP") || u.equals("NOW") || u.equals("LOCALTIME") || u.equals("LOCALTIMESTAMP")
                || u.equals("CURRENT_TIMESTAMP()")) {
            return new DefaultValue(DefaultValue.Kind.CURRENT_TIMESTAMP, "CURRENT_TIMESTAMP");
        }
        return new DefaultValue(DefaultValue.Kind.EXPRESSION, t.text());
    }

    private AlterOp alterOp(TableName table) {
        SqlToken t = peek();
        if (accept("ADD")) {
            Constraint c = constraintDefinition(table);
            if (c != null) {
                return new AddConstraint(c);
            }
            accept("COLUMN");
            acceptSequence("IF", "NOT", "EXISTS");
            if (peek().isSymbol("(")) {
                if (!definitionsOnly) {
                    throw error("ADD with a parenthesised column list is not translated; add columns one by one");
                }
                // ADD (a INT, b INT): the columns go last, in order
                pos++;
                List<AlterOp> added = new ArrayList<>();
                do {
                    Constraint key = constraintDefinition(table);
                    added.add(key != null ? new AddConstraint(key) : new AddColumn(column(table), null));
                } while (acceptSymbol(","));
                expectSymbol(")");
                pendingOps.addAll(added.subList(1, added.size()));
                return added.get(0);
            }
            Column col = column(table);
            return new AddColumn(col, position());
        }
        if (accept("DROP")) {
            if (peek().is("PRIMARY") && peekAt(1).is("KEY")) {
                pos += 2;
                return new DropPrimaryKey();
            }
            if (accept("INDEX") || accept("KEY")) {
                acceptSequence("IF", "EXISTS");
                return new DropIndexOp(name());
            }
            if (peek().is("FOREIGN") && peekAt(1).is("KEY")) {
                pos += 2;
                acceptSequence("IF", "EXISTS");
                return new DropForeignKey(name());
            }
            if (peek().is("CHECK") || peek().is("CONSTRAINT")) {
                boolean check = next().is("CHECK");
                acceptSequence("IF", "EXISTS");
                String name = name();
                // CHECK constraints are not translated, so dropping one changes nothing on the target.
                return check ? new Ignored("DROP CHECK " + name) : new DropForeignKey(name);
            }
            accept("COLUMN");
            boolean ifExists = acceptSequence("IF", "EXISTS");
            String name = name();
            if (!accept("RESTRICT")) {
                accept("CASCADE");
            }
            return new DropColumn(name, ifExists);
        }
        if (accept("MODIFY")) {
            accept("COLUMN");
            acceptSequence("IF", "EXISTS");
            Column col = column(table);
            return new ModifyColumn(col.name(), col, position());
        }
        if (accept("CHANGE")) {
            accept("COLUMN");
            acceptSequence("IF", "EXISTS");
            String old = name();
            Column col = column(table);
            return new ModifyColumn(old, col, position());
        }
        if (accept("RENAME")) {
            if (accept("COLUMN")) {
                String old = name();
                expect("TO");
                return new RenameColumn(old, name());
            }
            if (peek().is("INDEX") || peek().is("KEY")) {
                if (!definitionsOnly) {
                    throw error("RENAME INDEX is not translated");
                }
                pos++;
                String from = name();
                expect("TO");
                return new Ignored("RENAME INDEX " + from + " TO " + name()); // the columns stay
            }
            if (!accept("TO")) {
                accept("AS");
            }
            return new RenameTo(tableName());
        }
        if (accept("ALTER")) {
            accept("COLUMN");
            String column = name();
            if (acceptSequence("SET", "DEFAULT")) {
                return new SetDefault(column, defaultValue());
            }
            if (acceptSequence("DROP", "DEFAULT")) {
                return new SetDefault(column, null);
            }
            if (accept("SET")) {
                next(); // SET VISIBLE / INVISIBLE
                return new Ignored("visibility of " + column);
            }
            throw error("unknown ALTER COLUMN action " + describe(peek()));
        }
        if (accept("CONVERT")) {
            expect("TO");
            skipOptionTail();
            return new Ignored("CONVERT TO CHARACTER SET");
        }
        if (t.is("FORCE") || t.is("ENABLE") || t.is("DISABLE")) {
            pos++;
            accept("KEYS");
            return new Ignored(t.upper());
        }
        if (t.is("ORDER") && peekAt(1).is("BY")) {
            skipOptionTail();
            return new Ignored("ORDER BY");
        }
        if (isTableOptionStart()) {
            skipOptionTail();
            return new Ignored(t.upper());
        }
        throw error("unknown ALTER TABLE operation " + describe(t));
    }

    private boolean isTableOptionStart() {
        SqlToken t = peek();
        return t.is("ENGINE") || t.is("AUTO_INCREMENT") || t.is("DEFAULT") || t.is("CHARACTER") || t.is("CHARSET")
                || t.is("COLLATE") || t.is("COMMENT") || t.is("ROW_FORMAT") || t.is("ALGORITHM") || t.is("LOCK")
                || t.is("KEY_BLOCK_SIZE") || t.is("STATS_PERSISTENT") || t.is("STATS_AUTO_RECALC") || t.is("PACK_KEYS")
                || t.is("CHECKSUM") || t.is("AVG_ROW_LENGTH") || t.is("MAX_ROWS") || t.is("MIN_ROWS")
                || t.is("PAGE_CHECKSUM") || t.is("TRANSACTIONAL") || t.is("ENCRYPTED");
    }

    /** Skips the rest of one comma-separated option (up to a top-level comma or the end). */
    private void skipOptionTail() {
        while (peek().type() != Type.END && !peek().isSymbol(",") && !peek().isSymbol(";")) {
            if (peek().isSymbol("(")) {
                skipBalanced();
            } else {
                pos++;
            }
        }
    }

    /** FIRST -> "", AFTER col -> col, nothing -> null. */
    private String position() {
        if (accept("FIRST")) {
            return "";
        }
        if (accept("AFTER")) {
            return name();
        }
        return null;
    }

    private List<String> indexColumns() {
        expectSymbol("(");
        partialIndex = false;
        List<String> cols = new ArrayList<>();
        do {
            if (peek().isSymbol("(")) {
                if (!definitionsOnly) {
                    throw error("functional index parts are not translated");
                }
                skipBalanced(); // an expression part
                partialIndex = true;
                if (!accept("ASC")) {
                    accept("DESC");
                }
                continue;
            }
            cols.add(name());
            if (peek().isSymbol("(")) {
                skipBalanced(); // prefix length
                partialIndex = true;
            }
            if (!accept("ASC")) {
                accept("DESC");
            }
        } while (acceptSymbol(","));
        expectSymbol(")");
        return cols;
    }

    /**
     * The columns of a unique key as the schema history keeps them: a key on column prefixes or expressions is not
     * unique on its whole columns, so it keeps no column (its write-set key then makes every row of the table conflict,
     * never two rows the key would keep apart). The translation for a target keeps the columns.
     */
    private List<String> exactKey(List<String> columns) {
        return definitionsOnly && partialIndex ? List.of() : columns;
    }

    private void skipUsing() {
        if (accept("USING")) {
            next();
        }
    }

    private void skipIndexOptions() {
        while (true) {
            if (accept("USING")) {
                next();
            } else if (accept("COMMENT")) {
                expectType(Type.STRING);
            } else if (accept("KEY_BLOCK_SIZE")) {
                acceptSymbol("=");
                next();
            } else if (accept("VISIBLE") || accept("INVISIBLE") || accept("IGNORED") || acceptSequence("NOT", "IGNORED")) {
                continue;
            } else if (peek().is("ALGORITHM") || peek().is("LOCK")) {
                pos++;
                acceptSymbol("=");
                next();
            } else {
                return;
            }
        }
    }

    private TableName tableName() {
        return tableName(defaultSchema);
    }

    private TableName tableName(String schemaForUnqualified) {
        SqlToken firstToken = peek();
        String first = name();
        if (acceptSymbol(".")) {
            schemaTokens.add(firstToken);
            return new TableName(first, name());
        }
        if (schemaForUnqualified == null) {
            throw error("table " + first + " is not qualified and the statement has no default database");
        }
        return new TableName(schemaForUnqualified, first);
    }

    private String schemaName() {
        schemaTokens.add(peek());
        return name();
    }
}
