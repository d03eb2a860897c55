package io.lanes.testkit.internal;

import io.lanes.binlog.replication.internal.AuthScrambles;
import io.lanes.binlog.replication.internal.FramedFile;
import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the fake source's connections share: the binlog files, the account, the fault injection switches and counters.
 * Thread-safe (the counters and switches are atomics or volatile; the rest is immutable).
 */
public final class FakeSourceState {
    /** One binlog file held in memory. */
    public record BinlogImage(String name, byte[] bytes) {
    }

    public final List<BinlogImage> files;
    public final String user;
    /** mysql_native_password: SHA1(SHA1(password)). */
    public final byte[] nativeStage2;
    /** caching_sha2_password: SHA256(password) and SHA256(SHA256(password)). */
    public final byte[] sha2Stage1;
    public final byte[] sha2Stage2;
    public final boolean emptyPassword;
    public final String authPlugin;
    public final String handshakePlugin;
    public final String serverVersion;
    public final long serverId;
    public final boolean mariaDb;
    public final boolean checksums;
    private final java.util.function.Supplier<KeyPair> rsaKeys;
    public final io.netty.handler.ssl.SslContext tls;
    public final Map<String, String> variables;

    public volatile boolean sha2Cached;

    private final FramedFile[] framed;
    private final boolean[] indexed;

    /** The file's events framed for sending as they are ({@link FramedFile}), indexed on first use; null when unframable. */
    public synchronized FramedFile framed(int fileIndex) {
        if (!indexed[fileIndex]) {
            framed[fileIndex] = FramedFile.of(files.get(fileIndex).bytes());
            indexed[fileIndex] = true;
        }
        return framed[fileIndex];
    }

    /** The RSA key pair for caching_sha2_password full authentication without TLS. */
    public KeyPair rsaKeys() {
        return rsaKeys.get();
    }

    /** Its public key in PEM. */
    public String publicKeyPem() {
        return "-----BEGIN PUBLIC KEY-----\n" + java.util.Base64.getMimeEncoder(64, new byte[] {'\n'})
                .encodeToString(rsaKeys().getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n";
    }
    public volatile boolean stalled;
    /** Per dump, in order: after how many events the connection is cut. */
    public final java.util.Queue<Long> cuts = new java.util.concurrent.ConcurrentLinkedQueue<>();
    public final AtomicLong eventsSent = new AtomicLong();
    public final AtomicInteger connections = new AtomicInteger();
    public final AtomicInteger fastAuthentications = new AtomicInteger();
    public final AtomicInteger fullAuthentications = new AtomicInteger();
    public final AtomicInteger authSwitches = new AtomicInteger();
    public final AtomicInteger dumps = new AtomicInteger();

    public FakeSourceState(List<BinlogImage> files, String user, byte[] password, String authPlugin,
            String handshakePlugin, boolean sha2Cached, String serverVersion, long serverId, boolean mariaDb,
            boolean checksums, java.util.function.Supplier<KeyPair> rsaKeys, io.netty.handler.ssl.SslContext tls,
            Map<String, String> variables) {
        this.files = List.copyOf(files);
        this.framed = new FramedFile[this.files.size()];
        this.indexed = new boolean[this.files.size()];
        this.user = user;
        this.emptyPassword = password.length == 0;
        java.security.MessageDigest sha1 = AuthScrambles.digest("SHA-1");
        this.nativeStage2 = sha1.digest(sha1.digest(password));
        java.security.MessageDigest sha256 = AuthScrambles.digest("SHA-256");
        this.sha2Stage1 = sha256.digest(password);
        this.sha2Stage2 = sha256.digest(sha2Stage1);
        this.authPlugin = authPlugin;
        this.handshakePlugin = handshakePlugin;
        this.sha2Cached = sha2Cached;
        this.serverVersion = serverVersion;
        this.serverId = serverId;
        this.mariaDb = mariaDb;
        this.checksums = checksums;
        this.rsaKeys = rsaKeys;
        this.tls = tls;
        this.variables = Map.copyOf(variables);
    }
}
