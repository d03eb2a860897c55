package io.lanes.binlog;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/** The real binlog fixtures and what PROVENANCE.md says about each. */
final class FixtureSupport {
    static final Path DIR = Path.of("src/test/resources/binlogs");
    private static final Pattern COUNT = Pattern.compile("([A-Za-z_0-9]+?)x(\\d+)");

    private FixtureSupport() {
    }

    /** One PROVENANCE.md row. */
    record Provenance(Path file, long bytes, String serverVersion, String checksum, Map<String, Integer> counts) {
        @Override
        public String toString() {
            return DIR.relativize(file).toString();
        }
    }

    static Path path(String relative) {
        Path p = DIR.resolve(relative);
        if (Files.exists(p)) {
            return p;
        }
        Path gz = DIR.resolve(relative + ".gz");
        return Files.exists(gz) ? gz : p;
    }

    /** Every binlog fixture file (plain or .gz). */
    static List<Path> allBinlogs() {
        try (Stream<Path> s = Files.walk(DIR)) {
            return s.filter(Files::isRegularFile).filter(FixtureSupport::isBinlog).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isBinlog(Path p) {
        try (InputStream in = open(p)) {
            byte[] magic = in.readNBytes(4);
            return magic.length == 4 && (magic[0] & 0xff) == 0xfe && magic[1] == 'b' && magic[2] == 'i' && magic[3] == 'n';
        } catch (IOException e) {
            return false;
        }
    }

    static InputStream open(Path p) throws IOException {
        InputStream in = Files.newInputStream(p);
        return p.toString().endsWith(".gz") ? new GZIPInputStream(in) : in;
    }

    static byte[] bytes(Path p) {
        try (InputStream in = open(p)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The rows of PROVENANCE.md that describe binlog files. */
    static List<Provenance> provenance() {
        List<Provenance> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(DIR.resolve("PROVENANCE.md"), StandardCharsets.UTF_8)) {
                if (!line.startsWith("| ") || line.startsWith("| file") || line.startsWith("|---")) {
                    continue;
                }
                String[] cols = line.split("(?<!\\\\)\\|");
                String file = cols[1].trim();
                if (cols[8].trim().equals("-")) {
                    continue; // not a binlog (the SQL companion file)
                }
                Map<String, Integer> counts = new LinkedHashMap<>();
                String events = cols[9].trim();
                boolean allCounted = true;
                for (String part : events.split(",\\s*")) {
                    Matcher m = COUNT.matcher(part.trim());
                    if (m.matches()) {
                        counts.put(m.group(1), Integer.parseInt(m.group(2)));
                    } else {
                        allCounted = false;
                    }
                }
                out.add(new Provenance(path(file), Long.parseLong(cols[6].trim()), cols[7].trim(), cols[8].trim(),
                        allCounted ? counts : null));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Event type name (EventType name, or "type<code>" for unknown ignorable types) to count, over the top level. */
    static Map<String, Integer> countTypes(Path file) {
        Map<String, Integer> counts = new TreeMap<>();
        try (BinlogReader r = BinlogReader.open(file)) {
            for (BinlogEvent e; (e = r.next()) != null; ) {
                counts.merge(typeName(e), 1, Integer::sum);
            }
        }
        return counts;
    }

    static String typeName(BinlogEvent e) {
        return e.type() == null ? "type" + e.header().typeCode() : e.type().name();
    }

    static List<BinlogEvent> events(String relative) {
        List<BinlogEvent> out = new ArrayList<>();
        try (BinlogReader r = BinlogReader.open(path(relative))) {
            r.forEach(out::add);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static <T extends BinlogEvent> List<T> ofType(List<BinlogEvent> events, Class<T> type) {
        return events.stream().filter(type::isInstance).map(e -> (T) e).toList();
    }
}
