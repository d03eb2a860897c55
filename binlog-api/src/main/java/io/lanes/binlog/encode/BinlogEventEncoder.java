package io.lanes.binlog.encode;

import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.ChecksumAlgorithm;
import io.lanes.binlog.ColumnDef;
import io.lanes.binlog.ColumnType;
import io.lanes.binlog.EventHeader;
import io.lanes.binlog.EventType;
import io.lanes.binlog.FormatDescriptionEvent;
import io.lanes.binlog.GtidEvent;
import io.lanes.binlog.MariaGtidEvent;
import io.lanes.binlog.QueryEvent;
import io.lanes.binlog.QueryStatusVars;
import io.lanes.binlog.RotateEvent;
import io.lanes.binlog.Row;
import io.lanes.binlog.RowsEvent;
import io.lanes.binlog.StopEvent;
import io.lanes.binlog.TableMapEvent;
import io.lanes.binlog.XidEvent;
import io.lanes.binlog.internal.Charsets;
import io.lanes.binlog.internal.ColumnValueDecoder;
import io.lanes.binlog.internal.ColumnValueEncoder;
import io.lanes.binlog.internal.ColumnValueEncoder.Sink;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.zip.CRC32;

/**
 * Turns typed events back into binlog v4 bytes: the inverse of {@link io.lanes.binlog.BinlogEventDecoder} for
 * FORMAT_DESCRIPTION, QUERY (with status variables), XID, ROTATE, STOP, TABLE_MAP (with optional metadata), WRITE, UPDATE
 * and DELETE_ROWS v1 and v2, MySQL GTID and ANONYMOUS_GTID, and MariaDB GTID events. Decoding what it encodes gives back
 * equal events.
 *
 * <p>The layout follows a FORMAT_DESCRIPTION event given at construction (post-header lengths, checksum algorithm), as a
 * server's events follow its own. Every event gets a v4 common header whose {@code event_length} is the event's size and
 * whose {@code log_pos} is {@code position + event_length}; the header's timestamp, server id and flags come from the
 * event (or the caller). With CRC32, each event ends with the CRC32 of its other bytes (for FORMAT_DESCRIPTION, computed
 * with LOG_EVENT_BINLOG_IN_USE_F cleared, as the server does).
 *
 * <p>Immutable apart from a CRC32 scratch object: one encoder belongs to one thread.
 *
 * @see BinlogWriter for writing whole files and synthesizing transactions
 */
public final class BinlogEventEncoder {
    private static final int SIGNEDNESS = 1;
    private static final int DEFAULT_CHARSET = 2;
    private static final int COLUMN_CHARSET = 3;
    private static final int COLUMN_NAME = 4;
    private static final int SET_STR_VALUE = 5;
    private static final int ENUM_STR_VALUE = 6;
    private static final int GEOMETRY_TYPE = 7;
    private static final int SIMPLE_PRIMARY_KEY = 8;
    private static final int PRIMARY_KEY_WITH_PREFIX = 9;
    private static final int ENUM_AND_SET_DEFAULT_CHARSET = 10;
    private static final int ENUM_AND_SET_COLUMN_CHARSET = 11;
    private static final int COLUMN_VISIBILITY = 12;
    private static final int VECTOR_DIMENSIONALITY = 13;

    /** Which TABLE_MAP optional metadata to write (the server's {@code binlog_row_metadata}). */
    public enum RowMetadata {
        /** None: only types, metadata and nullability (MariaDB's default, NO_LOG). */
        NONE,
        /** MySQL's MINIMAL: signedness, character sets, geometry types, vector dimensions. */
        MINIMAL,
        /** Everything the column definitions know: also names, ENUM/SET members, primary key, visibility. */
        FULL
    }

    private final FormatDescriptionEvent format;
    private final RowMetadata rowMetadata;
    private final CRC32 crc = new CRC32();

    /**
     * @param format the FORMAT_DESCRIPTION event the encoded events follow (its header is not used)
     * @param rowMetadata the TABLE_MAP optional metadata to write
     */
    public BinlogEventEncoder(FormatDescriptionEvent format, RowMetadata rowMetadata) {
        this.format = Objects.requireNonNull(format, "format");
        this.rowMetadata = Objects.requireNonNull(rowMetadata, "rowMetadata");
        if (format.headerLength() != EventHeader.LENGTH_V4) {
            throw new IllegalArgumentException("only the v4 common header (19 bytes) is written");
        }
    }

