/**
 * The values the JDBC applier writes, and how they reach the target.
 *
 * <p>A row value handed to {@link io.lanes.applier.jdbc.ValueBinder} is {@code null} or one of: {@code Byte}, {@code Short},
 * {@code Integer}, {@code Long}, {@link java.math.BigInteger} (unsigned BIGINT above 2^63-1), {@link java.math.BigDecimal},
 * {@code Float}, {@code Double}, {@code Boolean}, {@code String}, {@code byte[]} (binary data, or text in a known charset),
 * {@link java.time.LocalDate}, {@link java.time.LocalDateTime}, {@link java.time.LocalTime}, {@link java.time.Instant}
 * (TIMESTAMP, a UTC instant), {@link java.time.Duration} (MySQL TIME, which may be negative or beyond 24 hours),
 * {@link io.lanes.applier.value.ZeroDate}, {@link io.lanes.applier.value.EnumValue},
 * {@link io.lanes.applier.value.SetValue}, {@link io.lanes.applier.value.BitValue},
 * {@link io.lanes.applier.value.JsonText} and {@code float[]} (VECTOR); and the decoder's own records for what
 * {@code java.time} cannot hold ({@link io.lanes.binlog.value.MysqlDate}, {@link io.lanes.binlog.value.MysqlDateTime}
 * as zero dates, {@link io.lanes.binlog.value.MysqlTime} as a Duration). So every value the binlog decoder produces
 * (see {@link io.lanes.binlog.value}) binds as is, except two that need the column's metadata: an ENUM index or SET
 * bitmask without member names (the bridge wraps them in {@link io.lanes.applier.value.EnumValue} /
 * {@link io.lanes.applier.value.SetValue}), and text as {@code byte[]} in a charset Java lacks.
 */
package io.lanes.applier.value;
