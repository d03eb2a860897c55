package io.lanes.binlog.replication;

import static io.lanes.binlog.replication.ReplicationTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.testing.MariaDbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Faults against a real MariaDB: the network cut at arbitrary bytes, the server killed and restarted, a connection that
 * goes silent. Every transaction must still arrive exactly once, in order, with the binlog files' bytes.
 */
class ReplicationFaultTest {

    /** Writers that keep committing small transactions until stopped, riding out server restarts. */
    static final class Writers implements AutoCloseable {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger batches = new AtomicInteger();
        final List<Thread> threads = new ArrayList<>();

        Writers(MariaDbServer db, int n) {
            for (int w = 0; w < n; w++) {
                int writer = w;
                Thread t = new Thread(() -> {
                    int seq = 0;
                    while (!stop.get()) {
                        StringBuilder sql = new StringBuilder();
                        for (int i = 0; i < 10; i++, seq++) {
                            sql.append("BEGIN; INSERT INTO d.t (w, n, v) VALUES (").append(writer).append(',')
                                    .append(seq).append(", REPEAT('x', 150)); UPDATE d.t SET v = CONCAT(v, 'y') WHERE w = ")
                                    .append(writer).append(" AND n = ").append(seq).append("; COMMIT;\n");
                        }
                        try {
                            db.sql(sql.toString());
                            batches.incrementAndGet();
                        } catch (RuntimeException serverDown) {
                            sleep(100);
                        }
                    }
                });
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread t : threads) {
                t.join(60_000);
            }
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Consumes a client into a list on its own thread. */
    static final class Collector implements AutoCloseable {
        final List<ReplicationEvent> events = Collections.synchronizedList(new ArrayList<>());
        final AtomicBoolean stop = new AtomicBoolean();
        volatile Throwable failure;
        final Thread thread;

        Collector(ReplicationClient c) {
            thread = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        ReplicationEvent e = c.poll(Duration.ofMillis(50));
                        if (e != null) {
                            events.add(e);
                        }
                    }
                } catch (Throwable t) {
                    failure = t;
                }
            });
            thread.start();
        }

        List<ReplicationEvent> snapshot() {
            synchronized (events) {
                return new ArrayList<>(events);
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(10_000);
        }
    }

    @Test
    void cutsAndServerRestartsDuringAWorkloadKeepEveryTransactionExactlyOnceInOrder() throws Exception {
        cutsAndRestarts(StartPosition.file("bin.000001", 4));
    }

    @Test
    void cutsAndServerRestartsWhenFollowingByMariaDbGtid() throws Exception {
        cutsAndRestarts(StartPosition.mariaDbGtid(""));
    }

    void cutsAndRestarts(StartPosition start) throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog();
                ReplicationTestProxy proxy = new ReplicationTestProxy(db.port())) {
            createReplicationUser(db, "repl", "pw");
            ReplicationMariaDbTest.schema(db);
            try (ReplicationClient c = ReplicationClient.builder().host("127.0.0.1").port(proxy.port()).user("repl")
                    .password("pw".toCharArray()).serverId(77).tls(TlsSettings.disabled())
                    .startPosition(start).heartbeatPeriod(Duration.ofMillis(500))
                    .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500)).build()) {
                c.start();
                List<ReplicationEvent> got;
                try (Collector collector = new Collector(c)) {
                    try (Writers writers = new Writers(db, 3)) {
                        int faults = 0;
                        java.util.Random random = new java.util.Random(start.hashCode());
                        for (int round = 0; round < 3; round++) {
                            awaitMoreBatches(writers, 3);
                            proxy.cutAfterServerBytes(1000 + random.nextInt(20_000));
                            awaitReconnects(c, ++faults);
                            awaitMoreBatches(writers, 3);
                            if (round == 0) {
                                db.kill(); // a crash: the binlog ends without ROTATE or STOP
                                sleep(300);
                                db.restart();
                                awaitReconnects(c, ++faults);
                            } else if (round == 1) {
                                db.restart(); // a clean shutdown (STOP event, the server tells its replicas) and start
                                awaitReconnects(c, ++faults);
                            }
                        }
                        // a cut at an arbitrary byte lands inside a transaction most of the time: cut until one did
                        for (int extra = 0; extra < 10 && c.cutTransactionCount() == 0; extra++) {
                            awaitMoreBatches(writers, 1);
                            proxy.cutAfterServerBytes(1000 + random.nextInt(20_000));
                            awaitReconnects(c, ++faults);
                        }
                        awaitMoreBatches(writers, 3);
                    }
                    StartPosition.FilePosition end = masterStatus(db);
                    long deadline = System.currentTimeMillis() + 60_000;
                    while (System.currentTimeMillis() < deadline) {
                        List<ReplicationEvent> s = collector.snapshot();
                        if (!s.isEmpty() && reached(s.get(s.size() - 1), end)) {
                            break;
                        }
                        assertNull(collector.failure);
                        Thread.sleep(100);
                    }
                    got = collector.snapshot();
                    assertNull(collector.failure);
                }
                assertTrue(c.reconnectCount() >= 5, "reconnects: " + c.reconnectCount());
                assertTrue(c.cutTransactionCount() >= 1, "a cut fell inside a transaction");
                List<FileEvent> files = readAll(db.binlogFiles());
                assertTrue(db.binlogFiles().size() >= 3, "restarts open new binlog files: " + db.binlogFiles());
                if (start instanceof StartPosition.MariaDbGtids) {
                    // a GTID stream skips what lies between transactions in older files (a STOP, a ROTATE)
                    assertStreamMatchesFiles(got.stream().filter(e -> !repeatable(e.eventType())).toList(),
                            files.stream().filter(f -> !repeatable(f.type())).toList(), null);
                } else {
                    assertStreamMatchesFiles(got, files, null);
                }
                assertEquals(mariaDbGtids(files), mariaDbGtids(got));
                ReplicationEvent last = got.get(got.size() - 1);
                if (start instanceof StartPosition.MariaDbGtids) {
                    assertEquals(StartPosition.mariaDbGtid(db.sql("SELECT @@gtid_binlog_pos").trim()),
                            last.resumePosition());
                } else {
                    assertEquals(masterStatus(db), last.resumePosition());
                }
            }
        }
    }

    static void awaitReconnects(ReplicationClient c, int n) {
        long deadline = System.currentTimeMillis() + 30_000;
        while (c.reconnectCount() < n) {
            assertTrue(System.currentTimeMillis() < deadline, "the client did not reconnect (" + n + ")");
            sleep(20);
        }
    }

    static void awaitMoreBatches(Writers w, int n) {
        int target = w.batches.get() + n;
        long deadline = System.currentTimeMillis() + 60_000;
        while (w.batches.get() < target) {
            assertTrue(System.currentTimeMillis() < deadline, "writers stalled");
            sleep(20);
        }
    }

    @Test
    void heartbeatsKeepAnIdleStreamAliveAndASilentConnectionIsReplaced() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog();
                ReplicationTestProxy proxy = new ReplicationTestProxy(db.port())) {
            createReplicationUser(db, "repl", "pw");
            ReplicationMariaDbTest.schema(db);
            try (ReplicationClient c = ReplicationClient.builder().host("127.0.0.1").port(proxy.port()).user("repl")
                    .password("pw".toCharArray()).serverId(78).tls(TlsSettings.disabled())
                    .startPosition(StartPosition.file("bin.000001", 4)).heartbeatPeriod(Duration.ofMillis(300))
                    .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200)).build()) {
                c.start();
                List<ReplicationEvent> got = new ArrayList<>();
                pollUntil(c, got, masterStatus(db), 10_000);
                // idle for ten heartbeat periods: heartbeats arrive, so no reconnect
                long until = System.currentTimeMillis() + 3000;
                while (System.currentTimeMillis() < until) {
                    ReplicationEvent e = c.poll(Duration.ofMillis(100));
                    if (e != null) {
                        got.add(e);
                    }
                }
                assertEquals(0, c.reconnectCount());
                assertEquals(1, proxy.acceptedConnections());
                // the connection goes silent: within about twice the period the client gives up on it and reconnects
                proxy.stallAll();
                long stalledAt = System.nanoTime();
                while (c.reconnectCount() == 0) {
                    assertTrue(System.nanoTime() - stalledAt < 5_000_000_000L, "no reconnect 5 s after the stall");
                    ReplicationEvent e = c.poll(Duration.ofMillis(20));
                    if (e != null) {
                        got.add(e);
                    }
                }
                long detectedMillis = (System.nanoTime() - stalledAt) / 1_000_000;
                // the last heartbeat came at most one period before the stall: at least one more period of silence
                assertTrue(detectedMillis >= 290, "detected after " + detectedMillis + " ms, too early");
                ReplicationMariaDbTest.workload(db, 1, 1, 10);
                pollUntil(c, got, masterStatus(db), 10_000);
                List<FileEvent> files = readAll(db.binlogFiles());
                assertStreamMatchesFiles(got, files, null);
            }
        }
    }
}
