package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine tells its checkpoint store that it stopped, once, after the final save (stop) or without one (abort). */
class StoreReleaseTest {
    /** Records the order of its calls. */
    static final class Store implements CheckpointStore {
        final List<String> calls = new ArrayList<>();

        @Override
        public Collection<Checkpoint> load() {
            return List.of();
        }

        @Override
        public void saveWorkerCheckpoint(Checkpoint checkpoint) {
        }

        @Override
        public synchronized void saveLowWaterMark(Checkpoint checkpoint) {
            calls.add("save " + checkpoint.lowWaterMark());
        }

        @Override
        public synchronized void engineStopped() {
            calls.add("stopped");
        }
    }

    private static Applier<String> noOp() {
        return new Applier<>() {
            @Override
            public void apply(Transaction<String> txn, ApplyContext ctx) {
            }

            @Override
            public void commit(Batch<String> batch, Checkpoint checkpoint) {
            }

            @Override
            public void rollback(Batch<String> batch) {
            }
        };
    }

    @Test
    void stopReleasesTheStoreAfterTheFinalSave() throws Exception {
        Store store = new Store();
        Engine<String> e = Engine.builder(w -> noOp()).workers(2).checkpointStore(store)
                .checkpointPeriod(Duration.ofDays(1)).build();
        e.start();
        for (int i = 1; i <= 10; i++) {
            e.submit(Transaction.builder("t" + i).position(Integer.toString(i)).partitionKey("s" + (i % 2)).build());
        }
        e.stop();
        assertEquals(List.of("save 10", "stopped"), store.calls);
        e.close();
        assertEquals(List.of("save 10", "stopped"), store.calls, "once");
    }

    @Test
    void abortReleasesTheStoreWithoutASave() throws Exception {
        Store store = new Store();
        Engine<String> e = Engine.builder(w -> noOp()).workers(2).checkpointStore(store)
                .checkpointPeriod(Duration.ofDays(1)).build();
        e.start();
        e.submit(Transaction.builder("t1").position("1").partitionKey("s").build());
        e.abort();
        assertEquals(List.of("stopped"), store.calls);
        assertTrue(e.lowWaterMark() <= 1);
    }
}
