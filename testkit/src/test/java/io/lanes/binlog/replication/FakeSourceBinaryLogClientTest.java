package io.lanes.binlog.replication;

import static io.lanes.binlog.replication.ReplicationTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lanes.testkit.FakeBinlogServer;
import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import io.lanes.testkit.FakeBinlogServer.AuthMethod;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Another implementation of the replica side, mysql-binlog-connector-java's BinaryLogClient, against the fake source:
 * its authentication (native, caching_sha2) and checksum negotiation are accepted, and it receives every event of the
 * file at the file's positions. This checks the fake (and the scramble checks it shares with the client) against code
 * written by others.
 */
class FakeSourceBinaryLogClientTest {

    static void streamWith(AuthMethod method) throws Exception {
        Path file = Path.of("src/test/resources/binlogs/mysql-binlog-connector-java/mysql-bin.checksum-crc32");
        List<FileEvent> expected = readEvents(file);
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).user("other")
                .password("0ther-pw".toCharArray()).authMethod(method).cachingSha2Cached(true).build().start()) {
            BinaryLogClient client = new BinaryLogClient("127.0.0.1", fake.port(), "other", "0ther-pw");
            client.setServerId(31);
            client.setBinlogFilename("mysql-bin.checksum-crc32");
            client.setBinlogPosition(4);
            client.setKeepAlive(false);
            EventDeserializer d = new EventDeserializer();
            d.setCompatibilityMode(EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
            client.setEventDeserializer(d);
            List<Event> events = new CopyOnWriteArrayList<>();
            client.registerEventListener(events::add);
            client.connect(10_000);
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (events.stream().filter(e -> ((EventHeaderV4) e.getHeader()).getNextPosition() != 0).count()
                        < expected.size()) {
                    assertTrue(System.nanoTime() < deadline, "got " + events.size() + " events");
                    Thread.sleep(20);
                }
            } finally {
                client.disconnect();
            }
            List<Long> positions = events.stream().map(e -> (EventHeaderV4) e.getHeader())
                    .filter(h -> h.getNextPosition() != 0).map(EventHeaderV4::getPosition).toList();
            assertEquals(expected.stream().map(FileEvent::position).toList(), positions);
        }
    }

    @Test
    void binaryLogClientStreamsWithNativePassword() throws Exception {
        streamWith(AuthMethod.MYSQL_NATIVE_PASSWORD);
    }

    @Test
    void binaryLogClientStreamsWithCachingSha2FastPath() throws Exception {
        streamWith(AuthMethod.CACHING_SHA2_PASSWORD);
    }
}
