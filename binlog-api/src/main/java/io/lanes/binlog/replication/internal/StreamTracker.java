package io.lanes.binlog.replication.internal;

import static io.lanes.binlog.replication.internal.Protocol.*;

import io.lanes.binlog.gtid.MariaDbGtid;
import io.lanes.binlog.gtid.MariaDbGtidPosition;
import io.lanes.binlog.gtid.MySqlGtid;
import io.lanes.binlog.gtid.MySqlGtidSet;
import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.ReplicationException;
import io.lanes.binlog.replication.StartPosition;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * Follows a replication stream event by event: the current binlog file and position, the checksum algorithm of the
 * current file, transaction boundaries (so a reconnect or a later run can start where a transaction starts), the GTID
 * state at the last boundary, and, after a reconnect, which events of a cut transaction the consumer already has.
 *
 * <p>Transactions: a GTID event (MySQL, MariaDB) or a BEGIN query starts one; XID, a COMMIT or ROLLBACK query, an
 * XA_PREPARE, a TRANSACTION_PAYLOAD, or the one statement after a GTID without BEGIN (DDL; MariaDB flags these
 * standalone) ends it. Any other event outside a transaction is a boundary of its own.
 *
 * <p>Confined to one thread at a time (the connection's event loop while streaming, the connecting thread in between; the
 * hand-offs are ordered by the connection's close).
 */
public final class StreamTracker {
    /** How the stream was started, and so how it resumes. */
    public enum Mode {
        FILE, MARIADB_GTID, MYSQL_GTID
    }

    private final Mode mode;
    private final boolean verifyChecksums;
    private final CRC32 crc = new CRC32();

    private String source = "<stream>";
    private String file;
    private long pos;
    private boolean checksummed;

    private boolean inTransaction;
    private boolean transactionHasBegin;
    /** Identifies the current transaction (to recognise it when a reconnect sends it again); built per transaction. */
    private Object transactionKey;
    private int transactionEvents;
    private StartPosition boundary;

    private final MariaDbGtidPosition mariaDbState;
    private final MySqlGtidSet mySqlSet;
    private long pendingDomain = -1;
    private long pendingServer;
    private long pendingSequence;
    /** The MySQL GTID of the transaction in progress (uuid text, tag or "" when untagged, gno), or null. */
    private String pendingUuid;
    private String pendingTag;
    private long pendingGno;

    private Object skipKey;
    private int skipCount;
    private final java.util.concurrent.atomic.AtomicLong cutTransactions = new java.util.concurrent.atomic.AtomicLong();
    /** Wall-clock time of the last heartbeat (epoch ms), 0 before any; written on heartbeats only (they are rare). */
    private volatile long lastHeartbeatMillis;

    public StreamTracker(StartPosition start, boolean verifyChecksums, String source) {
        this.verifyChecksums = verifyChecksums;
        this.source = source;
        this.boundary = start;
        if (start instanceof StartPosition.FilePosition f) {
            mode = Mode.FILE;
            file = f.file();
            pos = f.position();
            mariaDbState = null;
            mySqlSet = null;
        } else if (start instanceof StartPosition.MariaDbGtids g) {
            mode = Mode.MARIADB_GTID;
            mariaDbState = g.gtids();
            mySqlSet = null;
            pos = 4;
        } else {
            mode = Mode.MYSQL_GTID;
            // throws GtidSetFormatException (an IllegalArgumentException) for a set that does not parse
            mySqlSet = ((StartPosition.MySqlGtids) start).gtids();
            mariaDbState = null;
            pos = 4;
        }
    }

    /** How many times a lost connection cut a transaction the consumer had already received part of. Any thread. */
    /** When the last heartbeat arrived (epoch milliseconds), 0 before any. Any thread. */
    public long lastHeartbeatMillis() {
        return lastHeartbeatMillis;
    }

    public long cutTransactions() {
        return cutTransactions.get();
    }

    public Mode mode() {
        return mode;
    }

    /** Sets the description used in error messages (the server address) and the checksum state the dump negotiated. */
    public void startConnection(String source, boolean checksumNegotiated) {
        this.source = source;
        this.checksummed = checksumNegotiated;
    }

    /** The position to (re)connect from: the last transaction boundary. */
    public StartPosition resumePosition() {
        return boundary;
    }

    public String file() {
        return file;
    }

    public long position() {
        return pos;
    }

    /** Where the stream is, for error messages. */
    public String where() {
        return source + " at " + (file == null ? "(file not yet known)" : file) + ":" + pos;
    }

    /**
     * Called when the connection is lost: the stream will resume at the last boundary; the events of a transaction in
     * progress that were already handed over will be skipped when the server sends that transaction again.
     */
    public void connectionLost() {
        if (inTransaction) {
            cutTransactions.incrementAndGet();
            int already = transactionEvents;
            if (skipKey != null && skipKey.equals(transactionKey)) {
                already = Math.max(already, skipCount);
            }
            skipKey = transactionKey;
            skipCount = already;
        }
        inTransaction = false;
        transactionHasBegin = false;
        transactionEvents = 0;
        pendingDomain = -1;
        pendingUuid = null;
        if (boundary instanceof StartPosition.FilePosition f) {
            file = f.file();
            pos = f.position();
        }
    }

    /**
     * Takes one event off the wire.
     *
     * @return the event to hand to the consumer, or null when it must not be (a heartbeat, or an event of a cut
     *     transaction that the consumer already has)
     */
    public ReplicationEvent onEvent(byte[] ev) {
        if (ev.length < EVENT_HEADER_LENGTH) {
            throw protocol("event of " + ev.length + " bytes is shorter than the 19-byte header");
        }
        long size = Wire.u32(ev, EVENT_SIZE_OFFSET);
        if (size != ev.length) {
            throw protocol("event header says " + size + " bytes but the packet holds " + ev.length);
        }
        int type = ev[EVENT_TYPE_OFFSET] & 0xff;
        long logPos = Wire.u32(ev, EVENT_LOG_POS_OFFSET);
        int flags = Wire.u16(ev, EVENT_FLAGS_OFFSET);
        // Made up for the stream: flagged artificial (the rotate sent first), or one of the event kinds a server re-sends
        // with log_pos 0 (the FORMAT_DESCRIPTION at a start after it, MariaDB's GTID list). Other events with log_pos 0
        // are real: MariaDB 11 writes some events inside a transaction without it; their position is counted on.
        boolean synthetic = (flags & LOG_EVENT_ARTIFICIAL_F) != 0 || (logPos == 0 && (type == FORMAT_DESCRIPTION_EVENT
                || type == ROTATE_EVENT || type == MARIA_GTID_LIST_EVENT || type == PREVIOUS_GTIDS_LOG_EVENT));
        if (type == HEARTBEAT_LOG_EVENT || type == HEARTBEAT_LOG_EVENT_V2) {
            lastHeartbeatMillis = System.currentTimeMillis();
            return null;
        }
        if (type == FORMAT_DESCRIPTION_EVENT) {
            checksummed = fdeHasChecksum(ev);
        }
        if (checksummed && verifyChecksums) {
            verifyCrc(ev, type, synthetic);
        }
        int bodyEnd = ev.length - (checksummed ? 4 : 0);
        String eventFile = file;
        long eventPos;
        if (synthetic) {
            eventPos = pos;
        } else if (logPos == 0) {
            eventPos = pos;
            pos += ev.length;
        } else {
            eventPos = logPos - ev.length;
            pos = logPos;
        }
        boolean ends = false;
        boolean partOfTransaction = inTransaction;
        switch (type) {
            case ROTATE_EVENT -> {
                if (bodyEnd < EVENT_HEADER_LENGTH + 8) {
                    throw protocol("ROTATE event too short");
                }
                long next = Wire.u64(ev, EVENT_HEADER_LENGTH);
                String name = new String(ev, EVENT_HEADER_LENGTH + 8, bodyEnd - EVENT_HEADER_LENGTH - 8,
                        StandardCharsets.UTF_8);
                file = name;
                pos = next;
                if (synthetic) {
                    eventFile = name;
                    eventPos = next;
                }
            }
            case GTID_LOG_EVENT, ANONYMOUS_GTID_LOG_EVENT, GTID_TAGGED_LOG_EVENT -> {
                String uuid = null;
                String tag = "";
                long gno = 0;
                if (type == GTID_LOG_EVENT && bodyEnd >= EVENT_HEADER_LENGTH + 25) {
                    uuid = uuidText(ev, EVENT_HEADER_LENGTH + 1);
                    gno = Wire.u64(ev, EVENT_HEADER_LENGTH + 17);
                } else if (type == GTID_TAGGED_LOG_EVENT) {
                    // no post-header: the body is the serialized event (uuid, gno and tag among its fields)
                    try {
                        MySqlGtid g = MySqlGtidSetCodec.readTaggedGtidEvent(ev, EVENT_HEADER_LENGTH, bodyEnd);
                        uuid = g.sourceId().toString();
                        tag = g.tag() == null ? "" : g.tag();
                        gno = g.gno();
                    } catch (ProtocolException e) {
                        if (mySqlSet != null) {
                            throw protocol(e.getMessage()); // its GTID must go into the resume set
                        }
                    }
                }
                if (mySqlSet != null && uuid != null && (gno < 1 || gno == Long.MAX_VALUE)) {
                    throw protocol("GTID event with transaction number " + Long.toUnsignedString(gno));
                }
                beginTransaction(uuid != null ? new MySqlGtidKey(uuid, tag, gno) : new FileKey(eventFile, eventPos),
                        false);
                if (uuid != null && mySqlSet != null) {
                    pendingUuid = uuid;
                    pendingTag = tag;
                    pendingGno = gno;
                }
                partOfTransaction = true;
            }
            case MARIA_GTID_EVENT -> {
                if (bodyEnd < EVENT_HEADER_LENGTH + 13) {
                    throw protocol("MariaDB GTID event too short");
                }
                long seq = Wire.u64(ev, EVENT_HEADER_LENGTH);
                long domain = Wire.u32(ev, EVENT_HEADER_LENGTH + 8);
                int gtidFlags = ev[EVENT_HEADER_LENGTH + 12] & 0xff;
                long server = Wire.u32(ev, EVENT_SERVER_ID_OFFSET);
                beginTransaction(new MariaDbGtidKey(domain, server, seq), (gtidFlags & MARIA_FL_STANDALONE) == 0);
                pendingDomain = domain;
                pendingServer = server;
                pendingSequence = seq;
                partOfTransaction = true;
            }
            case QUERY_EVENT -> {
                String q = shortQuery(ev, bodyEnd);
                if ("BEGIN".equals(q) || (q != null && q.startsWith("XA START"))) {
                    if (!inTransaction) {
                        beginTransaction(new FileKey(eventFile, eventPos), true);
                    }
                    transactionHasBegin = true;
                    partOfTransaction = true;
                } else if (inTransaction) {
                    ends = "COMMIT".equals(q) || "ROLLBACK".equals(q) || !transactionHasBegin;
                }
            }
            case XID_EVENT, XA_PREPARE_LOG_EVENT, TRANSACTION_PAYLOAD_EVENT -> ends = inTransaction;
            default -> {
            }
        }
        boolean skip = false;
        if (partOfTransaction) {
            transactionEvents++;
            if (skipKey != null) {
                if (!skipKey.equals(transactionKey)) {
                    Object was = skipKey;
                    skipKey = null;
                    throw new ReplicationException(ReplicationException.Kind.INCONSISTENT_RESUME, source
                            + ": transaction " + was + " was cut by a disconnect, but after reconnecting the server sent "
                            + transactionKey + " at " + eventFile + ":" + eventPos + " instead");
                }
                skip = transactionEvents <= skipCount;
                if (transactionEvents >= skipCount) {
                    skipKey = null;
                }
            }
        }
        StartPosition resume;
        if (ends) {
            inTransaction = false;
            commitPendingGtid();
            boundary = currentBoundary();
            resume = boundary;
        } else if (partOfTransaction) {
            resume = boundary;
        } else {
            if (!synthetic || type == ROTATE_EVENT) {
                boundary = currentBoundary();
            }
            resume = boundary;
        }
        if (skip) {
            return null;
        }
        return new ReplicationEvent(ev, eventFile, eventPos, synthetic, !inTransaction, resume);
    }

    /** The last source UUID of a GTID event, raw and as text: nearly every transaction has the same one. */
    private final byte[] lastUuid = new byte[16];
    private String lastUuidText;

    /** The text form of the 16 UUID bytes at {@code at}, made once per distinct source rather than per transaction. */
    private String uuidText(byte[] ev, int at) {
        if (lastUuidText == null || !java.util.Arrays.equals(ev, at, at + 16, lastUuid, 0, 16)) {
            System.arraycopy(ev, at, lastUuid, 0, 16);
            lastUuidText = MySqlGtidSet.uuidText(ev, at);
        }
        return lastUuidText;
    }

    /** A transaction without a GTID: where its first event is. */
    private record FileKey(String file, long position) {
        @Override
        public String toString() {
            return file + ":" + position;
        }
    }

    private record MySqlGtidKey(String uuid, String tag, long gno) {
        @Override
        public String toString() {
            return tag.isEmpty() ? uuid + ":" + gno : uuid + ":" + tag + ":" + gno;
        }
    }

    private record MariaDbGtidKey(long domain, long server, long sequence) {
        @Override
        public String toString() {
            return domain + "-" + server + "-" + Long.toUnsignedString(sequence);
        }
    }

    private void beginTransaction(Object key, boolean hasBegin) {
        inTransaction = true;
        transactionHasBegin = hasBegin;
        transactionKey = key;
        transactionEvents = 0;
    }

    private void commitPendingGtid() {
        if (pendingDomain >= 0 && mariaDbState != null) {
            mariaDbState.add(new MariaDbGtid(pendingDomain, pendingServer, pendingSequence));
        }
        if (pendingUuid != null && mySqlSet != null) {
            mySqlSet.add(pendingUuid, pendingTag, pendingGno);
        }
        pendingDomain = -1;
        pendingUuid = null;
    }

    private StartPosition currentBoundary() {
        switch (mode) {
            case MARIADB_GTID:
                return StartPosition.mariaDbGtid(mariaDbState.toString());
            case MYSQL_GTID:
                // the record's constructor: the set printed itself, so it needs no parsing on every transaction
                return new StartPosition.MySqlGtids(mySqlSet.toString());
            default:
                if (file == null || pos < 4) {
                    return boundary;
                }
                return StartPosition.file(file, pos);
        }
    }

    /** The statement of a QUERY event, upper-cased, when it is short enough to be a transaction keyword; else null. */
    private String shortQuery(byte[] ev, int bodyEnd) {
        int post = EVENT_HEADER_LENGTH;
        if (bodyEnd < post + 13) {
            throw protocol("QUERY event too short");
        }
        int dbLen = ev[post + 8] & 0xff;
        int statusLen = Wire.u16(ev, post + 11);
        int start = post + 13 + statusLen + dbLen + 1;
        if (start > bodyEnd) {
            throw protocol("QUERY event lengths exceed the event");
        }
        int len = bodyEnd - start;
        if (len > 64) {
            return null;
        }
        return new String(ev, start, len, StandardCharsets.UTF_8).trim().toUpperCase(Locale.ROOT);
    }

    /** Whether a FORMAT_DESCRIPTION event declares CRC32: the algorithm byte sits before the 4 checksum bytes. */
    private boolean fdeHasChecksum(byte[] ev) {
        int versionStart = EVENT_HEADER_LENGTH + 2;
        if (ev.length < versionStart + 50 + 4 + 1 + 5) {
            return false;
        }
        String version = new String(ev, versionStart, 50, StandardCharsets.ISO_8859_1);
        int nul = version.indexOf('\0');
        if (nul >= 0) {
            version = version.substring(0, nul);
        }
        if (!supportsChecksums(version)) {
            return false;
        }
        return ev[ev.length - 5] == 1;
    }

    /** MySQL 5.6.1+ and MariaDB 5.3+ write the checksum algorithm into the FORMAT_DESCRIPTION event. */
    private static final java.util.regex.Pattern VERSION = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");

    static boolean supportsChecksums(String version) {
        java.util.regex.Matcher m = VERSION.matcher(version);
        if (!m.find()) {
            return true;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        int patch = Integer.parseInt(m.group(3));
        if (version.contains("MariaDB")) {
            return major > 5 || (major == 5 && minor >= 3);
        }
        return major > 5 || (major == 5 && (minor > 6 || (minor == 6 && patch >= 1)));
    }

    private void verifyCrc(byte[] ev, int type, boolean synthetic) {
        int n = ev.length - 4;
        crc.reset();
        if (type == FORMAT_DESCRIPTION_EVENT && (ev[EVENT_FLAGS_OFFSET] & LOG_EVENT_BINLOG_IN_USE_F) != 0) {
            // the server sets this flag after computing the checksum; it is checked with the flag cleared
            crc.update(ev, 0, EVENT_FLAGS_OFFSET);
            crc.update(ev[EVENT_FLAGS_OFFSET] & ~LOG_EVENT_BINLOG_IN_USE_F);
            crc.update(ev, EVENT_FLAGS_OFFSET + 1, n - EVENT_FLAGS_OFFSET - 1);
        } else {
            crc.update(ev, 0, n);
        }
        long expected = Wire.u32(ev, n);
        if (crc.getValue() != expected) {
            throw new ReplicationException(ReplicationException.Kind.PROTOCOL, String.format(
                    "%s: CRC32 mismatch in %sevent type %d at %s:%d (stored %08x, computed %08x)", source,
                    synthetic ? "synthetic " : "", type, file, pos, expected, crc.getValue()));
        }
    }

    private ReplicationException protocol(String what) {
        return new ReplicationException(ReplicationException.Kind.PROTOCOL, where() + ": " + what);
    }
}
