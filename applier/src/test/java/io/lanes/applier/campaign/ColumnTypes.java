package io.lanes.applier.campaign;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * The MariaDB column types the campaign generates, each with a generator of SQL literals that favours the type's limits
 * (minimum and maximum of every integer, signed and unsigned; YEAR 0, 1901 and 2155; BIT with all bits set; DECIMAL(65,30)
 * at its widest; CHAR with trailing spaces; BINARY with trailing zero bytes; fractional temporals at their ends; TIME at
 * +-838 hours; zero dates when the seed asks for them).
 */
final class ColumnTypes {
    private ColumnTypes() {
    }

    /**
     * One column type.
     *
     * @param ddl the type as written in CREATE TABLE (with charset)
     * @param value a generator of literals
     * @param widened the value-preserving MODIFY target type, or null when the campaign does not modify this type
     */
    record ColumnType(String ddl, Function<Random, String> value, String widened) {
        ColumnType widen() {
            return widened == null ? null : new ColumnType(widened, value, null);
        }
    }

    private static final String[] TEXTS = {"", "a", "ab  ", " lead", "O'Brien", "back\\slash", "tab\there", "ÄÖü ß",
        "€ sign", "日本語", "emoji 😀", "x", "trailing ", "NULL", "0"};
    private static final String[] LATIN1_TEXTS = {"", "a", "café ", "naïve", "O'Brien", "ÿ", "plain", "x  "};

