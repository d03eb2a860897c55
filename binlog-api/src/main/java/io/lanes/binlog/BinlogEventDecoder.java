package io.lanes.binlog;

import io.lanes.binlog.internal.ByteReader;
import io.lanes.binlog.internal.Charsets;
import io.lanes.binlog.internal.PostHeaders;
import io.lanes.binlog.internal.ServerVersion;
import io.lanes.binlog.internal.TableMapParser;
import io.lanes.binlog.internal.Zlib;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Push-style decoder: turns the bytes of one whole event (common header to checksum) into a typed {@link BinlogEvent}.
 * Feed it events in log order; it keeps the state later events need: the current FORMAT_DESCRIPTION (header and
 * post-header lengths, checksum algorithm), the TABLE_MAP of each table id, and whether the log turned encrypted.
 * {@link BinlogReader} uses it over files and streams; a replication client feeds it the events of network packets.
 *
 * <p>The decoder copies what an event keeps, so the caller may reuse its buffer as soon as a call returns. Every problem is
 * a {@link BinlogFormatException} naming {@link #source()} and the event's absolute offset; after one, the decoder's state
 * is unchanged by the bad event.
 *
 * <p>Not thread-safe: one decoder belongs to one reading thread. The events it returns are immutable.
 */
public final class BinlogEventDecoder {
    /** Table maps are re-logged in every transaction; forgetting old ones bounds memory on logs with many tables. */
    private static final int MAX_TABLE_MAPS = 10_000;
    private static final int MAX_XA_PART = 64;

    private final String source;
    private final BinlogReaderOptions options;
    private final CRC32 crc = new CRC32();
    /** Per table id: its latest TABLE_MAP, the bytes it was parsed from and the row shape of its last ROWS event. */
    private final Map<Long, TableEntry> tables = new HashMap<>();
    private FormatDescriptionEvent fde;
    private ChecksumAlgorithm assumedChecksum = ChecksumAlgorithm.UNDEFINED;
    /** For events inside a TRANSACTION_PAYLOAD: the checksum algorithm that applies regardless of the FDE. */
    private final ChecksumAlgorithm forcedChecksum;
    /** Set during {@link #decodeRetainingIfAccepted}: the input array may be referred to by what is decoded. */
    private boolean retainInput;
    private boolean encrypted;

    /** What the decoder keeps per table id, looked up once per TABLE_MAP or ROWS event. */
    private static final class TableEntry {
        TableMapEvent event;
        /** The TABLE_MAP body {@link #event} was parsed from; null once a new FORMAT_DESCRIPTION came. */
        byte[] bytes;
        RowShape shape;
    }
    private boolean mariaDb;

    public BinlogEventDecoder(String source, BinlogReaderOptions options) {
        this(source, options, null, null);
    }

    public BinlogEventDecoder(String source) {
        this(source, BinlogReaderOptions.defaults());
    }

    private BinlogEventDecoder(String source, BinlogReaderOptions options, FormatDescriptionEvent fde,
            ChecksumAlgorithm forcedChecksum) {
        this.source = source;
        this.options = options;
        this.fde = fde;
        this.forcedChecksum = forcedChecksum;
        this.mariaDb = fde != null && fde.isMariaDb();
    }

    /** A decoder for the events inside a TRANSACTION_PAYLOAD: same layout, no per-event checksum. */
    BinlogEventDecoder payloadDecoder(String payloadSource, FormatDescriptionEvent payloadFde) {
        return new BinlogEventDecoder(payloadSource, options, payloadFde, ChecksumAlgorithm.OFF);
    }

    public String source() {
        return source;
    }

    public BinlogReaderOptions options() {
        return options;
    }

    /** The current FORMAT_DESCRIPTION event, or {@code null} before the first one. */
    public FormatDescriptionEvent formatDescription() {
        return fde;
    }

    /**
     * The checksum algorithm to assume for events that arrive before the first FORMAT_DESCRIPTION event (a replication
     * stream's artificial ROTATE: the source's {@code @@binlog_checksum}). Default {@link ChecksumAlgorithm#UNDEFINED}.
     */
    public void assumeChecksum(ChecksumAlgorithm algorithm) {
        this.assumedChecksum = algorithm;
    }

    /** The checksum algorithm of the next (non-FORMAT_DESCRIPTION) event. */
    public ChecksumAlgorithm checksumAlgorithm() {
        if (forcedChecksum != null) {
            return forcedChecksum;
        }
        return fde == null ? assumedChecksum : fde.checksumAlgorithm();
    }

    /** The latest TABLE_MAP seen for a table id, or {@code null}. */
    public TableMapEvent tableMap(long tableId) {
        TableEntry e = tables.get(tableId);
        return e == null ? null : e.event;
    }

    /** Forgets table maps (call when a stream restarts at another position). */
    public void clearTableMaps() {
        tables.clear();
    }

    /**
     * Decodes one whole event.
     *
     * @param buf the bytes
     * @param offset index of the event's first byte
     * @param length the event's length (must equal the header's event_length)
     * @param position the event's absolute offset in {@link #source()}
     */
    public BinlogEvent decode(byte[] buf, int offset, int length, long position) {
        return decode(buf, offset, length, position, true);
    }

    /**
     * Decodes one whole event, or returns {@code null} when {@link BinlogReaderOptions#accepts(int) the options} filter
     * its type out (state-changing events are still processed).
     */
    public BinlogEvent decodeIfAccepted(byte[] buf, int offset, int length, long position) {
        return decode(buf, offset, length, position, false);
    }

    /**
     * Checks one whole event (header sanity and, if enabled, its checksum) and returns only its header: the fast path of a
     * header-only scan. FORMAT_DESCRIPTION and START_ENCRYPTION events still update the state; TABLE_MAP events are not
     * remembered, so do not mix this with {@link #decode} on the same decoder if row events are to be decoded.
     */
    public EventHeader decodeHeader(byte[] buf, int offset, int length, long position) {
        checkSlice(buf, offset, length);
        EventHeader h = parseHeader(buf, offset, length, position);
        int type = h.typeCode();
        if (type == EventType.FORMAT_DESCRIPTION.code() || type == EventType.START_V3.code()
                || type == EventType.MARIA_START_ENCRYPTION.code()) {
            decodeChecked(buf, offset, length, h);
        } else {
            verifyChecksum(buf, offset, length, h, checksumAlgorithm());
        }
        return h;
    }

    private static void checkSlice(byte[] buf, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > buf.length) {
            throw new IllegalArgumentException("slice [" + offset + ", +" + length + ") of a buffer of " + buf.length);
        }
    }

    /**
     * As {@link #decodeIfAccepted(byte[], int, int, long)} for a whole array holding one event that its owner never
     * changes afterwards (as {@code ReplicationEvent#bytes()}): the decoded event may refer to the array instead of
     * copying parts of it (a ROWS event's row images), so the array lives as long as the event.
     */
    public BinlogEvent decodeRetainingIfAccepted(byte[] event, long position) {
        retainInput = true;
        try {
            return decode(event, 0, event.length, position, false);
        } finally {
            retainInput = false;
        }
    }

    private BinlogEvent decode(byte[] buf, int offset, int length, long position, boolean always) {
        checkSlice(buf, offset, length);
        EventHeader h = parseHeader(buf, offset, length, position);
        int type = h.typeCode();
        if (!always && !options.accepts(type) && !isStateEvent(type)) {
            verifyChecksum(buf, offset, length, h, checksumAlgorithm());
            return null;
        }
        BinlogEvent e = decodeChecked(buf, offset, length, h);
        return always || options.accepts(type) ? e : null;
    }

    private static boolean isStateEvent(int type) {
        return type == EventType.FORMAT_DESCRIPTION.code() || type == EventType.TABLE_MAP.code()
                || type == EventType.MARIA_START_ENCRYPTION.code() || type == EventType.START_V3.code();
    }

    /**
     * Parses and sanity-checks the common header of an event of {@code length} bytes, of which only the 19 header bytes
     * need to be in {@code buf}. Verifies no checksum and changes no state.
     */
    public EventHeader parseHeader(byte[] buf, int offset, int length, long position) {
        if (offset < 0 || offset + EventHeader.LENGTH_V4 > buf.length) {
            throw new IllegalArgumentException("no header at " + offset + " in a buffer of " + buf.length);
        }
        if (length < EventHeader.LENGTH_V4) {
            throw new BinlogFormatException(source, position, "event of " + length + " bytes is shorter than a header");
        }
        if (encrypted) {
            throw new BinlogFormatException(source, position, "the log is encrypted (START_ENCRYPTION earlier in this"
                    + " file) and no key is available");
        }
        long timestamp = u32(buf, offset);
        int type = buf[offset + 4] & 0xff;
        long serverId = u32(buf, offset + 5);
        long eventLength = u32(buf, offset + 9);
        long nextPosition = u32(buf, offset + 13);
        int flags = (buf[offset + 17] & 0xff) | (buf[offset + 18] & 0xff) << 8;
        if (eventLength != length) {
            throw new BinlogFormatException(source, position, "event_length " + eventLength + " but the event has "
                    + length + " bytes");
        }
        return new EventHeader(position, timestamp, type, serverId, eventLength, nextPosition, flags);
    }

    private static long u32(byte[] b, int i) {
        return (b[i] & 0xffL) | (b[i + 1] & 0xffL) << 8 | (b[i + 2] & 0xffL) << 16 | (b[i + 3] & 0xffL) << 24;
    }

    private void verifyChecksum(byte[] buf, int offset, int length, EventHeader h, ChecksumAlgorithm alg) {
        if (alg != ChecksumAlgorithm.CRC32 || !options.verifyChecksums()) {
            return;
        }
        if (length < EventHeader.LENGTH_V4 + 4) {
            throw new BinlogFormatException(source, h.position(), "event too short for its checksum");
        }
        int end = offset + length - 4;
        crc.reset();
        if (h.typeCode() == EventType.FORMAT_DESCRIPTION.code() && (h.flags() & EventHeader.FLAG_BINLOG_IN_USE) != 0) {
            // The server computed this checksum before it set "in use"; it clears the flag to check, and so must we.
            crc.update(buf, offset, 17);
            crc.update(buf[offset + 17] & ~EventHeader.FLAG_BINLOG_IN_USE);
            crc.update(buf, offset + 18, end - offset - 18);
        } else {
            crc.update(buf, offset, length - 4);
        }
        long stored = (buf[end] & 0xffL) | (buf[end + 1] & 0xffL) << 8 | (buf[end + 2] & 0xffL) << 16
                | (buf[end + 3] & 0xffL) << 24;
        if (crc.getValue() != stored) {
            throw new BinlogFormatException(source, h.position(), String.format(
                    "CRC32 mismatch in %s event: computed %08x, stored %08x", typeName(h.typeCode()), crc.getValue(),
                    stored));
        }
    }

    private static String typeName(int code) {
        EventType t = EventType.of(code);
        return t == null ? "type " + code : t.name();
    }

    private BinlogEvent decodeChecked(byte[] buf, int offset, int length, EventHeader h) {
        int type = h.typeCode();
        if (type == EventType.FORMAT_DESCRIPTION.code()) {
            return decodeFormatDescription(buf, offset, length, h);
        }
        ChecksumAlgorithm alg = checksumAlgorithm();
        verifyChecksum(buf, offset, length, h, alg);
        int headerLength = fde == null ? EventHeader.LENGTH_V4 : fde.headerLength();
        int bodyEnd = offset + length - alg.trailerLength();
        if (offset + headerLength > bodyEnd) {
            throw new BinlogFormatException(source, h.position(), typeName(type) + " event of " + length
                    + " bytes has no room for its body");
        }
        ByteReader r = new ByteReader(buf, offset + headerLength, bodyEnd, source, h.position() + headerLength);
        try {
            return decodeBody(r, h, type);
        } catch (BinlogFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            // Defensive: a decoding bug must still surface as a typed error naming the event.
            throw new BinlogFormatException(source, h.position(), "cannot decode " + typeName(type) + " event: " + e, e);
        }
    }

    /**
     * Servers log the same TABLE_MAP before every transaction on a table; when its bytes equal the last one logged for
     * that table id, the parsed columns are reused instead of parsed again (events stay independent: only immutable parts
     * are shared).
     */
    private TableMapEvent decodeTableMap(ByteReader r, EventHeader h, int ph) {
        int from = r.position();
        int len = r.remaining();
        long tableId = ph == 6 ? r.u32() : r.u48();
        r.position(from);
        TableEntry entry = tables.get(tableId);
        byte[] previousBytes = entry == null ? null : entry.bytes;
        if (previousBytes != null && previousBytes.length == len
                && java.util.Arrays.equals(previousBytes, 0, len, r.array(), from, from + len)) {
            TableMapEvent previous = entry.event;
            TableMapEvent tm = new TableMapEvent(h, previous.tableId(), previous.flags(), previous.schema(),
                    previous.table(), previous.columns(), previous.primaryKey(), previous.primaryKeyPrefixLengths(),
                    previous.optionalFields());
            entry.event = tm; // the same columns: the row shape stays
            return tm;
        }
        TableMapEvent tm = TableMapParser.parse(r, h, ph, mariaDb);
        if (entry == null) { // the parser read the same table id from the same bytes
            if (tables.size() >= MAX_TABLE_MAPS) {
                tables.clear();
            }
            entry = new TableEntry();
            tables.put(tableId, entry);
        }
        entry.event = tm;
        entry.bytes = java.util.Arrays.copyOfRange(r.array(), from, from + len);
        entry.shape = null;
        return tm;
    }

    /** The type of a header's type byte; {@link EventType#UNKNOWN} for a code no supported server writes. */
    private static EventType eventType(int code) {
        EventType t = EventType.of(code);
        return t == null ? EventType.UNKNOWN : t;
    }

    private int postHeaderLength(int type) {
        int n = fde == null ? -1 : fde.postHeaderLength(type);
        return n >= 0 ? n : PostHeaders.defaultLength(type);
    }

    private BinlogEvent decodeBody(ByteReader r, EventHeader h, int type) {
        int ph = postHeaderLength(type);
        int bodyStart = r.position();
        switch (eventType(type)) {
            case START_V3: return decodeStartV3(r, h);
            case QUERY: return decodeQuery(r, h, ph, false);
            case MARIA_QUERY_COMPRESSED: return decodeQuery(r, h, ph, true);
            case STOP: return new StopEvent(h);
            case ROTATE: {
                long pos = ph >= 8 ? r.i64() : 4;
                EventBodyDecoders.skipTo(r, bodyStart + ph);
                return new RotateEvent(h, pos, r.string(r.remaining(), StandardCharsets.UTF_8));
            }
            case INTVAR: {
                EventBodyDecoders.skipTo(r, bodyStart + ph);
                return new IntVarEvent(h, r.u8(), r.i64());
            }
            case RAND: {
                EventBodyDecoders.skipTo(r, bodyStart + ph);
                return new RandEvent(h, r.i64(), r.i64());
            }
            case USER_VAR: return EventBodyDecoders.decodeUserVar(r, h, bodyStart + ph);
            case XID: {
                EventBodyDecoders.skipTo(r, bodyStart + ph);
                return new XidEvent(h, r.i64());
            }
            case TABLE_MAP: {
                return decodeTableMap(r, h, ph);
            }
            case PRE_GA_WRITE_ROWS: case PRE_GA_UPDATE_ROWS: case PRE_GA_DELETE_ROWS: case WRITE_ROWS_V1: case UPDATE_ROWS_V1: case DELETE_ROWS_V1: case WRITE_ROWS_V2: case UPDATE_ROWS_V2: case DELETE_ROWS_V2: case PARTIAL_UPDATE_ROWS:
            case MARIA_WRITE_ROWS_COMPRESSED_V1: case MARIA_UPDATE_ROWS_COMPRESSED_V1: case MARIA_DELETE_ROWS_COMPRESSED_V1: case MARIA_WRITE_ROWS_COMPRESSED: case MARIA_UPDATE_ROWS_COMPRESSED: case MARIA_DELETE_ROWS_COMPRESSED:
                return decodeRows(r, h, type, ph);
            case INCIDENT: {
                int incident = r.u16();
                EventBodyDecoders.skipTo(r, bodyStart + ph);
                String msg = r.hasRemaining() ? r.string(r.u8(), StandardCharsets.UTF_8) : "";
                return new IncidentEvent(h, incident, msg);
            }
            case HEARTBEAT: {
                EventBodyDecoders.skipTo(r, bodyStart + ph);
                return new HeartbeatEvent(h, r.string(r.remaining(), StandardCharsets.UTF_8), h.nextPosition());
            }
            // The next three types reserve a post-header length in the FDE but write self-describing fields from the start
            // of the body (as the server's own decoders read them).
            case HEARTBEAT_V2: return EventBodyDecoders.decodeHeartbeatV2(r, h, bodyStart);
            case IGNORABLE: return new IgnorableEvent(h);
            case ROWS_QUERY: {
                EventBodyDecoders.skipTo(r, bodyStart + ph);
                if (r.hasRemaining()) {
                    r.skip(1); // a length byte that the server truncates at 255; the text runs to the end
                }
                return new RowsQueryEvent(h, r.string(r.remaining(), StandardCharsets.UTF_8));
            }
            case GTID: case ANONYMOUS_GTID: return EventBodyDecoders.decodeGtid(r, h, type == EventType.ANONYMOUS_GTID.code());
            case GTID_TAGGED: return EventBodyDecoders.decodeTaggedGtid(source, r, h, bodyStart);
            case PREVIOUS_GTIDS: return EventBodyDecoders.decodePreviousGtids(r, h, bodyStart + ph);
            case TRANSACTION_CONTEXT: return EventBodyDecoders.decodeTransactionContext(r, h, bodyStart + ph);
            case VIEW_CHANGE: return EventBodyDecoders.decodeViewChange(r, h, bodyStart + ph);
            case XA_PREPARE: return EventBodyDecoders.decodeXaPrepare(r, h, bodyStart + ph);
            case TRANSACTION_PAYLOAD: return decodeTransactionPayload(r, h, bodyStart);
            case LOAD: case NEW_LOAD: return EventBodyDecoders.decodeLoad(r, h, type, bodyStart + ph);
            case CREATE_FILE: {
                // the LOAD post-header (18 bytes) comes first; newer FDEs list 0 for the obsolete LOAD type
                r.skip(PostHeaders.defaultLength(EventType.LOAD.code()));
                long fileId = r.u32();
                return new CreateFileEvent(h, fileId, r.remainingBytes());
            }
            case APPEND_BLOCK: case BEGIN_LOAD_QUERY: {
                long fileId = r.u32();
                EventBodyDecoders.skipTo(r, bodyStart + ph);
                byte[] block = r.remainingBytes();
                return type == EventType.APPEND_BLOCK.code() ? new AppendBlockEvent(h, fileId, block) : new BeginLoadQueryEvent(h, fileId, block);
            }
            case EXEC_LOAD: return new ExecLoadEvent(h, r.u32());
            case DELETE_FILE: return new DeleteFileEvent(h, r.u32());
            case EXECUTE_LOAD_QUERY: return decodeQuery(r, h, ph, false);
            case MARIA_ANNOTATE_ROWS: {
                EventBodyDecoders.skipTo(r, bodyStart + ph);
                return new MariaAnnotateRowsEvent(h, r.string(r.remaining(), StandardCharsets.UTF_8));
            }
            case MARIA_BINLOG_CHECKPOINT: {
                long len = r.u32();
                EventBodyDecoders.skipTo(r, bodyStart + ph);
                r.checkAvailable(len);
                return new MariaBinlogCheckpointEvent(h, r.string((int) len, StandardCharsets.UTF_8));
            }
            case MARIA_GTID: return EventBodyDecoders.decodeMariaGtid(r, h);
            case MARIA_GTID_LIST: return EventBodyDecoders.decodeMariaGtidList(r, h, bodyStart + ph);
            case MARIA_START_ENCRYPTION: {
                EventBodyDecoders.skipTo(r, bodyStart + ph);
                MariaStartEncryptionEvent e = new MariaStartEncryptionEvent(h, r.u8(), r.u32(), r.bytes(12));
                encrypted = true;
                return e;
            }
            default:
                if ((h.flags() & EventHeader.FLAG_IGNORABLE) != 0) {
                    return new IgnorableEvent(h);
                }
                throw new BinlogFormatException(source, h.position(), "unknown event type " + type
                        + " not flagged ignorable");
        }
    }

    private FormatDescriptionEvent decodeFormatDescription(byte[] buf, int offset, int length, EventHeader h) {
        ByteReader r = new ByteReader(buf, offset + EventHeader.LENGTH_V4, offset + length, source,
                h.position() + EventHeader.LENGTH_V4);
        int binlogVersion = r.u16();
        r.checkAvailable(50);
        int at = r.position();
        int end = at;
        while (end < at + 50 && buf[end] != 0) {
            end++;
        }
        String serverVersion = new String(buf, at, end - at, StandardCharsets.ISO_8859_1);
        r.skip(50);
        long created = r.u32();
        int headerLength = r.u8();
        if (headerLength < EventHeader.LENGTH_V4) {
            throw r.error("common header length " + headerLength + " (binlog format v1 is not supported)");
        }
        int[] version = ServerVersion.split(serverVersion);
        if (binlogVersion >= 4 && version[0] == 0 && version[1] == 0 && version[2] == 0) {
            // every server writes its version here, and whether events carry checksums depends on it: a version that
            // does not parse is corruption, which no checksum could otherwise catch
            throw new BinlogFormatException(source, h.position() + EventHeader.LENGTH_V4 + 2, "FORMAT_DESCRIPTION"
                    + " server version \"" + serverVersion + "\" does not parse");
        }
        boolean hasAlg = binlogVersion >= 4 && ServerVersion.hasChecksumAlgorithm(serverVersion);
        ChecksumAlgorithm alg = ChecksumAlgorithm.UNDEFINED;
        int postHeaderEnd = offset + length;
        if (hasAlg) {
            if (length < EventHeader.LENGTH_V4 + 57 + 5) {
                throw r.error("FORMAT_DESCRIPTION event too short for its checksum algorithm");
            }
            int algByte = buf[offset + length - 5] & 0xff;
            if (algByte == 0) {
                alg = ChecksumAlgorithm.OFF;
            } else if (algByte == 1) {
                alg = ChecksumAlgorithm.CRC32;
            } else {
                throw new BinlogFormatException(source, h.position() + length - 5, "unknown checksum algorithm "
                        + algByte);
            }
            postHeaderEnd = offset + length - 5;
        }
        if (postHeaderEnd < r.position()) {
            throw r.error("FORMAT_DESCRIPTION event too short");
        }
        verifyChecksum(buf, offset, length, h, alg);
        if (alg == ChecksumAlgorithm.OFF && hasAlg) {
            // MySQL and MariaDB checksum the FORMAT_DESCRIPTION itself even with binlog_checksum=NONE: check it when
            // present, or a corrupted event_length would make garbage the layout of every later event
            int crcAt = offset + length - 4;
            long stored = (buf[crcAt] & 0xffL) | (buf[crcAt + 1] & 0xffL) << 8 | (buf[crcAt + 2] & 0xffL) << 16
                    | (buf[crcAt + 3] & 0xffL) << 24;
            if (stored != 0) {
                verifyChecksum(buf, offset, length, h, ChecksumAlgorithm.CRC32);
            }
        }
        byte[] postHeaders = r.bytes(postHeaderEnd - r.position());
        FormatDescriptionEvent e = new FormatDescriptionEvent(h, binlogVersion, serverVersion, created, headerLength,
                postHeaders, alg);
        if (forcedChecksum == null) {
            fde = e;
            encrypted = false;
            mariaDb = e.isMariaDb();
            for (TableEntry t : tables.values()) {
                t.bytes = null; // a new layout may parse the same bytes differently
            }
        }
        return e;
    }

    private BinlogEvent decodeStartV3(ByteReader r, EventHeader h) {
        int version = r.u16();
        String serverVersion = new String(r.bytes(50), StandardCharsets.ISO_8859_1).replace("\0", "");
        long created = r.u32();
        if (fde == null) {
            // A v3 (MySQL 4.x) log: no FORMAT_DESCRIPTION will follow, so describe its layout ourselves.
            fde = new FormatDescriptionEvent(h, 3, serverVersion, created, EventHeader.LENGTH_V4, PostHeaders.v3(),
                    ChecksumAlgorithm.UNDEFINED);
        }
        return new StartV3Event(h, version, serverVersion, created);
    }

    private BinlogEvent decodeQuery(ByteReader r, EventHeader h, int ph, boolean compressed) {
        int bodyStart = r.position();
        long threadId = r.u32();
        long execTime = r.u32();
        int dbLen = r.u8();
        int errorCode = r.u16();
        int statusLen = ph > 11 ? r.u16() : 0;
        long fileId = 0;
        long fnStart = 0;
        long fnEnd = 0;
        int dup = 0;
        boolean loadQuery = h.typeCode() == EventType.EXECUTE_LOAD_QUERY.code();
        if (loadQuery) {
            fileId = r.u32();
            fnStart = r.u32();
            fnEnd = r.u32();
            dup = r.u8();
        }
        EventBodyDecoders.skipTo(r, bodyStart + ph);
        QueryStatusVars vars = statusLen == 0 ? QueryStatusVars.NONE : EventBodyDecoders.decodeStatusVars(r.slice(statusLen));
        String db = r.string(dbLen, StandardCharsets.UTF_8);
        if (r.u8() != 0) {
            throw r.error("database name not NUL-terminated");
        }
        String sql;
        java.nio.charset.Charset cs = Charsets.forCollation(vars.charsetClient() == null ? -1 : vars.charsetClient());
        if (compressed) {
            byte[] text = Zlib.inflateMariaBlock(r, options.maxEventLength());
            sql = new String(text, cs);
        } else {
            sql = r.string(r.remaining(), cs);
        }
        if (loadQuery) {
            return new ExecuteLoadQueryEvent(h, threadId, execTime, errorCode, db, sql, vars, fileId, fnStart, fnEnd, dup);
        }
        return new QueryEvent(h, threadId, execTime, errorCode, db, sql, vars, compressed);
    }

    private BinlogEvent decodeTransactionPayload(ByteReader r, EventHeader h, int bodyStart) {
        EventBodyDecoders.skipTo(r, bodyStart);
        long[] fields = {-1, -1, -1, -1}; // indexed by field type: 1 payload size, 2 compression, 3 uncompressed size
        EventBodyDecoders.readTaggedFields(r, (field, v) -> {
            if (field >= 1 && field <= 3) {
                fields[(int) field] = v.packedLength();
            }
        });
        long size = fields[1];
        int compression = (int) Math.min(Integer.MAX_VALUE, fields[2]);
        long uncompressed = fields[3];
        if (size < 0 || compression < 0) {
            throw r.error("TRANSACTION_PAYLOAD without payload size or compression type");
        }
        if (size != r.remaining()) {
            throw r.error("TRANSACTION_PAYLOAD says " + size + " payload bytes but " + r.remaining() + " remain");
        }
        if (compression != TransactionPayloadEvent.COMPRESSION_ZSTD
                && compression != TransactionPayloadEvent.COMPRESSION_NONE) {
            throw r.error("unknown TRANSACTION_PAYLOAD compression type " + compression);
        }
        if (uncompressed < 0) {
            uncompressed = compression == TransactionPayloadEvent.COMPRESSION_NONE ? size : -1;
        }
        long payloadOffset = r.absoluteOffset();
        byte[] payload = r.remainingBytes();
        FormatDescriptionEvent layout = fde != null ? fde
                : new FormatDescriptionEvent(h, 4, "", 0, EventHeader.LENGTH_V4, PostHeaders.defaultV4(),
                        ChecksumAlgorithm.OFF);
        return new TransactionPayloadEvent(h, compression, uncompressed, payload, payloadOffset,
                payloadDecoder(source, layout));
    }

    private BinlogEvent decodeRows(ByteReader r, EventHeader h, int type, int ph) {
        int bodyStart = r.position();
        long tableId = ph == 6 ? r.u32() : r.u48();
        int flags = r.u16();
        byte[] extra = new byte[0];
        if (ph == 10) {
            int varLen = r.u16();
            if (varLen < 2) {
                throw r.error("rows event extra-data length " + varLen);
            }
            extra = r.bytes(varLen - 2);
        }
        EventBodyDecoders.skipTo(r, bodyStart + ph);
        long width = r.packedLength();
        if (width <= 0 || width > 0xffff) {
            throw r.error("rows event column count " + width);
        }
        RowsEvent.Kind kind;
        switch (eventType(type)) {
            case PRE_GA_WRITE_ROWS: case WRITE_ROWS_V1: case WRITE_ROWS_V2: case MARIA_WRITE_ROWS_COMPRESSED_V1: case MARIA_WRITE_ROWS_COMPRESSED: kind = RowsEvent.Kind.WRITE; break;
            case PRE_GA_UPDATE_ROWS: case UPDATE_ROWS_V1: case UPDATE_ROWS_V2: case MARIA_UPDATE_ROWS_COMPRESSED_V1: case MARIA_UPDATE_ROWS_COMPRESSED: kind = RowsEvent.Kind.UPDATE; break;
            case PARTIAL_UPDATE_ROWS: kind = RowsEvent.Kind.PARTIAL_UPDATE; break;
            default: kind = RowsEvent.Kind.DELETE;
        }
        int version = switch (eventType(type)) {
            case PRE_GA_WRITE_ROWS, PRE_GA_UPDATE_ROWS, PRE_GA_DELETE_ROWS -> 0;
            case WRITE_ROWS_V1, UPDATE_ROWS_V1, DELETE_ROWS_V1, MARIA_WRITE_ROWS_COMPRESSED_V1,
                    MARIA_UPDATE_ROWS_COMPRESSED_V1, MARIA_DELETE_ROWS_COMPRESSED_V1 -> 1;
            default -> 2;
        };
        boolean compressed = type >= EventType.MARIA_WRITE_ROWS_COMPRESSED_V1.code();
        boolean twoBitmaps = (kind == RowsEvent.Kind.UPDATE && version > 0) || kind == RowsEvent.Kind.PARTIAL_UPDATE;
        TableEntry entry = tables.get(tableId);
        TableMapEvent tableMap = entry == null ? null : entry.event;
        RowShape known = entry == null ? null : entry.shape;
        java.util.BitSet before;
        java.util.BitSet after;
        int bitmapBytes = ((int) width + 7) >>> 3;
        if (known != null && tableMap != null && known.defs() == tableMap.columns() && known.defs().size() == width
                && r.remaining() >= (twoBitmaps ? 2 : 1) * bitmapBytes
                && known.logsSameBitmaps(r.array(), r.position(), twoBitmaps)) {
            // the same columns as the last event on this table (nearly always): its shape's bitmaps serve as they are
            before = known.before();
            after = known.after();
            r.skip((twoBitmaps ? 2 : 1) * bitmapBytes);
        } else {
            before = r.bitmap((int) width);
            after = twoBitmaps ? r.bitmap((int) width) : before;
        }
        // Inside a TRANSACTION_PAYLOAD no byte has an offset of its own in the file: errors name the payload event (-1).
        long rowsOffset = forcedChecksum == null ? r.absoluteOffset() : -1;
        byte[] rows;
        int rowsStart = 0;
        int rowsLength;
        if (compressed) {
            rows = Zlib.inflateMariaBlock(r, options.maxEventLength());
            rowsLength = rows.length;
        } else if (retainInput) {
            // the caller's array, which it promised never to change: the row images are read where they are
            rows = r.array();
            rowsStart = r.position();
            rowsLength = r.remaining();
            r.skip(rowsLength);
        } else {
            rows = r.remainingBytes();
            rowsLength = rows.length;
        }
        RowShape shape = null;
        if (tableMap != null && tableMap.columns().size() == width) {
            // the table map cache hands out the same column list while the table is unchanged: one shape serves
            shape = RowShape.of(entry.shape, tableMap.columns(), before, after);
            entry.shape = shape;
        }
        return new RowsEvent(h, kind, version, compressed, tableId, flags, extra, (int) width, before, after,
                tableMap, rows, rowsStart, rowsLength, source, rowsOffset, shape);
    }
}
