package io.lanes.applier;

import io.lanes.applier.internal.FailureMessages;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The values of one row image, by column name. A MINIMAL or NOBLOB image holds only some columns of the table; the
 * columns it lacks are simply not in {@link #columns()}. Values are the forms listed in {@link io.lanes.applier.value}.
 * Immutable as far as the caller keeps the values array unchanged (it is not copied, for speed).
 *
 * @param columns the column names present, in table order
 * @param values the values, {@code values[i]} for {@code columns.get(i)}; {@code null} is SQL NULL
 */
public record RowImage(List<String> columns, Object[] values) {
    public RowImage {
        columns = List.copyOf(columns);
        Objects.requireNonNull(values, "values");
        if (columns.size() != values.length) {
            throw new IllegalArgumentException(columns.size() + " columns but " + values.length + " values");
        }
    }

    /** The index of a column in this image, or -1 when the image lacks it. */
    public int indexOf(String column) {
        return columns.indexOf(column);
    }

    /** The value of a column. @throws IllegalArgumentException when the image lacks the column */
    public Object value(String column) {
        int i = indexOf(column);
        if (i < 0) {
            throw new IllegalArgumentException("row image has no column " + column + " (it has " + columns + ")");
        }
        return values[i];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowImage r && columns.equals(r.columns) && Arrays.deepEquals(values, r.values);
    }

    @Override
    public int hashCode() {
        return columns.hashCode() * 31 + Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < values.length; i++) {
            Object v = values[i];
            String shown = v instanceof byte[] b ? "byte[" + b.length + "]" : String.valueOf(v);
            sb.append(i == 0 ? "" : ", ").append(columns.get(i)).append('=')
                    .append(FailureMessages.abbreviate(shown, 40));
        }
        return sb.append('}').toString();
    }
}
