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
import io.lanes.applier.jdbc.Dialect;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32;

/**
 * Renders parsed MySQL DDL as PostgreSQL or H2 DDL. Types widen where the target lacks unsigned integers (INT UNSIGNED
 * becomes BIGINT, BIGINT UNSIGNED NUMERIC(20)); MySQL TIME, which may be negative or beyond 24 hours, becomes an
 * interval; CHAR becomes VARCHAR (MySQL drops trailing spaces on read, a padded CHAR would not); ENUM and SET become text;
 * BLOBs bytea (H2: VARBINARY/BLOB); JSON jsonb (H2: JSON); BIT(n) bit(n) (H2: BIGINT).
 *
 * <p>Index names are per table in MySQL but per schema in PostgreSQL and H2, so an index {@code i} of table {@code t} is
 * named {@code t_i} on the target (shortened with a hash suffix when too long); DROP INDEX maps the same way. A
 * foreign key without a name gets MySQL's {@code t_ibfk_N}. What the target does not need (ENGINE, charsets,
 * ON UPDATE CURRENT_TIMESTAMP, CHECK constraints, FULLTEXT indexes, column positions on PostgreSQL) is dropped with a
 * warning where it changes behaviour.
 *
 * <p>Not thread-safe (one statement at a time); cheap to create.
 */
public final class DdlTranslator {

    /** What the translator needs to know about the target's current tables. */
    public interface TargetLookup {
        /** The name of the table's primary key constraint, or null when it has none. */
        String primaryKeyName(TableName table);

        /** Whether the column belongs to the table's primary key. */
        boolean isPrimaryKeyColumn(TableName table, String column);

        /**
         * Whether the table exists on the target (asked for the parents of foreign keys made with checks off, and for the
         * table a CREATE TABLE IF NOT EXISTS ... LIKE would create).
         */
        default boolean tableExists(TableName table) {
            return true;
        }

        /**
         * The table's shape on the target, for CREATE TABLE ... LIKE; null when the table does not exist there.
         *
         * @throws DdlSyntaxException when the catalog cannot be read
         */
        default TargetShape shape(TableName table) {
            throw new DdlSyntaxException("CREATE TABLE ... LIKE needs the target's catalog of " + table.name(), 0);
        }
    }

    /**
     * What CREATE TABLE ... LIKE copies of a target table.
     *
     * @param columns the columns in order
     * @param primaryKey the primary key's columns in key order, empty when none
     * @param indexes the other indexes (the primary key's own index left out), under their target names
     */
    public record TargetShape(List<ShapeColumn> columns, List<String> primaryKey, List<ShapeIndex> indexes) {
    }

    /**
     * @param name the column's name
     * @param notNull whether it is NOT NULL
     * @param defaultExpression the default as the target writes it (SQL), null when none
     * @param identity whether the target generates its values (AUTO_INCREMENT)
     * @param generated whether the target computes it (a generated column translated from MySQL's)
     */
    public record ShapeColumn(String name, boolean notNull, String defaultExpression, boolean identity,
            boolean generated) {
    }

    /** An index of a target table: its target name, whether unique, its columns in order. */
    public record ShapeIndex(String name, boolean unique, List<String> columns) {
    }

    /**
     * A foreign key the source created while its parent table did not exist (foreign_key_checks=0): the target cannot
     * reference a missing table, so the key waits until the parent is created.
     *
     * @param child the target table that gets the key
     * @param name the constraint's name on the target
     * @param parent the target table it references
     * @param sql the statement that adds it without checking the rows already there (as MySQL with checks off)
     */
    public record DeferredForeignKey(TableName child, String name, TableName parent, String sql) {
    }

    /**
     * @param sql target statements to run in order
     * @param warnings what was dropped or approximated
     * @param tables every target table the statement touches (for catalog refresh)
     * @param schemas target schemas created or dropped
     * @param deferredForeignKeys foreign keys left out because their parent does not exist yet (see
     *     {@link #foreignKeyChecks})
     */
    public record Translation(List<String> sql, List<String> warnings, Set<TableName> tables, Set<String> schemas,
            List<DeferredForeignKey> deferredForeignKeys) {
        public Translation(List<String> sql, List<String> warnings, Set<TableName> tables, Set<String> schemas) {
            this(sql, warnings, tables, schemas, List.of());
        }
    }

    private final Dialect dialect;
    private final boolean pg;
    private final UnaryOperator<String> schemaMap;
    private final TargetLookup lookup;
    private final List<String> sql = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final Set<TableName> tables = new LinkedHashSet<>();
    private final Set<String> schemas = new LinkedHashSet<>();
    private final List<DeferredForeignKey> deferred = new ArrayList<>();
    private boolean foreignKeyChecks = true;