    /** An encoder for a server flavour's layout with CRC32 checksums and full row metadata. */
    public static BinlogEventEncoder of(BinlogFlavor flavor) {
        return new BinlogEventEncoder(formatDescription(flavor, ChecksumAlgorithm.CRC32, 0, 1, 0), RowMetadata.FULL);
    }

    /**
     * The FORMAT_DESCRIPTION event a server of this flavour writes at the start of a log (position 4).
     *
     * @param createTimestamp the log's creation time in seconds (0 for a log that is not new)
     */
    public static FormatDescriptionEvent formatDescription(BinlogFlavor flavor, ChecksumAlgorithm checksum,
            long timestamp, long serverId, long createTimestamp) {
        if (checksum == ChecksumAlgorithm.UNDEFINED) {
            throw new IllegalArgumentException("MySQL 8 and MariaDB 10 logs announce OFF or CRC32");
        }
        byte[] ph = flavor.postHeaderLengths();
        long length = EventHeader.LENGTH_V4 + 57 + ph.length + 1 + 4;
        EventHeader h = new EventHeader(4, timestamp, EventType.FORMAT_DESCRIPTION.code(), serverId, length, 4 + length, 0);
        return new FormatDescriptionEvent(h, 4, flavor.serverVersion(), createTimestamp, EventHeader.LENGTH_V4, ph,
                checksum);
    }

    public FormatDescriptionEvent format() {
        return format;
    }

    public ChecksumAlgorithm checksum() {
        return format.checksumAlgorithm();
    }

    public RowMetadata rowMetadata() {
        return rowMetadata;
    }

    /**
     * Encodes a whole event to be placed at {@code position}. Supported: {@link FormatDescriptionEvent},
     * {@link QueryEvent} (not compressed), {@link XidEvent}, {@link RotateEvent}, {@link StopEvent},
     * {@link TableMapEvent}, {@link RowsEvent} (WRITE/UPDATE/DELETE v1 and v2, not compressed; its rows are re-encoded
     * from their decoded values), {@link GtidEvent} (not tagged) and {@link MariaGtidEvent}.
     *
     * @throws UnsupportedOperationException for other event types
     * @throws IllegalArgumentException when a field cannot be written (a value the column cannot hold, a name over 255
     *     bytes, ...)
     */
    public byte[] encode(BinlogEvent event, long position) {
        EventHeader h = event.header();
        if (event instanceof FormatDescriptionEvent fde) {
            return frame(h.timestamp(), EventType.FORMAT_DESCRIPTION.code(), h.serverId(), h.flags(),
                    formatDescriptionBody(fde), position, fde.checksumAlgorithm() != ChecksumAlgorithm.UNDEFINED);
        }
        Sink body = new Sink();
        int type;
        if (event instanceof QueryEvent q) {
            if (q.compressed()) {
                throw new UnsupportedOperationException("QUERY_COMPRESSED events are not encoded");
            }
            type = EventType.QUERY.code();
            query(body, q.threadId(), q.executionTime(), q.errorCode(), q.database(), q.sql(), q.statusVars());
        } else if (event instanceof XidEvent x) {
            type = EventType.XID.code();
            body.i64(x.xid());
        } else if (event instanceof RotateEvent r) {
            type = EventType.ROTATE.code();
            rotate(body, r.nextPosition(), r.nextFile());
        } else if (event instanceof StopEvent) {
            type = EventType.STOP.code();
        } else if (event instanceof TableMapEvent t) {
            type = EventType.TABLE_MAP.code();
            tableMap(body, t);
        } else if (event instanceof RowsEvent r) {
            RowImages images = imagesOf(r);
            type = rowsType(images.kind(), images.version());
            rows(body, images);
        } else if (event instanceof GtidEvent g) {
            if (g.tag() != null) {
                throw new UnsupportedOperationException("GTID_TAGGED events are not encoded");
            }
            type = g.anonymous() ? EventType.ANONYMOUS_GTID.code() : EventType.GTID.code();
            mysqlGtid(body, g);
        } else if (event instanceof MariaGtidEvent g) {
            type = EventType.MARIA_GTID.code();
            mariaGtid(body, g);
        } else {
            throw new UnsupportedOperationException(event.type() + " events are not encoded");
        }
        return frame(h.timestamp(), type, h.serverId(), h.flags(), body, position, true);
    }

