package io.lanes.binlog.replication.internal;

import io.lanes.binlog.replication.StartPosition;
import io.lanes.binlog.replication.TlsSettings;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The replication client's validated, immutable settings. The password supplier must return a new array on each call;
 * the client wipes it after use. {@link #toString()} never shows the password.
 */
public record ClientSettings(String host, int port, String user, Supplier<char[]> password, TlsSettings tls,
        long serverId, StartPosition startPosition, Duration heartbeatPeriod, Duration connectTimeout,
        Duration reconnectInitialBackoff, Duration reconnectMaxBackoff, int maxReconnectAttempts, int maxEventSize,
        long bufferBytes, boolean semiSync, boolean verifyChecksums, String serverPublicKeyPem,
        boolean allowPublicKeyRetrieval, boolean gtidStrictMode, Map<String, String> connectAttributes) {

    public String address() {
        return host + ":" + port;
    }

    @Override
    public String toString() {
        return "ReplicationClient settings[" + user + "@" + address() + ", serverId=" + serverId + ", start="
                + startPosition + ", tls=" + tls.mode() + ", heartbeat=" + heartbeatPeriod + ", maxEventSize="
                + maxEventSize + ", bufferBytes=" + bufferBytes + ", semiSync=" + semiSync + ", password=<hidden>]";
    }
}
