package io.lanes.applier.value;

/**
 * A MySQL ENUM value as the binlog carries it: the 1-based member index (0 for the empty error value), and the member
 * name when the column's members are known (TABLE_MAP FULL metadata or the target's catalog).
 *
 * @param index 1-based member index, 0 for MySQL's '' error member
 * @param name the member name, or {@code null} when unknown
 */
public record EnumValue(int index, String name) {
}
