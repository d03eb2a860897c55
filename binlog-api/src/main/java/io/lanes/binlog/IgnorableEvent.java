package io.lanes.binlog;

/**
 * An event flagged LOG_EVENT_IGNORABLE_F whose type this library does not decode (for example Aurora's padding, type 100),
 * or an IGNORABLE_LOG_EVENT (28). Only its header is kept.
 */
public record IgnorableEvent(EventHeader header) implements BinlogEvent {
}