    /** Encodes a row event from Java values; see {@link RowImages}. */
    public byte[] encodeRows(RowImages images, long timestamp, long serverId, int headerFlags, long position) {
        Sink body = new Sink();
        rows(body, images);
        return frame(timestamp, rowsType(images.kind(), images.version()), serverId, headerFlags, body, position, true);
    }

    private static RowImages imagesOf(RowsEvent r) {
        if (r.isCompressed() || r.kind() == RowsEvent.Kind.PARTIAL_UPDATE || r.version() == 0) {
            throw new UnsupportedOperationException("compressed, partial-update and v0 row events are not encoded");
        }
        List<Object[]> before = r.hasBeforeImage() ? new ArrayList<>() : null;
        List<Object[]> after = r.hasAfterImage() ? new ArrayList<>() : null;
        for (Row row : r.rows()) {
            if (before != null) {
                before.add(row.before().toArray());
            }
            if (after != null) {
                after.add(row.after().toArray());
            }
        }
        return new RowImages(r.kind(), r.version(), r.tableMap(), r.flags(), r.extraData(), r.includedColumns(),
                r.includedColumnsAfter(), before, after);
    }

    static int rowsType(RowsEvent.Kind kind, int version) {
        int base = version == 1 ? EventType.WRITE_ROWS_V1.code() : EventType.WRITE_ROWS_V2.code();
        switch (kind) {
            case WRITE: return base;
            case UPDATE: return base + 1;
            case DELETE: return base + 2;
            default: throw new IllegalArgumentException(kind + " is not encoded");
        }
    }

    // ---------------------------------------------------------------------------------------------------- framing

    /**
     * Adds the common header (and checksum, when the format has one) to an event body.
     *
     * @param checksummed whether this event gets the format's checksum (FORMAT_DESCRIPTION always carries the 4 bytes)
     */
    byte[] frame(long timestamp, int type, long serverId, int flags, Sink body, long position, boolean checksummed) {
        boolean isFde = type == EventType.FORMAT_DESCRIPTION.code();
        int trailer = isFde ? (checksummed ? 4 : 0) : format.checksumAlgorithm().trailerLength();
        long length = EventHeader.LENGTH_V4 + (long) body.size() + trailer;
        if (length > 0xffff_ffffL) {
            throw new IllegalArgumentException("event of " + length + " bytes exceeds 4 GiB");
        }
        byte[] out = new byte[(int) length];
        Sink h = new Sink(EventHeader.LENGTH_V4);
        h.u32(timestamp).u8(type).u32(serverId).u32(length).u32(position + length).u16(flags);
        System.arraycopy(h.array(), 0, out, 0, EventHeader.LENGTH_V4);
        System.arraycopy(body.array(), 0, out, EventHeader.LENGTH_V4, body.size());
        if (trailer == 4) {
            crc.reset();
            if (isFde && (flags & EventHeader.FLAG_BINLOG_IN_USE) != 0) {
                // the server computes this checksum before it sets "in use"; readers clear the flag to check
                crc.update(out, 0, 17);
                crc.update(out[17] & ~EventHeader.FLAG_BINLOG_IN_USE);
                crc.update(out, 18, out.length - 22);
            } else {
                crc.update(out, 0, out.length - 4);
            }
            long v = crc.getValue();
            int at = out.length - 4;
            out[at] = (byte) v;
            out[at + 1] = (byte) (v >>> 8);
            out[at + 2] = (byte) (v >>> 16);
            out[at + 3] = (byte) (v >>> 24);
        }
        return out;
    }

    /** The post-header length the format announces for a type, padding a shorter fixed part we write. */
    private void padPostHeader(Sink body, int bodyStart, int type) {
        int ph = format.postHeaderLength(type);
        if (ph > body.size() - bodyStart) {
            body.zeros(ph - (body.size() - bodyStart));
        }
    }

    // ------------------------------------------------------------------------------------------------- event bodies