    public DdlTranslator(Dialect dialect, UnaryOperator<String> schemaMap, TargetLookup lookup) {
        if (dialect.kind() == Dialect.Kind.MYSQL) {
            throw new IllegalArgumentException("MySQL targets run MySQL DDL as is");
        }
        this.dialect = dialect;
        this.pg = dialect.kind() == Dialect.Kind.POSTGRESQL;
        this.schemaMap = Objects.requireNonNull(schemaMap, "schemaMap");
        this.lookup = Objects.requireNonNull(lookup, "lookup");
    }

    /**
     * Whether the source checked foreign keys when it ran the statements translated next (the QUERY event's flags2).
     * With the checks off, MySQL creates a foreign key whose parent table does not exist yet; the translation then
     * leaves such a key out of the statement and returns it as {@link Translation#deferredForeignKeys()}.
     */
    public DdlTranslator foreignKeyChecks(boolean checks) {
        this.foreignKeyChecks = checks;
        return this;
    }

    public Translation translate(Statement statement) {
        sql.clear();
        warnings.clear();
        tables.clear();
        schemas.clear();
        deferred.clear();
        if (statement instanceof CreateDatabase s) {
                String schema = schemaMap.apply(s.name());
                schemas.add(schema);
                sql.add("CREATE SCHEMA " + (s.ifNotExists() ? "IF NOT EXISTS " : "") + q(schema));
        } else if (statement instanceof DropDatabase s) {
                String schema = schemaMap.apply(s.name());
                schemas.add(schema);
                sql.add("DROP SCHEMA " + (s.ifExists() ? "IF EXISTS " : "") + q(schema) + " CASCADE");
        } else if (statement instanceof AlterDatabase s) {
            warnings.add("ALTER DATABASE changes only character sets: nothing to do");
        } else if (statement instanceof CreateTable s) {
            createTable(s);
        } else if (statement instanceof DropTable s) {
                if (s.temporary()) {
                    warnings.add("temporary tables are not replicated: DROP TEMPORARY TABLE ignored");
                } else {
                    List<String> names = new ArrayList<>();
                    for (TableName t : s.tables()) {
                        names.add(table(t));
                    }
                    sql.add("DROP TABLE " + (s.ifExists() ? "IF EXISTS " : "") + String.join(", ", names));
                }
        } else if (statement instanceof CreateIndex s) {
                TableName t = map(s.table());
                tables.add(t);
                createIndex(t, s.name(), s.columns(), s.unique(), s.kind(), false);
        } else if (statement instanceof DropIndex s) {
                TableName t = map(s.table());
                tables.add(t);
                dropIndex(t, s.name());
        } else if (statement instanceof AlterTable s) {
            alterTable(s);
        } else if (statement instanceof RenameTables s) {
                for (TableName[] pair : s.pairs()) {
                    rename(map(pair[0]), map(pair[1]));
                }
        } else if (statement instanceof TruncateTable s) {
            sql.add("TRUNCATE TABLE " + table(s.table()));
        }
        return new Translation(List.copyOf(sql), List.copyOf(warnings), Set.copyOf(tables), Set.copyOf(schemas),
                List.copyOf(deferred));
    }

    /**
     * Whether a foreign key of {@code child} waits for its parent: the source ran with foreign key checks off and the
     * parent (not the table itself) does not exist on the target.
     */
    private boolean waitsForParent(TableName child, ForeignKey f) {
        if (foreignKeyChecks) {
            return false;
        }
        TableName parent = map(f.parent());
        return !parent.equals(child) && !lookup.tableExists(parent);
    }

    /**
     * The clause that adds a foreign key without checking the rows already there, when the source ran with foreign key
     * checks off (MySQL then adds it unchecked too); empty otherwise.
     */
    private String unchecked() {
        return foreignKeyChecks ? "" : pg ? " NOT VALID" : " NOCHECK";
    }

    private void defer(TableName child, ForeignKey f, String definition, String constraintName) {
        TableName parent = map(f.parent());
        deferred.add(new DeferredForeignKey(child, constraintName, parent, "ALTER TABLE " + qualified(child) + " ADD "
                + definition + (pg ? " NOT VALID" : " NOCHECK")));
        warnings.add("foreign key " + constraintName + " of " + child.name() + " references " + parent.schema() + "."
                + parent.name() + ", which does not exist yet (the source ran with foreign_key_checks=0): it is created "
                + "when that table is");
    }

