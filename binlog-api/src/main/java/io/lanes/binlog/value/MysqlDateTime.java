package io.lanes.binlog.value;

/**
 * A DATETIME or TIMESTAMP value that {@link java.time.LocalDateTime} / {@link java.time.Instant} cannot hold: the zero
 * value {@code 0000-00-00 00:00:00}, or a date part with a zero month or day or a day past the end of its month. Valid
 * values are decoded as {@code LocalDateTime} (DATETIME) or {@code Instant} (TIMESTAMP) instead. Immutable.
 *
 * @param year 0..9999
 * @param month 0..12
 * @param day 0..31
 * @param hour 0..23
 * @param minute 0..59
 * @param second 0..59
 * @param micros fractional seconds in microseconds, 0..999999
 * @param fsp the column's fractional seconds precision 0..6: how many fraction digits {@link #toString()} prints
 */
public record MysqlDateTime(int year, int month, int day, int hour, int minute, int second, int micros, int fsp) {

    public MysqlDateTime {
        if (year < 0 || year > 9999 || month < 0 || month > 12 || day < 0 || day > 31 || hour < 0 || hour > 23
                || minute < 0 || minute > 59 || second < 0 || second > 59 || micros < 0 || micros > 999_999
                || fsp < 0 || fsp > 6) {
            throw new IllegalArgumentException("not a MySQL datetime: " + year + "-" + month + "-" + day + " " + hour
                    + ":" + minute + ":" + second + "." + micros + " fsp " + fsp);
        }
    }

    /** {@code 0000-00-00 00:00:00} printed with {@code fsp} fraction digits. */
    public static MysqlDateTime zero(int fsp) {
        return new MysqlDateTime(0, 0, 0, 0, 0, 0, 0, fsp);
    }

    /** Whether every field is zero. */
    public boolean isZero() {
        return year == 0 && month == 0 && day == 0 && hour == 0 && minute == 0 && second == 0 && micros == 0;
    }

    /** MySQL's text form, {@code YYYY-MM-DD hh:mm:ss[.f...]} with {@link #fsp()} fraction digits. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(26);
        TemporalText.appendDate(sb, year, month, day);
        sb.append(' ');
        TemporalText.appendTime(sb, hour, minute, second, micros, fsp);
        return sb.toString();
    }
}
