/**
 * The Java values that row events carry, one lossless type per column type, and their text forms.
 *
 * <p>{@code io.lanes.binlog.internal.ColumnValueDecoder} produces these values from row images; NULL is always Java
 * {@code null}. Where {@code java.time} can hold a value it is used; the few values it cannot hold (zero dates, TIME
 * outside a day) come as the small records of this package, whose {@code toString()} is exactly MySQL's text.
 *
 * <table class="striped">
 * <caption>Column type to Java type</caption>
 * <thead><tr><th>Column type (TABLE_MAP code)</th><th>Java type</th><th>Notes</th></tr></thead>
 * <tbody>
 * <tr><td>TINYINT, SMALLINT, MEDIUMINT (1, 2, 9), signed or unsigned; INT (3) signed</td><td>{@link Integer}</td>
 *     <td>unsigned when TABLE_MAP's SIGNEDNESS metadata says so (else read as signed: the bits are kept, the
 *     applier must know the column is unsigned)</td></tr>
 * <tr><td>INT UNSIGNED (3)</td><td>{@link Long}</td><td>0..4294967295</td></tr>
 * <tr><td>BIGINT (8) signed</td><td>{@link Long}</td><td></td></tr>
 * <tr><td>BIGINT UNSIGNED (8)</td><td>{@link java.math.BigInteger}</td><td>0..18446744073709551615</td></tr>
 * <tr><td>FLOAT (4), DOUBLE (5)</td><td>{@link Float}, {@link Double}</td><td>bit-exact</td></tr>
 * <tr><td>DECIMAL (246, NEWDECIMAL)</td><td>{@link java.math.BigDecimal}</td><td>exact, scale = the column's scale
 *     ({@code 12.50} stays {@code 12.50}); the pre-5.0 DECIMAL (0) cannot be decoded (its size is not logged)</td></tr>
 * <tr><td>YEAR (13)</td><td>{@link Integer}</td><td>1901..2155, or 0 for the zero year {@code 0000}</td></tr>
 * <tr><td>DATE (10, 14)</td><td>{@link java.time.LocalDate}, or {@link MysqlDate}</td><td>MysqlDate for
 *     {@code 0000-00-00}, zero month/day, or a day past the month's end</td></tr>
 * <tr><td>TIME (11, 19 TIME2)</td><td>{@link java.time.LocalTime}, or {@link MysqlTime}</td><td>LocalTime for
 *     {@code 00:00:00 <= t < 24:00:00}; MysqlTime for negative values and 24 hours and more</td></tr>
 * <tr><td>DATETIME (12, 18 DATETIME2)</td><td>{@link java.time.LocalDateTime}, or {@link MysqlDateTime}</td>
 *     <td>MysqlDateTime for zero and partly-zero or impossible calendar dates</td></tr>
 * <tr><td>TIMESTAMP (7, 17 TIMESTAMP2)</td><td>{@link java.time.Instant}, or {@link MysqlDateTime}</td><td>the
 *     logged UTC instant; the zero timestamp {@code 0000-00-00 00:00:00} is {@code MysqlDateTime.zero(fsp)}</td></tr>
 * <tr><td>BIT(n) (16)</td><td>{@link Long}</td><td>the n bits right-aligned; BIT(64) may be negative (raw two's
 *     complement of the 64 bits)</td></tr>
 * <tr><td>ENUM (247, or 254 with real type ENUM)</td><td>{@link String} member name, or {@link Integer} index</td>
 *     <td>the name when TABLE_MAP carries ENUM_STR_VALUE metadata ({@code ""} for the server's invalid-value index 0),
 *     else the 1-based index</td></tr>
 * <tr><td>SET (248, or 254 with real type SET)</td><td>{@link String} {@code "a,c"}, or {@link Long} bitmask</td>
 *     <td>names joined by commas in member order when SET_STR_VALUE metadata is present, else the bitmask</td></tr>
 * <tr><td>CHAR, VARCHAR, TEXT (254, 15, 253, 252 and 249..251)</td><td>{@link String}, or {@code byte[]}</td>
 *     <td>String when the column's collation is known (COLUMN_CHARSET metadata) and Java has its character set and the
 *     bytes are valid in it and, for legacy code pages, encode back to the same bytes (see {@link MysqlCharsets});
 *     {@code byte[]} otherwise. CHAR values are as logged: the
 *     server strips trailing pad spaces</td></tr>
 * <tr><td>BINARY, VARBINARY, BLOB (charset 63)</td><td>{@code byte[]}</td><td>BINARY values are as logged: the
 *     server strips trailing 0x00 pad bytes</td></tr>
 * <tr><td>MariaDB VARCHAR/TEXT/BLOB ... COMPRESSED (141, 140)</td><td>{@link String}, or {@code byte[]}</td>
 *     <td>as their uncompressed types, decompressed</td></tr>
 * <tr><td>JSON (245, MySQL)</td><td>{@link String}</td><td>the server's JSON text, see
 *     {@link io.lanes.binlog.json.JsonBinary}; MariaDB's JSON is a LONGTEXT and comes as text</td></tr>
 * <tr><td>GEOMETRY (255)</td><td>{@code byte[]}</td><td>as stored: 4-byte SRID then WKB</td></tr>
 * <tr><td>VECTOR (242, MySQL 9)</td><td>{@code float[]}</td><td>little-endian float32 elements</td></tr>
 * </tbody>
 * </table>
 *
 * <p>MariaDB's TIME(n)/DATETIME(n)/TIMESTAMP(n) written with {@code mysql56_temporal_format=OFF} are logged as types 11,
 * 12 and 7 without their precision, so the log alone cannot be decoded; given the precision as metadata (from the
 * schema) they decode to the same Java types as TIME2/DATETIME2/TIMESTAMP2.
 *
 * <p>{@link BinlogValueText} prints these values the way {@code mariadb-binlog -v} prints row images, and as SQL
 * literals that store the same value again.
 */
package io.lanes.binlog.value;