    /** Every type, chosen at random with the seed's options. */
    static ColumnType random(Random r, boolean zeroDates) {
        int pick = r.nextInt(34);
        return switch (pick) {
            case 0 -> integer("TINYINT", -128, 127);
            case 1 -> unsigned("TINYINT UNSIGNED", "255");
            case 2 -> integer("SMALLINT", -32768, 32767);
            case 3 -> unsigned("SMALLINT UNSIGNED", "65535");
            case 4 -> integer("MEDIUMINT", -8388608, 8388607);
            case 5 -> unsigned("MEDIUMINT UNSIGNED", "16777215");
            case 6 -> integer("INT", Integer.MIN_VALUE, Integer.MAX_VALUE);
            case 7 -> unsigned("INT UNSIGNED", "4294967295");
            case 8 -> integer("BIGINT", Long.MIN_VALUE, Long.MAX_VALUE);
            case 9 -> unsigned("BIGINT UNSIGNED", "18446744073709551615");
            case 10 -> new ColumnType("YEAR", g -> pick(g, "1901", "2155", "0", "2000", "" + (1901 + g.nextInt(255))), null);
            case 11 -> bit(1 + r.nextInt(64));
            case 12 -> new ColumnType("DECIMAL(65,30)", g -> decimal(g, 35, 30), null);
            case 13 -> new ColumnType("DECIMAL(10,2)", g -> decimal(g, 8, 2), null);
            case 14 -> new ColumnType("FLOAT", g -> pick(g, "0", "-1.5", "0.25", "1e10", "3.40282e38", "-3.40282e38",
                    "1.17549e-38", "123.456", "" + (g.nextInt(2000) - 1000) / 8.0), null);
            case 15 -> new ColumnType("DOUBLE", g -> pick(g, "0", "-0.5", "1.7976931348623157e308",
                    "-1.7976931348623157e308", "2.2250738585072014e-308", "0.1", "3.141592653589793",
                    "" + g.nextDouble() * 1e6), null);
            case 16 -> {
                int n = 1 + r.nextInt(30);
                yield new ColumnType("CHAR(" + n + ") CHARACTER SET utf8mb4", g -> lit(fit(pick(g, TEXTS), n)), null);
            }
            case 17 -> {
                int n = 1 + r.nextInt(20);
                yield new ColumnType("CHAR(" + n + ") CHARACTER SET latin1", g -> lit(fit(pick(g, LATIN1_TEXTS), n)), null);
            }
            case 18 -> {
                int n = 10 + r.nextInt(60);
                yield new ColumnType("VARCHAR(" + n + ") CHARACTER SET utf8mb4", g -> lit(fit(pick(g, TEXTS), n)),
                        "VARCHAR(" + (n + 20) + ") CHARACTER SET utf8mb4");
            }
            case 19 -> {
                int n = 10 + r.nextInt(60);
                yield new ColumnType("VARCHAR(" + n + ") CHARACTER SET latin1", g -> lit(fit(pick(g, LATIN1_TEXTS), n)),
                        "VARCHAR(" + (n + 20) + ") CHARACTER SET latin1");
            }
            case 20 -> new ColumnType("TEXT CHARACTER SET utf8mb4", g -> lit(longText(g)), null);
            case 21 -> {
                int n = 1 + r.nextInt(20);
                yield new ColumnType("BINARY(" + n + ")", g -> bytesWithTrailingZeros(g, n), null);
            }
            case 22 -> {
                int n = 1 + r.nextInt(40);
                yield new ColumnType("VARBINARY(" + n + ")", g -> bytesWithTrailingZeros(g, n), "VARBINARY(" + (n + 16) + ")");
            }
            case 23 -> new ColumnType("BLOB", g -> bytesWithTrailingZeros(g, g.nextInt(400)), null);
            case 24 -> new ColumnType("ENUM('a','b','c d','é')", g -> lit(pick(g, "a", "b", "c d", "é")), null);
            case 25 -> new ColumnType("SET('x','y','z')", g -> lit(pick(g, "", "x", "y", "z", "x,z", "x,y,z")), null);
            case 26 -> new ColumnType("JSON", g -> lit(pick(g, "{}", "[]", "null", "{\"a\": 1, \"b\": [1, 2, {\"c\": null}]}",
                    "{\"s\": \"quote \\\" and é\", \"n\": -12.5, \"big\": 12345678901234567890}", "[true, false, \"x\"]",
                    "\"plain\"", "0")), null);
            case 27 -> new ColumnType("DATE", g -> zeroDates && g.nextInt(6) == 0 ? "'0000-00-00'"
                    : pick(g, "'1000-01-01'", "'9999-12-31'", "'1970-01-01'", "'" + date(g) + "'"), null);
            case 28 -> {
                int p = r.nextInt(7);
                yield new ColumnType("DATETIME(" + p + ")", g -> zeroDates && g.nextInt(6) == 0 ? "'0000-00-00 00:00:00'"
                        : pick(g, "'1000-01-01 00:00:00'", "'9999-12-31 23:59:59.999999'",
                                "'" + date(g) + " " + clock(g) + "'"), null);
            }
            case 29 -> {
                int p = r.nextInt(7);
                yield new ColumnType("TIMESTAMP(" + p + ") NULL DEFAULT NULL", g -> pick(g, "'1970-01-01 00:00:01'",
                        "'2038-01-19 03:14:07.999999'", "'" + (1971 + g.nextInt(66)) + "-0" + (1 + g.nextInt(9)) + "-1"
                                + g.nextInt(10) + " " + clock(g) + "'"), null);
            }
            case 30 -> {
                int p = r.nextInt(7);
                yield new ColumnType("TIME(" + p + ")", g -> pick(g, "'-838:59:59'", "'838:59:59'", "'00:00:00'",
                        "'-00:00:01.5'", "'" + clock(g) + "'", "'" + (g.nextInt(1600) - 800) + ":0" + g.nextInt(10) + ":1"
                                + g.nextInt(10) + "." + g.nextInt(1_000_000) + "'"), null);
            }
            case 31 -> new ColumnType("GEOMETRY", g -> pick(g, "ST_GeomFromText('POINT(1 2)')",
                    "ST_GeomFromText('LINESTRING(0 0, 1 1, 2 5)')",
                    "ST_GeomFromText('POLYGON((0 0, 4 0, 4 4, 0 4, 0 0))')",
                    "ST_GeomFromText('POINT(" + g.nextInt(1000) + " -" + g.nextInt(1000) + ".25)')"), null);
            case 32 -> new ColumnType("POINT", g -> "ST_GeomFromText('POINT(" + (g.nextInt(2000) - 1000) + " "
                    + g.nextInt(100) / 4.0 + ")')", null);
            default -> new ColumnType("MEDIUMTEXT CHARACTER SET latin1", g -> lit(fit(pick(g, LATIN1_TEXTS), 1000)), null);
        };
    }

