package io.lanes.connect.internal;

import java.util.Objects;

/**
 * What a sink checkpoint row records for a transaction: the Kafka offset to re-read from (the offset just past the
 * transaction's last record in its topic-partition) and the source position of the transaction (binlog file, position
 * and GTID as the change events gave them). Immutable.
 *
 * <p>Text form, stored as the engine's opaque position: {@code kafka=OFFSET FILE:POS gtid=GTID} (the source part may be
 * absent). The {@code gtid=} suffix keeps the applier's checkpoint row filling its {@code gtid_state} column.
 *
 * @param nextOffset the Kafka offset to resume at
 * @param source the transaction's place in the source's log, or {@link SourceOrder#NONE}
 */
public record KafkaPosition(long nextOffset, SourceOrder source) {
    private static final String PREFIX = "kafka=";

    public KafkaPosition {
        if (nextOffset < 0) {
            throw new IllegalArgumentException("negative Kafka offset " + nextOffset);
        }
        Objects.requireNonNull(source, "source");
    }

    /** Reads {@link #toString()}'s form. @throws IllegalArgumentException naming the text when it is not one */
    public static KafkaPosition parse(String text) {
        if (text == null || !text.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a Kafka sink position (kafka=OFFSET [FILE:POS] [gtid=GTID]): " + text);
        }
        int space = text.indexOf(' ');
        String offset = text.substring(PREFIX.length(), space < 0 ? text.length() : space);
        try {
            long next = Long.parseLong(offset);
            return new KafkaPosition(next, space < 0 ? SourceOrder.NONE : SourceOrder.parse(text.substring(space + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a Kafka sink position (bad offset): " + text, e);
        }
    }

    @Override
    public String toString() {
        String s = source.toString();
        return PREFIX + nextOffset + (s.isEmpty() ? "" : " " + s);
    }
}