    private static Sink formatDescriptionBody(FormatDescriptionEvent fde) {
        Sink b = new Sink(128);
        b.u16(fde.binlogVersion());
        byte[] version = fde.serverVersion().getBytes(StandardCharsets.ISO_8859_1);
        if (version.length > 49) {
            throw new IllegalArgumentException("server version over 49 bytes: " + fde.serverVersion());
        }
        b.bytes(version).zeros(50 - version.length);
        b.u32(fde.createTimestamp()).u8(fde.headerLength()).bytes(fde.postHeaderLengths());
        switch (fde.checksumAlgorithm()) {
            case OFF: b.u8(0); break;
            case CRC32: b.u8(1); break;
            default: break;
        }
        return b;
    }

    void rotate(Sink b, long nextPosition, String nextFile) {
        int start = b.size();
        b.i64(nextPosition);
        padPostHeader(b, start, EventType.ROTATE.code());
        b.bytes(nextFile.getBytes(StandardCharsets.UTF_8));
    }

    void query(Sink b, long threadId, long executionTime, int errorCode, String database, String sql,
            QueryStatusVars vars) {
        int start = b.size();
        byte[] db = database.getBytes(StandardCharsets.UTF_8);
        if (db.length > 255) {
            throw new IllegalArgumentException("database name over 255 bytes");
        }
        Sink status = new Sink(64);
        statusVars(status, vars);
        if (status.size() > 0xffff) {
            throw new IllegalArgumentException("status variables over 65535 bytes");
        }
        b.u32(threadId).u32(executionTime).u8(db.length).u16(errorCode).u16(status.size());
        padPostHeader(b, start, EventType.QUERY.code());
        b.bytes(status.array(), 0, status.size()).bytes(db).u8(0);
        int client = vars.charsetClient() == null ? -1 : vars.charsetClient();
        b.bytes(sql.getBytes(Charsets.forCollation(client)));
    }

    /** Status variables in the order the servers write them; null fields are left out. */
    private static void statusVars(Sink s, QueryStatusVars v) {
        if (v.flags2() != null) {
            s.u8(0).u32(v.flags2());
        }
        if (v.sqlMode() != null) {
            s.u8(1).i64(v.sqlMode());
        }
        if (v.catalog() != null) {
            s.u8(6);
            shortString(s, v.catalog());
        }
        if (v.autoIncrementIncrement() != null || v.autoIncrementOffset() != null) {
            s.u8(3).u16(orZero(v.autoIncrementIncrement())).u16(orZero(v.autoIncrementOffset()));
        }
        if (v.charsetClient() != null || v.collationConnection() != null || v.collationServer() != null) {
            s.u8(4).u16(orZero(v.charsetClient())).u16(orZero(v.collationConnection())).u16(orZero(v.collationServer()));
        }
        if (v.timeZone() != null) {
            s.u8(5);
            shortString(s, v.timeZone());
        }
        if (v.lcTimeNames() != null) {
            s.u8(7).u16(v.lcTimeNames());
        }
        if (v.charsetDatabase() != null) {
            s.u8(8).u16(v.charsetDatabase());
        }
        if (v.tableMapForUpdate() != null) {
            s.u8(9).i64(v.tableMapForUpdate());
        }
        if (v.masterDataWritten() != null) {
            s.u8(10).u32(v.masterDataWritten());
        }
        if (v.invokerUser() != null || v.invokerHost() != null) {
            s.u8(11);
            shortString(s, v.invokerUser() == null ? "" : v.invokerUser());
            shortString(s, v.invokerHost() == null ? "" : v.invokerHost());
        }
        if (v.updatedDbNames() != null) {
            s.u8(12);
            if (v.updatedDbNames().isEmpty() || v.updatedDbNames().size() > 16) {
                s.u8(254); // OVER_MAX_DBS_IN_EVENT_MTS: no names follow
            } else {
                s.u8(v.updatedDbNames().size());
                for (String name : v.updatedDbNames()) {
                    s.bytes(name.getBytes(StandardCharsets.UTF_8)).u8(0);
                }
            }
        }
        if (v.microseconds() != null) {
            s.u8(13).le(v.microseconds(), 3);
        }
        if (v.explicitDefaultsForTimestamp() != null) {
            s.u8(16).u8(v.explicitDefaultsForTimestamp() ? 1 : 0);
        }
        if (v.ddlXid() != null) {
            s.u8(17).i64(v.ddlXid());
        }
        if (v.defaultCollationForUtf8mb4() != null) {
            s.u8(18).u16(v.defaultCollationForUtf8mb4());
        }
        if (v.sqlRequirePrimaryKey() != null) {
            s.u8(19).u8(v.sqlRequirePrimaryKey());
        }
        if (v.defaultTableEncryption() != null) {
            s.u8(20).u8(v.defaultTableEncryption());
        }
        if (v.hrnowMicroseconds() != null) {
            s.u8(128).le(v.hrnowMicroseconds(), 3);
        }
        if (v.mariaXid() != null) {
            s.u8(129).i64(v.mariaXid());
        }
        if (v.mariaGtidFlags3() != null) {
            s.u8(130).u8(v.mariaGtidFlags3());
            if ((v.mariaGtidFlags3() & (MariaGtidEvent.FL_COMMIT_ALTER | MariaGtidEvent.FL_ROLLBACK_ALTER)) != 0) {
                s.i64(v.mariaStartAlterSeqNo() == null ? 0 : v.mariaStartAlterSeqNo());
            }
        }
    }

