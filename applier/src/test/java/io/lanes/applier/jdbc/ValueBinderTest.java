package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.Dialect.Kind;
import io.lanes.applier.testing.TestTarget;
import io.lanes.applier.value.BitValue;
import io.lanes.applier.value.EnumValue;
import io.lanes.applier.value.JsonText;
import io.lanes.applier.value.SetValue;
import io.lanes.applier.value.ValueConversionException;
import io.lanes.applier.value.ZeroDate;
import io.lanes.applier.value.ZeroDatePolicy;
import io.lanes.binlog.value.MysqlDate;
import io.lanes.binlog.value.MysqlDateTime;
import io.lanes.binlog.value.MysqlTime;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every conversion written through {@link ValueBinder} into a real column of each target and read back. */
class ValueBinderTest {

    @FunctionalInterface
    interface Reader {
        Object read(ResultSet rs, String column) throws SQLException;
    }

    /** One column: its type per target, the value written, how to read it back, the value expected back. */
    record Case(String name, Map<Kind, String> types, Object value, Reader reader, Object expected) {
        static Case of(String name, String h2, String pg, String mysql, Object value, Reader reader, Object expected) {
            return new Case(name, Map.of(Kind.H2, h2, Kind.POSTGRESQL, pg, Kind.MYSQL, mysql), value, reader, expected);
        }
    }

    static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    static Reader string() {
        return ResultSet::getString;
    }

    static Reader bigDecimal() {
        return (rs, c) -> rs.getBigDecimal(c).stripTrailingZeros();
    }

    static Reader object(Class<?> type) {
        return (rs, c) -> rs.getObject(c, type);
    }

    static Reader jsonWithoutSpaces() {
        return (rs, c) -> rs.getString(c).replace(" ", "");
    }

