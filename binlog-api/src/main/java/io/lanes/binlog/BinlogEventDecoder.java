package io.lanes.binlog;

import io.lanes.binlog.gtid.MariaDbGtid;
import io.lanes.binlog.internal.ByteReader;
import io.lanes.binlog.internal.Charsets;
import io.lanes.binlog.internal.PostHeaders;
import io.lanes.binlog.internal.ServerVersion;
import io.lanes.binlog.internal.TableMapParser;
import io.lanes.binlog.internal.TaggedGtidParser;
import io.lanes.binlog.internal.VarLen;
import io.lanes.binlog.internal.Zlib;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
        return type == 15 || type == 19 || type == 164 || type == 1;
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
                    previous.table(), previous.columns(), previous.primaryKey(), previous.primaryKeyPrefixLengths());
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

    private int postHeaderLength(int type) {
        int n = fde == null ? -1 : fde.postHeaderLength(type);
        return n >= 0 ? n : PostHeaders.defaultLength(type);
    }

    private static void skipTo(ByteReader r, int index) {
        if (r.position() < index) {
            r.position(Math.min(index, r.limit()));
            if (index > r.limit()) {
                throw r.error("post-header longer than the event");
            }
        }
    }

    private BinlogEvent decodeBody(ByteReader r, EventHeader h, int type) {
        int ph = postHeaderLength(type);
        int bodyStart = r.position();
        switch (type) {
            case 1: return decodeStartV3(r, h);
            case 2: return decodeQuery(r, h, ph, false);
            case 165: return decodeQuery(r, h, postHeaderLength(165), true);
            case 3: return new StopEvent(h);
            case 4: {
                long pos = ph >= 8 ? r.i64() : 4;
                skipTo(r, bodyStart + ph);
                return new RotateEvent(h, pos, r.string(r.remaining(), StandardCharsets.UTF_8));
            }
            case 5: {
                skipTo(r, bodyStart + ph);
                return new IntVarEvent(h, r.u8(), r.i64());
            }
            case 13: {
                skipTo(r, bodyStart + ph);
                return new RandEvent(h, r.i64(), r.i64());
            }
            case 14: return decodeUserVar(r, h, bodyStart + ph);
            case 16: {
                skipTo(r, bodyStart + ph);
                return new XidEvent(h, r.i64());
            }
            case 19: {
                return decodeTableMap(r, h, ph);
            }
            case 20: case 21: case 22: case 23: case 24: case 25: case 30: case 31: case 32: case 39:
            case 166: case 167: case 168: case 169: case 170: case 171:
                return decodeRows(r, h, type, ph);
            case 26: {
                int incident = r.u16();
                skipTo(r, bodyStart + ph);
                String msg = r.hasRemaining() ? r.string(r.u8(), StandardCharsets.UTF_8) : "";
                return new IncidentEvent(h, incident, msg);
            }
            case 27: {
                skipTo(r, bodyStart + ph);
                return new HeartbeatEvent(h, r.string(r.remaining(), StandardCharsets.UTF_8), h.nextPosition());
            }
            // The next three types reserve a post-header length in the FDE but write self-describing fields from the start
            // of the body (as the server's own decoders read them).
            case 41: return decodeHeartbeatV2(r, h, bodyStart);
            case 28: return new IgnorableEvent(h);
            case 29: {
                skipTo(r, bodyStart + ph);
                if (r.hasRemaining()) {
                    r.skip(1); // a length byte that the server truncates at 255; the text runs to the end
                }
                return new RowsQueryEvent(h, r.string(r.remaining(), StandardCharsets.UTF_8));
            }
            case 33: case 34: return decodeGtid(r, h, type == 34);
            case 42: return decodeTaggedGtid(r, h, bodyStart);
            case 35: return decodePreviousGtids(r, h, bodyStart + ph);
            case 36: return decodeTransactionContext(r, h, bodyStart + ph);
            case 37: return decodeViewChange(r, h, bodyStart + ph);
            case 38: return decodeXaPrepare(r, h, bodyStart + ph);
            case 40: return decodeTransactionPayload(r, h, bodyStart);
            case 6: case 12: return decodeLoad(r, h, type, bodyStart + ph);
            case 8: {
                // the LOAD post-header (18 bytes) comes first; newer FDEs list 0 for the obsolete LOAD type
                r.skip(PostHeaders.defaultLength(6));
                long fileId = r.u32();
                return new CreateFileEvent(h, fileId, r.remainingBytes());
            }
            case 9: case 17: {
                long fileId = r.u32();
                skipTo(r, bodyStart + ph);
                byte[] block = r.remainingBytes();
                return type == 9 ? new AppendBlockEvent(h, fileId, block) : new BeginLoadQueryEvent(h, fileId, block);
            }
            case 10: return new ExecLoadEvent(h, r.u32());
            case 11: return new DeleteFileEvent(h, r.u32());
            case 18: return decodeQuery(r, h, ph, false);
            case 160: {
                skipTo(r, bodyStart + ph);
                return new MariaAnnotateRowsEvent(h, r.string(r.remaining(), StandardCharsets.UTF_8));
            }
            case 161: {
                long len = r.u32();
                skipTo(r, bodyStart + ph);
                r.checkAvailable(len);
                return new MariaBinlogCheckpointEvent(h, r.string((int) len, StandardCharsets.UTF_8));
            }
            case 162: return decodeMariaGtid(r, h);
            case 163: return decodeMariaGtidList(r, h, bodyStart + ph);
            case 164: {
                skipTo(r, bodyStart + ph);
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
        skipTo(r, bodyStart + ph);
        QueryStatusVars vars = statusLen == 0 ? QueryStatusVars.NONE : decodeStatusVars(r.slice(statusLen));
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

    private static QueryStatusVars decodeStatusVars(ByteReader s) {
        Long flags2 = null, sqlMode = null, tableMapForUpdate = null, masterDataWritten = null, ddlXid = null;
        Long mariaXid = null, saSeq = null;
        String catalog = null, timeZone = null, user = null, host = null;
        Integer incr = null, off = null, client = null, conn = null, server = null, lc = null, dbCs = null;
        Integer micros = null, utf8mb4 = null, requirePk = null, encryption = null, hrnow = null, flags3 = null;
        Boolean explicitTs = null;
        List<String> dbNames = null;
        int unknown = -1;
        loop:
        while (s.hasRemaining()) {
            int code = s.u8();
            switch (code) {
                case 0: flags2 = s.u32(); break;
                case 1: sqlMode = s.i64(); break;
                case 2: {
                    catalog = s.string(s.u8(), StandardCharsets.UTF_8);
                    s.skip(1);
                    break;
                }
                case 3: incr = s.u16(); off = s.u16(); break;
                case 4: client = s.u16(); conn = s.u16(); server = s.u16(); break;
                case 5: timeZone = s.string(s.u8(), StandardCharsets.UTF_8); break;
                case 6: catalog = s.string(s.u8(), StandardCharsets.UTF_8); break;
                case 7: lc = s.u16(); break;
                case 8: dbCs = s.u16(); break;
                case 9: tableMapForUpdate = s.i64(); break;
                case 10: masterDataWritten = s.u32(); break;
                case 11: {
                    user = s.string(s.u8(), StandardCharsets.UTF_8);
                    host = s.string(s.u8(), StandardCharsets.UTF_8);
                    break;
                }
                case 12: {
                    int n = s.u8();
                    dbNames = new ArrayList<>();
                    if (n <= 16) { // more than MAX_DBS_IN_EVENT_MTS (16) is logged as 254 with no names
                        for (int i = 0; i < n; i++) {
                            dbNames.add(s.nulTerminated(StandardCharsets.UTF_8));
                        }
                    }
                    break;
                }
                case 13: micros = s.u24(); break;
                case 16: explicitTs = s.u8() != 0; break;
                case 17: ddlXid = s.i64(); break;
                case 18: utf8mb4 = s.u16(); break;
                case 19: requirePk = s.u8(); break;
                case 20: encryption = s.u8(); break;
                case 128: hrnow = s.u24(); break;
                case 129: mariaXid = s.i64(); break;
                case 130: {
                    flags3 = s.u8();
                    if ((flags3 & (MariaGtidEvent.FL_COMMIT_ALTER | MariaGtidEvent.FL_ROLLBACK_ALTER)) != 0) {
                        saSeq = s.i64();
                    }
                    break;
                }
                default:
                    // As the server does: codes are written in increasing order, so the rest cannot be parsed.
                    unknown = code;
                    break loop;
            }
        }
        return new QueryStatusVars(flags2, sqlMode, catalog, incr, off, client, conn, server, timeZone, lc, dbCs,
                tableMapForUpdate, masterDataWritten, user, host, dbNames, micros, explicitTs, ddlXid, utf8mb4, requirePk,
                encryption, hrnow, mariaXid, flags3, saSeq, unknown);
    }

    private BinlogEvent decodeUserVar(ByteReader r, EventHeader h, int bodyStart) {
        skipTo(r, bodyStart);
        long nameLen = r.u32();
        r.checkAvailable(nameLen);
        String name = r.string((int) nameLen, StandardCharsets.UTF_8);
        boolean isNull = r.u8() != 0;
        if (isNull) {
            return new UserVarEvent(h, name, -1, ColumnDef.BINARY_CHARSET, null, 0);
        }
        int valueType = r.u8();
        int charset = (int) r.u32();
        long valueLen = r.u32();
        byte[] value = r.bytes(valueLen);
        int flags = r.hasRemaining() ? r.u8() : 0;
        return new UserVarEvent(h, name, valueType, charset, value, flags);
    }

    private BinlogEvent decodeHeartbeatV2(ByteReader r, EventHeader h, int bodyStart) {
        skipTo(r, bodyStart);
        String[] file = {""};
        long[] pos = {h.nextPosition()};
        readTaggedFields(r, (field, v) -> {
            if (field == 1) {
                file[0] = v.string(v.remaining(), StandardCharsets.UTF_8);
            } else if (field == 2) {
                pos[0] = v.packedLength();
            }
        });
        return new HeartbeatEvent(h, file[0], pos[0]);
    }

    /** Receives one field of a type-length-value list; {@code value} holds exactly the field's bytes. */
    @FunctionalInterface
    private interface TaggedField {
        void accept(long type, ByteReader value);
    }

    /**
     * Reads the type-length-value field list that newer events use (HEARTBEAT_V2, TRANSACTION_PAYLOAD): each field is a
     * packed type, a packed length and that many bytes; type 0 ends the list. Unknown types are skipped, so a newer
     * server's extra fields do not break the decoder; a length past the event's end is a format error.
     */
    private static void readTaggedFields(ByteReader r, TaggedField sink) {
        while (r.hasRemaining()) {
            long type = r.packedLength();
            if (type == 0) {
                return;
            }
            sink.accept(type, r.slice(r.packedSize()));
        }
    }

    private static UUID uuid(ByteReader r) {
        r.checkAvailable(16);
        long msb = r.uintBigEndian(8);
        long lsb = r.uintBigEndian(8);
        return new UUID(msb, lsb);
    }

    private BinlogEvent decodeGtid(ByteReader r, EventHeader h, boolean anonymous) {
        int flags = r.u8();
        UUID sid = uuid(r);
        long gno = r.i64();
        long lastCommitted = -1;
        long sequence = -1;
        long immediateTs = -1;
        long originalTs = -1;
        long trxLength = -1;
        long immediateVersion = -1;
        long originalVersion = -1;
        long ticket = -1;
        if (r.hasRemaining() && (r.array()[r.position()] & 0xff) == 2) { // logical timestamp type code (5.7.6+)
            r.skip(1);
            lastCommitted = r.i64();
            sequence = r.i64();
            if (r.remaining() >= 7) {
                immediateTs = r.uint(7);
                if ((immediateTs & (1L << 55)) != 0) {
                    immediateTs &= ~(1L << 55);
                    originalTs = r.uint(7);
                } else {
                    originalTs = immediateTs;
                }
            }
            if (r.hasRemaining()) {
                trxLength = r.packedLength();
            }
            if (r.remaining() >= 4) {
                immediateVersion = r.u32();
                if ((immediateVersion & (1L << 31)) != 0) {
                    immediateVersion &= ~(1L << 31);
                    originalVersion = r.u32();
                } else {
                    originalVersion = immediateVersion;
                }
            }
            if (r.remaining() >= 8) {
                ticket = r.i64();
            }
        }
        return new GtidEvent(h, anonymous, flags, sid, null, gno, lastCommitted, sequence, immediateTs, originalTs,
                trxLength, immediateVersion, originalVersion, ticket);
    }

    private BinlogEvent decodeTaggedGtid(ByteReader r, EventHeader h, int bodyStart) {
        skipTo(r, bodyStart);
        TaggedGtidParser.Fields f = TaggedGtidParser.parse(r.array(), r.position(), r.limit(),
                (index, problem) -> new BinlogFormatException(source, r.absoluteOffset(index), problem));
        UUID sid = f.uuid() == null ? new UUID(0, 0) : uuid(new ByteReader(f.uuid(), source, h.position()));
        long originalTs = f.originalCommitTimestamp() < 0 ? f.immediateCommitTimestamp() : f.originalCommitTimestamp();
        long originalVersion = f.originalServerVersion() < 0 ? f.immediateServerVersion() : f.originalServerVersion();
        return new GtidEvent(h, false, f.flags(), sid, f.tag(), f.gno(), f.lastCommitted(), f.sequenceNumber(),
                f.immediateCommitTimestamp(), originalTs, f.transactionLength(), f.immediateServerVersion(),
                originalVersion, f.commitGroupTicket());
    }

    private BinlogEvent decodePreviousGtids(ByteReader r, EventHeader h, int bodyStart) {
        skipTo(r, bodyStart);
        long word = r.i64();
        int format = (int) (word >>> 56);
        boolean tagged = format == 1;
        if (format > 1) {
            throw r.error("unknown GTID set format " + format);
        }
        long nSids = tagged ? (word >>> 8) & 0xffff_ffff_ffffL : word & 0x00ff_ffff_ffff_ffffL;
        if (nSids > r.remaining() / 24) {
            throw r.error("GTID set claims " + nSids + " UUIDs in " + r.remaining() + " bytes");
        }
        List<PreviousGtidsEvent.Entry> entries = new ArrayList<>((int) nSids);
        for (long i = 0; i < nSids; i++) {
            UUID sid = uuid(r);
            String tag = null;
            if (tagged) {
                long len = VarLen.readUnsigned(r);
                r.checkAvailable(len);
                tag = len == 0 ? null : r.string((int) len, StandardCharsets.UTF_8);
            }
            long n = r.i64();
            if (n < 0 || n > r.remaining() / 16) {
                throw r.error("GTID set claims " + n + " intervals in " + r.remaining() + " bytes");
            }
            List<PreviousGtidsEvent.Range> ranges = new ArrayList<>((int) n);
            for (long k = 0; k < n; k++) {
                long first = r.i64();
                long endExclusive = r.i64();
                ranges.add(new PreviousGtidsEvent.Range(first, endExclusive - 1));
            }
            entries.add(new PreviousGtidsEvent.Entry(sid, tag, ranges));
        }
        return new PreviousGtidsEvent(h, entries);
    }

    private BinlogEvent decodeTransactionContext(ByteReader r, EventHeader h, int bodyStart) {
        int uuidLen = r.u8();
        long threadId = r.u32();
        boolean gtidSpecified = r.u8() != 0;
        long snapshotLen = r.u32();
        long writeSetLen = r.u32();
        long readSetLen = r.u32();
        skipTo(r, bodyStart);
        String uuid = r.string(uuidLen, StandardCharsets.ISO_8859_1);
        byte[] snapshot = r.bytes(snapshotLen);
        List<String> write = readSetItems(r, writeSetLen);
        List<String> read = readSetItems(r, readSetLen);
        return new TransactionContextEvent(h, uuid, threadId, gtidSpecified, snapshot, write, read);
    }

    private static List<String> readSetItems(ByteReader r, long count) {
        if (count > r.remaining() / 2) {
            throw r.error("set claims " + count + " items in " + r.remaining() + " bytes");
        }
        List<String> items = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            items.add(r.string(r.u16(), StandardCharsets.ISO_8859_1));
        }
        return items;
    }

    private BinlogEvent decodeViewChange(ByteReader r, EventHeader h, int bodyStart) {
        byte[] id = r.bytes(40);
        int n = 0;
        while (n < id.length && id[n] != 0) {
            n++;
        }
        long seq = r.i64();
        long count = r.u32();
        skipTo(r, bodyStart);
        if (count > r.remaining() / 8) {
            throw r.error("certification info claims " + count + " entries in " + r.remaining() + " bytes");
        }
        Map<String, String> cert = new LinkedHashMap<>();
        for (long i = 0; i < count; i++) {
            long kl = r.u32();
            r.checkAvailable(kl);
            String key = r.string((int) kl, StandardCharsets.UTF_8);
            long vl = r.u32();
            r.checkAvailable(vl);
            cert.put(key, r.string((int) vl, StandardCharsets.UTF_8));
        }
        return new ViewChangeEvent(h, new String(id, 0, n, StandardCharsets.UTF_8), seq, cert);
    }

    private BinlogEvent decodeXaPrepare(ByteReader r, EventHeader h, int bodyStart) {
        skipTo(r, bodyStart);
        boolean onePhase = r.u8() != 0;
        int formatId = r.i32();
        long gl = r.u32();
        long bl = r.u32();
        if (gl > MAX_XA_PART || bl > MAX_XA_PART) {
            throw r.error("XA id parts of " + gl + " and " + bl + " bytes exceed " + MAX_XA_PART);
        }
        return new XaPrepareEvent(h, onePhase, formatId, r.bytes(gl), r.bytes(bl));
    }

    private BinlogEvent decodeTransactionPayload(ByteReader r, EventHeader h, int bodyStart) {
        skipTo(r, bodyStart);
        long[] fields = {-1, -1, -1, -1}; // indexed by field type: 1 payload size, 2 compression, 3 uncompressed size
        readTaggedFields(r, (field, v) -> {
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

    private BinlogEvent decodeLoad(ByteReader r, EventHeader h, int type, int bodyStart) {
        long threadId = r.u32();
        long execTime = r.u32();
        long skipLines = r.u32();
        int tableLen = r.u8();
        int dbLen = r.u8();
        long numFields = r.u32();
        skipTo(r, bodyStart);
        String fieldTerm, enclosed, lineTerm, lineStart, escaped;
        int optFlags;
        if (type == EventType.NEW_LOAD.code()) {
            fieldTerm = r.string(r.u8(), StandardCharsets.ISO_8859_1);
            enclosed = r.string(r.u8(), StandardCharsets.ISO_8859_1);
            lineTerm = r.string(r.u8(), StandardCharsets.ISO_8859_1);
            lineStart = r.string(r.u8(), StandardCharsets.ISO_8859_1);
            escaped = r.string(r.u8(), StandardCharsets.ISO_8859_1);
            optFlags = r.u8();
        } else {
            fieldTerm = r.string(1, StandardCharsets.ISO_8859_1);
            enclosed = r.string(1, StandardCharsets.ISO_8859_1);
            lineTerm = r.string(1, StandardCharsets.ISO_8859_1);
            lineStart = r.string(1, StandardCharsets.ISO_8859_1);
            escaped = r.string(1, StandardCharsets.ISO_8859_1);
            optFlags = r.u8();
            r.u8(); // empty_flags
        }
        r.checkAvailable(numFields);
        int[] lengths = new int[(int) numFields];
        for (int i = 0; i < lengths.length; i++) {
            lengths[i] = r.u8();
        }
        List<String> fields = new ArrayList<>(lengths.length);
        for (int len : lengths) {
            fields.add(r.string(len, StandardCharsets.UTF_8));
            r.skip(1);
        }
        String table = r.string(tableLen, StandardCharsets.UTF_8);
        r.skip(1);
        String db = r.string(dbLen, StandardCharsets.UTF_8);
        r.skip(1);
        String file = r.string(r.remaining(), StandardCharsets.UTF_8);
        if (file.endsWith("\0")) {
            file = file.substring(0, file.length() - 1);
        }
        return new LoadEvent(h, threadId, execTime, skipLines, table, db, fields, file, fieldTerm, enclosed, lineTerm,
                lineStart, escaped, optFlags);
    }

    private BinlogEvent decodeMariaGtid(ByteReader r, EventHeader h) {
        long seq = r.i64();
        long domain = r.u32();
        int flags = r.u8();
        long commitId = -1;
        long formatId = -1;
        byte[] gtrid = null;
        byte[] bqual = null;
        if ((flags & MariaGtidEvent.FL_GROUP_COMMIT_ID) != 0) {
            commitId = r.i64();
        }
        if ((flags & (MariaGtidEvent.FL_PREPARED_XA | MariaGtidEvent.FL_COMPLETED_XA)) != 0) {
            formatId = r.u32();
            int gl = r.u8();
            int bl = r.u8();
            if (gl > MAX_XA_PART || bl > MAX_XA_PART) {
                throw r.error("XA id parts of " + gl + " and " + bl + " bytes exceed " + MAX_XA_PART);
            }
            gtrid = r.bytes(gl);
            bqual = r.bytes(bl);
        }
        int extra = 0;
        int engines = 0;
        long saSeq = -1;
        long threadId = -1;
        if (r.hasRemaining()) {
            extra = r.u8();
            if ((extra & MariaGtidEvent.FL_EXTRA_MULTI_ENGINE) != 0) {
                engines = r.u8();
            }
            if ((extra & (MariaGtidEvent.FL_COMMIT_ALTER | MariaGtidEvent.FL_ROLLBACK_ALTER)) != 0) {
                saSeq = r.i64();
            }
            if ((extra & MariaGtidEvent.FL_EXTRA_THREAD_ID) != 0) {
                threadId = r.u32();
            }
        }
        return new MariaGtidEvent(h, seq, domain, flags, commitId, formatId, gtrid, bqual, extra, engines, saSeq,
                threadId);
    }

    private BinlogEvent decodeMariaGtidList(ByteReader r, EventHeader h, int bodyStart) {
        long word = r.u32();
        skipTo(r, bodyStart);
        long count = word & 0x0fff_ffffL;
        if (count > r.remaining() / 16) {
            throw r.error("GTID list claims " + count + " GTIDs in " + r.remaining() + " bytes");
        }
        List<MariaDbGtid> gtids = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            gtids.add(new MariaDbGtid(r.u32(), r.u32(), r.i64()));
        }
        return new MariaGtidListEvent(h, (int) (word >>> 28), gtids);
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
        skipTo(r, bodyStart + ph);
        long width = r.packedLength();
        if (width <= 0 || width > 0xffff) {
            throw r.error("rows event column count " + width);
        }
        RowsEvent.Kind kind;
        switch (type) {
            case 20: case 23: case 30: case 166: case 169: kind = RowsEvent.Kind.WRITE; break;
            case 21: case 24: case 31: case 167: case 170: kind = RowsEvent.Kind.UPDATE; break;
            case 39: kind = RowsEvent.Kind.PARTIAL_UPDATE; break;
            default: kind = RowsEvent.Kind.DELETE;
        }
        int version = type <= 22 ? 0 : (type <= 25 || (type >= 166 && type <= 168)) ? 1 : 2;
        boolean compressed = type >= 166;
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