    private void createTable(CreateTable s) {
        TableName t = map(s.table());
        tables.add(t);
        String name = qualified(t);
        if (s.likeTable() != null) {
            createTableLike(t, s.ifNotExists(), map(s.likeTable()));
            return;
        }
        List<String> defs = new ArrayList<>();
        List<String> primaryKey = new ArrayList<>();
        List<Runnable> afterCreate = new ArrayList<>();
        Set<String> indexNames = new HashSet<>();
        int[] foreignKeys = {0};
        for (Column c : s.columns()) {
            defs.add(columnDefinition(c, s.columns()));
            if (c.primaryKey()) {
                primaryKey.add(c.name());
            }
            if (c.unique()) {
                String indexName = uniqueName(indexNames, c.name());
                afterCreate.add(() -> createIndex(t, indexName, List.of(c.name()), true, "INDEX", s.ifNotExists()));
            }
            if (c.references() != null) {
                addForeignKey(t, c.references(), foreignKeys, defs);
            }
        }
        for (Constraint k : s.constraints()) {
            if (k instanceof PrimaryKey p) {
                primaryKey.addAll(p.columns());
            } else if (k instanceof Unique u) {
                    String indexName = uniqueName(indexNames, u.name() != null ? u.name() : u.columns().get(0));
                    afterCreate.add(() -> createIndex(t, indexName, u.columns(), true, "INDEX", s.ifNotExists()));
            } else if (k instanceof Index i) {
                    String indexName = uniqueName(indexNames, i.name() != null ? i.name() : i.columns().get(0));
                    afterCreate.add(() -> createIndex(t, indexName, i.columns(), false, i.kind(), s.ifNotExists()));
            } else if (k instanceof ForeignKey f) {
                addForeignKey(t, f, foreignKeys, defs);
            } else if (k instanceof Check c) {
                warnings.add("CHECK constraint " + (c.name() == null ? "" : c.name() + " ")
                        + "not translated (MySQL expressions)");
            }
        }
        if (!primaryKey.isEmpty()) {
            defs.add("PRIMARY KEY (" + columnList(primaryKey) + ")");
        }
        sql.add("CREATE TABLE " + (s.ifNotExists() ? "IF NOT EXISTS " : "") + name + " (" + String.join(", ", defs) + ")");
        afterCreate.forEach(Runnable::run);
    }

    /**
     * CREATE TABLE a LIKE b as the target has b: the columns with their types, nullability and defaults, the primary
     * key and the indexes (named by this translator's rule for a, as MySQL copies b's index names); no foreign keys, as
     * MySQL copies none. PostgreSQL copies columns, defaults and identity with its own LIKE clause; the keys are added
     * here rather than by INCLUDING INDEXES, which would name them by PostgreSQL's rule and break a later DROP INDEX.
     * H2 has no LIKE: the columns come from a query of b with no data, NOT NULL and defaults are set from its catalog.
     */
    private void createTableLike(TableName t, boolean ifNotExists, TableName like) {
        String name = qualified(t);
        if (ifNotExists && lookup.tableExists(t)) {
            warnings.add("CREATE TABLE IF NOT EXISTS ... LIKE: " + t.name() + " exists, nothing to do");
            return;
        }
        TargetShape shape = lookup.shape(like);
        if (shape == null) {
            throw new DdlSyntaxException("CREATE TABLE ... LIKE " + like.schema() + "." + like.name()
                    + ": that table does not exist on the target", 0);
        }
        if (pg) {
            sql.add("CREATE TABLE " + name + " (LIKE " + qualified(like)
                    + " INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING GENERATED INCLUDING COMMENTS)");
        } else {
            for (ShapeColumn c : shape.columns()) {
                if (c.generated()) {
                    // AS SELECT would copy it as a plain column, which MINIMAL images leave unwritten (VIRTUAL)
                    throw new DdlSyntaxException("CREATE TABLE ... LIKE " + like.schema() + "." + like.name()
                            + ": generated column " + c.name() + " is not translated for H2", 0);
                }
            }
            sql.add("CREATE TABLE " + name + " AS SELECT * FROM " + qualified(like) + " WITH NO DATA");
            for (ShapeColumn c : shape.columns()) {
                if (c.notNull()) {
                    sql.add("ALTER TABLE " + name + " ALTER COLUMN " + q(c.name()) + " SET NOT NULL");
                }
                if (c.defaultExpression() != null && !c.identity()) {
                    sql.add("ALTER TABLE " + name + " ALTER COLUMN " + q(c.name()) + " SET DEFAULT "
                            + c.defaultExpression());
                }
                if (c.identity()) {
                    // Row events carry every AUTO_INCREMENT value, so the copy's values never come from the target.
                    warnings.add("AUTO_INCREMENT of " + t.name() + "." + c.name() + " is not an identity on H2 (the "
                            + "log's rows carry its values)");
                }
            }
        }
        if (!shape.primaryKey().isEmpty()) {
            sql.add("ALTER TABLE " + name + " ADD PRIMARY KEY (" + columnList(shape.primaryKey()) + ")");
        }
        String prefix = like.name() + "_";
        for (ShapeIndex i : shape.indexes()) {
            String sourceName = i.name().startsWith(prefix) ? i.name().substring(prefix.length()) : i.name();
            sql.add("CREATE " + (i.unique() ? "UNIQUE " : "") + "INDEX " + q(indexName(t.name(), sourceName)) + " ON "
                    + name + " (" + columnList(i.columns()) + ")");
        }
    }

