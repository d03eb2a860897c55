package io.lanes.binlog.replication;

/**
 * A replication stream failed for a reason that reconnecting would not cure (or, for {@link Kind#CONNECTION}, the first
 * connection could not be made). The message names the server, and where it applies the binlog position; it never
 * contains a password.
 */
public class ReplicationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Kind {
        /** The server could not be reached or closed the connection before the stream started. */
        CONNECTION,
        /** The server refused the user name or password, or the authentication method is unsupported. */
        AUTHENTICATION,
        /** TLS was required but the server does not offer it, or the TLS handshake or certificate check failed. */
        TLS,
        /** The start position is no longer on the server (purged logs) or does not exist (server error 1236). */
        LOG_UNAVAILABLE,
        /** An event was larger than the configured maximum event size. */
        EVENT_TOO_LARGE,
        /** The server sent bytes that do not follow the protocol, or an event failed its checksum. */
        PROTOCOL,
        /** The server answered a setup command with an error. */
        SERVER_ERROR,
        /** The consumer's listener threw. */
        LISTENER,
        /** The stream is no longer consistent: a transaction cut by a disconnect was not sent again after it. */
        INCONSISTENT_RESUME
    }

    private final Kind kind;
    private final int serverErrorCode;

    public ReplicationException(Kind kind, String message) {
        this(kind, message, 0, null);
    }

    public ReplicationException(Kind kind, String message, int serverErrorCode, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.serverErrorCode = serverErrorCode;
    }

    public Kind kind() {
        return kind;
    }

    /** The server's error number (e.g. 1045, 1236), or 0 when the server sent no error packet. */
    public int serverErrorCode() {
        return serverErrorCode;
    }
}
