package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Arrays;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/** The events that carry bytes compare and hash them by content, with the hash they computed by hand before. */
class ByteArrayRecordsTest {
    private static final EventHeader HEADER = new EventHeader(4, 1, 38, 7, 60, 64, 0);

    @Test
    void equalByContentAndUnequalOnAnyComponent() {
        XaPrepareEvent a = new XaPrepareEvent(HEADER, false, 1, new byte[] {1, 2}, new byte[] {3});
        assertEquals(a, new XaPrepareEvent(HEADER, false, 1, new byte[] {1, 2}, new byte[] {3}));
        assertNotEquals(a, new XaPrepareEvent(HEADER, true, 1, new byte[] {1, 2}, new byte[] {3}));
        assertNotEquals(a, new XaPrepareEvent(HEADER, false, 2, new byte[] {1, 2}, new byte[] {3}));
        assertNotEquals(a, new XaPrepareEvent(HEADER, false, 1, new byte[] {1, 2}, new byte[] {4}));
        assertNotEquals(a, new AppendBlockEvent(HEADER, 1, new byte[] {1, 2}));
        assertNotEquals(a, null);
        assertNotEquals(new AppendBlockEvent(HEADER, 1, new byte[] {1}), new BeginLoadQueryEvent(HEADER, 1, new byte[] {1}));
    }

    @Test
    void hashIsTheHandWrittenOne() {
        XaPrepareEvent xa = new XaPrepareEvent(HEADER, true, 5, new byte[] {1, 2}, new byte[] {3});
        int h = 1;
        h = 31 * h + Objects.hashCode(HEADER);
        h = 31 * h + Boolean.hashCode(true);
        h = 31 * h + Integer.hashCode(5);
        h = 31 * h + Arrays.hashCode(new byte[] {1, 2});
        h = 31 * h + Arrays.hashCode(new byte[] {3});
        assertEquals(h, xa.hashCode());
    }

    @Test
    void nullArraysCompareAndHash() {
        UserVarEvent a = new UserVarEvent(HEADER, "v", -1, 63, null, 0);
        assertEquals(a, new UserVarEvent(HEADER, "v", -1, 63, null, 0));
        assertNotEquals(a, new UserVarEvent(HEADER, "v", 0, 63, new byte[0], 0));
        int h = 1;
        h = 31 * h + Objects.hashCode(HEADER);
        h = 31 * h + Objects.hashCode("v");
        h = 31 * h + Integer.hashCode(-1);
        h = 31 * h + Integer.hashCode(63);
        h = 31 * h + Arrays.hashCode((byte[]) null);
        h = 31 * h + Integer.hashCode(0);
        assertEquals(h, a.hashCode());
    }
}