    /** MySQL's default index name rule: the given name, or the first column's, with _2, _3.. on a clash. */
    private static String uniqueName(Set<String> taken, String base) {
        String name = base;
        for (int i = 2; !taken.add(name.toLowerCase(Locale.ROOT)); i++) {
            name = base + "_" + i;
        }
        return name;
    }

    /** A CREATE TABLE's foreign key: into the definitions, or deferred until its parent exists. */
    private void addForeignKey(TableName child, ForeignKey f, int[] counter, List<String> defs) {
        String definition = foreignKey(child, f, counter);
        if (waitsForParent(child, f)) {
            defer(child, f, definition, fit(f.name() != null ? f.name() : child.name() + "_ibfk_" + counter[0]));
        } else {
            defs.add(definition);
        }
    }

    private String foreignKey(TableName child, ForeignKey f, int[] counter) {
        TableName parent = map(f.parent());
        String name = f.name() != null ? f.name() : child.name() + "_ibfk_" + (++counter[0]);
        StringBuilder sb = new StringBuilder("CONSTRAINT ").append(q(fit(name))).append(" FOREIGN KEY (")
                .append(columnList(f.columns())).append(") REFERENCES ").append(qualified(parent)).append(" (")
                .append(columnList(f.parentColumns())).append(')');
        if (f.onDelete() != null) {
            sb.append(" ON DELETE ").append(f.onDelete());
        }
        if (f.onUpdate() != null) {
            sb.append(" ON UPDATE ").append(f.onUpdate());
        }
        return sb.toString();
    }

    private void createIndex(TableName t, String name, List<String> columns, boolean unique, String kind,
            boolean ifNotExists) {
        if (!kind.equals("INDEX")) {
            warnings.add(kind + " index " + name + " on " + t.name() + " not translated");
            return;
        }
        sql.add("CREATE " + (unique ? "UNIQUE " : "") + "INDEX " + (ifNotExists ? "IF NOT EXISTS " : "")
                + q(indexName(t.name(), name)) + " ON " + qualified(t) + " (" + columnList(columns) + ")");
    }

    private void dropIndex(TableName t, String name) {
        if (name.equalsIgnoreCase("PRIMARY")) {
            dropPrimaryKey(t);
            return;
        }
        sql.add("DROP INDEX " + q(t.schema()) + "." + q(indexName(t.name(), name)));
    }

    private void dropPrimaryKey(TableName t) {
        if (!pg) {
            sql.add("ALTER TABLE " + qualified(t) + " DROP PRIMARY KEY");
            return;
        }
        String constraint = lookup.primaryKeyName(t);
        if (constraint == null) {
            throw new DdlSyntaxException("DROP PRIMARY KEY: table " + t.schema() + "." + t.name() + " has no primary key "
                    + "on the target", 0);
        }
        sql.add("ALTER TABLE " + qualified(t) + " DROP CONSTRAINT " + q(constraint));
    }

