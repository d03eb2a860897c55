package io.lanes.connect.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.value.BitValue;
import io.lanes.applier.value.JsonText;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.Test;

/** Debezium's MySQL/MariaDB value forms, as its documentation lists them, into Lanes' applier values. */
class ConnectValuesTest {
    private static Schema logical(Schema base, String name) {
        return SchemaBuilder.type(base.type()).name(name).build();
    }

    @Test
    void debeziumTemporalTypesBecomeJavaTime() {
        assertEquals(LocalDate.of(2024, 2, 29), ConnectValues.toLanes("d", logical(Schema.INT32_SCHEMA, "io.debezium.time.Date"),
                (int) LocalDate.of(2024, 2, 29).toEpochDay()));
        assertEquals(LocalDateTime.of(2024, 1, 1, 0, 0, 0, 123_000_000), ConnectValues.toLanes("t",
                logical(Schema.INT64_SCHEMA, "io.debezium.time.Timestamp"), 1_704_067_200_123L));
        assertEquals(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000), ConnectValues.toLanes("t",
                logical(Schema.INT64_SCHEMA, "io.debezium.time.MicroTimestamp"), -1L));
        assertEquals(Instant.parse("2024-01-01T10:00:00.5Z"), ConnectValues.toLanes("ts",
                logical(Schema.STRING_SCHEMA, "io.debezium.time.ZonedTimestamp"), "2024-01-01T10:00:00.5Z"));
        assertEquals(Duration.ofHours(-838).minusSeconds(59 * 60 + 59), ConnectValues.toLanes("tm",
                logical(Schema.INT64_SCHEMA, "io.debezium.time.MicroTime"), -(838L * 3600 + 59 * 60 + 59) * 1_000_000L));
    }

    @Test
    void decimalsBytesBitsAndJsonKeepTheirValue() {
        Schema dec = Decimal.schema(2);
        assertEquals(new BigDecimal("12.50"), ConnectValues.toLanes("a", dec, new BigDecimal("12.50")));
        assertArrayEquals(new byte[] {1, 2}, (byte[]) ConnectValues.toLanes("b", Schema.BYTES_SCHEMA, ByteBuffer.wrap(new byte[] {1, 2})));
        Schema bits = SchemaBuilder.bytes().name("io.debezium.data.Bits").parameter("length", "12").build();
        assertEquals(new BitValue(0x0A01, 12), ConnectValues.toLanes("bits", bits, new byte[] {0x01, 0x0A}));
        assertEquals(new JsonText("{\"a\":1}"), ConnectValues.toLanes("j", logical(Schema.STRING_SCHEMA, "io.debezium.data.Json"), "{\"a\":1}"));
    }

    @Test
    void anUnknownLogicalTypeIsRefusedNamingTheColumn() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConnectValues.toLanes("geo",
                logical(Schema.BYTES_SCHEMA, "io.debezium.data.geometry.Geometry"), new byte[0]));
        assertTrue(e.getMessage().contains("geo") && e.getMessage().contains("Geometry"), e.getMessage());
    }
}
