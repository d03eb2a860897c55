package io.lanes.binlog.replication.internal;

/** Constants of the MySQL/MariaDB client/server protocol and of the binlog event header used by the replication client. */
public final class Protocol {
    private Protocol() {
    }

    // Capability flags (MySQL protocol documentation, "Capabilities Flags").
    public static final int CLIENT_LONG_PASSWORD = 0x1;
    public static final int CLIENT_LONG_FLAG = 0x4;
    public static final int CLIENT_CONNECT_WITH_DB = 0x8;
    public static final int CLIENT_PROTOCOL_41 = 0x200;
    public static final int CLIENT_SSL = 0x800;
    public static final int CLIENT_TRANSACTIONS = 0x2000;
    public static final int CLIENT_SECURE_CONNECTION = 0x8000;
    public static final int CLIENT_MULTI_RESULTS = 0x20000;
    public static final int CLIENT_PLUGIN_AUTH = 0x80000;
    public static final int CLIENT_CONNECT_ATTRS = 0x100000;
    public static final int CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 0x200000;
    public static final int CLIENT_DEPRECATE_EOF = 0x1000000;

    /** Largest payload of one packet; a payload of exactly this length is continued by the next packet. */
    public static final int MAX_PACKET_PAYLOAD = 0xFFFFFF;

    // Commands.
    public static final byte COM_QUIT = 0x01;
    public static final byte COM_QUERY = 0x03;
    public static final byte COM_BINLOG_DUMP = 0x12;
    public static final byte COM_REGISTER_SLAVE = 0x15;
    public static final byte COM_BINLOG_DUMP_GTID = 0x1e;

    // COM_BINLOG_DUMP flags.
    public static final int BINLOG_DUMP_NON_BLOCK = 0x01;
    /** MariaDB: send ANNOTATE_ROWS events too. */
    public static final int BINLOG_SEND_ANNOTATE_ROWS_EVENT = 0x02;
    /** MySQL COM_BINLOG_DUMP_GTID: the GTID set data follows. */
    public static final int BINLOG_THROUGH_GTID = 0x04;

    /** MariaDB slave capability that makes the server send GTID events and accept a GTID connect state. */
    public static final int MARIA_SLAVE_CAPABILITY_GTID = 4;

    // Semi-synchronous replication.
    public static final byte SEMI_SYNC_INDICATOR = (byte) 0xef;
    public static final byte SEMI_SYNC_ACK_REQUESTED = 0x01;

    // Binlog event header.
    public static final int EVENT_HEADER_LENGTH = 19;
    public static final int EVENT_TYPE_OFFSET = 4;
    public static final int EVENT_SERVER_ID_OFFSET = 5;
    public static final int EVENT_SIZE_OFFSET = 9;
    public static final int EVENT_LOG_POS_OFFSET = 13;
    public static final int EVENT_FLAGS_OFFSET = 17;
    public static final int LOG_EVENT_BINLOG_IN_USE_F = 0x1;
    public static final int LOG_EVENT_ARTIFICIAL_F = 0x20;

    // Event types the client looks at.
    public static final int QUERY_EVENT = 2;
    public static final int STOP_EVENT = 3;
    public static final int ROTATE_EVENT = 4;
    public static final int FORMAT_DESCRIPTION_EVENT = 15;
    public static final int XID_EVENT = 16;
    public static final int HEARTBEAT_LOG_EVENT = 27;
    public static final int GTID_LOG_EVENT = 33;
    public static final int ANONYMOUS_GTID_LOG_EVENT = 34;
    public static final int PREVIOUS_GTIDS_LOG_EVENT = 35;
    public static final int XA_PREPARE_LOG_EVENT = 38;
    public static final int TRANSACTION_PAYLOAD_EVENT = 40;
    public static final int HEARTBEAT_LOG_EVENT_V2 = 41;
    public static final int GTID_TAGGED_LOG_EVENT = 42;
    public static final int MARIA_ANNOTATE_ROWS_EVENT = 160;
    public static final int MARIA_BINLOG_CHECKPOINT_EVENT = 161;
    public static final int MARIA_GTID_EVENT = 162;
    public static final int MARIA_GTID_LIST_EVENT = 163;

    /** MariaDB GTID event flag: the transaction is one standalone statement (DDL) with no BEGIN/COMMIT. */
    public static final int MARIA_FL_STANDALONE = 1;

    // Server error codes the client treats specially.
    public static final int ER_ACCESS_DENIED_ERROR = 1045;
    public static final int ER_MASTER_FATAL_ERROR_READING_BINLOG = 1236;
}