    private void alterTable(AlterTable s) {
        TableName t = map(s.table());
        tables.add(t);
        String name = qualified(t);
        RenameTo renameLast = null;
        int[] foreignKeys = {0};
        for (AlterOp op : s.ops()) {
            if (op instanceof AddColumn a) {
                    Column c = a.column();
                    String position = "";
                    if (a.after() != null) {
                        if (pg) {
                            warnings.add("PostgreSQL cannot place column " + c.name() + (a.after().isEmpty() ? " first"
                                    : " after " + a.after()) + ": added last");
                        } else {
                            position = a.after().isEmpty() ? " FIRST" : " AFTER " + q(a.after());
                        }
                    }
                    sql.add("ALTER TABLE " + name + " ADD COLUMN " + columnDefinition(c, null) + position);
                    if (c.primaryKey()) {
                        sql.add("ALTER TABLE " + name + " ADD PRIMARY KEY (" + q(c.name()) + ")");
                    }
                    if (c.unique()) {
                        createIndex(t, c.name(), List.of(c.name()), true, "INDEX", false);
                    }
                    if (c.references() != null) {
                        warnings.add("foreign key of new column " + c.name() + " named by the target");
                        sql.add("ALTER TABLE " + name + " ADD " + foreignKey(t, c.references(), foreignKeys)
                                .replaceFirst("^CONSTRAINT \"[^\"]*(\"\"[^\"]*)*\" ", ""));
                    }
            } else if (op instanceof DropColumn d) {
                sql.add("ALTER TABLE " + name + " DROP COLUMN " + (d.ifExists() ? "IF EXISTS " : "")
                        + q(d.name()));
            } else if (op instanceof ModifyColumn m) {
                modifyColumn(t, m);
            } else if (op instanceof RenameColumn r) {
                renameColumn(t, r.oldName(), r.newName());
            } else if (op instanceof SetDefault d) {
                    if (d.value() == null) {
                        sql.add("ALTER TABLE " + name + " ALTER COLUMN " + q(d.column()) + " DROP DEFAULT");
                    } else {
                        String literal = defaultLiteral(d.value(), null, d.column());
                        if (literal != null) {
                            sql.add("ALTER TABLE " + name + " ALTER COLUMN " + q(d.column()) + " SET DEFAULT " + literal);
                        }
                    }
            } else if (op instanceof AddConstraint a) {
                    if (a.constraint() instanceof PrimaryKey p) {
                        sql.add("ALTER TABLE " + name + " ADD PRIMARY KEY (" + columnList(p.columns())
                                + ")");
                    } else if (a.constraint() instanceof Unique u) {
                        createIndex(t, u.name() != null ? u.name() : u.columns().get(0), u.columns(), true,
                                "INDEX", false);
                    } else if (a.constraint() instanceof Index i) {
                        createIndex(t, i.name() != null ? i.name() : i.columns().get(0), i.columns(), false,
                                i.kind(), false);
                    } else if (a.constraint() instanceof ForeignKey f && waitsForParent(t, f)) {
                        String definition = foreignKey(t, f, foreignKeys);
                        String constraint = f.name() != null ? f.name() : t.name() + "_ibfk_" + foreignKeys[0];
                        defer(t, f, definition, fit(constraint));
                    } else if (a.constraint() instanceof ForeignKey f) {
                            if (f.name() == null) {
                                warnings.add("unnamed foreign key named by the target");
                                sql.add("ALTER TABLE " + name + " ADD " + foreignKey(t, f, foreignKeys)
                                        .replaceFirst("^CONSTRAINT \"[^\"]*(\"\"[^\"]*)*\" ", "") + unchecked());
                            } else {
                                sql.add("ALTER TABLE " + name + " ADD " + foreignKey(t, f, foreignKeys) + unchecked());
                            }
                    } else if (a.constraint() instanceof Check c) {
                        warnings.add("CHECK constraint not translated (MySQL expressions)");
                    }
            } else if (op instanceof DropPrimaryKey d) {
                dropPrimaryKey(t);
            } else if (op instanceof DropIndexOp d) {
                dropIndex(t, d.name());
            } else if (op instanceof DropForeignKey d) {
                sql.add("ALTER TABLE " + name + " DROP CONSTRAINT " + q(fit(d.name())));
            } else if (op instanceof RenameTo r) {
                renameLast = r;
            } else if (op instanceof Ignored i) {
                    // table options and physical layout: nothing to do on the target
            }
        }
        if (renameLast != null) {
            rename(t, map(renameLast.table()));
        }
    }

    private void modifyColumn(TableName t, ModifyColumn m) {
        if (m.column().generated()) {
            throw refusedGeneration(m.column(), "in ALTER TABLE");
        }
        String name = qualified(t);
        Column c = m.column();
        if (!m.oldName().equals(c.name())) {
            renameColumn(t, m.oldName(), c.name());
        }
        if (m.after() != null) {
            warnings.add("column " + c.name() + " keeps its position on the target");
        }
        String column = q(c.name());
        String type = type(c.type(), c.name());
        if (pg) {
            sql.add("ALTER TABLE " + name + " ALTER COLUMN " + column + " TYPE " + type + " USING " + column + "::" + type);
        } else {
            sql.add("ALTER TABLE " + name + " ALTER COLUMN " + column + " SET DATA TYPE " + type);
        }
        boolean notNull = Boolean.FALSE.equals(c.nullable()) || c.primaryKey()
                || c.nullable() == null && lookup.isPrimaryKeyColumn(t, c.name());
        sql.add("ALTER TABLE " + name + " ALTER COLUMN " + column + (notNull ? " SET NOT NULL" : " DROP NOT NULL"));
        String literal = c.defaultValue() == null ? null : defaultLiteral(c.defaultValue(), c.type(), c.name());
        sql.add("ALTER TABLE " + name + " ALTER COLUMN " + column + (literal == null ? " DROP DEFAULT"
                : " SET DEFAULT " + literal));
        if (c.autoIncrement()) {
            warnings.add("AUTO_INCREMENT of modified column " + c.name() + " not changed on the target");
        }
    }

