package io.lanes.applier.statements;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lanes.applier.BinlogBridge;
import io.lanes.applier.Change;
import io.lanes.applier.ConstraintChecks;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableMetadata;
import io.lanes.applier.TableShape;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.applier.internal.StatementCounters;
import io.lanes.applier.internal.StatementFilter;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.TransactionReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The statement filter sits in the bridge, so that every consumer of its transactions (a JDBC target, a
 * {@code TransactionSink}, {@code lanes stat}) gets the same statements: account management only when asked for, and
 * {@link ConstraintChecks} markers only before rows written with checks off. Real logs: the mariadb-poc fixture of
 * domain 1 (eleven account statements, one CREATE DATABASE) and sakila (rows with foreign key checks off).
 */
class BridgeStatementFilterTest {
    @TempDir
    Path temp;

    private static final TableMetadata NO_TABLES = TableMetadata.none();

    private static List<Change> changes(Path log, BinlogBridge bridge) throws Exception {
        List<Change> out = new ArrayList<>();
        try (TransactionReader r = TransactionReader.open(log)) {
            for (BinlogTransaction t; (t = r.next()) != null; ) {
                SourceTransaction s = bridge.convert(t).payload();
                out.addAll(s.changes());
            }
        }
        return out;
    }

    @Test
    void accountStatementsReachNoConsumerUnlessAskedFor() throws Exception {
        Path log = StatementLogs.fixture(temp, "/binlogs/mariadb-poc/domain_id_1/mariadb-repl-bin.000002",
                "mariadb-repl-bin.000002");
        StatementCounters counters = new StatementCounters();
        List<Change> defaults = changes(log, new BinlogBridge(SchemaMapping.identity(), NO_TABLES,
                new StatementFilter(SchemaMapping.identity(), false, counters)));
        assertEquals(List.of("CREATE DATABASE `sbtest-repl` CHARACTER SET = 'utf8' COLLATE = 'utf8_general_ci'"),
                defaults.stream().map(c -> ((SourceStatement) c).sql()).toList());
        assertEquals(11, counters.snapshot().accountStatementsSkipped());

        List<Change> asked = changes(log, new BinlogBridge(SchemaMapping.identity(), NO_TABLES,
                new StatementFilter(SchemaMapping.identity(), true, new StatementCounters())));
        assertEquals(12, asked.size());
    }

    @Test
    void rowsWrittenWithForeignKeyChecksOffArePrecededByAMarker() throws Exception {
        Path log = StatementLogs.fixture(temp, SakilaApplyTest.SAKILA, "mysql-bin.sakila");
        // MySQL 5.5 logs no column names: the language table's shape, as its CREATE TABLE in the log declares it
        TableMetadata language = new TableMetadata() {
            @Override
            public TableShape shape(String schema, String table) {
                return table.equals("language") ? new TableShape(List.of("language_id", "name", "last_update"),
                        List.of(new TableShape.Key("PRIMARY", List.of("language_id"))), List.of()) : null;
            }

            @Override
            public void invalidate() {
            }
        };
        SchemaMapping onlyLanguage = SchemaMapping.builder().includeTables("sakila.language").build();
        List<Change> changes = changes(log, new BinlogBridge(onlyLanguage, language));
        List<String> kinds = changes.stream().filter(c -> !(c instanceof SourceStatement))
                .map(c -> c instanceof ConstraintChecks k ? "checks fk=" + k.foreignKeys() + " unique=" + k.uniqueKeys()
                        : "row").distinct().toList();
        // sakila's rows were written with both checks off (row event flags 6): a marker first, then the 6 rows
        assertEquals(List.of("checks fk=false unique=false", "row"), kinds);
        assertEquals(6, changes.stream().filter(io.lanes.applier.RowChange.class::isInstance).count());
    }
}
