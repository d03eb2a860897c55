package io.lanes.binlog.value;

/**
 * A DATE value that {@link java.time.LocalDate} cannot hold: the zero date {@code 0000-00-00} or a date with a zero
 * month or day, or a day past the end of its month ({@code 2020-00-00}, {@code 2021-02-30} under ALLOW_INVALID_DATES).
 * Valid dates are decoded as {@code LocalDate} instead. Immutable.
 *
 * @param year 0..9999
 * @param month 0..12
 * @param day 0..31
 */
public record MysqlDate(int year, int month, int day) {

    /** {@code 0000-00-00}. */
    public static final MysqlDate ZERO = new MysqlDate(0, 0, 0);

    public MysqlDate {
        if (year < 0 || year > 9999 || month < 0 || month > 12 || day < 0 || day > 31) {
            throw new IllegalArgumentException("not a MySQL date: " + year + "-" + month + "-" + day);
        }
    }

    /** Whether this is {@code 0000-00-00}. */
    public boolean isZero() {
        return year == 0 && month == 0 && day == 0;
    }

    /** MySQL's text form, {@code YYYY-MM-DD}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(10);
        TemporalText.appendDate(sb, year, month, day);
        return sb.toString();
    }
}