    private void renameColumn(TableName t, String from, String to) {
        sql.add(pg ? "ALTER TABLE " + qualified(t) + " RENAME COLUMN " + q(from) + " TO " + q(to)
                : "ALTER TABLE " + qualified(t) + " ALTER COLUMN " + q(from) + " RENAME TO " + q(to));
    }

    private void rename(TableName from, TableName to) {
        tables.add(from);
        tables.add(to);
        TableName current = from;
        if (!from.schema().equals(to.schema())) {
            if (!pg) {
                throw new DdlSyntaxException("moving a table to another schema is not translated for H2", 0);
            }
            sql.add("ALTER TABLE " + qualified(from) + " SET SCHEMA " + q(to.schema()));
            current = new TableName(to.schema(), from.name());
        }
        if (!current.name().equals(to.name())) {
            sql.add("ALTER TABLE " + qualified(current) + " RENAME TO " + q(to.name()));
        }
    }

    /**
     * A column's target definition; {@code tableColumns} are the columns of the CREATE TABLE it is part of (the only
     * place a generated column is translated: its expression's column types are known there), null in ALTER TABLE.
     */
    private String columnDefinition(Column c, List<Column> tableColumns) {
        if (c.generated()) {
            if (tableColumns == null) {
                throw refusedGeneration(c, "in ALTER TABLE");
            }
            return q(c.name()) + " " + type(c.type(), c.name()) + " GENERATED ALWAYS AS ("
                    + generationExpression(c, tableColumns) + ")" + (pg ? " STORED" : "")
                    + (Boolean.FALSE.equals(c.nullable()) ? " NOT NULL" : "");
        }
        String type = type(c.type(), c.name());
        boolean identity = c.autoIncrement() && (type.equals("smallint") || type.equals("integer") || type.equals("bigint")
                || type.equals("TINYINT") || type.equals("SMALLINT") || type.equals("INTEGER") || type.equals("BIGINT"));
        if (c.autoIncrement() && !identity) {
            warnings.add("AUTO_INCREMENT of " + c.name() + " (" + type + ") not translated; the applier writes the "
                    + "source's values");
        }
        StringBuilder sb = new StringBuilder(q(c.name())).append(' ').append(type);
        if (identity) {
            sb.append(" GENERATED BY DEFAULT AS IDENTITY");
        } else if (c.defaultValue() != null) {
            String literal = defaultLiteral(c.defaultValue(), c.type(), c.name());
            if (literal != null) {
                sb.append(" DEFAULT ").append(literal);
            }
        }
        if (Boolean.FALSE.equals(c.nullable()) || c.primaryKey() || identity) {
            sb.append(" NOT NULL");
        }
        return sb.toString();
    }

    /**
     * The target's text of a generated column's expression, translated only where MySQL's meaning is kept exactly:
     * integer arithmetic ({@code + - *} and parentheses) over signed integer columns of the same table that are not
     * generated themselves and decimal integer literals, into a signed BIGINT column. MySQL computes such an
     * expression in signed 64-bit integers, NULL when an operand is NULL, and fails on overflow; every operand is cast
     * to BIGINT so PostgreSQL and H2 compute in the same type (their INTEGER arithmetic would overflow at 32 bits) with
     * the same NULL rule and an error on overflow. One difference stays, loud rather than silent: MariaDB does not
     * compute an unindexed VIRTUAL column when a row is written (an overflowing one reads as 0 later), while the
     * target computes at the insert and refuses it, so the pipeline stops there naming the position. Anything else (functions, division, strings, unsigned or non-integer
     * operands, a narrower result column) is refused at the token's offset.
     */
    private String generationExpression(Column c, List<Column> tableColumns) {
        List<SqlToken> tokens = c.generation();
        if (tokens == null || tokens.isEmpty()) {
            throw refusedGeneration(c, "without its expression");
        }
        DataType result = c.type();
        if (!isSignedInteger(result) || !(result.name().equals("bigint") || result.name().equals("int8"))) {
            throw refusedGeneration(c, "of type " + result.name() + (result.unsigned() ? " unsigned" : "")
                    + " (only a signed BIGINT keeps MySQL's 64-bit result)", tokens.get(0).offset());
        }
        String bigint = pg ? "bigint" : "BIGINT";
        StringBuilder out = new StringBuilder();
        int depth = 0;
        boolean operandNext = true; // alternates operand, operator; parentheses open where an operand may start
        for (SqlToken t : tokens) {
            if (operandNext && t.isSymbol("(")) {
                depth++;
                out.append('(');
            } else if (!operandNext && t.isSymbol(")") && depth > 0) {
                depth--;
                out.append(')');
            } else if (!operandNext && (t.isSymbol("+") || t.isSymbol("-") || t.isSymbol("*"))) {
                out.append(' ').append(t.text()).append(' ');
                operandNext = true;
            } else if (operandNext && t.type() == SqlToken.Type.NUMBER && t.text().matches("[0-9]{1,18}")) {
                out.append("CAST(").append(t.text()).append(" AS ").append(bigint).append(')');
                operandNext = false;
            } else if (operandNext && t.isName()) {
                Column operand = tableColumns.stream().filter(x -> x.name().equalsIgnoreCase(t.text())).findFirst()
                        .orElse(null);
                if (operand == null || operand.generated() || !isSignedInteger(operand.type())) {
                    throw refusedGeneration(c, "over " + t.text() + " (only signed integer columns that are not "
                            + "generated keep MySQL's meaning)", t.offset());
                }
                out.append("CAST(").append(q(operand.name())).append(" AS ").append(bigint).append(')');
                operandNext = false;
            } else {
                throw refusedGeneration(c, "with '" + t.text() + "' (only + - * over integer columns and literals are "
                        + "translated)", t.offset());
            }
        }
        if (operandNext || depth != 0) {
            throw refusedGeneration(c, "with an incomplete expression", tokens.get(tokens.size() - 1).offset());
        }
        return out.toString();
    }

