package io.lanes.binlog;

/**
 * Binlog event type codes as MySQL ({@code Log_event_type} in libbinlogevents) and MariaDB ({@code sql/log_event.h}) write
 * them in the common event header. {@link #of(int)} maps a code back; codes no server writes map to {@code null}.
 */
public enum EventType {
    UNKNOWN(0), START_V3(1), QUERY(2), STOP(3), ROTATE(4), INTVAR(5), LOAD(6), SLAVE(7), CREATE_FILE(8), APPEND_BLOCK(9),
    EXEC_LOAD(10), DELETE_FILE(11), NEW_LOAD(12), RAND(13), USER_VAR(14), FORMAT_DESCRIPTION(15), XID(16),
    BEGIN_LOAD_QUERY(17), EXECUTE_LOAD_QUERY(18), TABLE_MAP(19),
    /** Pre-GA (5.1.0-5.1.15) row events, "v0". */
    PRE_GA_WRITE_ROWS(20), PRE_GA_UPDATE_ROWS(21), PRE_GA_DELETE_ROWS(22),
    WRITE_ROWS_V1(23), UPDATE_ROWS_V1(24), DELETE_ROWS_V1(25), INCIDENT(26), HEARTBEAT(27), IGNORABLE(28), ROWS_QUERY(29),
    WRITE_ROWS_V2(30), UPDATE_ROWS_V2(31), DELETE_ROWS_V2(32), GTID(33), ANONYMOUS_GTID(34), PREVIOUS_GTIDS(35),
    TRANSACTION_CONTEXT(36), VIEW_CHANGE(37), XA_PREPARE(38), PARTIAL_UPDATE_ROWS(39), TRANSACTION_PAYLOAD(40),
    HEARTBEAT_V2(41), GTID_TAGGED(42),
    MARIA_ANNOTATE_ROWS(160), MARIA_BINLOG_CHECKPOINT(161), MARIA_GTID(162), MARIA_GTID_LIST(163),
    MARIA_START_ENCRYPTION(164), MARIA_QUERY_COMPRESSED(165),
    /** MariaDB compressed row events in the v1 layout (no extra-data header). */
    MARIA_WRITE_ROWS_COMPRESSED_V1(166), MARIA_UPDATE_ROWS_COMPRESSED_V1(167), MARIA_DELETE_ROWS_COMPRESSED_V1(168),
    /** MariaDB compressed row events in the v2 layout (with the extra-data header). */
    MARIA_WRITE_ROWS_COMPRESSED(169), MARIA_UPDATE_ROWS_COMPRESSED(170), MARIA_DELETE_ROWS_COMPRESSED(171);

    private static final EventType[] BY_CODE = new EventType[256];

    static {
        for (EventType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;

    EventType(int code) {
        this.code = code;
    }

    /** The type byte as written in the event header. */
    public int code() {
        return code;
    }

    /** The type for a header type byte, or {@code null} for a code that no supported server writes. */
    public static EventType of(int code) {
        return code >= 0 && code < 256 ? BY_CODE[code] : null;
    }

    /** Whether this is a row event (any version, compressed or not, including PARTIAL_UPDATE_ROWS). */
    public boolean isRows() {
        return (code >= 20 && code <= 25) || (code >= 30 && code <= 32) || code == 39 || (code >= 166 && code <= 171);
    }
}
