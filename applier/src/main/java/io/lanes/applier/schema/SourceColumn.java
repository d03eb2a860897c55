package io.lanes.applier.schema;

import java.util.List;
import java.util.Locale;

/**
 * One column of a source table as its definition says (CREATE TABLE, ALTER TABLE, a schema file or the source's
 * information_schema). Immutable.
 *
 * @param name the column name as written
 * @param type the base type in lower case ({@code int}, {@code varchar}, {@code binary}, {@code enum}, ...)
 * @param params the type's parameters as written (length, precision and scale, or the ENUM/SET members unquoted)
 * @param unsigned whether a numeric column is UNSIGNED
 * @param charset the column's CHARACTER SET in lower case, or null when the definition does not name one
 * @param nullable whether the column may hold NULL
 * @param generated whether the column is GENERATED ALWAYS AS (virtual or stored)
 * @param invisible whether the column is INVISIBLE
 */
public record SourceColumn(String name, String type, List<String> params, boolean unsigned, String charset,
        boolean nullable, boolean generated, boolean invisible) {

    public SourceColumn {
        type = type.toLowerCase(Locale.ROOT);
        params = List.copyOf(params);
        charset = charset == null ? null : charset.toLowerCase(Locale.ROOT);
    }

    /** The ENUM members in order (index 1 is the first), or null for another type. */
    public List<String> enumMembers() {
        return type.equals("enum") ? params : null;
    }

    /** The SET members in bit order, or null for another type. */
    public List<String> setMembers() {
        return type.equals("set") ? params : null;
    }

    /**
     * Whether the column is a fixed-length binary string, BINARY(n) or CHAR(n) CHARACTER SET binary: the server strips
     * its trailing 0x00 bytes in the log and a replica pads them back to {@link #length()}.
     */
    public boolean fixedBinary() {
        return type.equals("binary") || type.equals("char") && "binary".equals(charset);
    }

    /** The first numeric parameter (a string's length, a decimal's precision), or -1 when there is none. */
    public int length() {
        if (params.isEmpty()) {
            return type.equals("binary") || type.equals("char") ? 1 : -1;
        }
        try {
            return Integer.parseInt(params.get(0).trim());
        } catch (NumberFormatException notANumber) {
            return -1;
        }
    }

    /** The type as a definition writes it, for messages: {@code bigint unsigned}, {@code binary(16)}. */
    public String typeText() {
        StringBuilder b = new StringBuilder(type);
        if (!params.isEmpty() && enumMembers() == null && setMembers() == null) {
            b.append('(').append(String.join(",", params)).append(')');
        } else if (!params.isEmpty()) {
            b.append("(").append(params.size()).append(" members)");
        }
        return unsigned ? b.append(" unsigned").toString() : b.toString();
    }
}