    private static boolean isSignedInteger(DataType t) {
        return !t.unsigned() && switch (t.name()) {
            case "tinyint", "smallint", "mediumint", "middleint", "int", "integer", "int4", "bigint", "int8" -> true;
            default -> false;
        };
    }

    private DdlSyntaxException refusedGeneration(Column c, String why) {
        int offset = c.generation() == null || c.generation().isEmpty() ? 0 : c.generation().get(0).offset();
        return refusedGeneration(c, why, offset);
    }

    private DdlSyntaxException refusedGeneration(Column c, String why, int offset) {
        return new DdlSyntaxException("generated column " + c.name() + " is not translated " + why, offset);
    }

    /** The target type for a MySQL type. */
    String type(DataType t, String column) {
        Integer p0 = t.param(0);
        String n = t.name();
        switch (n) {
            case "tinyint", "bool", "boolean" -> {
                return pg ? "smallint" : t.unsigned() ? "SMALLINT" : "TINYINT";
            }
            case "smallint" -> {
                return pg ? (t.unsigned() ? "integer" : "smallint") : (t.unsigned() ? "INTEGER" : "SMALLINT");
            }
            case "mediumint", "middleint" -> {
                return pg ? "integer" : "INTEGER";
            }
            case "int", "integer", "int4" -> {
                return pg ? (t.unsigned() ? "bigint" : "integer") : (t.unsigned() ? "BIGINT" : "INTEGER");
            }
            case "bigint", "int8" -> {
                return pg ? (t.unsigned() ? "numeric(20)" : "bigint") : (t.unsigned() ? "NUMERIC(20)" : "BIGINT");
            }
            case "decimal", "numeric", "dec", "fixed" -> {
                int precision = p0 == null ? 10 : p0;
                int scale = t.param(1) == null ? 0 : t.param(1);
                return (pg ? "numeric(" : "NUMERIC(") + precision + "," + scale + ")";
            }
            case "float", "float4" -> {
                boolean dbl = p0 != null && t.params().size() == 1 && p0 > 24;
                return dbl ? (pg ? "double precision" : "DOUBLE PRECISION") : (pg ? "real" : "REAL");
            }
            case "double", "real", "float8" -> {
                return pg ? "double precision" : "DOUBLE PRECISION";
            }
            case "bit" -> {
                return pg ? "bit(" + (p0 == null ? 1 : p0) + ")" : "BIGINT";
            }
            case "char", "varchar" -> {
                int length = p0 == null ? 1 : p0;
                // MySQL counts characters (code points), H2 counts UTF-16 units: n emoji need 2n there.
                return pg ? "varchar(" + length + ")" : "VARCHAR(" + Math.min(1_000_000_000L, 2L * length) + ")";
            }
            case "tinytext", "text" -> {
                return pg ? "text" : "VARCHAR";
            }
            case "mediumtext", "longtext" -> {
                return pg ? "text" : "CLOB";
            }
            case "binary", "varbinary" -> {
                return pg ? "bytea" : "VARBINARY(" + (p0 == null ? 1 : p0) + ")";
            }
            case "tinyblob", "blob" -> {
                return pg ? "bytea" : "VARBINARY";
            }
            case "mediumblob", "longblob" -> {
                return pg ? "bytea" : "BLOB";
            }
            case "date" -> {
                return pg ? "date" : "DATE";
            }
            case "datetime" -> {
                return (pg ? "timestamp(" : "TIMESTAMP(") + (p0 == null ? 0 : p0) + ")";
            }
            case "timestamp" -> {
                return (pg ? "timestamp(" : "TIMESTAMP(") + (p0 == null ? 0 : p0) + ") with time zone";
            }
            case "time" -> {
                return pg ? "interval(" + (p0 == null ? 0 : p0) + ")"
                        : "INTERVAL HOUR(3) TO SECOND(" + (p0 == null ? 0 : p0) + ")";
            }
            case "year" -> {
                return pg ? "smallint" : "SMALLINT";
            }
            case "json" -> {
                return pg ? "jsonb" : "JSON";
            }
            case "enum", "set" -> {
                return pg ? "text" : "VARCHAR";
            }
            case "geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon",
                    "geometrycollection", "geomcollection" -> {
                return pg ? "bytea" : "BLOB";
            }
            case "uuid" -> {
                return pg ? "uuid" : "UUID";
            }
            case "vector" -> {
                return pg ? "real[]" : "REAL ARRAY";
            }
            default -> throw new DdlSyntaxException("column " + column + " has type " + n + ", which Lanes does not "
                    + "translate", 0);
        }
    }

