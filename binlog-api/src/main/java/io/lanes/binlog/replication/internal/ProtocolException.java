package io.lanes.binlog.replication.internal;

/** A packet that does not follow the protocol (truncated, an unexpected header byte). */
public final class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
        super(message);
    }
}
