package io.lanes.applier.schema;

import io.lanes.applier.BinlogBridge;
import io.lanes.applier.Change;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableMetadata;
import io.lanes.applier.TableRef;
import io.lanes.applier.TableShape;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.binlog.TableMapEvent;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Table shapes learned from a binlog itself, for reading a log without a target (what {@code lanes stat} does): the
 * log's CREATE/ALTER/DROP/RENAME TABLE and CREATE/DROP INDEX statements, followed by a {@link SchemaHistory} of its own
 * (the same definitions a pipeline follows), else the column names and primary key of a TABLE_MAP written with
 * {@code binlog_row_metadata=FULL}. A table neither describes is unknown, and so is one whose definition the history
 * lost (a statement it could not read): {@link #shape} answers null, which leaves the transaction without write keys in
 * the {@link BinlogBridge}, and the table is noted in {@link #unknownTables()}.
 *
 * <p>Source order: {@link #learn} each TABLE_MAP of a transaction before the bridge converts it, and {@link #follow}
 * the converted transaction afterwards, so the statements it carries describe the tables of later transactions.
 *
 * <p>Not thread-safe: the thread that converts the transactions uses it, as {@link TableMetadata} requires.
 */
public final class LogTableShapes implements TableMetadata {
    private final SchemaHistory fromDdl = new SchemaHistory();
    private final Map<TableRef, TableShape> fromTableMaps = new HashMap<>();
    private final SortedSet<String> unknown = new TreeSet<>();

    /** The table by what the log's statements defined, else by a FULL-metadata TABLE_MAP; null (and noted) if neither. */
    @Override
    public TableShape shape(String targetSchema, String table) {
        SourceTable defined = fromDdl.table(targetSchema, table);
        if (defined != null) {
            List<TableShape.Key> keys = defined.uniqueKeys().stream()
                    .map(k -> new TableShape.Key(k.name(), k.columns())).toList();
            return new TableShape(defined.columnNames(), keys, List.of());
        }
        TableShape fromMap = fromTableMaps.get(new TableRef(targetSchema, table));
        if (fromMap == null) {
            unknown.add(targetSchema + "." + table);
        }
        return fromMap;
    }

    /** Nothing cached: the shapes change only through {@link #learn} and {@link #follow}. */
    @Override
    public void invalidate() {
    }

    /** Takes the table's column names and primary key from a TABLE_MAP that carries both (binlog_row_metadata=FULL). */
    public void learn(TableMapEvent map) {
        if (!map.hasColumnNames() || map.primaryKey().isEmpty()) {
            return;
        }
        List<String> names = map.columnNames();
        List<String> primaryKey = map.primaryKey().stream().map(names::get).toList();
        fromTableMaps.put(new TableRef(map.schema(), map.table()), new TableShape(names,
                List.of(new TableShape.Key(TableShape.PRIMARY, primaryKey)), List.of()));
    }

    /** Follows the statements of a converted transaction (DDL changes the definitions of later transactions). */
    public void follow(SourceTransaction txn) {
        for (Change c : txn.changes()) {
            if (c instanceof SourceStatement s) {
                fromDdl.apply(s.sql(), s.defaultSchema(), s.sqlMode(), txn.position());
            }
        }
    }

    /** Tables (as {@code schema.table}) that {@link #shape} was asked for and could not describe, sorted; a view. */
    public SortedSet<String> unknownTables() {
        return Collections.unmodifiableSortedSet(unknown);
    }
}
