package io.lanes.applier.schema;

import io.lanes.applier.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The text form of a {@link SchemaHistory}: one record a line, fields separated by tabs, lists written as their
 * length then their items separated by commas; backslash, tab, newline, carriage return and comma inside a field are
 * escaped. A table is a {@code T} line followed by its {@code C} (column), {@code K} (unique key) and {@code F}
 * (foreign key) lines; {@code L} is a table whose definition was lost, with the reason. The first line names the
 * format ({@value #FORMAT}).
 */
final class SchemaHistoryText {
    static final String FORMAT = "lanes-schema-history 1";

    private SchemaHistoryText() {
    }

    static String write(Map<String, SourceTable> tables, Map<String, String[]> lost) {
        StringBuilder b = new StringBuilder(FORMAT).append('\n');
        for (SourceTable t : tables.values()) {
            line(b, "T", t.schema(), t.name(), t.origin());
            for (SourceColumn c : t.columns()) {
                line(b, "C", c.name(), c.type(), list(c.params()), bool(c.unsigned()),
                        c.charset() == null ? "" : c.charset(), bool(c.nullable()), bool(c.generated()),
                        bool(c.invisible()));
            }
            for (SourceTable.Key k : t.uniqueKeys()) {
                line(b, "K", k.name(), list(k.columns()));
            }
            for (SourceTable.ForeignKey f : t.foreignKeys()) {
                line(b, "F", f.name() == null ? "" : f.name(), list(f.columns()), f.parentSchema(), f.parentTable(),
                        list(f.parentColumns()));
            }
        }
        for (String[] l : lost.values()) {
            line(b, "L", l[0], l[1], l[2]);
        }
        return b.toString();
    }

    static void read(String text, Map<TableRef, SourceTable> tables, Map<TableRef, String> lost) {
        String[] lines = text.split("\n", -1);
        if (lines.length == 0 || !lines[0].equals(FORMAT)) {
            throw new IllegalArgumentException("not a schema history (the first line is not '" + FORMAT + "')");
        }
        String schema = null;
        String name = null;
        String origin = null;
        List<SourceColumn> columns = new ArrayList<>();
        List<SourceTable.Key> keys = new ArrayList<>();
        List<SourceTable.ForeignKey> fks = new ArrayList<>();
        for (int i = 1; i <= lines.length; i++) {
            String[] f = i < lines.length && !lines[i].isEmpty() ? fields(lines[i]) : null;
            if ((f == null || f[0].equals("T") || f[0].equals("L")) && name != null) {
                tables.put(new TableRef(schema, name), new SourceTable(schema, name, columns, keys, fks, origin));
                name = null;
                columns = new ArrayList<>();
                keys = new ArrayList<>();
                fks = new ArrayList<>();
            }
            if (f == null) {
                continue;
            }
            try {
                switch (f[0]) {
                    case "T" -> {
                        schema = unescape(f[1]);
                        name = unescape(f[2]);
                        origin = unescape(f[3]);
                    }
                    case "C" -> columns.add(new SourceColumn(unescape(f[1]), unescape(f[2]), unlist(f[3]),
                            f[4].equals("1"), f[5].isEmpty() ? null : unescape(f[5]), f[6].equals("1"), f[7].equals("1"),
                            f[8].equals("1")));
                    case "K" -> keys.add(new SourceTable.Key(unescape(f[1]), unlist(f[2])));
                    case "F" -> fks.add(new SourceTable.ForeignKey(f[1].isEmpty() ? null : unescape(f[1]), unlist(f[2]),
                            unescape(f[3]), unescape(f[4]), unlist(f[5])));
                    case "L" -> lost.put(new TableRef(unescape(f[1]), unescape(f[2])), unescape(f[3]));
                    default -> throw new IllegalArgumentException("unknown record " + f[0]);
                }
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("schema history line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
    }

    private static String bool(boolean b) {
        return b ? "1" : "0";
    }

    /** A field already escaped (a list, whose items escape their own separators). */
    private record Escaped(String text) {
    }

    private static Escaped list(List<String> items) {
        StringBuilder b = new StringBuilder().append(items.size());
        for (String s : items) {
            b.append(',').append(escape(s));
        }
        return new Escaped(b.toString());
    }

    private static List<String> unlist(String raw) {
        List<String> parts = splitUnescaped(raw, ',');
        int n = Integer.parseInt(parts.get(0));
        if (n != parts.size() - 1) {
            throw new IllegalArgumentException("list of " + n + " has " + (parts.size() - 1) + " items");
        }
        List<String> out = new ArrayList<>(n);
        for (int i = 1; i < parts.size(); i++) {
            out.add(unescape(parts.get(i)));
        }
        return out;
    }

    private static void line(StringBuilder b, String kind, Object... fields) {
        b.append(kind);
        for (Object f : fields) {
            b.append('\t').append(f instanceof Escaped e ? e.text() : escapeField((String) f));
        }
        b.append('\n');
    }

    /** Escapes what would break a line or a field; commas stay (list items escape their own). */
    private static String escapeField(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }

    private static String escape(String s) {
        return escapeField(s).replace(",", "\\c");
    }

    private static String[] fields(String line) {
        List<String> parts = splitUnescaped(line, '\t');
        String[] out = new String[parts.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = parts.get(i);
        }
        return out;
    }

    private static List<String> splitUnescaped(String s, char separator) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == separator) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char e = s.charAt(++i);
                b.append(switch (e) {
                    case 't' -> '\t';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case 'c' -> ',';
                    default -> e;
                });
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
