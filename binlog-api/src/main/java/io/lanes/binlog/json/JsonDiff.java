package io.lanes.binlog.json;

import io.lanes.binlog.internal.ByteReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One change of a partial JSON update: MySQL 8.0+ with {@code binlog_row_value_options=PARTIAL_JSON} logs, in
 * PARTIAL_UPDATE_ROWS events, the after-image of a JSON column updated by JSON_SET/JSON_REPLACE/JSON_REMOVE as a list of
 * these instead of the whole document. Immutable.
 *
 * @param operation what happens at {@code path}
 * @param path the MySQL JSON path of the changed location, e.g. {@code $.a.b[3]} or {@code $."key with space"}
 * @param value the new value as the server's JSON text, or {@code null} for {@link Operation#REMOVE}
 */
public record JsonDiff(Operation operation, String path, String value) {

    /** The operation codes, in the order of their binlog byte (0, 1, 2). */
    public enum Operation {
        /** Replace the existing value at the path. */
        REPLACE,
        /** Add an object member, or insert an array element at the index (appending when past the end). */
        INSERT,
        /** Remove the object member or array element at the path. */
        REMOVE
    }

    public JsonDiff {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(path, "path");
        if ((operation == Operation.REMOVE) != (value == null)) {
            throw new IllegalArgumentException(operation + " " + (value == null ? "needs" : "takes no") + " value");
        }
    }

    /**
     * Reads the diff list of one column: {@code length} bytes (the caller has read the column's 4-byte length) holding
     * diffs, each an operation byte, a length-encoded path, and for REPLACE and INSERT a length-encoded binary JSON value.
     * The reader ends past the {@code length} bytes. Lengths are checked against those bytes; bad input raises
     * {@link io.lanes.binlog.BinlogFormatException} at the offending byte.
     */
    public static List<JsonDiff> decodeList(ByteReader in, int length) {
        ByteReader r = in.slice(length);
        List<JsonDiff> diffs = new ArrayList<>();
        while (r.hasRemaining()) {
            int at = r.position();
            int op = r.u8();
            if (op > 2) {
                r.position(at);
                throw r.error("unknown JSON diff operation " + op);
            }
            Operation operation = Operation.values()[op];
            int pathLength = r.packedSize();
            String path = r.string(pathLength, StandardCharsets.UTF_8);
            String value = null;
            if (operation != Operation.REMOVE) {
                int valueLength = r.packedSize();
                value = JsonBinary.toJsonText(r.slice(valueLength));
            }
            diffs.add(new JsonDiff(operation, path, value));
        }
        return diffs;
    }

    /**
     * Reads a whole diff list held in {@code diff} (as {@code io.lanes.binlog.PartialJsonValue#diffBytes()} returns it:
     * the logged diffs without their 4-byte length).
     */
    public static List<JsonDiff> decodeList(byte[] diff) {
        return decodeList(new ByteReader(diff, "<json diff>", 0), diff.length);
    }

    /**
     * Applies {@code diffs} in order to the document {@code beforeJsonText} (the column's before-image as JSON text) and
     * returns the after-image as the server prints it. Throws {@link IllegalArgumentException} when a path does not
     * apply (REPLACE or REMOVE of a missing location, INSERT under a missing parent or a non-container).
     */
    public static String apply(String beforeJsonText, List<JsonDiff> diffs) {
        JsonTree.Node[] root = {JsonTree.parse(beforeJsonText)};
        for (JsonDiff d : diffs) {
            d.applyTo(root);
        }
        return root[0].toString();
    }

    private void applyTo(JsonTree.Node[] root) {
        List<Object> legs = parsePath(path);
        if (legs.isEmpty()) {
            if (operation != Operation.REPLACE) {
                throw new IllegalArgumentException(operation + " of the whole document ($)");
            }
            root[0] = JsonTree.parse(value);
            return;
        }
        JsonTree.Node parent = root[0];
        for (int i = 0; i < legs.size() - 1; i++) {
            parent = child(parent, legs.get(i));
            if (parent == null) {
                throw new IllegalArgumentException("path " + path + " does not exist (" + operation + ")");
            }
        }
        Object last = legs.get(legs.size() - 1);
        if (last instanceof String) {
            if (!(parent instanceof JsonTree.Obj)) {
                throw new IllegalArgumentException("path " + path + ": parent is not an object");
            }
            JsonTree.Obj obj = (JsonTree.Obj) parent;
            String key = (String) last;
            int at = obj.indexOf(key);
            switch (operation) {
                case REPLACE:
                    if (at < 0) {
                        throw new IllegalArgumentException("path " + path + " does not exist (REPLACE)");
                    }
                    obj.values.set(at, JsonTree.parse(value));
                    return;
                case INSERT:
                    obj.put(key, JsonTree.parse(value));
                    return;
                default:
                    if (at < 0) {
                        throw new IllegalArgumentException("path " + path + " does not exist (REMOVE)");
                    }
                    obj.keys.remove(at);
                    obj.values.remove(at);
                    return;
            }
        }
        if (!(parent instanceof JsonTree.Arr)) {
            throw new IllegalArgumentException("path " + path + ": parent is not an array");
        }
        JsonTree.Arr arr = (JsonTree.Arr) parent;
        int index = index((ArrayLeg) last, arr.items.size());
        switch (operation) {
            case REPLACE:
                requireWithin(index, arr.items.size());
                arr.items.set(index, JsonTree.parse(value));
                return;
            case INSERT:
                arr.items.add(Math.max(0, Math.min(index, arr.items.size())), JsonTree.parse(value));
                return;
            default:
                requireWithin(index, arr.items.size());
                arr.items.remove(index);
        }
    }

