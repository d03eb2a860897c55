package io.lanes.binlog.json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal mutable JSON tree for applying partial-update diffs: parses JSON text, and prints it exactly as the server
 * prints JSON ({@code ", "} and {@code ": "} separators, strings escaped as {@link JsonBinary#quote} does). Numbers, true,
 * false and null keep their text as parsed (the server's text for a DECIMAL {@code 1.50} must not become {@code 1.5}).
 * Object members keep their order; new members are inserted where the server's binary format would store them (shorter
 * keys first, then bytewise), so the printed tree matches what the server prints for the same document.
 *
 * <p>Not thread-safe.
 */
final class JsonTree {
    private JsonTree() {
    }

    abstract static class Node {
        abstract void print(StringBuilder out);

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            print(sb);
            return sb.toString();
        }
    }

    static final class Scalar extends Node {
        final String text;

        Scalar(String text) {
            this.text = text;
        }

        @Override
        void print(StringBuilder out) {
            out.append(text);
        }
    }

    static final class Str extends Node {
        final String value;

        Str(String value) {
            this.value = value;
        }

        @Override
        void print(StringBuilder out) {
            JsonBinary.quote(out, value);
        }
    }

    static final class Arr extends Node {
        final List<Node> items = new ArrayList<>();

        @Override
        void print(StringBuilder out) {
            out.append('[');
            for (int i = 0; i < items.size(); i++) {
                if (i > 0) {
                    out.append(", ");
                }
                items.get(i).print(out);
            }
            out.append(']');
        }
    }

    static final class Obj extends Node {
        final List<String> keys = new ArrayList<>();
        final List<Node> values = new ArrayList<>();

        int indexOf(String key) {
            for (int i = 0; i < keys.size(); i++) {
                if (keys.get(i).equals(key)) {
                    return i;
                }
            }
            return -1;
        }

        /** Adds or replaces a member; a new key goes where the server's key order puts it. */
        void put(String key, Node value) {
            int existing = indexOf(key);
            if (existing >= 0) {
                values.set(existing, value);
                return;
            }
            int at = 0;
            while (at < keys.size() && compareKeys(keys.get(at), key) < 0) {
                at++;
            }
            keys.add(at, key);
            values.add(at, value);
        }

        @Override
        void print(StringBuilder out) {
            out.append('{');
            for (int i = 0; i < keys.size(); i++) {
                if (i > 0) {
                    out.append(", ");
                }
                JsonBinary.quote(out, keys.get(i));
                out.append(": ");
                values.get(i).print(out);
            }
            out.append('}');
        }
    }

    /** The server's object key order: by length in UTF-8 bytes, then bytewise. */
    static int compareKeys(String a, String b) {
        byte[] x = a.getBytes(StandardCharsets.UTF_8);
        byte[] y = b.getBytes(StandardCharsets.UTF_8);
        if (x.length != y.length) {
            return Integer.compare(x.length, y.length);
        }
        for (int i = 0; i < x.length; i++) {
            int c = Integer.compare(x[i] & 0xff, y[i] & 0xff);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    static Node parse(String text) {
        return parse(text, false);
    }

    /**
     * Parses JSON text. With {@code asServerStores}, objects come out as the server stores text it parses: members in
     * its key order and the last of duplicate keys winning; otherwise members keep their order and a duplicate key is
     * an error.
     */
    static Node parse(String text, boolean asServerStores) {
        Parser p = new Parser(text, asServerStores);
        p.ws();
        Node n = p.value(0);
        p.ws();
        if (p.pos != text.length()) {
            throw p.error("text after the JSON value");
        }
        return n;
    }

    private static final class Parser {
        final String s;
        final boolean asServerStores;
        int pos;

        Parser(String s, boolean asServerStores) {
            this.s = s;
            this.asServerStores = asServerStores;
        }

        IllegalArgumentException error(String reason) {
            return new IllegalArgumentException("bad JSON text at character " + pos + ": " + reason);
        }

        void ws() {
            while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
        }

        void expect(char c) {
            if (pos >= s.length() || s.charAt(pos) != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        Node value(int depth) {
            if (depth > JsonBinary.MAX_DEPTH) {
                throw error("nesting deeper than " + JsonBinary.MAX_DEPTH);
            }
            if (pos >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(pos);
            if (c == '{') {
                pos++;
                Obj o = new Obj();
                ws();
                if (pos < s.length() && s.charAt(pos) == '}') {
                    pos++;
                    return o;
                }
                while (true) {
                    ws();
                    String key = string();
                    ws();
                    expect(':');
                    ws();
                    Node v = value(depth + 1);
                    if (asServerStores) {
                        o.put(key, v);
                    } else {
                        if (o.indexOf(key) >= 0) {
                            throw error("duplicate key \"" + key + "\"");
                        }
                        o.keys.add(key);
                        o.values.add(v);
                    }
                    ws();
                    if (pos < s.length() && s.charAt(pos) == ',') {
                        pos++;
                        continue;
                    }
                    expect('}');
                    return o;
                }
            }
            if (c == '[') {
                pos++;
                Arr a = new Arr();
                ws();
                if (pos < s.length() && s.charAt(pos) == ']') {
                    pos++;
                    return a;
                }
                while (true) {
                    ws();
                    a.items.add(value(depth + 1));
                    ws();
                    if (pos < s.length() && s.charAt(pos) == ',') {
                        pos++;
                        continue;
                    }
                    expect(']');
                    return a;
                }
            }
            if (c == '"') {
                return new Str(string());
            }
            int start = pos;
            if (s.startsWith("true", pos) || s.startsWith("null", pos)) {
                pos += 4;
            } else if (s.startsWith("false", pos)) {
                pos += 5;
            } else {
                if (pos < s.length() && s.charAt(pos) == '-') {
                    pos++;
                }
                int digits = pos;
                while (pos < s.length() && "0123456789.eE+-".indexOf(s.charAt(pos)) >= 0) {
                    pos++;
                }
                if (pos == digits || !Character.isDigit(s.charAt(digits))) {
                    throw error("not a JSON value");
                }
            }
            return new Scalar(s.substring(start, pos));
        }

        String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    throw error("unterminated escape");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"': case '\\': case '/': sb.append(e); break;
                    case 'b': sb.append('\b'); break;
                    case 'f': sb.append('\f'); break;
                    case 'n': sb.append('\n'); break;
                    case 'r': sb.append('\r'); break;
                    case 't': sb.append('\t'); break;
                    case 'u':
                        if (pos + 4 > s.length()) {
                            throw error("short unicode escape");
                        }
                        try {
                            sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException ex) {
                            throw error("bad unicode escape");
                        }
                        pos += 4;
                        break;
                    default:
                        throw error("bad escape \\" + e);
                }
            }
        }
    }
}