    private static int orZero(Integer v) {
        return v == null ? 0 : v;
    }

    private static void shortString(Sink s, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        if (b.length > 255) {
            throw new IllegalArgumentException("string over 255 bytes: " + text);
        }
        s.u8(b.length).bytes(b);
    }

    void mysqlGtid(Sink b, GtidEvent g) {
        int start = b.size();
        b.u8(g.flags());
        UUID sid = g.sourceId() == null ? new UUID(0, 0) : g.sourceId();
        b.be(sid.getMostSignificantBits(), 8).be(sid.getLeastSignificantBits(), 8);
        b.i64(g.gno());
        if (g.sequenceNumber() >= 0 || g.lastCommitted() >= 0) {
            b.u8(2).i64(g.lastCommitted()).i64(g.sequenceNumber());
            if (g.immediateCommitTimestamp() >= 0) {
                long imm = g.immediateCommitTimestamp();
                long orig = g.originalCommitTimestamp() < 0 ? imm : g.originalCommitTimestamp();
                if (imm >>> 55 != 0 || orig >>> 55 != 0) {
                    throw new IllegalArgumentException("commit timestamps must fit 55 bits");
                }
                if (orig != imm) {
                    b.le(imm | 1L << 55, 7).le(orig, 7);
                } else {
                    b.le(imm, 7);
                }
                if (g.transactionLength() >= 0) {
                    b.packed(g.transactionLength());
                    if (g.immediateServerVersion() >= 0) {
                        long imv = g.immediateServerVersion();
                        long orv = g.originalServerVersion() < 0 ? imv : g.originalServerVersion();
                        if (orv != imv) {
                            b.u32(imv | 1L << 31).u32(orv);
                        } else {
                            b.u32(imv);
                        }
                        if (g.commitGroupTicket() >= 0) {
                            b.i64(g.commitGroupTicket());
                        }
                    }
                }
            }
        }
        padPostHeader(b, start, EventType.GTID.code());
    }

    void mariaGtid(Sink b, MariaGtidEvent g) {
        int start = b.size();
        int flags = g.flags();
        b.i64(g.sequence()).u32(g.domainId()).u8(flags);
        if ((flags & MariaGtidEvent.FL_GROUP_COMMIT_ID) != 0) {
            b.i64(g.commitId());
        }
        if ((flags & (MariaGtidEvent.FL_PREPARED_XA | MariaGtidEvent.FL_COMPLETED_XA)) != 0) {
            byte[] gtrid = g.xaGtrid() == null ? new byte[0] : g.xaGtrid();
            byte[] bqual = g.xaBqual() == null ? new byte[0] : g.xaBqual();
            if (gtrid.length > 64 || bqual.length > 64) {
                throw new IllegalArgumentException("XA gtrid and bqual are at most 64 bytes");
            }
            b.u32(g.xaFormatId()).u8(gtrid.length).u8(bqual.length).bytes(gtrid).bytes(bqual);
        }
        int extra = g.extraFlags();
        if (extra != 0) {
            b.u8(extra);
            if ((extra & MariaGtidEvent.FL_EXTRA_MULTI_ENGINE) != 0) {
                b.u8(g.extraEngines());
            }
            if ((extra & (MariaGtidEvent.FL_COMMIT_ALTER | MariaGtidEvent.FL_ROLLBACK_ALTER)) != 0) {
                b.i64(g.startAlterSequence());
            }
            if ((extra & MariaGtidEvent.FL_EXTRA_THREAD_ID) != 0) {
                b.u32(g.threadId());
            }
        }
        if (b.size() - start < 19) {
            b.zeros(19 - (b.size() - start)); // GTID_HEADER_LEN: the server pads a short event with zeros
        }
    }

