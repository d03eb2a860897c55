package io.lanes.applier.value;

import java.util.List;

/**
 * A MySQL SET value as the binlog carries it: a bitmap of members, and the members' names when known.
 *
 * @param bits bit i set when member i (0-based, in definition order) is in the set
 * @param members every member name of the column in definition order, or {@code null} when unknown
 */
public record SetValue(long bits, List<String> members) {
    public SetValue {
        members = members == null ? null : List.copyOf(members);
    }

    /** The value as MySQL prints it ({@code a,c}), or {@code null} when the member names are unknown. */
    public String text() {
        if (members == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < members.size() && i < 64; i++) {
            if ((bits & (1L << i)) != 0) {
                sb.append(sb.isEmpty() ? "" : ",").append(members.get(i));
            }
        }
        return sb.toString();
    }
}
