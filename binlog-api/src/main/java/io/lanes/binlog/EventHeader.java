package io.lanes.binlog;

/**
 * The common header every binlog event starts with (19 bytes in binlog format v4), plus where the event lies in its source.
 * Immutable.
 *
 * @param position absolute byte offset of the event's first byte in its source (file offset, or the stream position the
 *     server reported); for events inside a TRANSACTION_PAYLOAD, the position of the payload event
 * @param timestamp seconds since the epoch at which the statement started on the originating server
 * @param typeCode the type byte as written ({@link #type()} maps it to {@link EventType})
 * @param serverId the originating server's id
 * @param eventLength the whole event's length in bytes, header and checksum included
 * @param nextPosition the {@code log_pos} field: the offset just past this event in the originating log (0 in some
 *     artificial events, and inside TRANSACTION_PAYLOAD events)
 * @param flags the header flags ({@link #FLAG_BINLOG_IN_USE}, {@link #FLAG_IGNORABLE}, ...)
 */
public record EventHeader(long position, long timestamp, int typeCode, long serverId, long eventLength, long nextPosition,
        int flags) {

    /** Size of the v4 common header. */
    public static final int LENGTH_V4 = 19;
    /** LOG_EVENT_BINLOG_IN_USE_F: set in the FORMAT_DESCRIPTION event while the server has the file open. */
    public static final int FLAG_BINLOG_IN_USE = 0x1;
    /** LOG_EVENT_THREAD_SPECIFIC_F: the statement used temporary tables. */
    public static final int FLAG_THREAD_SPECIFIC = 0x4;
    /** LOG_EVENT_SUPPRESS_USE_F: the statement does not depend on the default database. */
    public static final int FLAG_SUPPRESS_USE = 0x8;
    /** LOG_EVENT_ARTIFICIAL_F: the event was made up by a server, not logged from a statement. */
    public static final int FLAG_ARTIFICIAL = 0x20;
    /** LOG_EVENT_RELAY_LOG_F: the event was written by a replica's I/O thread. */
    public static final int FLAG_RELAY_LOG = 0x40;
    /** LOG_EVENT_IGNORABLE_F: a reader that does not know this event type may skip it. */
    public static final int FLAG_IGNORABLE = 0x80;

    /** The event type, or {@code null} when the code is not one this library knows (only possible for ignorable events). */
    public EventType type() {
        return EventType.of(typeCode);
    }

    public boolean hasFlag(int flag) {
        return (flags & flag) != 0;
    }

    /** The offset just past this event in its source: {@code position + eventLength}. */
    public long endPosition() {
        return position + eventLength;
    }
}