    // ------------------------------------------------------------------------------------------------- TABLE_MAP

    void tableMap(Sink b, TableMapEvent t) {
        int start = b.size();
        int ph = format.postHeaderLength(EventType.TABLE_MAP.code());
        if (ph == 6) {
            b.u32(t.tableId());
        } else {
            b.le(t.tableId(), 6);
        }
        b.u16(t.flags());
        padPostHeader(b, start, EventType.TABLE_MAP.code());
        shortString(b, t.schema());
        b.u8(0);
        shortString(b, t.table());
        b.u8(0);
        List<ColumnDef> cols = t.columns();
        int n = cols.size();
        if (n == 0 || n > 0xffff) {
            throw new IllegalArgumentException("a table has 1..65535 columns, not " + n);
        }
        b.packed(n);
        for (ColumnDef c : cols) {
            b.u8(c.type().code());
        }
        Sink meta = new Sink(n * 2);
        for (ColumnDef c : cols) {
            writeMeta(meta, c.type().code(), c.meta());
        }
        b.packed(meta.size()).bytes(meta.array(), 0, meta.size());
        BitSet nullable = new BitSet(n);
        for (int i = 0; i < n; i++) {
            nullable.set(i, cols.get(i).nullable());
        }
        bitmap(b, nullable, n);
        if (rowMetadata != RowMetadata.NONE) {
            optionalMetadata(b, t);
        }
    }

    private static void writeMeta(Sink m, int type, int meta) {
        switch (type) {
            case 4: case 5: case 17: case 18: case 19: case 242: case 245: case 249: case 250: case 251: case 252:
            case 255: case 140: // 140: MariaDB BLOB_COMPRESSED
                m.u8(meta);
                return;
            case 15: case 253: case 16: case 141: // 141: MariaDB VARCHAR_COMPRESSED
                m.u16(meta);
                return;
            case 246: case 254: case 247: case 248:
                m.u8(meta >>> 8).u8(meta);
                return;
            case 20:
                m.u8(meta >>> 16);
                writeMeta(m, meta >>> 16, meta & 0xffff);
                return;
            default:
        }
    }

    /** A bitmap as the server writes row bitmaps: bit i in byte i/8, least significant first. */
    private static void bitmap(Sink b, BitSet bits, int n) {
        int bytes = (n + 7) / 8;
        for (int i = 0; i < bytes; i++) {
            int v = 0;
            for (int k = 0; k < 8; k++) {
                if (bits.get(i * 8 + k) && i * 8 + k < n) {
                    v |= 1 << k;
                }
            }
            b.u8(v);
        }
    }

    /** A bitmap as optional metadata writes it: most significant bit first. */
    private static byte[] msbBitmap(boolean[] bits) {
        byte[] out = new byte[(bits.length + 7) / 8];
        for (int i = 0; i < bits.length; i++) {
            if (bits[i]) {
                out[i / 8] |= (byte) (0x80 >>> (i % 8));
            }
        }
        return out;
    }

    private static int realType(ColumnDef c) {
        if (c.type() == ColumnType.STRING && c.meta() >= 256) {
            int real = ColumnValueDecoder.stringRealType(c.meta());
            if (real == ColumnType.ENUM.code() || real == ColumnType.SET.code()) {
                return real;
            }
        }
        return c.type().code();
    }

    /** The columns charset metadata covers: the parser's own rule, so what is written is what is read. */
    private static boolean isCharacter(int realType, boolean mariaDb) {
        return io.lanes.binlog.internal.TableMapParser.isCharacter(realType, mariaDb);
    }

    private static void field(Sink b, int type, Sink value) {
        b.u8(type).packed(value.size()).bytes(value.array(), 0, value.size());
    }

