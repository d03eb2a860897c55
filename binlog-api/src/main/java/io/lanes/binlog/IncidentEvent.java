package io.lanes.binlog;

/** INCIDENT (26): something happened on the source that a replica must not silently skip (1 = LOST_EVENTS). */
public record IncidentEvent(EventHeader header, int incidentType, String message) implements BinlogEvent {
}
