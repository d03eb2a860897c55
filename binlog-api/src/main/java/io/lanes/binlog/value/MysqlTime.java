package io.lanes.binlog.value;

import java.time.Duration;

/**
 * A TIME value that {@link java.time.LocalTime} cannot hold: negative, or 24 hours and more (MySQL's TIME ranges over
 * {@code -838:59:59.000000..838:59:59.000000}; the binary format can carry hours up to 1023). Times of day
 * ({@code 00:00:00 <= t < 24:00:00}) are decoded as {@code LocalTime} instead. Immutable.
 *
 * @param negative whether the value is below zero (also for {@code -00:00:00.5})
 * @param hours 0..1023
 * @param minutes 0..59
 * @param seconds 0..59
 * @param micros fractional seconds in microseconds, 0..999999
 * @param fsp the column's fractional seconds precision 0..6: how many fraction digits {@link #toString()} prints
 */
public record MysqlTime(boolean negative, int hours, int minutes, int seconds, int micros, int fsp) {

    public MysqlTime {
        if (hours < 0 || hours > 1023 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59 || micros < 0
                || micros > 999_999 || fsp < 0 || fsp > 6) {
            throw new IllegalArgumentException("not a MySQL time: " + hours + ":" + minutes + ":" + seconds + "."
                    + micros + " fsp " + fsp);
        }
    }

    /** The signed length of time this value stands for. */
    public Duration toDuration() {
        Duration d = Duration.ofSeconds(hours * 3600L + minutes * 60L + seconds, micros * 1000L);
        return negative ? d.negated() : d;
    }

    /** MySQL's text form, {@code [-]hh:mm:ss[.f...]} (at least two hour digits) with {@link #fsp()} fraction digits. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(18);
        if (negative) {
            sb.append('-');
        }
        TemporalText.appendTime(sb, hours, minutes, seconds, micros, fsp);
        return sb.toString();
    }
}
