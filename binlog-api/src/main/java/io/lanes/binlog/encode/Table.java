package io.lanes.binlog.encode;

import io.lanes.binlog.ColumnDef;
import io.lanes.binlog.ColumnType;
import io.lanes.binlog.value.MysqlCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A table to write rows of with {@link BinlogWriter}: schema, name, columns (as a TABLE_MAP describes them) and primary
 * key. Build one with {@link #builder(String, String)}, whose column methods pick the type code and metadata a MySQL 8 /
 * MariaDB 10.11 server logs for that SQL type. Immutable.
 *
 * <pre>{@code
 * Table sbtest = Table.builder("db1", "sbtest1")
 *         .integer("id").notNull().primaryKey()
 *         .integer("k").notNull()
 *         .character("c", 120, Table.UTF8MB4).notNull()
 *         .character("pad", 60, Table.UTF8MB4).notNull()
 *         .build();
 * }</pre>
 *
 * @param primaryKey the primary key's column indexes in key order (may be empty)
 */
public record Table(String schema, String name, List<ColumnDef> columns, List<Integer> primaryKey) {
    /** utf8mb4_general_ci (45), MariaDB's default utf8mb4 collation. */
    public static final int UTF8MB4 = 45;
    /** utf8mb4_0900_ai_ci (255), MySQL 8's default collation. */
    public static final int UTF8MB4_0900 = 255;
    /** latin1_swedish_ci (8). */
    public static final int LATIN1 = 8;
    /** binary (63). */
    public static final int BINARY = MysqlCharsets.BINARY;

    public Table {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(name, "name");
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table needs columns");
        }
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).index() != i) {
                throw new IllegalArgumentException("column " + i + " has index " + columns.get(i).index());
            }
        }
        for (int k : primaryKey) {
            if (k < 0 || k >= columns.size()) {
                throw new IllegalArgumentException("primary key column " + k + " outside the table");
            }
        }
    }

    public static Builder builder(String schema, String name) {
        return new Builder(schema, name);
    }

    /** {@code schema.name}, unquoted. */
    public String qualifiedName() {
        return schema + "." + name;
    }

    /** The index of a column by name, or -1. */
    public int indexOf(String column) {
        for (ColumnDef c : columns) {
            if (column.equals(c.name())) {
                return c.index();
            }
        }
        return -1;
    }

    /**
     * Builds a {@link Table}. Each type method adds a nullable, signed, visible column; the modifiers ({@link #notNull()},
     * {@link #unsigned()}, {@link #primaryKey()}, {@link #invisible()}) apply to the column added last. Lengths are in
     * bytes, as the log records them (a CHAR(10) in utf8mb4 is 40 bytes). Not thread-safe.
     */
    public static final class Builder {
        private final String schema;
        private final String name;
        private final List<ColumnDef> columns = new ArrayList<>();
        private final List<Integer> primaryKey = new ArrayList<>();

        private Builder(String schema, String name) {
            this.schema = schema;
            this.name = name;
        }

        /** Adds a column as logged: type code and metadata exactly as in a TABLE_MAP (see {@link ColumnDef}). */
        public Builder column(String columnName, ColumnType type, int meta) {
            return column(columnName, type, meta, -1, null, null, -1, -1);
        }

        private Builder column(String columnName, ColumnType type, int meta, int charsetId, List<String> enums,
                List<String> sets, int geometry, int vector) {
            columns.add(new ColumnDef(columns.size(), type, meta, true, false, charsetId, columnName, enums, sets,
                    geometry, vector, true));
            return this;
        }

        /** Adds a column defined elsewhere (its index is replaced by its position here). */
        public Builder column(ColumnDef c) {
            columns.add(new ColumnDef(columns.size(), c.type(), c.meta(), c.nullable(), c.unsigned(), c.charsetId(),
                    c.name(), c.enumValues(), c.setValues(), c.geometryType(), c.vectorDimensions(), c.visible()));
            return this;
        }

        private Builder modifyLast(java.util.function.UnaryOperator<ColumnDef> f) {
            if (columns.isEmpty()) {
                throw new IllegalStateException("add a column first");
            }
            columns.set(columns.size() - 1, f.apply(columns.get(columns.size() - 1)));
            return this;
        }

        public Builder notNull() {
            return modifyLast(c -> new ColumnDef(c.index(), c.type(), c.meta(), false, c.unsigned(), c.charsetId(),
                    c.name(), c.enumValues(), c.setValues(), c.geometryType(), c.vectorDimensions(), c.visible()));
        }

        public Builder unsigned() {
            return modifyLast(c -> new ColumnDef(c.index(), c.type(), c.meta(), c.nullable(), true, c.charsetId(),
                    c.name(), c.enumValues(), c.setValues(), c.geometryType(), c.vectorDimensions(), c.visible()));
        }

        public Builder invisible() {
            return modifyLast(c -> new ColumnDef(c.index(), c.type(), c.meta(), c.nullable(), c.unsigned(),
                    c.charsetId(), c.name(), c.enumValues(), c.setValues(), c.geometryType(), c.vectorDimensions(),
                    false));
        }

        /** Appends the last column to the primary key (call in key order). */
        public Builder primaryKey() {
            if (columns.isEmpty()) {
                throw new IllegalStateException("add a column first");
            }
            primaryKey.add(columns.size() - 1);
            return this;
        }

        public Builder tinyint(String n) {
            return column(n, ColumnType.TINY, 0);
        }

        public Builder smallint(String n) {
            return column(n, ColumnType.SHORT, 0);
        }

        public Builder mediumint(String n) {
            return column(n, ColumnType.INT24, 0);
        }

        public Builder integer(String n) {
            return column(n, ColumnType.LONG, 0);
        }

        public Builder bigint(String n) {
            return column(n, ColumnType.LONGLONG, 0);
        }

        /** FLOAT (4-byte). */
        public Builder float32(String n) {
            return column(n, ColumnType.FLOAT, 4);
        }

        /** DOUBLE (8-byte). */
        public Builder float64(String n) {
            return column(n, ColumnType.DOUBLE, 8);
        }

        public Builder decimal(String n, int precision, int scale) {
            if (precision < 1 || precision > 65 || scale < 0 || scale > 30 || scale > precision) {
                throw new IllegalArgumentException("DECIMAL(" + precision + "," + scale + ")");
            }
            return column(n, ColumnType.NEWDECIMAL, precision << 8 | scale);
        }

        public Builder year(String n) {
            return column(n, ColumnType.YEAR, 0);
        }

        public Builder date(String n) {
            return column(n, ColumnType.DATE, 0);
        }

        /** TIME(fsp), logged as TIME2. */
        public Builder time(String n, int fsp) {
            return column(n, ColumnType.TIME2, checkFsp(fsp));
        }

        /** DATETIME(fsp), logged as DATETIME2. */
        public Builder datetime(String n, int fsp) {
            return column(n, ColumnType.DATETIME2, checkFsp(fsp));
        }

        /** TIMESTAMP(fsp), logged as TIMESTAMP2. */
        public Builder timestamp(String n, int fsp) {
            return column(n, ColumnType.TIMESTAMP2, checkFsp(fsp));
        }

        private static int checkFsp(int fsp) {
            if (fsp < 0 || fsp > 6) {
                throw new IllegalArgumentException("fractional seconds precision " + fsp);
            }
            return fsp;
        }

        /** BIT(bits), 1..64. */
        public Builder bit(String n, int bits) {
            if (bits < 1 || bits > 64) {
                throw new IllegalArgumentException("BIT(" + bits + ")");
            }
            return column(n, ColumnType.BIT, (bits / 8) << 8 | bits % 8);
        }

        /** ENUM, logged as STRING with real type ENUM; values decode as member names. */
        public Builder enumeration(String n, int charsetId, String... members) {
            int pack = members.length > 255 ? 2 : 1;
            return column(n, ColumnType.STRING, ColumnType.ENUM.code() << 8 | pack, charsetId,
                    Arrays.asList(members), null, -1, -1);
        }

        /** SET, logged as STRING with real type SET; values decode as comma-joined member names. */
        public Builder set(String n, int charsetId, String... members) {
            if (members.length > 64) {
                throw new IllegalArgumentException("a SET has at most 64 members");
            }
            int bytes = (members.length + 7) / 8;
            int pack = bytes > 4 ? 8 : Math.max(1, bytes);
            return column(n, ColumnType.STRING, ColumnType.SET.code() << 8 | pack, charsetId, null,
                    Arrays.asList(members), -1, -1);
        }

        /** CHAR of at most {@code maxBytes} (1..1020) bytes; use {@link #BINARY} for BINARY. */
        public Builder character(String n, int maxBytes, int charsetId) {
            if (maxBytes < 0 || maxBytes > 1020) {
                throw new IllegalArgumentException("CHAR of " + maxBytes + " bytes");
            }
            int typeByte = ColumnType.STRING.code() ^ ((maxBytes & 0x300) >> 4);
            return column(n, ColumnType.STRING, typeByte << 8 | (maxBytes & 0xff), charsetId, null, null, -1, -1);
        }

        /** VARCHAR of at most {@code maxBytes} bytes; use {@link #BINARY} for VARBINARY. */
        public Builder varchar(String n, int maxBytes, int charsetId) {
            if (maxBytes < 0 || maxBytes > 65535) {
                throw new IllegalArgumentException("VARCHAR of " + maxBytes + " bytes");
            }
            return column(n, ColumnType.VARCHAR, maxBytes, charsetId, null, null, -1, -1);
        }

        /**
         * A TEXT/BLOB family column: {@code lengthBytes} 1 (TINY), 2 (TEXT/BLOB), 3 (MEDIUM), 4 (LONG); charset
         * {@link #BINARY} for the BLOBs. Logged as type BLOB with the length size as metadata, as the servers do.
         */
        public Builder text(String n, int lengthBytes, int charsetId) {
            if (lengthBytes < 1 || lengthBytes > 4) {
                throw new IllegalArgumentException("length prefix of " + lengthBytes + " bytes");
            }
            return column(n, ColumnType.BLOB, lengthBytes, charsetId, null, null, -1, -1);
        }

        /** BLOB (64 KiB). */
        public Builder blob(String n) {
            return text(n, 2, BINARY);
        }

        /** MySQL's binary JSON (type 245); values are JSON text. MariaDB's JSON is a LONGTEXT: use {@link #text}. */
        public Builder json(String n) {
            return column(n, ColumnType.JSON, 4);
        }

        /** GEOMETRY; values are the stored bytes (SRID + WKB). {@code geometryType} -1 when unknown. */
        public Builder geometry(String n, int geometryType) {
            return column(n, ColumnType.GEOMETRY, 4, BINARY, null, null, geometryType, -1);
        }

        /** MySQL 9 VECTOR of {@code dimensions} floats; values are {@code float[]}. */
        public Builder vector(String n, int dimensions) {
            return column(n, ColumnType.VECTOR, 4, -1, null, null, -1, dimensions);
        }

        public Table build() {
            return new Table(schema, name, columns, primaryKey);
        }
    }
}
