package io.lanes.applier.schema;

import io.lanes.binlog.ColumnType;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Which logged column types a definition's type can produce, to refuse a definition that is not the one a row event was
 * logged with. Types this table does not list (MariaDB's INET6, UUID and other plugin types) are not checked.
 */
public final class LoggedTypes {
    private static final Set<ColumnType> BLOBS = EnumSet.of(ColumnType.BLOB, ColumnType.TINY_BLOB,
            ColumnType.MEDIUM_BLOB, ColumnType.LONG_BLOB, ColumnType.BLOB_COMPRESSED);
    private static final Set<ColumnType> VARCHARS = EnumSet.of(ColumnType.VARCHAR, ColumnType.VAR_STRING,
            ColumnType.VARCHAR_COMPRESSED);
    private static final Set<ColumnType> GEOMETRY = EnumSet.of(ColumnType.GEOMETRY);
    private static final Map<String, Set<ColumnType>> BY_TYPE = Map.ofEntries(
            Map.entry("tinyint", EnumSet.of(ColumnType.TINY)),
            Map.entry("smallint", EnumSet.of(ColumnType.SHORT)),
            Map.entry("mediumint", EnumSet.of(ColumnType.INT24)),
            Map.entry("int", EnumSet.of(ColumnType.LONG)),
            Map.entry("bigint", EnumSet.of(ColumnType.LONGLONG)),
            Map.entry("float", EnumSet.of(ColumnType.FLOAT)),
            Map.entry("double", EnumSet.of(ColumnType.DOUBLE)),
            Map.entry("decimal", EnumSet.of(ColumnType.NEWDECIMAL, ColumnType.DECIMAL)),
            Map.entry("year", EnumSet.of(ColumnType.YEAR)),
            Map.entry("date", EnumSet.of(ColumnType.DATE, ColumnType.NEWDATE)),
            Map.entry("time", EnumSet.of(ColumnType.TIME, ColumnType.TIME2)),
            Map.entry("datetime", EnumSet.of(ColumnType.DATETIME, ColumnType.DATETIME2)),
            Map.entry("timestamp", EnumSet.of(ColumnType.TIMESTAMP, ColumnType.TIMESTAMP2)),
            Map.entry("bit", EnumSet.of(ColumnType.BIT)),
            Map.entry("enum", EnumSet.of(ColumnType.ENUM)),
            Map.entry("set", EnumSet.of(ColumnType.SET)),
            Map.entry("char", EnumSet.of(ColumnType.STRING)),
            Map.entry("binary", EnumSet.of(ColumnType.STRING)),
            Map.entry("varchar", VARCHARS),
            Map.entry("varbinary", VARCHARS),
            Map.entry("tinytext", BLOBS), Map.entry("text", BLOBS), Map.entry("mediumtext", BLOBS),
            Map.entry("longtext", BLOBS), Map.entry("tinyblob", BLOBS), Map.entry("blob", BLOBS),
            Map.entry("mediumblob", BLOBS), Map.entry("longblob", BLOBS),
            Map.entry("json", EnumSet.of(ColumnType.JSON, ColumnType.BLOB, ColumnType.LONG_BLOB,
                    ColumnType.BLOB_COMPRESSED)), // MariaDB's JSON is LONGTEXT
            Map.entry("geometry", GEOMETRY), Map.entry("point", GEOMETRY), Map.entry("linestring", GEOMETRY),
            Map.entry("polygon", GEOMETRY), Map.entry("multipoint", GEOMETRY),
            Map.entry("multilinestring", GEOMETRY), Map.entry("multipolygon", GEOMETRY),
            Map.entry("geometrycollection", GEOMETRY), Map.entry("geomcollection", GEOMETRY),
            Map.entry("vector", EnumSet.of(ColumnType.VECTOR, ColumnType.VARCHAR)));

    private LoggedTypes() {
    }

    /**
     * Whether a column defined as {@code definedType} (lower case, as {@link SourceColumn#type()}) can be logged as
     * {@code logged} (the real type: ENUM and SET rather than the STRING they are written as).
     */
    public static boolean compatible(String definedType, ColumnType logged) {
        Set<ColumnType> allowed = BY_TYPE.get(definedType);
        if (allowed == null) {
            return true;
        }
        if (logged == ColumnType.STRING && (definedType.equals("enum") || definedType.equals("set"))) {
            return true; // an ENUM/SET whose metadata did not name its real type
        }
        return allowed.contains(logged);
    }
}
