package io.lanes.core;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * By partition key (schema), like MySQL's {@code replica_parallel_type=DATABASE}: a key stays on one worker while it has
 * a transaction in flight, so its transactions run in source order there; once idle it may move
 * ({@link SchedulingContext#workerForIdleKey}): it stays on its previous worker when that one is free, else goes to a
 * worker holding no active key, else to the least loaded one (cheap work packs instead, see there).
 * A transaction with several keys waits (in its worker) for the last in-flight transaction of each key and then owns
 * them all. A transaction without partition keys is a barrier.
 */
public final class PartitionScheduler implements Scheduler {
    private static final class KeyState {
        int worker = -1;
        long lastSeq;
    }

    private SchedulingContext ctx;
    private final Map<String, KeyState> keys = new HashMap<>();
    private int cleanupAt;

    @Override
    public void init(SchedulingContext context) {
        this.ctx = context;
        keys.clear();
        cleanupAt = 4096;
    }

    @Override
    public void schedule(Transaction<?> txn, Placement placement) {
        int n = txn.partitionKeyCount();
        if (n == 0) {
            placement.asBarrier();
            return;
        }
        long seq = placement.sequence();
        int chosen = -1;
        if (n == 1) {
            KeyState st = keys.get(txn.partitionKey(0));
            if (st == null) {
                st = new KeyState();
                keys.put(txn.partitionKey(0), st);
            } else if (!ctx.isCommitted(st.lastSeq)) {
                chosen = st.worker;
                placement.after(st.lastSeq);
            }
            if (chosen < 0) {
                chosen = ctx.workerForIdleKey(st.worker);
            }
            st.worker = chosen;
            st.lastSeq = seq;
        } else {
            KeyState[] states = new KeyState[n];
            for (int i = 0; i < n; i++) {
                KeyState st = keys.get(txn.partitionKey(i));
                if (st == null) {
                    st = new KeyState();
                    keys.put(txn.partitionKey(i), st);
                } else if (!ctx.isCommitted(st.lastSeq)) {
                    placement.after(st.lastSeq);
                    if (chosen < 0) {
                        chosen = st.worker;
                    }
                }
                states[i] = st;
            }
            if (chosen < 0) {
                chosen = ctx.workerForIdleKey(states[0].worker);
            }
            for (KeyState st : states) {
                st.worker = chosen;
                st.lastSeq = seq;
            }
        }
        placement.toWorker(chosen);
        if (keys.size() > cleanupAt) {
            for (Iterator<KeyState> it = keys.values().iterator(); it.hasNext();) {
                if (ctx.isCommitted(it.next().lastSeq)) {
                    it.remove();
                }
            }
            cleanupAt = Math.max(4096, keys.size() * 2);
        }
    }

    @Override
    public String name() {
        return "partition";
    }
}
