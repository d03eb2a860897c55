package io.lanes.binlog.internal;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/** Maps MySQL/MariaDB collation ids to the Java charset that decodes their bytes (for statement texts). Stateless. */
public final class Charsets {
    private static final Charset CP1252 = Charset.forName("windows-1252");

    private Charsets() {
    }

    /** The Java charset for a collation id; UTF-8 when the id is unknown (-1) or has no better match. */
    public static Charset forCollation(int id) {
        switch (id) {
            case 5: case 8: case 15: case 31: case 47: case 48: case 49: case 94:
                return CP1252; // MySQL's latin1 is cp1252
            case 11: case 65:
                return StandardCharsets.US_ASCII;
            case 63:
                return StandardCharsets.ISO_8859_1; // binary: keep every byte
            case 35: case 90: case 54: case 55: case 101:
                return StandardCharsets.UTF_16BE;
            case 56: case 62:
                return StandardCharsets.UTF_16LE;
            case 60: case 61:
                return Charset.forName("UTF-32BE");
            case 28: case 87:
                return Charset.forName("GBK");
            case 1: case 84:
                return Charset.forName("Big5");
            case 13: case 88:
                return Charset.forName("Shift_JIS");
            case 248: case 249:
                return Charset.forName("GB18030");
            default:
                return StandardCharsets.UTF_8;
        }
    }
}
