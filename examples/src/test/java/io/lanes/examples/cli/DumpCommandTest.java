package io.lanes.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DumpCommandTest {
    static final Path FIXTURES = Path.of("../binlog-api/src/test/resources/binlogs");

    record Result(int code, List<String> out, String err) {
    }

    static Result run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = LanesCli.run(args);
            String text = out.toString(StandardCharsets.UTF_8);
            return new Result(code, text.isEmpty() ? List.of() : Arrays.asList(text.split("\n")),
                    err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void dumpsOneJsonObjectPerEvent() {
        Path file = FIXTURES.resolve("rust-mysql-binlog/bin-log.000001");
        Result r = run("dump", file.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(14, r.out().size(), "one line per event");
        String first = r.out().get(0);
        assertTrue(first.startsWith("{\"file\":\"" + file + "\",\"pos\":4,\"next_pos\":123,"), first);
        assertTrue(first.contains("\"type\":\"FORMAT_DESCRIPTION\""), first);
        assertTrue(first.contains("\"server_version\":\"5.7.24-27-log\""), first);
        assertTrue(r.out().get(2).contains("\"gtid\":\"87cee3a4-6b31-11e7-bdfd-0d98d6698870:14917\""), r.out().get(2));
        assertTrue(r.out().get(2).contains("\"last_committed\":0,\"sequence_number\":1"), r.out().get(2));
        assertTrue(r.out().get(3).contains("\"sql\":\"CREATE TABLE foo(id BIGINT AUTO_INCREMENT PRIMARY KEY"), r.out().get(3));
        String rows = r.out().get(7);
        assertTrue(rows.contains("\"type\":\"WRITE_ROWS_V2\""), rows);
        assertTrue(rows.contains("\"schema\":\"bltest\",\"table\":\"foo\",\"columns\":[null,null,null]"), rows);
        assertTrue(rows.contains("\"rows\":[{\"after\":["), rows);
        for (String line : r.out()) {
            assertTrue(line.startsWith("{") && line.endsWith("}"), line);
        }
    }

    @Test
    void payloadEventsFollowThePayload() {
        Result r = run("dump", FIXTURES.resolve("mysql-binlog-connector-java/mysql-bin.compressed").toString());
        assertEquals(0, r.code(), r.err());
        List<String> inner = r.out().stream().filter(l -> l.contains("\"payload_pos\":236")).toList();
        assertEquals(4, inner.size());
        assertTrue(inner.get(2).contains("\"kind\":\"UPDATE\""));
        assertTrue(inner.get(2).contains("\"before\":["));
    }

    @Test
    void badInputIsOneLineNamingFileAndOffset(@TempDir Path dir) throws Exception {
        byte[] good = Files.readAllBytes(FIXTURES.resolve("rust-mysql-binlog/bin-log.000001"));
        byte[] bad = good.clone();
        bad[300] ^= 0x40; // inside the QUERY event at 259: its CRC32 no longer matches
        Path file = dir.resolve("bad.000001");
        Files.write(file, bad);
        Result r = run("dump", file.toString());
        assertEquals(1, r.code());
        String[] errLines = r.err().strip().split("\n");
        assertEquals(1, errLines.length, r.err());
        assertTrue(errLines[0].contains(file.toString()) && errLines[0].contains("at byte offset 259"), errLines[0]);
        assertEquals(3, r.out().size(), "events before the bad one were printed");

        Result noVerify = run("dump", "--no-verify-checksum", file.toString());
        assertEquals(0, noVerify.code(), noVerify.err());

        Files.write(file, Arrays.copyOf(good, 700)); // cut inside an event
        Result cut = run("dump", file.toString());
        assertEquals(1, cut.code());
        assertTrue(cut.err().contains("at byte offset 652"), cut.err());
    }

    @Test
    void helpDocumentsTheBinaryEncoding() {
        Result r = run("dump", "--help");
        assertEquals(0, r.code());
        assertTrue(String.join("\n", r.out()).contains("base64:"));
    }

    @Test
    void everyFixtureDumpsAsValidJsonWithoutDuplicateKeys() throws Exception {
        List<Path> files;
        try (var walk = Files.walk(FIXTURES)) {
            // the two large .gz logs repeat what the small ones cover and would take most of the test's time
            files = walk.filter(Files::isRegularFile).filter(p -> !p.toString().matches(".*\\.(md|sql|tsv|txt|gz)$"))
                    .sorted().toList();
        }
        assertTrue(files.size() > 25);
        List<String> args = new java.util.ArrayList<>(List.of("dump"));
        files.forEach(f -> args.add(f.toString()));
        Result r = run(args.toArray(new String[0]));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().size() > 3000, "all files, read in order");
        for (String line : r.out()) {
            new JsonChecker(line).checkDocument();
        }
    }

    /** A strict JSON syntax checker that also refuses duplicate keys in an object. */
    static final class JsonChecker {
        private final String s;
        private int i;

        JsonChecker(String s) {
            this.s = s;
        }

        void checkDocument() {
            value();
            if (i != s.length()) {
                throw new AssertionError("trailing characters at " + i + " in " + s);
            }
        }

        private void value() {
            char c = s.charAt(i);
            if (c == '{') {
                i++;
                java.util.Set<String> keys = new java.util.HashSet<>();
                if (s.charAt(i) == '}') {
                    i++;
                    return;
                }
                while (true) {
                    String k = string();
                    if (!keys.add(k)) {
                        throw new AssertionError("duplicate key " + k + " in " + s);
                    }
                    expect(':');
                    value();
                    if (s.charAt(i) == ',') {
                        i++;
                    } else {
                        expect('}');
                        return;
                    }
                }
            } else if (c == '[') {
                i++;
                if (s.charAt(i) == ']') {
                    i++;
                    return;
                }
                while (true) {
                    value();
                    if (s.charAt(i) == ',') {
                        i++;
                    } else {
                        expect(']');
                        return;
                    }
                }
            } else if (c == '"') {
                string();
            } else if (s.startsWith("null", i) || s.startsWith("true", i)) {
                i += 4;
            } else if (s.startsWith("false", i)) {
                i += 5;
            } else {
                int start = i;
                while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                    i++;
                }
                String num = s.substring(start, i);
                if (!num.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
                    throw new AssertionError("bad number '" + num + "' at " + start + " in " + s);
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (s.charAt(i) != '"') {
                char c = s.charAt(i++);
                if (c < 0x20) {
                    throw new AssertionError("raw control character in a string: " + s);
                }
                if (c == '\\') {
                    char e = s.charAt(i++);
                    if (e == 'u') {
                        Integer.parseInt(s.substring(i, i + 4), 16);
                        i += 4;
                    } else if ("\"\\/bfnrt".indexOf(e) < 0) {
                        throw new AssertionError("bad escape \\" + e);
                    }
                }
                sb.append(c);
            }
            i++;
            return sb.toString();
        }

        private void expect(char c) {
            if (s.charAt(i) != c) {
                throw new AssertionError("expected " + c + " at " + i + " in " + s);
            }
            i++;
        }
    }
}
