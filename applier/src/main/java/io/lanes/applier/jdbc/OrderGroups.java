package io.lanes.applier.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which target tables' row changes must keep their relative order when the applier batches them: the order groups of
 * the target's catalog, read once (see {@link #read}) and then asked per table.
 *
 * <p>Two tables are in one group when a foreign key relates them, in either direction and transitively (through tables
 * Lanes never writes too): a parent's row must exist before its child's is inserted, a child's row must be gone before
 * its parent's is deleted, and a cascade changes the other table. PostgreSQL's inheritance and partitions relate a
 * parent and its children the same way. A table whose writes may reach tables the catalog does not tell (a trigger, a
 * PostgreSQL rule, a view, a table of another engine or database) is <em>uncertain</em>: its group, and any table of the
 * same foreign key component, is {@link #SHARED}, which the applier takes as "keep every table in one group".
 * Tables related to nothing have a group each.
 *
 * <p>Names are compared in lower case: a target whose catalog spells a name in another case (MySQL with
 * {@code lower_case_table_names}, H2's case-insensitive identifiers) then relates the tables rather than missing the
 * relation; two tables whose names differ only in case share a group, which costs batching, never order.
 *
 * <p>What the catalog hides cannot be seen: on MySQL/MariaDB, information_schema lists only the tables the user has a
 * privilege on, so a foreign key of a table Lanes may not even read is missed. Changes made to the target's catalog by
 * others than Lanes (an operator's new trigger or foreign key) are seen once the applier reads the catalog again: after
 * its connection is reopened or after any DDL Lanes applies.
 *
 * <p>Not thread-safe: each applier reads its own and asks it on its worker's thread only (a lookup shortens the
 * union-find paths it walks).
 */
final class OrderGroups {
    /** The group of an uncertain table (and of every table once one was met): one for all of them. */
    static final Object SHARED = new Object() {
        @Override
        public String toString() {
            return "shared order group";
        }
    };

    private record Name(String schema, String table) {
        static Name of(String schema, String table) {
            return new Name(schema == null ? "" : schema.toLowerCase(Locale.ROOT),
                    table == null ? "" : table.toLowerCase(Locale.ROOT));
        }
    }

    /** Union-find over the tables the catalog relates; a table absent here is related to nothing. */
    private final Map<Name, Name> parent = new HashMap<>();
    /** Tables with a foreign key to themselves (a row's parent is a row of the same table). */
    private final Set<Name> selfReferring = new HashSet<>();
    /** Roots of the components that hold an uncertain table. */
    private final Set<Name> uncertainRoots = new HashSet<>();

    private OrderGroups() {
    }

    /**
     * The order groups of the target's whole catalog, read through {@code c} (three catalog queries, in the connection's
     * open transaction, which they leave as it is on success).
     *
     * @throws SQLException when the catalog cannot be read; the caller then keeps one group for every table
     */
    static OrderGroups read(Connection c, Dialect.Kind kind) throws SQLException {
        OrderGroups g = new OrderGroups();
        Set<Name> uncertain = new HashSet<>();
        try (Statement s = c.createStatement()) {
            for (String sql : relationQueries(kind)) {
                try (ResultSet rs = s.executeQuery(sql)) {
                    while (rs.next()) {
                        Name child = Name.of(rs.getString(1), rs.getString(2));
                        String parentSchema = rs.getString(3);
                        String parentTable = rs.getString(4);
                        if (parentTable == null) {
                            // A foreign key whose parent the catalog does not name: its child's order is not known.
                            uncertain.add(child);
                        } else {
                            Name parentName = Name.of(parentSchema, parentTable);
                            if (parentName.equals(child)) {
                                g.selfReferring.add(child);
                            }
                            g.union(child, parentName);
                        }
                    }
                }
            }
            for (String sql : uncertainQueries(kind)) {
                try (ResultSet rs = s.executeQuery(sql)) {
                    while (rs.next()) {
                        uncertain.add(Name.of(rs.getString(1), rs.getString(2)));
                    }
                }
            }
        }
        for (Name n : uncertain) {
            g.uncertainRoots.add(g.root(n));
        }
        return g;
    }

    /** The group of a table: an object equal to the group of every table whose order relative to it must stay. */
    Object groupOf(String schema, String table) {
        Name root = root(Name.of(schema, table));
        return uncertainRoots.contains(root) ? SHARED : root;
    }

    /**
     * Whether a foreign key of the table refers to the table itself: deleting several of its rows in one statement
     * would check them in the target's order, not the source's.
     */
    boolean refersToItself(String schema, String table) {
        return selfReferring.contains(Name.of(schema, table));
    }

    /** The root of {@code n}'s component; iterative (a chain of foreign keys may be long), compressing the path. */
    private Name root(Name n) {
        Name r = n;
        for (Name p; (p = parent.get(r)) != null; ) {
            r = p;
        }
        for (Name at = n, next; !at.equals(r); at = next) {
            next = parent.get(at);
            parent.put(at, r);
        }
        return r;
    }

    private void union(Name a, Name b) {
        Name ra = root(a);
        Name rb = root(b);
        if (!ra.equals(rb)) {
            parent.put(ra, rb);
        }
    }

    /** Queries of (child schema, child table, parent schema, parent table): foreign keys, and inheritance. */
    private static String[] relationQueries(Dialect.Kind kind) {
        return switch (kind) {
            case MYSQL -> new String[] {"SELECT CONSTRAINT_SCHEMA, TABLE_NAME, UNIQUE_CONSTRAINT_SCHEMA, "
                    + "REFERENCED_TABLE_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS"};
            case POSTGRESQL -> new String[] {
                "SELECT cn.nspname, c.relname, pn.nspname, p.relname FROM pg_catalog.pg_constraint k "
                        + "JOIN pg_catalog.pg_class c ON c.oid = k.conrelid "
                        + "JOIN pg_catalog.pg_namespace cn ON cn.oid = c.relnamespace "
                        + "LEFT JOIN pg_catalog.pg_class p ON p.oid = k.confrelid "
                        + "LEFT JOIN pg_catalog.pg_namespace pn ON pn.oid = p.relnamespace WHERE k.contype = 'f'",
                // A row written to a partitioned (or inheritance) parent lands in a child table, and its keys span both.
                "SELECT cn.nspname, c.relname, pn.nspname, p.relname FROM pg_catalog.pg_inherits i "
                        + "JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid "
                        + "JOIN pg_catalog.pg_namespace cn ON cn.oid = c.relnamespace "
                        + "LEFT JOIN pg_catalog.pg_class p ON p.oid = i.inhparent "
                        + "LEFT JOIN pg_catalog.pg_namespace pn ON pn.oid = p.relnamespace"};
            case H2 -> new String[] {"SELECT fk.TABLE_SCHEMA, fk.TABLE_NAME, pk.TABLE_SCHEMA, pk.TABLE_NAME "
                    + "FROM INFORMATION_SCHEMA.REFERENTIAL_CONSTRAINTS r "
                    + "JOIN INFORMATION_SCHEMA.TABLE_CONSTRAINTS fk ON fk.CONSTRAINT_SCHEMA = r.CONSTRAINT_SCHEMA "
                    + "AND fk.CONSTRAINT_NAME = r.CONSTRAINT_NAME "
                    + "LEFT JOIN INFORMATION_SCHEMA.TABLE_CONSTRAINTS pk ON pk.CONSTRAINT_SCHEMA = r.UNIQUE_CONSTRAINT_SCHEMA "
                    + "AND pk.CONSTRAINT_NAME = r.UNIQUE_CONSTRAINT_NAME"};
        };
    }

    /** Queries of (schema, table) of the tables whose writes may reach tables the catalog does not relate them to. */
    private static String[] uncertainQueries(Dialect.Kind kind) {
        return switch (kind) {
            case MYSQL -> new String[] {
                "SELECT EVENT_OBJECT_SCHEMA, EVENT_OBJECT_TABLE FROM information_schema.TRIGGERS",
                // Views write through to their tables; MERGE, FEDERATED, CONNECT and SPIDER tables to others.
                "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA NOT IN "
                        + "('mysql', 'information_schema', 'performance_schema', 'sys') AND (TABLE_TYPE = 'VIEW' OR "
                        + "UPPER(ENGINE) IN ('MRG_MYISAM', 'MERGE', 'FEDERATED', 'CONNECT', 'SPIDER'))"};
            case POSTGRESQL -> new String[] {
                // User triggers (foreign keys are internal triggers there), rules, views and foreign tables.
                "SELECT n.nspname, c.relname FROM pg_catalog.pg_class c "
                        + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
                        + "WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') "
                        + "AND (c.relkind IN ('v', 'f') OR c.relhasrules OR EXISTS (SELECT 1 FROM pg_catalog.pg_trigger t "
                        + "WHERE t.tgrelid = c.oid AND NOT t.tgisinternal))"};
            case H2 -> new String[] {
                "SELECT EVENT_OBJECT_SCHEMA, EVENT_OBJECT_TABLE FROM INFORMATION_SCHEMA.TRIGGERS",
                // Views, synonyms, linked and temporary tables.
                "SELECT TABLE_SCHEMA, TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA <> 'INFORMATION_SCHEMA' "
                        + "AND TABLE_TYPE <> 'BASE TABLE'"};
        };
    }
}
