package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableRef;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.testing.CanonicalJson;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.PartialJsonValue;
import io.lanes.binlog.json.JsonDiff;
import io.lanes.core.Engine;
import io.lanes.core.Transaction;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MySQL's partial JSON updates (PARTIAL_UPDATE_ROWS) whose before image lacks the document: the applier reads the
 * document from the target by the row's key, in the same transaction, applies the diffs and writes the whole document.
 */
class PartialJsonTest {
    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void partialJsonDiffIsAppliedToTheTargetsDocument(TestTarget target) throws Exception {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema("pj");
            String ckpt = target.newSchema("ckpt");
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + d.qualify(schema, "t") + " (id INT PRIMARY KEY, doc "
                        + (d.kind() == Dialect.Kind.POSTGRESQL ? "jsonb" : "JSON") + ")");
                c.commit();
            }
            JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(target.url(),
                    JdbcApplierEngineTest.credentials(d)), d)
                    .checkpointTable(new JdbcCheckpointTable(d, ckpt, "lanes_checkpoint")).build();
            TableRef t = new TableRef(schema, "t");
            PartialJsonValue diff = new PartialJsonValue(new byte[0], List.of(
                    new JsonDiff(JsonDiff.Operation.REPLACE, "$.a", "2"),
                    new JsonDiff(JsonDiff.Operation.INSERT, "$.b", "\"it's\""),
                    new JsonDiff(JsonDiff.Operation.REMOVE, "$.c[0]", null)));
            SourceTransaction insert = new SourceTransaction("p:1", null, null, List.of(RowChange.insert(t,
                    new RowImage(List.of("id", "doc"), new Object[] {7, "{\"a\": 1, \"c\": [10, 20]}"}))));
            // Same transaction as a second change: the document written just before is the one the diff applies to.
            SourceTransaction update = new SourceTransaction("p:2", null, null, List.of(
                    RowChange.update(t, new RowImage(List.of("id"), new Object[] {7}),
                            new RowImage(List.of("doc"), new Object[] {diff})),
                    RowChange.update(t, new RowImage(List.of("id"), new Object[] {7}), new RowImage(List.of("doc"),
                            new Object[] {new PartialJsonValue(new byte[0], List.of(
                                    new JsonDiff(JsonDiff.Operation.INSERT, "$.c[5]", "true")))}))));
            Engine<SourceTransaction> engine = Engine.builder(jdbc.applierFactory()).checkpointStore(jdbc.checkpointStore())
                    .workers(1).build();
            engine.start();
            for (SourceTransaction st : List.of(insert, update)) {
                engine.submit(Transaction.builder(st).position(st.position()).partitionKey(schema).build());
            }
            engine.stop();
            try (Connection c = target.session(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT doc FROM " + d.qualify(schema, "t"))) {
                rs.next();
                assertEquals(CanonicalJson.parse("{\"a\": 2, \"b\": \"it's\", \"c\": [20, true]}"),
                        CanonicalJson.parse(rs.getString(1)));
            }
        }
    }
}
