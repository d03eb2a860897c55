package io.lanes.binlog;

/** XID (16): commit of a transaction on an XA-capable engine (InnoDB); ends the transaction. */
public record XidEvent(EventHeader header, long xid) implements BinlogEvent {
}