    private void requireWithin(int index, int size) {
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("path " + path + ": index outside the array of " + size + " (" + operation
                    + ")");
        }
    }

    private static JsonTree.Node child(JsonTree.Node node, Object leg) {
        if (leg instanceof String) {
            if (!(node instanceof JsonTree.Obj)) {
                return null;
            }
            JsonTree.Obj o = (JsonTree.Obj) node;
            int at = o.indexOf((String) leg);
            return at < 0 ? null : o.values.get(at);
        }
        if (!(node instanceof JsonTree.Arr)) {
            return null;
        }
        JsonTree.Arr a = (JsonTree.Arr) node;
        int i = index((ArrayLeg) leg, a.items.size());
        return i >= 0 && i < a.items.size() ? a.items.get(i) : null;
    }

    /** An array leg: {@code [n]}, or {@code [last]} / {@code [last-n]} counted from the end. */
    private record ArrayLeg(int n, boolean fromLast) {
    }

    private static int index(ArrayLeg leg, int size) {
        return leg.fromLast() ? size - 1 - leg.n() : leg.n();
    }

    /** Member names (String) and array legs of a MySQL JSON path; wildcards and ranges are refused. */
    static List<Object> parsePath(String path) {
        if (!path.startsWith("$")) {
            throw new IllegalArgumentException("JSON path must start with $: " + path);
        }
        List<Object> legs = new ArrayList<>();
        int i = 1;
        int n = path.length();
        while (i < n) {
            char c = path.charAt(i);
            if (c == ' ') {
                i++;
            } else if (c == '.') {
                i++;
                if (i < n && path.charAt(i) == '"') {
                    StringBuilder raw = new StringBuilder("\"");
                    i++;
                    while (i < n && path.charAt(i) != '"') {
                        if (path.charAt(i) == '\\' && i + 1 < n) {
                            raw.append(path.charAt(i++));
                        }
                        raw.append(path.charAt(i++));
                    }
                    if (i >= n) {
                        throw new IllegalArgumentException("unterminated member name in JSON path " + path);
                    }
                    i++;
                    JsonTree.Node name = JsonTree.parse(raw.append('"').toString());
                    legs.add(((JsonTree.Str) name).value);
                } else {
                    int start = i;
                    while (i < n && path.charAt(i) != '.' && path.charAt(i) != '[') {
                        i++;
                    }
                    String name = path.substring(start, i).trim();
                    if (name.isEmpty() || name.equals("*")) {
                        throw new IllegalArgumentException("unsupported member leg in JSON path " + path);
                    }
                    legs.add(name);
                }
            } else if (c == '[') {
                int close = path.indexOf(']', i);
                if (close < 0) {
                    throw new IllegalArgumentException("unterminated array leg in JSON path " + path);
                }
                String inside = path.substring(i + 1, close).trim();
                try {
                    if (inside.startsWith("last")) {
                        String rest = inside.substring(4).trim();
                        int back = rest.isEmpty() ? 0 : Integer.parseInt(rest.substring(1).trim());
                        if (!rest.isEmpty() && rest.charAt(0) != '-') {
                            throw new NumberFormatException(rest);
                        }
                        legs.add(new ArrayLeg(back, true));
                    } else {
                        legs.add(new ArrayLeg(Integer.parseInt(inside), false));
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("unsupported array leg [" + inside + "] in JSON path " + path);
                }
                i = close + 1;
            } else {
                throw new IllegalArgumentException("unexpected '" + c + "' in JSON path " + path);
            }
        }
        return legs;
    }
}
