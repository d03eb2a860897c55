package io.lanes.binlog;

/**
 * One decoded binlog event. Every event type MySQL and MariaDB write has its own implementation; switch over them with
 * pattern matching ({@code if (event instanceof QueryEvent q)}).
 *
 * <p>Events are immutable and safe to share between threads once published. An event never holds more memory than its own
 * bytes: row images ({@link RowsEvent}) and compressed transactions ({@link TransactionPayloadEvent}) are decoded on
 * demand.
 */
public sealed interface BinlogEvent permits FormatDescriptionEvent, StartV3Event, RotateEvent, StopEvent, QueryEvent,
        XidEvent, IntVarEvent, RandEvent, UserVarEvent, TableMapEvent, RowsEvent, GtidEvent, PreviousGtidsEvent,
        TransactionPayloadEvent, RowsQueryEvent, XaPrepareEvent, HeartbeatEvent, IncidentEvent, TransactionContextEvent,
        ViewChangeEvent, LoadEvent, CreateFileEvent, AppendBlockEvent, ExecLoadEvent, DeleteFileEvent, BeginLoadQueryEvent,
        ExecuteLoadQueryEvent, IgnorableEvent, MariaAnnotateRowsEvent, MariaBinlogCheckpointEvent, MariaGtidEvent,
        MariaGtidListEvent, MariaStartEncryptionEvent {

    /** The common header, with the event's position in its source. */
    EventHeader header();

    /** The event type; {@code null} only for an {@link IgnorableEvent} of a type this library does not know. */
    default EventType type() {
        return header().type();
    }

    /** Absolute offset of the event in its source. */
    default long position() {
        return header().position();
    }
}
