package io.lanes.connect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The write-keys header's text form, and how a malformed one is named. */
class LanesHeadersTest {
    @Test
    void writeKeysReadBackAsWritten() {
        long[] keys = {0, 1, -1, Long.MIN_VALUE, 0x0123456789abcdefL};
        String text = LanesHeaders.formatKeys(keys);
        assertEquals(1 + 16 * keys.length, text.length());
        assertArrayEquals(keys, LanesHeaders.parseKeys(text));
        assertArrayEquals(new long[0], LanesHeaders.parseKeys("x"));
    }

    @Test
    void aMalformedValueIsQuotedWithoutCuttingACharacterInHalf() throws Exception {
        String value = "y" + "a".repeat(38) + "\uD83D\uDE00" + "tail"; // the emoji's halves at 39 and 40
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LanesHeaders.parseKeys(value));
        assertEquals("not a " + LanesHeaders.WRITE_KEYS + " header value: " + value.substring(0, 41) + "...",
                e.getMessage());
        StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                .encode(java.nio.CharBuffer.wrap(e.getMessage()));
        assertThrows(IllegalArgumentException.class, () -> LanesHeaders.parseKeys(""));
        assertThrows(IllegalArgumentException.class, () -> LanesHeaders.parseKeys("x123"));
    }
}
