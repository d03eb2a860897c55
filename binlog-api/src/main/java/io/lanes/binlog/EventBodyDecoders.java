package io.lanes.binlog;

import io.lanes.binlog.internal.ByteReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.lanes.binlog.gtid.MariaDbGtid;
import io.lanes.binlog.internal.TaggedGtidParser;
import io.lanes.binlog.internal.VarLen;

/**
 * The body decoders of the event types whose layout depends on nothing but the event's own bytes and post-header
 * length: split from {@link BinlogEventDecoder}, which keeps the per-log state (FORMAT_DESCRIPTION, table maps,
 * encryption) and the types that need it. Stateless and thread-safe; every method reads from {@code r}'s position and
 * reports a malformed body with the reader's file and offset.
 */
final class EventBodyDecoders {
    /** Longest XA gtrid or bqual (MySQL's and MariaDB's MAXGTRIDSIZE / MAXBQUALSIZE). */
    private static final int MAX_XA_PART = 64;

    private EventBodyDecoders() {
    }

    /** Receives one field of a type-length-value list; {@code value} holds exactly the field's bytes. */
    @FunctionalInterface
    interface TaggedField {
        void accept(long type, ByteReader value);
    }

    static void skipTo(ByteReader r, int index) {
        if (r.position() < index) {
            r.position(Math.min(index, r.limit()));
            if (index > r.limit()) {
                throw r.error("post-header longer than the event");
            }
        }
    }

    static QueryStatusVars decodeStatusVars(ByteReader s) {
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

    static BinlogEvent decodeUserVar(ByteReader r, EventHeader h, int bodyStart) {
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

    static BinlogEvent decodeHeartbeatV2(ByteReader r, EventHeader h, int bodyStart) {
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

    /**
     * Reads the type-length-value field list that newer events use (HEARTBEAT_V2, TRANSACTION_PAYLOAD): each field is a
     * packed type, a packed length and that many bytes; type 0 ends the list. Unknown types are skipped, so a newer
     * server's extra fields do not break the decoder; a length past the event's end is a format error.
     */
    static void readTaggedFields(ByteReader r, TaggedField sink) {
        while (r.hasRemaining()) {
            long type = r.packedLength();
            if (type == 0) {
                return;
            }
            sink.accept(type, r.slice(r.packedSize()));
        }
    }

    static UUID uuid(ByteReader r) {
        r.checkAvailable(16);
        long msb = r.uintBigEndian(8);
        long lsb = r.uintBigEndian(8);
        return new UUID(msb, lsb);
    }

    static BinlogEvent decodeGtid(ByteReader r, EventHeader h, boolean anonymous) {
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

    static BinlogEvent decodeTaggedGtid(String source, ByteReader r, EventHeader h, int bodyStart) {
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

    static BinlogEvent decodePreviousGtids(ByteReader r, EventHeader h, int bodyStart) {
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

    static BinlogEvent decodeTransactionContext(ByteReader r, EventHeader h, int bodyStart) {
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

    static List<String> readSetItems(ByteReader r, long count) {
        if (count > r.remaining() / 2) {
            throw r.error("set claims " + count + " items in " + r.remaining() + " bytes");
        }
        List<String> items = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            items.add(r.string(r.u16(), StandardCharsets.ISO_8859_1));
        }
        return items;
    }

    static BinlogEvent decodeViewChange(ByteReader r, EventHeader h, int bodyStart) {
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

    static BinlogEvent decodeXaPrepare(ByteReader r, EventHeader h, int bodyStart) {
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

    static BinlogEvent decodeLoad(ByteReader r, EventHeader h, int type, int bodyStart) {
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

    static BinlogEvent decodeMariaGtid(ByteReader r, EventHeader h) {
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

    static BinlogEvent decodeMariaGtidList(ByteReader r, EventHeader h, int bodyStart) {
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
}
