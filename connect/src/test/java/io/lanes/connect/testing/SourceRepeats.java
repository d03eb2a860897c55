package io.lanes.connect.testing;

import io.lanes.connect.internal.ChangeEvent;
import io.lanes.connect.internal.ChangeEventReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * What a source that restarted mid-stream (Debezium's task moved by a rebalance) left in a topic: change events sent
 * more than once, and events whose {@code total_order} was given again to a different change (Debezium numbers a resent
 * transaction's events anew). A sink that identified events by {@code total_order} dropped the second of two such
 * events as a repeat, applying a transaction without one of its changes. Read with {@code read_committed} (the way the
 * sink must read) or {@code read_uncommitted} (what a sink reading aborted batches too would get). For the fault tests' report lines.
 *
 * @param events change events read
 * @param repeated events whose transaction and binlog place (file, pos, row) came before
 * @param renumbered events whose transaction and {@code total_order} came before with another binlog place
 * @param resentTransactions transactions with more than one END record
 * @param endlessTransactions transactions with change events but no END record (a source that resumed after their
 *     last event sends none)
 */
public record SourceRepeats(long events, long repeated, long renumbered, long resentTransactions,
        long endlessTransactions) {

    /** Scans every partition of {@code topic} from its beginning until three empty polls, at that isolation level. */
    public static SourceRepeats scan(EmbeddedConnectCluster connect, String topic, int partitions, String isolation) {
        JsonConverter json = new JsonConverter();
        json.configure(Map.of("schemas.enable", "true"), false);
        ChangeEventReader reader = new ChangeEventReader();
        Map<String, Object> props = new HashMap<>();
        props.put("isolation.level", isolation);
        props.put("auto.offset.reset", "earliest");
        long events = 0;
        long repeated = 0;
        long renumbered = 0;
        Set<String> places = new HashSet<>();
        Map<String, String> orders = new HashMap<>();
        Map<String, Integer> ends = new HashMap<>();
        Set<String> withEvents = new HashSet<>();
        try (var consumer = connect.kafka().createConsumer(props)) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                tps.add(new TopicPartition(topic, p));
            }
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            int idle = 0;
            while (idle < 3) {
                var batch = consumer.poll(Duration.ofMillis(500));
                idle = batch.isEmpty() ? idle + 1 : 0;
                for (var r : batch) {
                    SchemaAndValue v = json.toConnectData(topic, r.value());
                    ChangeEvent e = reader.read(new SinkRecord(topic, r.partition(), null, null, v.schema(), v.value(),
                            r.offset()));
                    if (e.kind() == ChangeEvent.Kind.END) {
                        ends.merge(e.transactionId(), 1, Integer::sum);
                    }
                    if (e.kind() != ChangeEvent.Kind.ROW || e.transactionId() == null) {
                        continue;
                    }
                    events++;
                    withEvents.add(e.transactionId());
                    if (!places.add(e.transactionId() + "@" + e.identity())) {
                        repeated++;
                    }
                    String before = orders.putIfAbsent(e.transactionId() + "#" + e.order(), e.identity());
                    if (before != null && !before.equals(e.identity())) {
                        renumbered++;
                    }
                }
            }
        }
        long resent = ends.values().stream().filter(n -> n > 1).count();
        withEvents.removeAll(ends.keySet());
        return new SourceRepeats(events, repeated, renumbered, resent, withEvents.size());
    }

    @Override
    public String toString() {
        return "source_events=" + events + " source_repeated=" + repeated + " source_renumbered=" + renumbered
                + " source_resent_transactions=" + resentTransactions + " source_endless_transactions="
                + endlessTransactions;
    }
}
