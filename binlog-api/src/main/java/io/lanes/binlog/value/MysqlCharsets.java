package io.lanes.binlog.value;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * MySQL and MariaDB collation ids (as logged in TABLE_MAP's COLUMN_CHARSET / ENUM_AND_SET_COLUMN_CHARSET metadata) mapped
 * to character sets, and lossless byte-to-text decoding in those character sets.
 *
 * <p>The id table covers every collation of MariaDB 10.11 (ids 1..1270 and the UCA 14.0 ids 2048..3271) and the ids
 * MySQL 5.7/8.x/9.x add (76 utf8mb3_tolower_ci, 248..250 gb18030, 255..323 the utf8mb4 0900 collations). Character sets
 * with no Java equivalent (dec8, hp8, swe7, armscii8, keybcs2, geostd8, eucjpms) map to {@code null}: their values stay
 * bytes. MySQL's {@code latin1} is Windows code page 1252 with the five bytes cp1252 leaves undefined (0x81, 0x8D, 0x8F,
 * 0x90, 0x9D) mapped to the C1 control characters of the same value, so every latin1 byte string has a text form; that
 * is how the server itself converts latin1 to Unicode.
 *
 * <p>Stateless and thread-safe.
 */
public final class MysqlCharsets {
    /** The collation id of the {@code binary} character set. */
    public static final int BINARY = 63;

    private static final String RANGES = ""
            + "1:big5 2:latin2 3:dec8 4:cp850 5:latin1 6:hp8 7:koi8r 8:latin1 9:latin2 10:swe7 11:ascii 12:ujis "
            + "13:sjis 14:cp1251 15:latin1 16:hebrew 18:tis620 19:euckr 20:latin7 21:latin2 22:koi8u 23:cp1251 "
            + "24:gb2312 25:greek 26:cp1250 27:latin2 28:gbk 29:cp1257 30:latin5 31:latin1 32:armscii8 33:utf8mb3 "
            + "34:cp1250 35:ucs2 36:cp866 37:keybcs2 38:macce 39:macroman 40:cp852 41-42:latin7 43:macce 44:cp1250 "
            + "45-46:utf8mb4 47-49:latin1 50-52:cp1251 53:macroman 54-55:utf16 56:utf16le 57:cp1256 58-59:cp1257 "
            + "60-61:utf32 62:utf16le 63:binary 64:armscii8 65:ascii 66:cp1250 67:cp1256 68:cp866 69:dec8 70:greek "
            + "71:hebrew 72:hp8 73:keybcs2 74:koi8r 75:koi8u 76:utf8mb3 77:latin2 78:latin5 79:latin7 80:cp850 "
            + "81:cp852 82:swe7 83:utf8mb3 84:big5 85:euckr 86:gb2312 87:gbk 88:sjis 89:tis620 90:ucs2 91:ujis "
            + "92-93:geostd8 94:latin1 95-96:cp932 97-98:eucjpms 99:cp1250 101-124:utf16 128-151:ucs2 159:ucs2 "
            + "160-183:utf32 192-215:utf8mb3 223:utf8mb3 224-247:utf8mb4 248-250:gb18030 255-323:utf8mb4 "
            + "576-578:utf8mb3 608-610:utf8mb4 640-642:ucs2 672-674:utf16 736-738:utf32 1025:big5 1027:dec8 "
            + "1028:cp850 1030:hp8 1031:koi8r 1032:latin1 1033:latin2 1034:swe7 1035:ascii 1036:ujis 1037:sjis "
            + "1040:hebrew 1042:tis620 1043:euckr 1046:koi8u 1048:gb2312 1049:greek 1050:cp1250 1052:gbk "
            + "1054:latin5 1056:armscii8 1057:utf8mb3 1059:ucs2 1060:cp866 1061:keybcs2 1062:macce 1063:macroman "
            + "1064:cp852 1065:latin7 1067:macce 1069-1070:utf8mb4 1071:latin1 1074-1075:cp1251 1077:macroman "
            + "1078-1079:utf16 1080:utf16le 1081:cp1256 1082-1083:cp1257 1084-1085:utf32 1086:utf16le "
            + "1088:armscii8 1089:ascii 1090:cp1250 1091:cp1256 1092:cp866 1093:dec8 1094:greek 1095:hebrew "
            + "1096:hp8 1097:keybcs2 1098:koi8r 1099:koi8u 1101:latin2 1102:latin5 1103:latin7 1104:cp850 "
            + "1105:cp852 1106:swe7 1107:utf8mb3 1108:big5 1109:euckr 1110:gb2312 1111:gbk 1112:sjis 1113:tis620 "
            + "1114:ucs2 1115:ujis 1116-1117:geostd8 1119-1120:cp932 1121-1122:eucjpms 1125:utf16 1147:utf16 "
            + "1152:ucs2 1174:ucs2 1184:utf32 1206:utf32 1216:utf8mb3 1238:utf8mb3 1248:utf8mb4 1270:utf8mb4 "
            + "2048-2215:utf8mb3 2232-2247:utf8mb3 2304-2471:utf8mb4 2488-2503:utf8mb4 2560-2727:ucs2 "
            + "2744-2759:ucs2 2816-2983:utf16 3000-3015:utf16 3072-3239:utf32 3256-3271:utf32 ";

