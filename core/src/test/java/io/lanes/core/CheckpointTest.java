package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class CheckpointTest {

    @Property(tries = 300)
    void bytesRoundTrip(@ForAll @IntRange(min = -1, max = 1000) int worker, @ForAll @LongRange(min = 0) long lwm,
            @ForAll String position, @ForAll @Size(max = 20) long[] bits) {
        Checkpoint c = worker < 0 ? Checkpoint.ofLowWaterMark(lwm, position) : Checkpoint.ofWorker(worker, lwm, position, bits);
        Checkpoint back = Checkpoint.fromBytes(c.toBytes());
        assertEquals(c, back);
        if (worker >= 0) {
            assertEquals(c, Checkpoint.ofWorker(worker, lwm, position, c.bitmap()));
        }
    }

    @Test
    void bitsStandForSequencesBeyondTheLowWaterMark() {
        Checkpoint c = Checkpoint.ofWorker(3, 100, "f.000001:400", new long[] {0b1011, 1L << 63});
        assertArrayEquals(new long[] {101, 102, 104, 228}, c.appliedBeyondLowWaterMark());
        assertTrue(c.isApplied(100));
        assertTrue(c.isApplied(7));
        assertTrue(c.isApplied(104));
        assertFalse(c.isApplied(103));
        assertFalse(c.isApplied(229));
        assertArrayEquals(new byte[] {0b1011, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0x80}, c.bitmap());
        assertNull(Checkpoint.ofLowWaterMark(0, null).position());
    }

    @Test
    void corruptInputNamesTheOffset() {
        byte[] good = Checkpoint.ofWorker(1, 5, "pos", new long[] {6}).toBytes();
        CorruptCheckpointException truncated = assertThrows(CorruptCheckpointException.class,
                () -> Checkpoint.fromBytes(Arrays.copyOf(good, good.length - 3)));
        assertTrue(truncated.getMessage().contains("bitmap"), truncated.getMessage());
        byte[] badVersion = good.clone();
        badVersion[0] = 9;
        assertEquals(0, assertThrows(CorruptCheckpointException.class, () -> Checkpoint.fromBytes(badVersion)).offset());
        byte[] hugeBitmap = good.clone();
        ByteBuffer.wrap(hugeBitmap).putInt(1 + 4 + 8 + 4 + 3, Integer.MAX_VALUE);
        CorruptCheckpointException huge = assertThrows(CorruptCheckpointException.class,
                () -> Checkpoint.fromBytes(hugeBitmap));
        assertEquals(1 + 4 + 8 + 4 + 3, huge.offset());
        byte[] hugePosition = good.clone();
        ByteBuffer.wrap(hugePosition).putInt(13, 1 << 30);
        assertEquals(17, assertThrows(CorruptCheckpointException.class, () -> Checkpoint.fromBytes(hugePosition)).offset());
        byte[] trailing = Arrays.copyOf(good, good.length + 1);
        assertThrows(CorruptCheckpointException.class, () -> Checkpoint.fromBytes(trailing));
        assertThrows(CorruptCheckpointException.class, () -> Checkpoint.fromBytes(new byte[0]));
    }

    @Test
    void recoveryTakesTheHighestLowWaterMarkAndTheUnionBeyondIt() {
        List<Checkpoint> saved = List.of(
                Checkpoint.ofWorker(0, 90, "p90", new long[] {1L << 4 | 1L << 12}), // 95, 103
                Checkpoint.ofWorker(1, 100, "p100", new long[] {1L << 4}), // 105
                Checkpoint.ofWorker(2, 97, "p97", new long[] {1L << 3 | 1L << 4}), // 101, 102
                Checkpoint.ofLowWaterMark(99, "p99"));
        RecoveryPoint rp = RecoveryPoint.fromCheckpoints(saved, "start");
        assertEquals(100, rp.lowWaterMark());
        assertEquals("p100", rp.position());
        assertEquals(101, rp.nextSequence());
        assertArrayEquals(new long[] {101, 102, 103, 105}, rp.alreadyApplied());
        assertTrue(rp.isAlreadyApplied(50));
        assertFalse(rp.isAlreadyApplied(104));
        RecoveryPoint fresh = RecoveryPoint.fromCheckpoints(List.of(), "binlog.000001:4");
        assertEquals(0, fresh.lowWaterMark());
        assertEquals("binlog.000001:4", fresh.position());
        assertEquals(1, fresh.nextSequence());
    }
}
