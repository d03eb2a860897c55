package io.lanes.applier.internal;

import java.util.List;

/** The parsed forms of the MySQL DDL statements Lanes translates. Schema names are source names (before mapping). */
public final class MySqlDdl {
    private MySqlDdl() {
    }

    /** A table name; {@code schema} is never null (the parser fills in the statement's default database). */
    public record TableName(String schema, String name) {
    }

    /**
     * A column type as written.
     *
     * @param name the base type, lower case ({@code int}, {@code varchar}, {@code enum}, {@code double precision})
     * @param params numeric parameters, or the members of ENUM/SET
     */
    public record DataType(String name, List<String> params, boolean unsigned) {
        /** The i-th parameter as a number, or null when absent or not a number (ENUM/SET members). */
        public Integer param(int i) {
            if (params.size() <= i) {
                return null;
            }
            try {
                return Integer.valueOf(params.get(i).trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /** A DEFAULT value: a literal ({@code kind} STRING, NUMBER, NULL, HEX, BITS) or an expression kept as text. */
    public record DefaultValue(Kind kind, String text) {
        public enum Kind { STRING, NUMBER, NULL, HEX, BITS, CURRENT_TIMESTAMP, EXPRESSION }
    }

    /**
     * A column definition.
     *
     * @param charset the CHARACTER SET written on the column (lower case), or null
     * @param collation the COLLATE written on the column (lower case), or null
     * @param generated whether the column is GENERATED ALWAYS AS (virtual or stored)
     * @param invisible whether the column is INVISIBLE
     * @param generation the generation expression's tokens when the column is generated and the statement was parsed
     *     for translation, or null
     */
    public record Column(String name, DataType type, Boolean nullable, DefaultValue defaultValue, boolean autoIncrement,
            boolean primaryKey, boolean unique, ForeignKey references, String charset, String collation,
            boolean generated, boolean invisible, List<SqlToken> generation) {

        public Column(String name, DataType type, Boolean nullable, DefaultValue defaultValue, boolean autoIncrement,
                boolean primaryKey, boolean unique, ForeignKey references, String charset, String collation,
                boolean generated, boolean invisible) {
            this(name, type, nullable, defaultValue, autoIncrement, primaryKey, unique, references, charset, collation,
                    generated, invisible, null);
        }
    }

    /** An index part: a column, the prefix length MySQL allows on text columns is dropped. */
    public sealed interface Constraint permits PrimaryKey, Unique, Index, ForeignKey, Check {
    }

    public record PrimaryKey(List<String> columns) implements Constraint {
    }

    public record Unique(String name, List<String> columns) implements Constraint {
    }

    /** A non-unique index; {@code kind} is INDEX, FULLTEXT or SPATIAL. */
    public record Index(String name, List<String> columns, String kind) implements Constraint {
    }

    public record ForeignKey(String name, List<String> columns, TableName parent, List<String> parentColumns,
            String onDelete, String onUpdate) implements Constraint {
    }

    public record Check(String name) implements Constraint {
    }

    public sealed interface Statement permits CreateDatabase, DropDatabase, AlterDatabase, CreateTable, DropTable,
            CreateIndex, DropIndex, AlterTable, RenameTables, TruncateTable {
    }

    public record CreateDatabase(String name, boolean ifNotExists) implements Statement {
    }

    public record DropDatabase(String name, boolean ifExists) implements Statement {
    }

    /** Only character set and collation changes exist; nothing to translate. */
    public record AlterDatabase(String name) implements Statement {
    }

    public record CreateTable(TableName table, boolean ifNotExists, List<Column> columns, List<Constraint> constraints,
            TableName likeTable) implements Statement {
    }

    public record DropTable(List<TableName> tables, boolean ifExists, boolean temporary) implements Statement {
    }

    public record CreateIndex(String name, TableName table, List<String> columns, boolean unique, String kind)
            implements Statement {
    }

    public record DropIndex(String name, TableName table) implements Statement {
    }

    public record AlterTable(TableName table, List<AlterOp> ops) implements Statement {
    }

    public record RenameTables(List<TableName[]> pairs) implements Statement {
    }

    public record TruncateTable(TableName table) implements Statement {
    }

    public sealed interface AlterOp permits AddColumn, DropColumn, ModifyColumn, RenameColumn, SetDefault, AddConstraint,
            DropPrimaryKey, DropIndexOp, DropForeignKey, RenameTo, Ignored {
    }

    /** {@code after} is the column named in AFTER, "" for FIRST, null when the column goes last. */
    public record AddColumn(Column column, String after) implements AlterOp {
    }

    public record DropColumn(String name, boolean ifExists) implements AlterOp {
    }

    /** MODIFY (oldName equals the column's name) or CHANGE (a rename as well). */
    public record ModifyColumn(String oldName, Column column, String after) implements AlterOp {
    }

    public record RenameColumn(String oldName, String newName) implements AlterOp {
    }

    /** {@code value} null means DROP DEFAULT. */
    public record SetDefault(String column, DefaultValue value) implements AlterOp {
    }

    public record AddConstraint(Constraint constraint) implements AlterOp {
    }

    public record DropPrimaryKey() implements AlterOp {
    }

    public record DropIndexOp(String name) implements AlterOp {
    }

    public record DropForeignKey(String name) implements AlterOp {
    }

    public record RenameTo(TableName table) implements AlterOp {
    }

    /** A table option or an operation with no effect on the target's data layout (ENGINE=, ALGORITHM=, FORCE...). */
    public record Ignored(String what) implements AlterOp {
    }
}
