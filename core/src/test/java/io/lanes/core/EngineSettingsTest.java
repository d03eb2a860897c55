package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The engine's one settings record: its documented defaults, its validation, and the builder that produces it. */
class EngineSettingsTest {
    @Test
    void theDefaultsAreTheDocumentedOnes() {
        EngineSettings d = EngineSettings.defaults();
        assertEquals(4, d.workers());
        assertEquals(CommitOrder.PER_PARTITION, d.commitOrder());
        assertNull(d.initialPosition());
        assertEquals(512, d.checkpointGroupSize());
        assertEquals(Duration.ofMillis(300), d.checkpointPeriod());
        assertEquals(EngineSettings.defaultQueueBudgetBytes(Runtime.getRuntime().maxMemory()), d.queueBudgetBytes());
        assertEquals(128L << 20, EngineSettings.defaultQueueBudgetBytes(6L << 30), "128 MiB from 512 MiB of heap");
        assertEquals(64L << 20, EngineSettings.defaultQueueBudgetBytes(256L << 20), "a quarter of a smaller heap");
        assertEquals(16L << 20, EngineSettings.defaultQueueBudgetBytes(32L << 20), "at least 16 MiB");
        assertEquals(128L << 20, EngineSettings.defaultQueueBudgetBytes(Long.MAX_VALUE), "no limit known");
        assertEquals(16_384, d.workerQueueCapacity());
        assertEquals(256, d.blockCommit());
        assertEquals(10, d.retries());
        assertEquals(Duration.ofMillis(10), d.retryBackoff());
        assertEquals(Duration.ofSeconds(1), d.retryMaxBackoff());
        assertEquals(Duration.ofSeconds(1), d.commitOrderTimeout());
        assertTrue(d.commitOrderDeadlockDetection());
        assertEquals(Duration.ofSeconds(1), d.statsInterval());
        assertEquals("lanes", d.name());
        assertSame(d, Engine.builder(id -> null).settings(), "a new builder starts from the defaults");
    }

    @Test
    void aWitherChangesItsKnobOnly() {
        EngineSettings d = EngineSettings.defaults();
        EngineSettings w = d.withBlockCommit(7);
        assertEquals(7, w.blockCommit());
        assertEquals(d, w.withBlockCommit(256));
        assertEquals(d.withWorkers(9).withCommitOrder(CommitOrder.NONE),
                d.withCommitOrder(CommitOrder.NONE).withWorkers(9));
    }

    @Test
    void valuesOutOfRangeAreRefusedNamingTheKnob() {
        EngineSettings d = EngineSettings.defaults();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> d.withWorkers(-1)).getMessage()
                .contains("workers"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> d.withBlockCommit(0)).getMessage()
                .contains("block commit"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> d.withCheckpointGroupSize(1)).getMessage()
                .contains("checkpoint group size"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> d.withCheckpointPeriod(Duration.ZERO))
                .getMessage().contains("checkpoint period"));
        assertThrows(NullPointerException.class, () -> d.withCommitOrder(null));
        assertThrows(IllegalArgumentException.class, () -> Engine.builder(id -> null).retries(-1));
    }

    @Test
    @SuppressWarnings("deprecation")
    void theBuilderProducesTheRecordAndBothNamesOfBlockCommitSetOneKnob() {
        Engine.Builder<String> b = Engine.<String>builder(id -> null).workers(3).commitOrder(CommitOrder.PER_PARTITION)
                .blockCommit(5).name("x");
        EngineSettings s = b.settings();
        assertEquals(3, s.workers());
        assertEquals(CommitOrder.PER_PARTITION, s.commitOrder());
        assertEquals(5, s.blockCommit());
        assertEquals("x", s.name());
        assertEquals(11, b.maxBatchTransactions(11).settings().blockCommit());
        EngineSettings other = EngineSettings.defaults().withWorkers(2);
        assertSame(other, b.settings(other).settings());
        assertFalse(b.settings().equals(s));
    }
}
