package io.lanes.applier.soak;

import java.util.Locale;

/**
 * One row of the soak's time series, taken once a second. Counters are cumulative since the start; rates are over the
 * second before the sample. A value that was not measured is -1 (lag in seconds after the heartbeat stopped, the live
 * heap outside a probe).
 *
 * @param seconds seconds since the workload started
 * @param phase {@code load} while the workload runs, {@code drain} while Lanes catches up after it stopped
 * @param sourceTransactions transactions the source wrote to its binlog (the sequence number of its GTID position)
 * @param workloadCommitted transactions the workload's connections committed (heartbeats not counted)
 * @param lanesRead transactions Lanes read from the stream and handed to its engine
 * @param lanesCommitted transactions Lanes committed to the target
 * @param lagTransactions source transactions not yet committed on the target
 * @param lagReadBytes binlog bytes the source has written beyond the position Lanes has read
 * @param lagSeconds now minus the heartbeat timestamp the target holds (-1 once the heartbeat stopped)
 * @param sourceRate source transactions per second over the last second
 * @param applyRate target commits per second over the last second
 * @param queuedTransactions transactions in the engine, dispatched and not yet committed
 * @param queuedBytes their bytes, counted against the engine's queue budget
 * @param heapUsed heap in use at the sample (garbage included)
 * @param heapAfterGc heap in use right after the most recent garbage collection (all heap pools)
 * @param liveHeap heap in use right after a full collection the soak asked for (the live set), -1 when none this second
 * @param gcCount collections so far (all collectors)
 * @param threads live threads in this JVM
 */
record SoakSample(
        double seconds,
        String phase,
        long sourceTransactions,
        long workloadCommitted,
        long lanesRead,
        long lanesCommitted,
        long lagTransactions,
        long lagReadBytes,
        double lagSeconds,
        double sourceRate,
        double applyRate,
        long queuedTransactions,
        long queuedBytes,
        long heapUsed,
        long heapAfterGc,
        long liveHeap,
        long gcCount,
        int threads) {

    static final String CSV_HEADER = "seconds,phase,source_transactions,workload_committed,lanes_read,lanes_committed,"
            + "lag_transactions,lag_read_bytes,lag_seconds,source_rate,apply_rate,queued_transactions,queued_bytes,"
            + "heap_used,heap_after_gc,live_heap,gc_count,threads";

    String csv() {
        return String.format(Locale.ROOT, "%.1f,%s,%d,%d,%d,%d,%d,%d,%.3f,%.1f,%.1f,%d,%d,%d,%d,%d,%d,%d", seconds, phase,
                sourceTransactions, workloadCommitted, lanesRead, lanesCommitted, lagTransactions, lagReadBytes,
                lagSeconds, sourceRate, applyRate, queuedTransactions, queuedBytes, heapUsed, heapAfterGc, liveHeap,
                gcCount, threads);
    }

    String json() {
        return String.format(Locale.ROOT, "{\"seconds\":%.1f,\"phase\":\"%s\",\"sourceTransactions\":%d,"
                + "\"workloadCommitted\":%d,\"lanesRead\":%d,\"lanesCommitted\":%d,\"lagTransactions\":%d,"
                + "\"lagReadBytes\":%d,\"lagSeconds\":%.3f,\"sourceRate\":%.1f,\"applyRate\":%.1f,"
                + "\"queuedTransactions\":%d,\"queuedBytes\":%d,\"heapUsed\":%d,\"heapAfterGc\":%d,\"liveHeap\":%d,"
                + "\"gcCount\":%d,\"threads\":%d}", seconds, phase, sourceTransactions, workloadCommitted, lanesRead,
                lanesCommitted, lagTransactions, lagReadBytes, lagSeconds, sourceRate, applyRate, queuedTransactions,
                queuedBytes, heapUsed, heapAfterGc, liveHeap, gcCount, threads);
    }
}