    private static final String[] NAME_BY_ID = new String[4096];
    private static final Charset[] CHARSET_BY_ID = new Charset[4096];
    private static final boolean[] LATIN1_BY_ID = new boolean[4096];
    /** Whether Java's decoder for the id's charset is a bijection on valid input (Unicode encodings, ASCII). */
    private static final boolean[] EXACT_BY_ID = new boolean[4096];
    private static final Map<String, Charset> JAVA_BY_NAME = new HashMap<>();
    /** MySQL's latin1 (cp1252 plus the five C1 controls cp1252 leaves undefined), one char per byte value. */
    private static final char[] LATIN1_TABLE = new char[256];
    /** A marker charset for MySQL latin1, decoded through {@link #LATIN1_TABLE}. */
    private static final Charset CP1252 = Charset.forName("windows-1252");

    static {
        String[][] names = {
            {"big5", "Big5"}, {"latin2", "ISO-8859-2"}, {"cp850", "IBM850"}, {"latin1", "windows-1252"},
            {"koi8r", "KOI8-R"}, {"ascii", "US-ASCII"}, {"ujis", "EUC-JP"}, {"sjis", "Shift_JIS"},
            {"cp1251", "windows-1251"}, {"hebrew", "ISO-8859-8"}, {"tis620", "TIS-620"}, {"euckr", "EUC-KR"},
            {"latin7", "ISO-8859-13"}, {"koi8u", "KOI8-U"}, {"gb2312", "GB2312"}, {"greek", "ISO-8859-7"},
            {"cp1250", "windows-1250"}, {"gbk", "GBK"}, {"cp1257", "windows-1257"}, {"latin5", "ISO-8859-9"},
            {"utf8mb3", "UTF-8"}, {"utf8mb4", "UTF-8"}, {"ucs2", "UTF-16BE"}, {"cp866", "IBM866"},
            {"macce", "x-MacCentralEurope"}, {"macroman", "x-MacRoman"}, {"cp852", "IBM852"}, {"utf16", "UTF-16BE"},
            {"utf16le", "UTF-16LE"}, {"cp1256", "windows-1256"}, {"utf32", "UTF-32BE"}, {"cp932", "windows-31j"},
            {"gb18030", "GB18030"},
        };
        for (String[] n : names) {
            if (Charset.isSupported(n[1])) {
                JAVA_BY_NAME.put(n[0], Charset.forName(n[1]));
            }
        }
        for (String entry : RANGES.trim().split(" +")) {
            int colon = entry.indexOf(':');
            String ids = entry.substring(0, colon);
            String name = entry.substring(colon + 1).intern();
            int dash = ids.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? ids : ids.substring(0, dash));
            int to = dash < 0 ? from : Integer.parseInt(ids.substring(dash + 1));
            for (int id = from; id <= to; id++) {
                NAME_BY_ID[id] = name;
                CHARSET_BY_ID[id] = JAVA_BY_NAME.get(name);
                LATIN1_BY_ID[id] = name.equals("latin1");
                EXACT_BY_ID[id] = name.startsWith("utf") || name.equals("ucs2") || name.equals("ascii");
            }
        }
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        String cp1252 = new String(all, CP1252);
        for (int i = 0; i < 256; i++) {
            char c = cp1252.charAt(i);
            LATIN1_TABLE[i] = c == '\uFFFD' ? (char) i : c;
        }
    }

    private MysqlCharsets() {
    }

    /** The server's character set name for a collation id ({@code utf8mb4}, {@code latin1}, {@code binary}...), or null. */
    public static String charsetName(int collationId) {
        return collationId >= 0 && collationId < NAME_BY_ID.length ? NAME_BY_ID[collationId] : null;
    }

    /**
     * The Java charset for a collation id, or {@code null} when the id is unknown, binary, or a character set Java does
     * not have. For latin1 this is windows-1252; {@link #decode} handles latin1's five extra code points.
     */
    public static Charset javaCharset(int collationId) {
        return collationId >= 0 && collationId < CHARSET_BY_ID.length ? CHARSET_BY_ID[collationId] : null;
    }

    /**
     * Decodes {@code len} bytes as text in the character set of {@code collationId}, losslessly: returns a
     * {@link String} when the collation's character set is known to Java, the bytes are valid in it and (for the legacy
     * code pages) the text encodes back to the same bytes, and otherwise a copy of the bytes ({@code byte[]}), also for
     * {@link #BINARY} and for unknown ids (negative = not logged).
     */
    public static Object decode(byte[] buf, int off, int len, int collationId) {
        Charset cs = javaCharset(collationId);
        if (cs == null) {
            return java.util.Arrays.copyOfRange(buf, off, off + len);
        }
        if (LATIN1_BY_ID[collationId]) {
            char[] chars = new char[len];
            for (int i = 0; i < len; i++) {
                chars[i] = LATIN1_TABLE[buf[off + i] & 0xff];
            }
            return new String(chars);
        }
        String s = new String(buf, off, len, cs);
        if (s.indexOf('\uFFFD') >= 0 && !strictlyValid(buf, off, len, cs)) {
            return java.util.Arrays.copyOfRange(buf, off, off + len);
        }
        if (!EXACT_BY_ID[collationId]) {
            // legacy multi-byte and single-byte code pages: keep the text only when it encodes back to the same bytes
            byte[] back = s.getBytes(cs);
            if (!java.util.Arrays.equals(back, 0, back.length, buf, off, off + len)) {
                return java.util.Arrays.copyOfRange(buf, off, off + len);
            }
        }
        return s;
    }

    /**
     * The bytes of {@code text} in the character set of {@code collationId}: the inverse of {@link #decode} for text it
     * produced. Throws {@link IllegalArgumentException} when the collation's character set is unknown to Java.
     */
    public static byte[] encode(String text, int collationId) {
        Charset cs = javaCharset(collationId);
        if (cs == null) {
            throw new IllegalArgumentException("no Java character set for collation id " + collationId);
        }
        if ("latin1".equals(NAME_BY_ID[collationId])) {
            byte[] out = new byte[text.length()];
            for (int i = 0; i < out.length; i++) {
                char c = text.charAt(i);
                int b = latin1Byte(c);
                if (b < 0) {
                    throw new IllegalArgumentException("U+" + Integer.toHexString(c) + " has no latin1 byte");
                }
                out[i] = (byte) b;
            }
            return out;
        }
        return text.getBytes(cs);
    }

    private static int latin1Byte(char c) {
        if (c < 0x80 || (c >= 0xa0 && c <= 0xff) || (c >= 0x80 && c < 0xa0 && LATIN1_TABLE[c] == c)) {
            return c;
        }
        for (int i = 0x80; i < 0xa0; i++) {
            if (LATIN1_TABLE[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static boolean strictlyValid(byte[] buf, int off, int len, Charset cs) {
        try {
            cs.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(buf, off, len));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /** Whether {@code charset} is UTF-8 (utf8mb3 and utf8mb4 collations). */
    static boolean isUtf8(Charset charset) {
        return charset == StandardCharsets.UTF_8;
    }
}
