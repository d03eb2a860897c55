package io.lanes.applier.value;

/**
 * A MySQL DATE, DATETIME or TIMESTAMP with zero parts ({@code 0000-00-00}, {@code 2024-00-15 10:00:00}) that no
 * {@code java.time} type can hold. What becomes of it on the target is the {@link ZeroDatePolicy}.
 *
 * @param text the value as MySQL prints it, e.g. {@code 0000-00-00 00:00:00}
 */
public record ZeroDate(String text) {
}
