package io.lanes.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.examples.cli.DumpCommandTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lanes stat}: counts from real fixtures and the parallelism each scheduler could reach. */
class StatCommandTest {
    static final Path SYSBENCH = DumpCommandTest.FIXTURES.resolve(
            "mariadb-10.11/sysbench-10schemas-update-index.000001.gz");

    @TempDir
    Path temp;

    @Test
    void sysbenchHasTenSchemasAndSchemaParallelismCloseToTen() {
        StatCommand.Stats s = StatCommand.analyse(List.of(SYSBENCH), true);
        assertEquals(10, s.schemas.size(), s.schemas.toString());
        assertEquals(10_040, s.transactions);
        assertEquals(10_000L, s.eventsByType.get("UPDATE_ROWS_V1"));
        double schema = s.simulations.get("schema").parallelism();
        assertTrue(schema > 9.0 && schema <= 10.0, "schema parallelism " + schema);
        assertEquals(1.0, s.simulations.get("sequential").parallelism(), 1e-9);
        // MINIMAL metadata: the keys come from the CREATE TABLE statements in the log, so writeset is known, and with
        // updates of random rows it finds far more independence than whole schemas do.
        assertTrue(s.writesetKnown(), s.tablesWithoutKeys.toString());
        assertTrue(s.simulations.get("writeset").parallelism() > schema, "writeset " + s.simulations.get("writeset").parallelism());
        double clock = s.simulations.get("logical-clock").parallelism();
        assertTrue(clock > 1.0 && clock < schema, "logical clock " + clock);

        Result r = DumpCommandTest.run("stat", "--json", SYSBENCH.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(1, r.out().size());
        String json = r.out().get(0);
        assertTrue(json.contains("\"transactions\":10040") && json.contains("\"schemas\":[\"db1\",\"db10\""), json);
        assertTrue(json.contains("\"schema\":{\"critical_path\":1040,"), json);
    }

    @Test
    void writesetIsReportedWithItsShippedHistoryAndLabelledWithAnUnboundedOne() {
        Path mixed = DumpCommandTest.FIXTURES.resolve("mariadb-10.11/mixed-workload.000001.gz");
        StatCommand.Stats s = StatCommand.analyse(List.of(mixed), true);
        // The log's 47,000 row keys pass the 25,000-key history, but a history is only cleared once the keys of writers
        // still in flight pass 8 times its size (committed writers' keys are dropped first; nothing commits in the
        // simulation): so this log, with its 40,000-row transaction, loses nothing and both lines agree. (Before the
        // history kept in-flight writers, the shipped one was cleared once here: 353.)
        assertEquals(352, s.simulations.get("writeset").criticalPath());
        assertEquals(352, s.writesetUnboundedHistory.criticalPath());

        Result text = DumpCommandTest.run("stat", mixed.toString());
        assertEquals(0, text.code(), text.err());
        String report = String.join("\n", text.out());
        assertTrue(report.contains("(history of 25,000 keys)") && report.contains("unbounded history")
                && report.contains("not shipped"), report);
        Result json = DumpCommandTest.run("stat", "--json", mixed.toString());
        assertTrue(json.out().get(0).contains("\"writeset\":{\"critical_path\":352,"), json.out().get(0));
        assertTrue(json.out().get(0).contains("\"history_size\":25000,\"unbounded_history\":{\"critical_path\":352,"),
                json.out().get(0));
    }

    @Test
    void withoutAnyKeyMetadataWritesetIsUnknown() throws Exception {
        // MySQL 5.7 row events without column names or keys, and no CREATE TABLE in the log.
        StatCommand.Stats s = StatCommand.analyse(List.of(DumpCommandTest.FIXTURES.resolve(
                "mysql-binlog-connector-java/mysql-bin.checksum-crc32")), true);
        assertTrue(!s.writesetKnown(), s.tablesWithoutKeys.toString());
        Map<String, Object> json = s.toJson();
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> par = (Map<String, Map<String, Object>>) json.get("parallelism");
        assertNull(par.get("writeset").get("parallelism"));
        assertTrue(String.valueOf(par.get("writeset").get("unknown")).contains("no key metadata"));
        assertEquals(60L, s.transactions);
        assertTrue(s.simulations.get("schema").parallelism() > 1.0, "several schemas: " + s.schemas);
    }

    @Test
    void fullMetadataPrimaryKeysAndLogDdlGiveWritesetKeys() {
        StatCommand.Stats s = StatCommand.analyse(List.of(DumpCommandTest.FIXTURES.resolve(
                "mariadb-10.11/types-full-metadata.000001")), true);
        assertTrue(s.writesetKnown(), s.tablesWithoutKeys.toString());
        assertTrue(s.tables.contains("shop.weird name"), s.tables.toString());
    }

    @Test
    void badInputExitsOne() throws Exception {
        Path bad = temp.resolve("bad.000001");
        Files.writeString(bad, "not a binlog");
        Result r = DumpCommandTest.run("stat", bad.toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains("bad.000001") && r.err().contains("offset 0"), r.err());
    }

    /**
     * A transaction of rows of at least lanes.large-transaction-bytes has no row keys, as a JDBC target runs it with the
     * shipped settings: the writeset scheduler runs it alone, the schema scheduler places it by its schema as any other;
     * stat says how many such there are. Logged by a real MariaDB.
     */
    @Test
    void aLargeTransactionOfRowsIsABarrierAndCounted() throws Exception {
        Path log;
        try (io.lanes.binlog.testing.MariaDbServer server = io.lanes.binlog.testing.MariaDbServer.startWithBinlog()) {
            server.sql("CREATE DATABASE st; USE st; CREATE TABLE st.t (id INT PRIMARY KEY, v VARCHAR(40)) ENGINE=InnoDB;"
                    + "INSERT INTO st.t VALUES (0, 'small');"
                    + "INSERT INTO st.t SELECT seq, REPEAT('v', 24) FROM seq_1_to_160000;"
                    + "UPDATE st.t SET v = 'after' WHERE id = 0;");
            server.sql("FLUSH BINARY LOGS");
            log = server.copyBinlogFiles(temp.resolve("large")).get(0);
        }
        StatCommand.Stats s = StatCommand.analyse(List.of(log), true);
        assertTrue(java.util.Collections.max(s.bytes) >= io.lanes.applier.LanesConfig.DEFAULT_LARGE_TRANSACTION_BYTES,
                "the INSERT is large: " + s.bytes);
        assertEquals(1, s.largeTransactions);
        assertEquals(2, s.barriers, "CREATE DATABASE and CREATE TABLE");
        // writeset runs the INSERT alone: the UPDATE of row 0 waits for it although it shares no key with it, and the
        // INSERT for the small one before it.
        assertEquals(s.transactions, s.simulations.get("writeset").criticalPath());
        Result json = DumpCommandTest.run("stat", "--json", log.toString());
        assertTrue(json.out().get(0).contains("\"barriers\":2,\"large_transactions\":1"), json.out().get(0));
    }
}