    /** A DEFAULT literal for the target, or null to drop the default (with a warning). */
    private String defaultLiteral(DefaultValue v, DataType type, String column) {
        String typeName = type == null ? "" : type.name();
        boolean bit = typeName.equals("bit");
        boolean binary = typeName.endsWith("blob") || typeName.endsWith("binary");
        switch (v.kind()) {
            case NULL -> {
                return "NULL";
            }
            case NUMBER -> {
                if (bit && pg) {
                    return bitLiteral(Long.toBinaryString(Long.parseLong(v.text())), type);
                }
                return v.text();
            }
            case BITS -> {
                if (bit && pg) {
                    return bitLiteral(v.text(), type);
                }
                return Long.toString(Long.parseUnsignedLong(v.text(), 2));
            }
            case HEX -> {
                if (binary) {
                    return pg ? "'\\x" + v.text() + "'::bytea" : "X'" + v.text() + "'";
                }
                return Long.toString(Long.parseUnsignedLong(v.text(), 16));
            }
            case CURRENT_TIMESTAMP -> {
                return "CURRENT_TIMESTAMP";
            }
            case STRING -> {
                String s = v.text();
                if (s.startsWith("0000-00-00")) {
                    warnings.add("zero-date default of " + column + " dropped");
                    return null;
                }
                if (bit && pg) {
                    return bitLiteral(s.chars().allMatch(ch -> ch == '0' || ch == '1') ? s : "0", type);
                }
                if (binary) {
                    String hex = HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
                    return pg ? "'\\x" + hex + "'::bytea" : "X'" + hex + "'";
                }
                return stringLiteral(s);
            }
            default -> {
                warnings.add("expression default of " + column + " dropped (the applier writes the source's values)");
                return null;
            }
        }
    }

    private static String bitLiteral(String bits, DataType type) {
        int width = type.param(0) == null ? 1 : type.param(0);
        StringBuilder sb = new StringBuilder(bits);
        while (sb.length() < width) {
            sb.insert(0, '0');
        }
        return "B'" + sb.substring(sb.length() - width) + "'";
    }

    /** A string literal safe under any standard_conforming_strings setting (PostgreSQL E'' with escaped backslashes). */
    private String stringLiteral(String s) {
        if (pg) {
            return "E'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
        }
        return "'" + s.replace("'", "''") + "'";
    }

    /** {@code t_i}, shortened with a CRC32 suffix when longer than the target keeps. */
    String indexName(String table, String index) {
        return fit(table + "_" + index);
    }

    private String fit(String name) {
        int max = dialect.maxIdentifierLength();
        if (length(name) <= max) {
            return name;
        }
        CRC32 crc = new CRC32();
        crc.update(name.getBytes(StandardCharsets.UTF_8));
        String suffix = "_" + String.format("%08x", crc.getValue());
        StringBuilder prefix = new StringBuilder();
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            String next = prefix + new String(Character.toChars(cp));
            if (length(next + suffix) > max) {
                break;
            }
            prefix.appendCodePoint(cp);
            i += Character.charCount(cp);
        }
        return prefix + suffix;
    }

    private int length(String name) {
        return pg ? name.getBytes(StandardCharsets.UTF_8).length : name.codePointCount(0, name.length());
    }

    private TableName map(TableName t) {
        return new TableName(schemaMap.apply(t.schema()), t.name());
    }

    private String table(TableName source) {
        TableName t = map(source);
        tables.add(t);
        return qualified(t);
    }

    private String qualified(TableName t) {
        return dialect.qualify(t.schema(), t.name());
    }

    private String q(String identifier) {
        return dialect.quoteIdentifier(identifier);
    }

    private String columnList(List<String> columns) {
        List<String> quoted = new ArrayList<>(columns.size());
        for (String c : columns) {
            quoted.add(q(c));
        }
        return String.join(", ", quoted);
    }
}
