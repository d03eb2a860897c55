package io.lanes.applier.internal;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.internal.MySqlDdl.AlterDatabase;
import io.lanes.applier.internal.MySqlDdl.AlterTable;
import io.lanes.applier.internal.MySqlDdl.CreateDatabase;
import io.lanes.applier.internal.MySqlDdl.CreateIndex;
import io.lanes.applier.internal.MySqlDdl.CreateTable;
import io.lanes.applier.internal.MySqlDdl.DropDatabase;
import io.lanes.applier.internal.MySqlDdl.DropIndex;
import io.lanes.applier.internal.MySqlDdl.DropTable;
import io.lanes.applier.internal.MySqlDdl.RenameTables;
import io.lanes.applier.internal.MySqlDdl.RenameTo;
import io.lanes.applier.internal.MySqlDdl.Statement;
import io.lanes.applier.internal.MySqlDdl.TableName;
import io.lanes.applier.internal.MySqlDdl.TruncateTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Facts about parsed DDL shared by the handlers: which source schema or tables it touches, whether filters exclude it. */
final class DdlStatements {
    private DdlStatements() {
    }

    /** The schema a database-level statement names, or null for table-level statements. */
    static String schemaOf(Statement s) {
        if (s instanceof CreateDatabase c) {
            return c.name();
        }
        if (s instanceof DropDatabase d) {
            return d.name();
        }
        if (s instanceof AlterDatabase a) {
            return a.name();
        }
        return null;
    }

    /** Every source table a table-level statement names. */
    static List<TableName> tablesOf(Statement s) {
        List<TableName> out = new ArrayList<>();
        if (s instanceof CreateTable c) {
            out.add(c.table());
        } else if (s instanceof DropTable d) {
            out.addAll(d.tables());
        } else if (s instanceof CreateIndex c) {
            out.add(c.table());
        } else if (s instanceof DropIndex d) {
            out.add(d.table());
        } else if (s instanceof AlterTable a) {
            out.add(a.table());
            a.ops().stream().filter(RenameTo.class::isInstance).map(op -> ((RenameTo) op).table()).forEach(out::add);
        } else if (s instanceof RenameTables r) {
            for (TableName[] pair : r.pairs()) {
                out.add(pair[0]);
                out.add(pair[1]);
            }
        } else if (s instanceof TruncateTable t) {
            out.add(t.table());
        }
        return out;
    }

    /** Whether the mapping excludes the statement entirely (a statement touching any included table is applied). */
    static boolean excluded(Statement s, SchemaMapping mapping) {
        String schema = schemaOf(s);
        if (schema != null) {
            return !mapping.includesSchema(schema);
        }
        for (TableName t : tablesOf(s)) {
            if (mapping.includesTable(t.schema(), t.name())) {
                return false;
            }
        }
        return true;
    }

    /** MySQL/MariaDB errors a DDL statement raises when it already took effect (1007 database exists, 1008 database
     * does not exist, 1050 table exists, 1051 unknown table, 1060 duplicate column, 1061 duplicate key name, 1091 cannot
     * drop column or key, 1826 duplicate foreign key; 1304/1305 routine exists/does not, 1359/1360 trigger exists/does
     * not, 1537/1539 event exists/does not). */
    private static final java.util.Set<Integer> MYSQL_REPLAYED = java.util.Set.of(1007, 1008, 1050, 1051, 1060, 1061, 1091,
            1826, 1304, 1305, 1359, 1360, 1537, 1539);
    /** The same for H2: table, index, schema, column or constraint exists ... */
    private static final java.util.Set<Integer> H2_EXISTS = java.util.Set.of(42101, 42111, 90078, 42121, 90045);
    /** ... or, for a statement that drops something, is not found. */
    private static final java.util.Set<Integer> H2_NOT_FOUND = java.util.Set.of(42102, 42112, 90079, 42122, 90057);

    /**
     * Whether {@code e} says the DDL statement had already taken effect. MySQL and H2 commit DDL on their own, before the
     * checkpoint that records it; after a crash in between, the statement comes again and fails this way. PostgreSQL DDL
     * commits with the checkpoint, so nothing is tolerated there.
     */
    static boolean alreadyApplied(io.lanes.applier.jdbc.Dialect dialect, SQLException e, String sql) {
        return switch (dialect.kind()) {
            case MYSQL -> MYSQL_REPLAYED.contains(e.getErrorCode());
            case H2 -> H2_EXISTS.contains(e.getErrorCode())
                    || H2_NOT_FOUND.contains(e.getErrorCode()) && DROP.matcher(sql).find();
            case POSTGRESQL -> false;
        };
    }

    private static final java.util.regex.Pattern DROP = java.util.regex.Pattern.compile(
            "(?is)^\\s*DROP\\b|^\\s*ALTER\\s+TABLE\\s.*\\sDROP\\s+(COLUMN|CONSTRAINT|PRIMARY\\s+KEY)\\b");

    /** Runs one statement with JDBC escape processing off, so that braces in the text stay text. */
    static void execute(Connection c, String sql) throws SQLException {
        try (java.sql.Statement s = c.createStatement()) {
            s.setEscapeProcessing(false);
            s.execute(sql);
        }
    }
}