    private void optionalMetadata(Sink b, TableMapEvent t) {
        List<ColumnDef> cols = t.columns();
        int n = cols.size();
        boolean full = rowMetadata == RowMetadata.FULL;
        // SIGNEDNESS: one bit per numeric column
        List<Boolean> signs = new ArrayList<>();
        for (ColumnDef c : cols) {
            if (io.lanes.binlog.internal.TableMapParser.isNumeric(c.type().code(), format.isMariaDb())) {
                signs.add(c.unsigned());
            }
        }
        if (!signs.isEmpty()) {
            boolean[] bits = new boolean[signs.size()];
            for (int i = 0; i < bits.length; i++) {
                bits[i] = signs.get(i);
            }
            field(b, SIGNEDNESS, new Sink().bytes(msbBitmap(bits)));
        }
        charsets(b, cols, false, format.isMariaDb());
        if (full) {
            if (cols.stream().allMatch(c -> c.name() != null)) {
                Sink names = new Sink();
                for (ColumnDef c : cols) {
                    byte[] name = c.name().getBytes(StandardCharsets.UTF_8);
                    names.packed(name.length).bytes(name);
                }
                field(b, COLUMN_NAME, names);
            } else if (cols.stream().anyMatch(c -> c.name() != null)) {
                throw new IllegalArgumentException(t.qualifiedName() + ": either every column has a name or none");
            }
            strValues(b, t, SET_STR_VALUE, ColumnType.SET.code());
            strValues(b, t, ENUM_STR_VALUE, ColumnType.ENUM.code());
        }
        perTypeNumbers(b, t, GEOMETRY_TYPE, ColumnType.GEOMETRY, true);
        if (full && !t.primaryKey().isEmpty()) {
            Sink pk = new Sink();
            boolean prefixed = t.primaryKeyPrefixLengths().stream().anyMatch(p -> p != 0);
            for (int i = 0; i < t.primaryKey().size(); i++) {
                pk.packed(t.primaryKey().get(i));
                if (prefixed) {
                    pk.packed(t.primaryKeyPrefixLengths().get(i));
                }
            }
            field(b, prefixed ? PRIMARY_KEY_WITH_PREFIX : SIMPLE_PRIMARY_KEY, pk);
        }
        if (full) {
            charsets(b, cols, true, format.isMariaDb());
            if (cols.stream().anyMatch(c -> !c.visible())) {
                boolean[] bits = new boolean[n];
                for (int i = 0; i < n; i++) {
                    bits[i] = cols.get(i).visible();
                }
                field(b, COLUMN_VISIBILITY, new Sink().bytes(msbBitmap(bits)));
            }
        }
        perTypeNumbers(b, t, VECTOR_DIMENSIONALITY, ColumnType.VECTOR, false);
    }

    private static void perTypeNumbers(Sink b, TableMapEvent t, int fieldType, ColumnType type, boolean geometry) {
        List<ColumnDef> of = t.columns().stream().filter(c -> c.type() == type).toList();
        if (of.isEmpty()) {
            return;
        }
        boolean all = of.stream().allMatch(c -> (geometry ? c.geometryType() : c.vectorDimensions()) >= 0);
        boolean none = of.stream().allMatch(c -> (geometry ? c.geometryType() : c.vectorDimensions()) < 0);
        if (!all && !none) {
            throw new IllegalArgumentException(t.qualifiedName() + ": either every " + type + " column has its "
                    + (geometry ? "geometry type" : "dimensions") + " or none");
        }
        if (all) {
            Sink v = new Sink();
            for (ColumnDef c : of) {
                v.packed(geometry ? c.geometryType() : c.vectorDimensions());
            }
            field(b, fieldType, v);
        }
    }

    private static void strValues(Sink b, TableMapEvent t, int fieldType, int realType) {
        List<ColumnDef> of = t.columns().stream().filter(c -> realType(c) == realType).toList();
        if (of.isEmpty()) {
            return;
        }
        boolean isSet = realType == ColumnType.SET.code();
        long known = of.stream().filter(c -> (isSet ? c.setValues() : c.enumValues()) != null).count();
        if (known == 0) {
            return;
        }
        if (known != of.size()) {
            throw new IllegalArgumentException(t.qualifiedName() + ": either every " + (isSet ? "SET" : "ENUM")
                    + " column has its member names or none");
        }
        Sink v = new Sink();
        for (ColumnDef c : of) {
            List<String> names = isSet ? c.setValues() : c.enumValues();
            v.packed(names.size());
            // in the column's character set, as the server writes them (UTF-8 when it is unknown or binary)
            java.nio.charset.Charset cs = io.lanes.binlog.value.MysqlCharsets.javaCharset(c.charsetId());
            for (String name : names) {
                byte[] bytes = name.getBytes(cs == null ? StandardCharsets.UTF_8 : cs);
                v.packed(bytes.length).bytes(bytes);
            }
        }
        field(b, fieldType, v);
    }

