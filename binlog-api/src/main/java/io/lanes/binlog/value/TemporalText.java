package io.lanes.binlog.value;

/** Zero-padded temporal printing shared by the value records and the formatters. */
final class TemporalText {
    private TemporalText() {
    }

    static void pad(StringBuilder sb, int value, int width) {
        String s = Integer.toString(value);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        sb.append(s);
    }

    static void appendDate(StringBuilder sb, int year, int month, int day) {
        pad(sb, year, 4);
        sb.append('-');
        pad(sb, month, 2);
        sb.append('-');
        pad(sb, day, 2);
    }

    /** {@code hh:mm:ss} plus, when {@code fsp > 0}, a dot and the first {@code fsp} digits of the six-digit fraction. */
    static void appendTime(StringBuilder sb, int hour, int minute, int second, int micros, int fsp) {
        pad(sb, hour, 2);
        sb.append(':');
        pad(sb, minute, 2);
        sb.append(':');
        pad(sb, second, 2);
        appendFraction(sb, micros, fsp);
    }

    static void appendFraction(StringBuilder sb, int micros, int fsp) {
        if (fsp > 0) {
            sb.append('.');
            String digits = Integer.toString(1_000_000 + micros); // "1" followed by six digits
            sb.append(digits, 1, 1 + fsp);
        }
    }
}
