package io.lanes.applier.soak;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's memory and thread gauges for the soak. The heap after the most recent collection comes from the collectors'
 * notifications (the sum of every heap pool's usage after that collection, whichever collector ran), which is current
 * after young collections too; {@link MemoryPoolMXBean#getCollectionUsage()} of G1's old generation is only refreshed by
 * old collections and would go stale for a whole run.
 *
 * <p>Thread-safe: notifications arrive on a JMX thread, readers call from any thread. {@link #close()} removes the
 * listeners.
 */
final class JvmGauges implements AutoCloseable {
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
    private final AtomicLong heapAfterLastGc = new AtomicLong(-1);
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::onNotification;

    JvmGauges() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
                emitters.add(emitter);
            }
        }
    }

    private void onNotification(Notification n, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        long after = 0;
        for (var e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                after += e.getValue().getUsed();
            }
        }
        heapAfterLastGc.set(after);
    }

    /** Heap in use right after the most recent collection; until the first one, the heap in use now. */
    long heapAfterGc() {
        long v = heapAfterLastGc.get();
        return v >= 0 ? v : heapUsed();
    }

    long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    int threads() {
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }

    /**
     * The live set: asks for a full collection and returns the heap in use right after it. Costs a stop-the-world pause,
     * so the soak calls it every few seconds at most, never per sample.
     */
    long liveHeap() {
        System.gc();
        return heapUsed();
    }

    @Override
    public void close() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(listener);
            } catch (ListenerNotFoundException ignored) {
                // already gone
            }
        }
    }
}