    /** A plain signed integer type that DDL may widen (the payload column n). */
    static ColumnType plainInt() {
        return integer("INT", Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    private static ColumnType integer(String ddl, long min, long max) {
        String widened = switch (ddl) {
            case "TINYINT" -> "SMALLINT";
            case "SMALLINT" -> "INT";
            case "MEDIUMINT" -> "BIGINT";
            case "INT" -> "BIGINT";
            default -> null;
        };
        return new ColumnType(ddl, g -> switch (g.nextInt(6)) {
            case 0 -> Long.toString(min);
            case 1 -> Long.toString(max);
            case 2 -> "0";
            case 3 -> "-1";
            default -> Long.toString(min + (long) (g.nextDouble() * ((double) max - (double) min)));
        }, widened);
    }

    private static ColumnType unsigned(String ddl, String max) {
        BigInteger limit = new BigInteger(max);
        String widened = switch (ddl) {
            case "TINYINT UNSIGNED" -> "SMALLINT UNSIGNED";
            case "SMALLINT UNSIGNED" -> "INT UNSIGNED";
            case "INT UNSIGNED" -> "BIGINT UNSIGNED";
            default -> null;
        };
        return new ColumnType(ddl, g -> switch (g.nextInt(5)) {
            case 0 -> max;
            case 1 -> "0";
            case 2 -> limit.shiftRight(1).toString(); // the signed maximum: the last value a signed reading gets right
            case 3 -> limit.shiftRight(1).add(BigInteger.ONE).toString(); // the first one it gets wrong
            default -> new BigInteger(limit.bitLength(), g).min(limit).toString();
        }, widened);
    }

    private static ColumnType bit(int n) {
        return new ColumnType("BIT(" + n + ")", g -> {
            StringBuilder b = new StringBuilder("b'");
            int mode = g.nextInt(4);
            for (int i = 0; i < n; i++) {
                b.append(mode == 0 ? '1' : mode == 1 ? (i == n - 1 ? '1' : '0') : g.nextBoolean() ? '1' : '0');
            }
            return b.append('\'').toString();
        }, null);
    }

    private static String decimal(Random g, int intDigits, int scale) {
        if (g.nextInt(4) == 0) {
            return (g.nextBoolean() ? "-" : "") + "9".repeat(intDigits) + "." + "9".repeat(scale);
        }
        if (g.nextInt(5) == 0) {
            return "0." + "0".repeat(scale - 1) + "1";
        }
        StringBuilder b = new StringBuilder(g.nextBoolean() ? "-" : "");
        int digits = 1 + g.nextInt(intDigits);
        for (int i = 0; i < digits; i++) {
            b.append((char) ('0' + g.nextInt(10)));
        }
        b.append('.');
        int frac = g.nextInt(scale + 1);
        for (int i = 0; i < frac; i++) {
            b.append((char) ('0' + g.nextInt(10)));
        }
        return b.append(frac == 0 ? "0" : "").toString();
    }

    private static String bytesWithTrailingZeros(Random g, int max) {
        int len = max == 0 ? 0 : g.nextInt(max + 1);
        byte[] b = new byte[len];
        g.nextBytes(b);
        // Trailing zero bytes are what servers strip from BINARY(n) in the log: favour them.
        int zeros = len == 0 ? 0 : g.nextInt(len + 1);
        for (int i = len - zeros; i < len; i++) {
            b[i] = 0;
        }
        return "X'" + HexFormat.of().formatHex(b) + "'";
    }

    private static String longText(Random g) {
        StringBuilder b = new StringBuilder();
        int words = g.nextInt(60);
        for (int i = 0; i < words; i++) {
            b.append(pick(g, TEXTS)).append(' ');
        }
        return b.toString();
    }

    static String date(Random g) {
        return String.format("%04d-%02d-%02d", 1000 + g.nextInt(9000), 1 + g.nextInt(12), 1 + g.nextInt(28));
    }

    static String clock(Random g) {
        return String.format("%02d:%02d:%02d.%06d", g.nextInt(24), g.nextInt(60), g.nextInt(60), g.nextInt(1_000_000));
    }

    /** Cuts a text to at most {@code n} characters (code points). */
    static String fit(String s, int n) {
        return s.codePointCount(0, s.length()) <= n ? s : s.substring(0, s.offsetByCodePoints(0, n));
    }

    /** A quoted SQL string literal (the default sql_mode: backslash escapes). */
    static String lit(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    @SafeVarargs
    static <T> T pick(Random g, T... options) {
        return options[g.nextInt(options.length)];
    }

    static <T> T pick(Random g, List<T> options) {
        return options.get(g.nextInt(options.size()));
    }

    static <T> List<T> sample(Random g, List<T> from, int n) {
        List<T> copy = new ArrayList<>(from);
        List<T> out = new ArrayList<>();
        while (!copy.isEmpty() && out.size() < n) {
            out.add(copy.remove(g.nextInt(copy.size())));
        }
        return out;
    }
}
