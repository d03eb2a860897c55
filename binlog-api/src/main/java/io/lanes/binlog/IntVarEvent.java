package io.lanes.binlog;

/**
 * INTVAR (5): the value LAST_INSERT_ID() ({@link #LAST_INSERT_ID}) or the next auto-increment value ({@link #INSERT_ID})
 * had for the statement that follows.
 */
public record IntVarEvent(EventHeader header, int variableType, long value) implements BinlogEvent {
    public static final int LAST_INSERT_ID = 1;
    public static final int INSERT_ID = 2;
}
