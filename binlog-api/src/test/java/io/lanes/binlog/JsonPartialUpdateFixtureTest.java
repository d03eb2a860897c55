package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.json.JsonDiff;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The PARTIAL_UPDATE_ROWS event of MySQL 8.0.22's json.binlog.000001, read through {@link BinlogReader}: every row's
 * JSON diff, applied to the document the earlier full images left for that id, gives a document whose {@code $.age}
 * equals the generated column {@code age} the server computed from the new document and logged beside the diff.
 */
class JsonPartialUpdateFixtureTest {

    @Test
    void everyPartialUpdateAppliesToTheLastFullImage() {
        Map<Integer, String> docs = new HashMap<>();
        int partialRows = 0;
        try (BinlogReader reader = BinlogReader.open(Paths.get("src/test/resources/binlogs/rust_mysql_common/json.binlog.000001"))) {
            for (BinlogEvent e; (e = reader.next()) != null; ) {
                if (!(e instanceof RowsEvent)) {
                    continue;
                }
                RowsEvent rows = (RowsEvent) e;
                RowCursor c = rows.cursor();
                while (c.next()) {
                    if (rows.kind() == RowsEvent.Kind.PARTIAL_UPDATE) {
                        int id = (Integer) c.before(0);
                        assertTrue(c.isPartialJson(1), "row " + id + " is logged as a diff");
                        PartialJsonValue partial = assertInstanceOf(PartialJsonValue.class, c.after(1));
                        List<JsonDiff> diffs = JsonDiff.decodeList(partial.diffBytes());
                        assertEquals(1, diffs.size());
                        assertEquals(JsonDiff.Operation.REPLACE, diffs.get(0).operation());
                        assertEquals("$.age", diffs.get(0).path());
                        String after = JsonDiff.apply(docs.get(id), diffs);
                        int age = (Integer) c.after(3);
                        assertEquals(docs.get(id).replaceFirst("\"age\": \\d+", "\"age\": " + age), after, "row " + id);
                        assertEquals(Integer.toString(age), diffs.get(0).value());
                        docs.put(id, after);
                        partialRows++;
                    } else if (rows.hasAfterImage()) {
                        docs.put((Integer) c.after(0), (String) c.after(1));
                    }
                }
            }
        }
        assertEquals(6, partialRows);
        assertEquals("{\"age\": 26, \"data\": \"xxxxxxxxxx\", \"name\": \"Joe\"}", docs.get(1));
        assertEquals("{\"age\": 42, \"data\": \"zzzzzzzzzz\", \"name\": \"Pete\"}", docs.get(3));
    }
}
