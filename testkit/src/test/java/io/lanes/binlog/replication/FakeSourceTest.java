package io.lanes.binlog.replication;

import static io.lanes.binlog.replication.ReplicationTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lanes.testkit.FakeBinlogServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replication client against the in-process fake source, serving the project's binlog fixtures. */
class FakeSourceTest {
    static final Path FIXTURES = Path.of("src/test/resources/binlogs");

    static ReplicationClient.Builder client(FakeBinlogServer fake, String password) {
        return ReplicationClient.builder().host("127.0.0.1").port(fake.port()).user("repl")
                .password(password.toCharArray()).serverId(9).tls(TlsSettings.disabled())
                .reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(100));
    }

    /** A started fake serving {@code file} to user repl, password pw. */
    static FakeBinlogServer fakeServing(Path file) {
        return FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build().start();
    }

    /** A client of {@code fake} from the start of {@code file}. */
    static ReplicationClient.Builder clientFromStart(FakeBinlogServer fake, Path file) {
        return client(fake, "pw").startPosition(StartPosition.file(file.getFileName().toString(), 4));
    }

    /** Polls until {@code n} real events after {@code from} were seen or the file end was reached. */
    static List<ReplicationEvent> pollToEnd(ReplicationClient c, String file, long end) throws InterruptedException {
        List<ReplicationEvent> got = new ArrayList<>();
        pollUntil(c, got, StartPosition.file(file, end), 30_000);
        return got;
    }

    static Path gunzip(Path gz, Path dir) throws IOException {
        String name = gz.getFileName().toString().replaceFirst("\\.gz$", "");
        Path out = dir.resolve(name);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            Files.copy(in, out);
        }
        return out;
    }

    @Test
    void servesAMariaDbFixtureByFilePositionAsStored() throws Exception {
        Path file = FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001");
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).user("repl")
                .password("pw".toCharArray()).build().start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file(file.getFileName().toString(), 4))
                        .build()) {
            ServerInfo info = c.start();
            assertTrue(info.mariaDb());
            assertEquals("CRC32", info.binlogChecksum());
            List<ReplicationEvent> got = pollToEnd(c, file.getFileName().toString(), Files.size(file));
            List<FileEvent> files = readEvents(file);
            assertStreamMatchesFiles(got, files, null);
            assertTrue(got.get(0).isSynthetic() && got.get(0).eventType() == 4, "a fake rotate comes first");
            assertEquals(mariaDbGtids(files), mariaDbGtids(got));
        }
    }

    /**
     * The replica setup's statements go to the server together and their answers are read in order: a statement the
     * server refuses (here {@code @@binlog_row_metadata}, unknown as on MariaDB before 10.5) must neither fail the
     * setup nor shift the answers of the statements after it.
     */
    @Test
    void pipelinedSetupKeepsEachAnswerWithItsStatementWhenOneIsRefused() throws Exception {
        Path file = FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001");
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).user("repl")
                .password("pw".toCharArray()).serverId(77).variable("binlog_row_metadata", null)
                .variable("gtid_binlog_pos", "0-77-12").build().start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file(file.getFileName().toString(), 4))
                        .build()) {
            ServerInfo info = c.start();
            assertNull(info.binlogRowMetadata(), "refused: no value");
            assertEquals(77, info.serverId(), "asked before the refused statement");
            assertEquals("CRC32", info.binlogChecksum(), "asked after it");
            assertEquals("0-77-12", info.currentGtidPosition(), "asked after it");
            assertEquals(StartPosition.file(file.getFileName().toString(), Files.size(file)), info.endPosition());
            List<ReplicationEvent> got = pollToEnd(c, file.getFileName().toString(), Files.size(file));
            assertStreamMatchesFiles(got, readEvents(file), null);
        }
    }

    /** A client given its own event loops streams on them and leaves them running when it closes: they are the caller's. */
    @Test
    void runsOnTheEventLoopsItIsGivenAndLeavesThemToTheirOwner() throws Exception {
        Path file = FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001");
        io.netty.channel.EventLoopGroup mine = new io.netty.channel.nio.NioEventLoopGroup(1,
                new io.netty.util.concurrent.DefaultThreadFactory("caller-owned-io", true));
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).user("repl")
                .password("pw".toCharArray()).build().start()) {
            java.util.function.BooleanSupplier loopStarted = () -> Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().startsWith("caller-owned-io"));
            assertFalse(loopStarted.getAsBoolean(), "Netty starts a loop's thread with its first task");
            try (ReplicationClient c = client(fake, "pw").eventLoopGroup(mine)
                    .startPosition(StartPosition.file(file.getFileName().toString(), 4)).build()) {
                c.start();
                assertTrue(loopStarted.getAsBoolean(), "the connection was registered on the given loops");
                List<ReplicationEvent> got = pollToEnd(c, file.getFileName().toString(), Files.size(file));
                assertStreamMatchesFiles(got, readEvents(file), null);
            }
            assertFalse(mine.isShuttingDown(), "closing the client must not shut down the caller's event loops");
            // still usable: a second client on the same loops
            try (ReplicationClient c = client(fake, "pw").eventLoopGroup(mine)
                    .startPosition(StartPosition.file(file.getFileName().toString(), 4)).build()) {
                c.start();
                assertFalse(pollToEnd(c, file.getFileName().toString(), Files.size(file)).isEmpty());
            }
            assertEquals(2, fake.dumps());
        } finally {
            mine.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void deliversDecodedEventsOnTheConsumersExecutorAcrossCutsInsideTransactions() throws Exception {
        Path file = FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001");
        List<FileEvent> events = readEvents(file);
        java.util.concurrent.ExecutorService consumer = java.util.concurrent.Executors.newSingleThreadExecutor(
                r -> new Thread(r, "test-consumer"));
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file(file.getFileName().toString(), 4))
                        .build()) {
            // cuts inside transactions: the resumed transactions' rows events still decode with the TABLE_MAPs seen
            // before the cut (the re-sent ones are skipped)
            fake.cutAfterEvents(12, 9, 14, 6, 10);
            c.start();
            java.util.concurrent.LinkedBlockingQueue<Object> out = new java.util.concurrent.LinkedBlockingQueue<>();
            c.deliverDecodedTo(new DecodedEventListener() {
                @Override
                public void onEvent(io.lanes.binlog.BinlogEvent event, ReplicationEvent raw) {
                    assertEquals("test-consumer", Thread.currentThread().getName());
                    assertEquals(raw.eventType(), event.header().typeCode());
                    assertEquals(raw.position(), event.position());
                    out.add(event);
                }

                @Override
                public void onError(ReplicationException error) {
                    out.add(error);
                }
            }, io.lanes.binlog.BinlogReaderOptions.defaults(), consumer);
            assertDecodedStreamMatchesFiles(out, events);
            assertTrue(c.cutTransactionCount() >= 1, "a cut fell inside a transaction");
        } finally {
            consumer.shutdownNow();
        }
    }

    @Test
    void startsAfterTheFormatDescriptionWithASyntheticOne() throws Exception {
        Path file = FIXTURES.resolve("mysql-binlog-connector-java/mysql-bin.checksum-crc32");
        List<FileEvent> events = readEvents(file);
        FileEvent tenth = events.get(10);
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file(tenth.file(), tenth.position()))
                        .build()) {
            ServerInfo info = c.start();
            assertFalse(info.mariaDb());
            List<ReplicationEvent> got = pollToEnd(c, tenth.file(), Files.size(file));
            assertEquals(4, got.get(0).eventType());
            assertEquals(15, got.get(1).eventType());
            assertTrue(got.get(1).isSynthetic(), "the FORMAT_DESCRIPTION re-sent before position " + tenth.position());
            assertStreamMatchesFiles(got, events, tenth.key());
        }
    }

    @Test
    void connectionCutMidTransactionResumesAtTheTransactionStartAndDeliversEachEventOnce() throws Exception {
        Path file = FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001");
        List<FileEvent> events = readEvents(file);
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file(file.getFileName().toString(), 4))
                        .build()) {
            // the first connection is cut after 3 events (the fake rotate, the FDE, the GTID_LIST); the next ones fall
            // inside transactions (after a GTID event, after a TABLE_MAP, ...): each resumes at its transaction start
            long[] cuts = {3, 7, 5, 9, 4, 11, 6, 8};
            fake.cutAfterEvents(cuts);
            c.start();
            List<ReplicationEvent> got = new ArrayList<>();
            pollUntil(c, got, StartPosition.file(file.getFileName().toString(), Files.size(file)), 30_000);
            assertTrue(c.reconnectCount() >= cuts.length);
            assertTrue(c.cutTransactionCount() >= 3, "cuts inside transactions: " + c.cutTransactionCount());
            assertStreamMatchesFiles(got, events, null);
            assertEquals(mariaDbGtids(events), mariaDbGtids(got));
        }
    }

    @Test
    void startsFromAMariaDbGtidAndReportsGtidResumePositions() throws Exception {
        Path file = FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001");
        List<FileEvent> events = readEvents(file);
        List<String> gtids = mariaDbGtids(events);
        String start = gtids.get(5);
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.mariaDbGtid(start)).build()) {
            c.start();
            List<ReplicationEvent> got = pollToEnd(c, file.getFileName().toString(), Files.size(file));
            assertEquals(gtids.subList(6, gtids.size()), mariaDbGtids(got));
            assertEquals(StartPosition.mariaDbGtid(gtids.get(gtids.size() - 1)),
                    got.get(got.size() - 1).resumePosition());
        }
    }

    @Test
    void startsFromAMySqlGtidSet() throws Exception {
        Path file = FIXTURES.resolve("rust_mysql_common/mysql-enum-string-set.000001");
        List<FileEvent> events = readEvents(file);
        List<String> gtids = new ArrayList<>();
        for (FileEvent f : events) {
            if (f.type() == 33) {
                gtids.add(io.lanes.binlog.gtid.MySqlGtidSet.uuidText(f.bytes(), 20) + ":"
                        + u64(f.bytes(), 36));
            }
        }
        assertTrue(gtids.size() >= 3);
        String uuid = gtids.get(0).substring(0, 36);
        long firstGno = Long.parseLong(gtids.get(0).substring(37));
        String have = uuid + ":1-" + (firstGno + 1);
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.mysqlGtidSet(have)).build()) {
            c.start();
            List<ReplicationEvent> got = pollToEnd(c, file.getFileName().toString(), Files.size(file));
            ReplicationEvent firstGtid = got.stream().filter(e -> e.eventType() == 33).findFirst().orElseThrow();
            assertEquals(gtids.get(2), io.lanes.binlog.gtid.MySqlGtidSet.uuidText(firstGtid.bytes(), 20)
                    + ":" + u64(firstGtid.bytes(), 36));
            long lastGno = Long.parseLong(gtids.get(gtids.size() - 1).substring(37));
            assertEquals(StartPosition.mysqlGtidSet(uuid + ":1-" + lastGno), got.get(got.size() - 1).resumePosition());
        }
    }

    @Test
    void slowConsumerKeepsTheBufferWithinItsBudget(@TempDir Path tmp) throws Exception {
        Path file = gunzip(FIXTURES.resolve("mariadb-10.11/sysbench-10schemas-update-index.000001.gz"), tmp);
        long budget = 256 * 1024;
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file(file.getFileName().toString(), 4))
                        .bufferBytes(budget).build()) {
            // cut while reading is paused for the slow consumer too: the new connection starts paused
            fake.cutAfterEvents(5_000, 12_000, 20_000);
            c.start();
            long consumed = 0;
            int maxEvent = 0;
            long n = 0;
            List<ReplicationEvent> got = new ArrayList<>();
            while (true) {
                ReplicationEvent e = c.poll(Duration.ofSeconds(10));
                assertNotNull(e, "stream stopped");
                got.add(e);
                consumed += e.bytes().length;
                maxEvent = Math.max(maxEvent, e.bytes().length);
                if (++n % 500 == 0) {
                    Thread.sleep(2); // a slow consumer
                }
                if (reached(e, StartPosition.file(file.getFileName().toString(), Files.size(file)))) {
                    break;
                }
            }
            assertTrue(consumed > 20 * budget, "the test streams far more than the budget: " + consumed);
            // bounded: the budget, plus what one socket read (64 KiB at most with Netty's default) still held when
            // reading stopped, plus the event that crossed the budget
            long bound = budget + 65536 + maxEvent + 96L * 1024;
            assertTrue(c.maxBufferedBytes() <= bound, "buffered at most " + c.maxBufferedBytes() + " > " + bound);
            assertTrue(c.maxBufferedBytes() > budget / 2, "the budget was reached: " + c.maxBufferedBytes());
            assertTrue(c.reconnectCount() >= 3);
            assertStreamMatchesFiles(got, readEvents(file), null);
        }
    }

    /**
     * The heartbeat period of the test below: long enough that a pause of the test JVM (the fuzz tests' agent
     * instruments every class loaded after them, taking up to a tenth of a second per class) does not look like a dead
     * connection, which a silence of twice the period is.
     */
    private static final long HEARTBEAT_MILLIS = 400;

    @Test
    void heartbeatsKeepAnIdleStreamAliveAndAStalledSourceIsReplaced() throws Exception {
        Path file = FIXTURES.resolve("mysql-binlog-connector-java/mysql-bin.checksum-crc32");
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file("mysql-bin.checksum-crc32", 4))
                        .heartbeatPeriod(Duration.ofMillis(HEARTBEAT_MILLIS)).build()) {
            c.start();
            List<ReplicationEvent> got = pollToEnd(c, "mysql-bin.checksum-crc32", Files.size(file));
            Thread.sleep(6 * HEARTBEAT_MILLIS); // six periods idle
            assertEquals(0, c.reconnectCount());
            assertEquals(1, fake.connectionsAccepted());
            fake.stall(true);
            long t0 = System.nanoTime();
            while (c.reconnectCount() == 0 && System.nanoTime() - t0 < 10_000_000_000L) {
                Thread.sleep(10);
                if (fake.connectionsAccepted() > 1) {
                    fake.stall(false);
                }
            }
            fake.stall(false);
            assertTrue(c.reconnectCount() >= 1 && fake.connectionsAccepted() >= 2, "the silent connection was replaced");
            long detected = (System.nanoTime() - t0) / 1_000_000;
            // the last heartbeat came at most one period before the stall: at least one more period of silence
            assertTrue(detected >= HEARTBEAT_MILLIS - 5, "replaced after " + detected + " ms, too early");
            // resumed after the last transaction: nothing of a transaction comes again
            for (ReplicationEvent e; (e = c.poll(Duration.ofMillis(300))) != null; ) {
                assertTrue(e.isSynthetic() || repeatable(e.eventType()), "delivered again: " + e);
            }
            assertStreamMatchesFiles(got, readEvents(file), null);
        }
    }

    @Test
    void anEventOverTheSizeLimitIsAClearErrorNamingItsPosition() throws Exception {
        Path file = FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001");
        List<FileEvent> events = readEvents(file);
        FileEvent big = events.stream().filter(e -> e.bytes().length > 70_000).findFirst().orElseThrow();
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file(file.getFileName().toString(), 4))
                        .maxEventSize(65536).build()) {
            c.start();
            ReplicationException e = assertThrows(ReplicationException.class, () -> {
                while (true) {
                    c.poll(Duration.ofSeconds(5));
                }
            });
            assertEquals(ReplicationException.Kind.EVENT_TOO_LARGE, e.kind());
            assertTrue(e.getMessage().contains("65536"), e.getMessage());
            assertTrue(e.getMessage().contains("127.0.0.1:" + fake.port()), e.getMessage());
            assertTrue(e.getMessage().contains(file.getFileName() + ":" + big.position()), e.getMessage());
        }
    }

    @Test
    void aPositionTheSourceDoesNotHaveIsALogUnavailableError() {
        Path file = FIXTURES.resolve("mysql-binlog-connector-java/mysql-bin.checksum-crc32");
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file("mysql-bin.000001", 4))
                        .build()) {
            ReplicationException e = assertThrows(ReplicationException.class, c::start);
            assertEquals(ReplicationException.Kind.LOG_UNAVAILABLE, e.kind());
            assertTrue(e.getMessage().contains("mysql-bin.000001:4"));
        }
    }

    @Test
    void givesUpAfterTheConfiguredReconnectAttemptsWithAClearError() throws Exception {
        Path file = FIXTURES.resolve("mysql-binlog-connector-java/mysql-bin.checksum-crc32");
        FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build().start();
        try (ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file("mysql-bin.checksum-crc32", 4))
                .maxReconnectAttempts(3).build()) {
            c.start();
            pollToEnd(c, "mysql-bin.checksum-crc32", Files.size(file));
            fake.close(); // the source goes away for good
            ReplicationException e = assertThrows(ReplicationException.class, () -> {
                while (true) {
                    c.poll(Duration.ofSeconds(10));
                }
            });
            assertEquals(ReplicationException.Kind.CONNECTION, e.kind());
            assertTrue(e.getMessage().contains("after 3 attempts"), e.getMessage());
        } finally {
            fake.close();
        }
    }

    @Test
    void servesFilesWithoutChecksums() throws Exception {
        Path file = FIXTURES.resolve("mysql-binlog-connector-java/mysql-bin.checksum-none");
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file("mysql-bin.checksum-none", 4))
                        .build()) {
            assertEquals("NONE", c.start().binlogChecksum());
            List<ReplicationEvent> got = pollToEnd(c, "mysql-bin.checksum-none", Files.size(file));
            assertStreamMatchesFiles(got, readEvents(file), null);
        }
    }

    @Test
    void followsSeveralFilesAcrossAStopAndAGzippedFile(@TempDir Path tmp) throws Exception {
        Path dir = FIXTURES.resolve("mariadb-poc/domain_id_0");
        Path first = dir.resolve("mariadb-repl-bin.000001");
        Path second = dir.resolve("mariadb-repl-bin.000002.gz");
        List<FileEvent> files = new ArrayList<>(readEvents(first));
        Path secondPlain = gunzip(second, tmp);
        files.addAll(readEvents(secondPlain));
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFiles(List.of(first, second))
                .password("pw".toCharArray()).build().start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file("mariadb-repl-bin.000001", 4))
                        .build()) {
            c.start();
            List<ReplicationEvent> got = pollToEnd(c, "mariadb-repl-bin.000002", Files.size(secondPlain));
            // the first file ends with a STOP event and no ROTATE: a synthetic ROTATE leads to the second
            assertTrue(got.stream().anyMatch(e -> e.isSynthetic() && e.eventType() == 4
                    && e.binlogFile().equals("mariadb-repl-bin.000002")));
            assertStreamMatchesFiles(got, files, null);
            assertEquals(mariaDbGtids(files), mariaDbGtids(got));
        }
    }
}