    /** DEFAULT_CHARSET when every selected column has the same collation, else COLUMN_CHARSET. */
    private static void charsets(Sink b, List<ColumnDef> cols, boolean enumSet, boolean mariaDb) {
        List<ColumnDef> of = cols.stream().filter(c -> enumSet
                ? realType(c) == ColumnType.ENUM.code() || realType(c) == ColumnType.SET.code()
                : isCharacter(realType(c), mariaDb)).toList();
        if (of.isEmpty() || of.stream().allMatch(c -> c.charsetId() < 0)) {
            return;
        }
        if (of.stream().anyMatch(c -> c.charsetId() < 0)) {
            throw new IllegalArgumentException("either every " + (enumSet ? "ENUM/SET" : "character")
                    + " column has its collation or none");
        }
        int first = of.get(0).charsetId();
        Sink v = new Sink();
        if (of.stream().allMatch(c -> c.charsetId() == first)) {
            v.packed(first);
            field(b, enumSet ? ENUM_AND_SET_DEFAULT_CHARSET : DEFAULT_CHARSET, v);
        } else {
            for (ColumnDef c : of) {
                v.packed(c.charsetId());
            }
            field(b, enumSet ? ENUM_AND_SET_COLUMN_CHARSET : COLUMN_CHARSET, v);
        }
    }

    // ------------------------------------------------------------------------------------------------------- rows

    void rows(Sink b, RowImages r) {
        TableMapEvent t = r.table();
        int n = t.columns().size();
        int start = b.size();
        int type = rowsType(r.kind(), r.version());
        int ph = format.postHeaderLength(type);
        if (ph == 6) {
            b.u32(t.tableId());
        } else {
            b.le(t.tableId(), 6);
        }
        b.u16(r.flags());
        if (r.version() == 2) {
            byte[] extra = r.extraData();
            b.u16(extra.length + 2).bytes(extra);
        }
        padPostHeader(b, start, type);
        b.packed(n);
        BitSet before = r.columnsBefore();
        BitSet after = r.columnsAfter();
        bitmap(b, before, n);
        if (r.kind() == RowsEvent.Kind.UPDATE) {
            bitmap(b, after, n);
        }
        ColumnDef[] cols = t.columns().toArray(new ColumnDef[0]);
        for (int i = 0; i < r.rowCount(); i++) {
            if (r.before() != null) {
                image(b, cols, before, r.before().get(i));
            }
            if (r.after() != null) {
                image(b, cols, r.kind() == RowsEvent.Kind.UPDATE ? after : before, r.after().get(i));
            }
        }
    }

    /** One row image: the null bitmap over the included columns, then their non-NULL values. */
    static void image(Sink b, ColumnDef[] cols, BitSet present, Object[] values) {
        if (values.length != cols.length) {
            throw new IllegalArgumentException("row of " + values.length + " values for a table of " + cols.length
                    + " columns");
        }
        int count = 0;
        for (int i = present.nextSetBit(0); i >= 0 && i < cols.length; i = present.nextSetBit(i + 1)) {
            count++;
        }
        int nullBits = b.size();
        b.zeros((count + 7) / 8);
        int bit = 0;
        for (int i = 0; i < cols.length; i++) {
            if (!present.get(i)) {
                continue;
            }
            if (values[i] == null) {
                if (!cols[i].nullable()) {
                    throw new IllegalArgumentException("NULL in NOT NULL column " + i
                            + (cols[i].name() == null ? "" : " (" + cols[i].name() + ")"));
                }
                b.array()[nullBits + (bit >>> 3)] |= (byte) (1 << (bit & 7));
            } else {
                try {
                    ColumnValueEncoder.encode(b, cols[i], values[i]);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("column " + i + (cols[i].name() == null ? "" : " ("
                            + cols[i].name() + ")") + ": " + e.getMessage(), e);
                }
            }
            bit++;
        }
    }
}