    static List<Case> cases(Kind kind) {
        List<Case> cases = new ArrayList<>(List.of(
                Case.of("bigint_max", "BIGINT", "bigint", "BIGINT", Long.MAX_VALUE, (rs, c) -> rs.getLong(c), Long.MAX_VALUE),
                Case.of("bigint_min", "BIGINT", "bigint", "BIGINT", Long.MIN_VALUE, (rs, c) -> rs.getLong(c), Long.MIN_VALUE),
                Case.of("u64_max", "DECIMAL(20)", "numeric(20)", "BIGINT UNSIGNED", U64_MAX, bigDecimal(),
                        new BigDecimal(U64_MAX)),
                Case.of("u64_small", "DECIMAL(20)", "numeric(20)", "BIGINT UNSIGNED", BigInteger.valueOf(7), bigDecimal(),
                        BigDecimal.valueOf(7)),
                Case.of("u32_max", "BIGINT", "bigint", "INT UNSIGNED", 4294967295L, (rs, c) -> rs.getLong(c), 4294967295L),
                Case.of("int_into_decimal", "DECIMAL(12,2)", "numeric(12,2)", "DECIMAL(12,2)", 42, bigDecimal(),
                        new BigDecimal("42").stripTrailingZeros()),
                Case.of("decimal", "DECIMAL(20,6)", "numeric(20,6)", "DECIMAL(20,6)", new BigDecimal("-12345678901234.567890"),
                        bigDecimal(), new BigDecimal("-12345678901234.56789")),
                Case.of("float", "REAL", "real", "FLOAT", 2.5f, (rs, c) -> rs.getFloat(c), 2.5f),
                Case.of("float_into_double", "DOUBLE PRECISION", "double precision", "DOUBLE", 3.14159f,
                        (rs, c) -> rs.getDouble(c), 3.14159d),
                Case.of("double_min", "DOUBLE PRECISION", "double precision", "DOUBLE", -1e308, (rs, c) -> rs.getDouble(c),
                        -1e308),
                Case.of("bool", "BOOLEAN", "boolean", "TINYINT(1)", Boolean.TRUE, (rs, c) -> rs.getBoolean(c), true),
                Case.of("year", "SMALLINT", "smallint", "YEAR", 2155, (rs, c) -> rs.getInt(c), 2155),
                Case.of("date_min", "DATE", "date", "DATE", LocalDate.of(1, 1, 1), object(LocalDate.class),
                        LocalDate.of(1, 1, 1)),
                Case.of("date_max", "DATE", "date", "DATE", LocalDate.of(9999, 12, 31), object(LocalDate.class),
                        LocalDate.of(9999, 12, 31)),
                Case.of("datetime6", "TIMESTAMP(6)", "timestamp(6)", "DATETIME(6)",
                        LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000), object(LocalDateTime.class),
                        LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000)),
                Case.of("midnight_into_date", "DATE", "date", "DATE", LocalDateTime.of(2000, 2, 29, 0, 0),
                        object(LocalDate.class), LocalDate.of(2000, 2, 29)),
                Case.of("time3", "TIME(3)", "time(3)", "TIME(3)", Duration.parse("PT7H8M9.123S"), object(LocalTime.class),
                        LocalTime.of(7, 8, 9, 123_000_000)),
                Case.of("localtime", "TIME", "time", "TIME", LocalTime.of(23, 59, 59), object(LocalTime.class),
                        LocalTime.of(23, 59, 59)),
                Case.of("zero_date_null", "DATE", "date", "DATE", new ZeroDate("0000-00-00"), object(LocalDate.class), null),
                Case.of("null_int", "INT", "integer", "INT", null, object(Integer.class), null),
                Case.of("null_json", "JSON", "jsonb", "JSON", null, string(), null),
                Case.of("binary", "VARBINARY(16)", "bytea", "VARBINARY(16)", HexFormat.of().parseHex("deadbeef00ff"),
                        (rs, c) -> HexFormat.of().formatHex(rs.getBytes(c)), "deadbeef00ff"),
                Case.of("blob_70000", "BLOB", "bytea", "MEDIUMBLOB", "x".repeat(70000).getBytes(StandardCharsets.US_ASCII),
                        (rs, c) -> rs.getBytes(c).length, 70000),
                Case.of("text", "VARCHAR(100)", "varchar(100)", "VARCHAR(100)", "Ann O'Neil \\ \"q\" '); DROP TABLE x; --",
                        string(), "Ann O'Neil \\ \"q\" '); DROP TABLE x; --"),
                Case.of("text_emoji", "VARCHAR(20)", "varchar(20)", "VARCHAR(20)", "Bjørn 🚀", string(), "Bjørn 🚀"),
                Case.of("long_text", "CLOB", "text", "LONGTEXT", "long".repeat(3000), (rs, c) -> rs.getString(c).length(),
                        12000),
                Case.of("json_doc", "JSON", "jsonb", "JSON", new JsonText("{\"k\":[1,2,{\"z\":null}]}"), jsonWithoutSpaces(),
                        "{\"k\":[1,2,{\"z\":null}]}"),
                Case.of("json_string", "JSON", "jsonb", "JSON", new JsonText("\"str\""), string(), "\"str\""),
                Case.of("json_into_text", "CLOB", "text", "LONGTEXT", new JsonText("[true,false,1.5e10]"), string(),
                        "[true,false,1.5e10]"),
                Case.of("bit5", "BIGINT", "bit(5)", "BIT(5)", new BitValue(0b10101, 5),
                        kind == Kind.POSTGRESQL ? string() : (rs, c) -> rs.getLong(c), kind == Kind.POSTGRESQL ? "10101" : 21L),
                Case.of("bit5_zero", "BIGINT", "bit(5)", "BIT(5)", new BitValue(0, 5),
                        kind == Kind.POSTGRESQL ? string() : (rs, c) -> rs.getLong(c), kind == Kind.POSTGRESQL ? "00000" : 0L),
                Case.of("bit1_bool", "BOOLEAN", "boolean", "BIT(1)", new BitValue(1, 1), (rs, c) -> rs.getBoolean(c), true),
                Case.of("bit_into_binary", "VARBINARY(8)", "bytea", "VARBINARY(8)", new BitValue(0x1ff, 9),
                        (rs, c) -> HexFormat.of().formatHex(rs.getBytes(c)), "01ff"),
                Case.of("enum", "ENUM('free','pro','ent')", "text", "ENUM('free','pro','ent')", new EnumValue(2, "pro"),
                        string(), "pro"),
                Case.of("set", "VARCHAR(20)", "text", "SET('a','b','c')", new SetValue(0b101, List.of("a", "b", "c")),
                        string(), "a,c"),
                Case.of("set_empty", "VARCHAR(20)", "text", "SET('a','b','c')", new SetValue(0, List.of("a", "b", "c")),
                        string(), ""),
                Case.of("vector_binary", "VARBINARY(12)", "bytea", "VARBINARY(12)", new float[] {1.5f, -2f, 3.25f},
                        (rs, c) -> HexFormat.of().formatHex(rs.getBytes(c)), littleEndianHex(1.5f, -2f, 3.25f)),
                Case.of("vector_text", "VARCHAR(40)", "text", "VARCHAR(40)", new float[] {1.5f, -2f}, string(),
                        "[1.5,-2.0]")));
        cases.add(Case.of("decoder_zero_date", "DATE", "date", "DATE", MysqlDate.ZERO, object(LocalDate.class), null));
        cases.add(Case.of("decoder_zero_datetime", "TIMESTAMP", "timestamp", "DATETIME", MysqlDateTime.zero(0),
                object(LocalDateTime.class), null));
        cases.add(Case.of("decoder_time", "TIME(3)", "time(3)", "TIME(3)", new MysqlTime(false, 7, 8, 9, 123000, 3),
                object(LocalTime.class), LocalTime.of(7, 8, 9, 123_000_000)));
        byte[] latin1 = "Bjørn".getBytes(StandardCharsets.ISO_8859_1);
        cases.add(Case.of("bytes_into_text", "VARCHAR(20)", "varchar(20)", "VARCHAR(20)", latin1, string(), "Bjørn"));
        switch (kind) {
            case H2 -> {
                cases.add(Case.of("time_negative", "INTERVAL HOUR(3) TO SECOND(6)", "", "", Duration.parse("-PT838H59M59S"),
                        object(Duration.class), Duration.parse("-PT838H59M59S")));
                cases.add(Case.of("decoder_time_negative", "INTERVAL HOUR(3) TO SECOND(6)", "", "",
                        new MysqlTime(true, 838, 59, 59, 0, 0), object(Duration.class), Duration.parse("-PT838H59M59S")));
                cases.add(Case.of("time_fraction", "INTERVAL HOUR(3) TO SECOND(6)", "", "", Duration.parse("PT838H59M59.999S"),
                        object(Duration.class), Duration.parse("PT838H59M59.999S")));
                cases.add(Case.of("vector_array", "REAL ARRAY", "", "", new float[] {1.5f, -2f}, ValueBinderTest::floats,
                        List.of(1.5f, -2f)));
                cases.add(Case.of("instant_tz", "TIMESTAMP(3) WITH TIME ZONE", "", "", Instant.parse("2038-01-19T03:14:07.5Z"),
                        (rs, c) -> rs.getObject(c, OffsetDateTime.class).toInstant(), Instant.parse("2038-01-19T03:14:07.5Z")));
            }
            case POSTGRESQL -> {
                cases.add(Case.of("time_negative", "", "interval(6)", "", Duration.parse("-PT838H59M59S"), string(),
                        "-838:59:59"));
                cases.add(Case.of("decoder_time_negative", "", "interval(6)", "", new MysqlTime(true, 838, 59, 59, 0, 0),
                        string(), "-838:59:59"));
                cases.add(Case.of("time_fraction", "", "interval(6)", "", Duration.parse("PT838H59M59.999S"), string(),
                        "838:59:59.999"));
                cases.add(Case.of("vector_array", "", "real[]", "", new float[] {1.5f, -2f}, ValueBinderTest::floats,
                        List.of(1.5f, -2f)));
                cases.add(Case.of("instant_tz", "", "timestamp(3) with time zone", "", Instant.parse("2038-01-19T03:14:07.5Z"),
                        (rs, c) -> rs.getObject(c, OffsetDateTime.class).toInstant(), Instant.parse("2038-01-19T03:14:07.5Z")));
                cases.add(Case.of("varbit", "", "bit varying(64)", "", new BitValue(0b101, 3), string(), "101"));
            }
            case MYSQL -> {
                cases.add(Case.of("time_negative", "", "", "TIME", Duration.parse("-PT838H59M59S"), string(), "-838:59:59"));
                cases.add(Case.of("decoder_time_negative", "", "", "TIME(6)", new MysqlTime(true, 838, 59, 59, 5, 6),
                        string(), "-838:59:59.000005"));
                cases.add(Case.of("time_fraction", "", "", "TIME(3)", Duration.parse("PT838H59M59.999S"), string(),
                        "838:59:59.999"));
                cases.add(Case.of("instant_timestamp", "", "", "TIMESTAMP(3) NULL", Instant.parse("2038-01-19T03:14:07.5Z"),
                        object(LocalDateTime.class), LocalDateTime.of(2038, 1, 19, 3, 14, 7, 500_000_000)));
                cases.add(Case.of("enum_index_only", "", "", "ENUM('free','pro','ent')", new EnumValue(3, null), string(),
                        "ent"));
                cases.add(Case.of("set_bits_only", "", "", "SET('a','b','c')", new SetValue(0b110, null), string(), "b,c"));
                cases.add(Case.of("bit64", "", "", "BIT(64)", new BitValue(-1L, 64), (rs, c) -> rs.getLong(c), -1L));
                // Read as signed without SIGNEDNESS metadata: the UNSIGNED column gets the unsigned value back.
                cases.add(Case.of("tiny_unsigned", "", "", "TINYINT UNSIGNED", -1, (rs, c) -> rs.getInt(c), 255));
                cases.add(Case.of("int_unsigned", "", "", "INT UNSIGNED", -2, (rs, c) -> rs.getLong(c), 4294967294L));
                cases.add(Case.of("bigint_unsigned", "", "", "BIGINT UNSIGNED", -1L, bigDecimal(), new BigDecimal(U64_MAX)));
            }
            default -> throw new AssertionError(kind);
        }
        return cases;
    }

    static Object floats(ResultSet rs, String column) throws SQLException {
        Array array = rs.getArray(column);
        List<Float> out = new ArrayList<>();
        for (Object o : (Object[]) array.getArray()) {
            out.add(((Number) o).floatValue());
        }
        return out;
    }

    static String littleEndianHex(float... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : values) {
            b.putFloat(f);
        }
        return HexFormat.of().formatHex(b.array());
    }

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void everyConversionIsWrittenAndReadBack(TestTarget target) throws SQLException {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema();
            List<Case> cases = cases(d.kind());
            StringBuilder ddl = new StringBuilder("CREATE TABLE " + d.qualify(schema, "v") + " (id INT PRIMARY KEY");
            for (Case c : cases) {
                ddl.append(", ").append(d.quoteIdentifier(c.name())).append(' ').append(c.types().get(d.kind()));
            }
            ddl.append(')');
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                s.execute(ddl.toString());
                c.commit();
                TargetTable table = new TargetCatalog(d).table(c, schema, "v");
                ValueBinder binder = new ValueBinder(d);
                RowSql insert = d.insert(table);
                try (PreparedStatement ps = c.prepareStatement(insert.sql())) {
                    for (int i = 0; i < insert.parameters().size(); i++) {
                        TargetColumn column = insert.parameters().get(i);
                        Object value = column.name().equals("id") ? 1 : find(cases, column.name()).value();
                        binder.bind(ps, i + 1, column, value,
                                column.name().equals("bytes_into_text") ? StandardCharsets.ISO_8859_1 : null);
                    }
                    assertEquals(1, ps.executeUpdate());
                }
                c.commit();
                try (ResultSet rs = s.executeQuery("SELECT * FROM " + d.qualify(schema, "v"))) {
                    assertTrue(rs.next());
                    List<String> mismatches = new ArrayList<>();
                    for (Case k : cases) {
                        Object actual = k.reader().read(rs, k.name());
                        if (k.expected() == null ? actual != null : !k.expected().equals(actual)) {
                            mismatches.add(k.name() + ": expected " + k.expected() + " but read " + actual);
                        }
                    }
                    assertEquals(List.of(), mismatches, d.kind() + " conversions");
                }
            }
        }
    }

    private static Case find(List<Case> cases, String name) {
        return cases.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void valuesTheColumnCannotHoldAreTypedErrorsNamingTheColumn(TestTarget target) throws SQLException {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema();
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                String timeType = d.kind() == Kind.MYSQL ? "DATETIME" : "TIME";
                s.execute("CREATE TABLE " + d.qualify(schema, "e") + " (id INT PRIMARY KEY, big BIGINT, t " + timeType
                        + ", d DATE NOT NULL, label VARCHAR(10))");
                c.commit();
                TargetTable table = new TargetCatalog(d).table(c, schema, "e");
                RowSql insert = d.insert(table);
                try (PreparedStatement ps = c.prepareStatement(insert.sql())) {
                    ValueBinder binder = new ValueBinder(d);
                    ValueConversionException tooBig = assertThrows(ValueConversionException.class,
                            () -> binder.bind(ps, 2, table.column("big"), U64_MAX));
                    assertTrue(tooBig.getMessage().contains("column big") && tooBig.getMessage().contains("18446744073709551615"),
                            tooBig.getMessage());
                    if (d.kind() != Kind.MYSQL) {
                        ValueConversionException negative = assertThrows(ValueConversionException.class,
                                () -> binder.bind(ps, 3, table.column("t"), Duration.ofHours(-1)));
                        assertTrue(negative.getMessage().contains("-1:00:00"), negative.getMessage());
                    } else {
                        assertThrows(ValueConversionException.class,
                                () -> binder.bind(ps, 3, table.column("t"), Duration.ofHours(-1)));
                    }
                    ValueConversionException noNames = assertThrows(ValueConversionException.class,
                            () -> binder.bind(ps, 5, table.column("label"), new EnumValue(2, null)));
                    assertTrue(noNames.getMessage().contains("binlog_row_metadata=FULL"), noNames.getMessage());

                    ValueBinder strict = new ValueBinder(d, ConversionOptions.DEFAULTS.withZeroDates(ZeroDatePolicy.ERROR));
                    if (d.kind() != Kind.MYSQL) {
                        ValueConversionException zero = assertThrows(ValueConversionException.class,
                                () -> strict.bind(ps, 4, table.column("d"), new ZeroDate("0000-00-00")));
                        assertTrue(zero.getMessage().contains("column d"), zero.getMessage());
                    } else {
                        // MySQL/MariaDB hold zero dates: written as they are whatever the policy
                        strict.bind(ps, 4, table.column("d"), new ZeroDate("0000-00-00"));
                    }

                    // TO_NULL into a NOT NULL column: the target itself refuses the row (MySQL gets the zero date).
                    binder.bind(ps, 1, table.column("id"), 1);
                    binder.bind(ps, 2, table.column("big"), 1L);
                    binder.bind(ps, 3, table.column("t"), null);
                    binder.bind(ps, 4, table.column("d"), new ZeroDate("0000-00-00"));
                    binder.bind(ps, 5, table.column("label"), "x");
                    if (d.kind() != Kind.MYSQL) {
                        assertThrows(SQLException.class, ps::executeUpdate);
                    } else {
                        assertEquals(1, ps.executeUpdate());
                    }
                }
                c.rollback();
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + d.qualify(schema, "e"))) {
                    rs.next();
                    assertEquals(0, rs.getInt(1));
                }
            }
        }
    }
}
