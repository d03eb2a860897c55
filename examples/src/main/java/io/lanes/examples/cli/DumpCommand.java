package io.lanes.examples.cli;

import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.ColumnType;
import io.lanes.binlog.BinlogFormatException;
import io.lanes.binlog.BinlogReader;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.EventHeader;
import io.lanes.binlog.GtidEvent;
import io.lanes.binlog.MariaGtidEvent;
import io.lanes.binlog.PartialJsonValue;
import io.lanes.binlog.PreviousGtidsEvent;
import io.lanes.binlog.Row;
import io.lanes.binlog.RowCursor;
import io.lanes.binlog.RowsEvent;
import io.lanes.binlog.TableMapEvent;
import io.lanes.binlog.TransactionPayloadEvent;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lanes dump}: prints every event of binlog files as JSON Lines. On bad input it prints one line naming the file and
 * byte offset to stderr and exits 1.
 */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Prints every event of MySQL/MariaDB binlog files (plain or .gz) as one JSON object per line.",
            "",
            "Every object has file, pos, next_pos, length, type, type_code, timestamp (seconds), server_id, header_flags,",
            "and the event's own fields in snake_case. Row events add schema, table, columns (names, or null where the log",
            "has none) and rows: one object per row with \"after\" (inserts), \"before\" (deletes) or both (updates),",
            "each an array of values in column order. SQL NULL and columns absent from an image are null; integers",
            "(64-bit unsigned included) and decimals are exact JSON numbers; strings are JSON strings; binary values",
            "(byte[]) are strings \"base64:<RFC 4648 base64>\"; dates, times and other values are strings. A JSON",
            "column logged as a partial update (PARTIAL_UPDATE_ROWS) is {\"partial_json_diffs\":[{operation,path,value}],",
            "\"raw\":\"base64:...\"}.",
            "BIT(n) values are unsigned integers (a BIT(64) with every bit set is 18446744073709551615).",
            "Events inside a TRANSACTION_PAYLOAD follow it, each with \"payload_pos\" set to the payload's pos.",
            "",
            "Exit status: 0 all files decoded, or stdout closed by its reader (lanes dump F | head: decoding stops",
            "there), 1 bad input (one line on stderr names file and byte offset) or output that cannot be written,",
            "2 bad usage."})
public final class DumpCommand implements Callable<Integer> {
    @Option(names = "--no-verify-checksum", description = "Do not verify event CRC32 checksums.")
    boolean noVerifyChecksum;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Binlog files, read in order.")
    List<Path> files;

    @Override
    public Integer call() {
        String unusable = SourceFileCheck.firstUnusable(files);
        if (unusable != null) {
            System.err.println("lanes dump: " + unusable);
            return 1;
        }
        BinlogReaderOptions options = BinlogReaderOptions.builder().verifyChecksums(!noVerifyChecksum).build();
        Writer out = new BufferedWriter(new OutputStreamWriter(stdout(), StandardCharsets.UTF_8), 1 << 16);
        try {
            try {
                for (Path file : files) {
                    try (BinlogReader reader = BinlogReader.open(file, options)) {
                        for (BinlogEvent e; (e = reader.next()) != null; ) {
                            writeEvent(out, file.toString(), e, -1);
                            if (e instanceof TransactionPayloadEvent p) {
                                try (TransactionPayloadEvent.PayloadEvents inner = p.events()) {
                                    while (inner.hasNext()) {
                                        writeEvent(out, file.toString(), inner.next(), p.position());
                                    }
                                }
                            }
                        }
                    }
                }
            } finally {
                out.flush();
            }
        } catch (BinlogFormatException e) {
            System.err.println("lanes dump: " + e.getMessage());
            return 1;
        } catch (UncheckedIOException e) {
            System.err.println("lanes dump: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            if (isBrokenPipe(e)) {
                return 0; // the reader has what it wanted (lanes dump F | head): nothing more to decode
            }
            System.err.println("lanes dump: cannot write output: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            System.err.println("lanes dump: internal error: " + e);
            return 1;
        }
        return 0;
    }

    /**
     * Where the lines go. The process's own stdout is written through its file descriptor: a {@link java.io.PrintStream}
     * never throws, so over {@code System.out} a reader that went away ({@code | head}) went unnoticed and the whole
     * input was decoded for nobody. Another stream put in {@code System.out}'s place (a caller's, a test's) is checked
     * for errors after each write instead.
     */
    private static OutputStream stdout() {
        if (LanesCli.stdoutIsTheProcesss()) {
            System.out.flush();
            return new FileOutputStream(FileDescriptor.out);
        }
        java.io.PrintStream ps = System.out;
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                ps.write(b);
                check();
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                ps.write(b, off, len);
                check();
            }

            @Override
            public void flush() throws IOException {
                check(); // checkError flushes
            }

            private void check() throws IOException {
                if (ps.checkError()) {
                    throw new IOException("the output stream reports an error (closed?)");
                }
            }
        };
    }

    /** EPIPE as the JDK reports it on Linux and macOS ("Broken pipe") and on Windows. */
    private static boolean isBrokenPipe(IOException e) {
        String m = String.valueOf(e.getMessage());
        return m.contains("Broken pipe") || m.contains("pipe is being closed") || m.contains("pipe has been ended");
    }

    private static void writeEvent(Writer w, String file, BinlogEvent e, long payloadPos) throws IOException {
        // Each line is built whole first: a decoding error inside a row event must not leave half a line behind.
        Json j = new Json();
        EventHeader h = e.header();
        j.begin();
        j.field("file", file);
        j.field("pos", h.position());
        if (payloadPos >= 0) {
            j.field("payload_pos", payloadPos);
        }
        j.field("next_pos", h.nextPosition());
        j.field("length", h.eventLength());
        j.field("type", h.type() == null ? "UNKNOWN_" + h.typeCode() : h.type().name());
        j.field("type_code", h.typeCode());
        j.field("timestamp", h.timestamp());
        j.field("server_id", h.serverId());
        j.field("header_flags", h.flags());
        if (e instanceof RowsEvent rows) {
            writeRows(j, rows);
        } else if (e instanceof TransactionPayloadEvent p) {
            j.field("compression_type", p.compressionType());
            j.field("uncompressed_size", p.uncompressedSize());
            j.field("payload_size", p.payloadSize());
        } else if (e instanceof Record r) {
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                if (c.getType() == EventHeader.class) {
                    continue;
                }
                j.field(snake(c.getName()), component(r, c));
            }
            if (e instanceof GtidEvent g) {
                j.field("gtid", g.gtid() == null ? null : g.gtid().toString());
            } else if (e instanceof MariaGtidEvent g) {
                j.field("gtid", g.gtid().toString());
            } else if (e instanceof PreviousGtidsEvent p) {
                j.field("gtid_set", p.gtidSet());
            }
        }
        j.end();
        j.sb.append('\n');
        w.write(j.sb.toString());
    }

    private static void writeRows(Json j, RowsEvent rows) {
        j.field("kind", rows.kind().name());
        j.field("version", rows.version());
        j.field("compressed", rows.isCompressed());
        j.field("table_id", rows.tableId());
        j.field("flags", rows.flags());
        j.field("schema", rows.schema());
        j.field("table", rows.table());
        j.field("columns", rows.tableMap() == null ? null : rows.tableMap().columnNames());
        j.key("rows");
        j.sb.append('[');
        RowCursor c = rows.cursor();
        boolean first = true;
        while (c.next()) {
            Row row = c.toRow();
            if (!first) {
                j.sb.append(',');
            }
            first = false;
            j.begin();
            if (row.before() != null) {
                j.field("before", unsignedBits(row.before(), rows.tableMap()));
            }
            if (row.after() != null) {
                j.field("after", unsignedBits(row.after(), rows.tableMap()));
            }
            j.end();
        }
        j.sb.append(']');
    }

    /**
     * The image with its BIT values as the unsigned numbers they are. The decoder gives BIT(n) as a {@code Long} of the
     * n bits, so a BIT(64) with its top bit set is a negative long: printed as is, all bits set read -1.
     */
    static List<Object> unsignedBits(List<Object> image, TableMapEvent map) {
        if (map == null) {
            return image;
        }
        List<Object> out = null;
        for (int i = 0; i < image.size() && i < map.columns().size(); i++) {
            if (image.get(i) instanceof Long bits && bits < 0 && map.columns().get(i).type() == ColumnType.BIT) {
                if (out == null) {
                    out = new ArrayList<>(image);
                }
                out.set(i, new BigInteger(Long.toUnsignedString(bits)));
            }
        }
        return out == null ? image : out;
    }

    private static Object component(Record r, RecordComponent c) {
        try {
            return c.getAccessor().invoke(r);
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
    }

    static String snake(String camel) {
        StringBuilder sb = new StringBuilder(camel.length() + 4);
        for (int i = 0; i < camel.length(); i++) {
            char ch = camel.charAt(i);
            if (Character.isUpperCase(ch)) {
                sb.append('_').append(Character.toLowerCase(ch));
            } else {
                sb.append(ch);
            }
        }
        return sb.toString();
    }

    /** A minimal JSON writer: objects, arrays, exact numbers, escaped strings. Not thread-safe. */
    static final class Json {
        final StringBuilder sb = new StringBuilder(256);
        private boolean needComma;

        void begin() {
            sb.append('{');
            needComma = false;
        }

        void end() {
            sb.append('}');
            needComma = true;
        }

        void key(String k) {
            if (needComma) {
                sb.append(',');
            }
            string(k);
            sb.append(':');
            needComma = true;
        }

        void field(String k, Object v) {
            key(k);
            value(v);
            needComma = true;
        }

        void value(Object v) {
            if (v == null) {
                sb.append("null");
            } else if (v instanceof String s) {
                string(s);
            } else if (v instanceof Boolean b) {
                sb.append(b.booleanValue());
            } else if (v instanceof BigDecimal d) {
                sb.append(d.toPlainString());
            } else if (v instanceof BigInteger || v instanceof Long || v instanceof Integer || v instanceof Short
                    || v instanceof Byte) {
                sb.append(v);
            } else if (v instanceof Double || v instanceof Float) {
                double d = ((Number) v).doubleValue();
                if (Double.isFinite(d)) {
                    sb.append(v);
                } else {
                    string(v.toString());
                }
            } else if (v instanceof byte[] b) {
                string("base64:" + Base64.getEncoder().encodeToString(b));
            } else if (v instanceof PartialJsonValue p) {
                boolean saved = needComma;
                begin();
                field("partial_json_diffs", p.diffs());
                field("raw", p.diffBytes());
                end();
                needComma = saved;
            } else if (v instanceof Enum<?> en) {
                string(en.name());
            } else if (v instanceof BitSet bits) {
                string(bits.toString());
            } else if (v instanceof Collection<?> list) {
                array(list);
            } else if (v instanceof Object[] arr) {
                array(java.util.Arrays.asList(arr));
            } else if (v instanceof Map<?, ?> map) {
                boolean saved = needComma;
                begin();
                for (Map.Entry<?, ?> en : map.entrySet()) {
                    field(String.valueOf(en.getKey()), en.getValue());
                }
                end();
                needComma = saved;
            } else if (v instanceof Record r) {
                boolean saved = needComma;
                begin();
                for (RecordComponent c : r.getClass().getRecordComponents()) {
                    field(snake(c.getName()), component(r, c));
                }
                end();
                needComma = saved;
            } else {
                string(v.toString());
            }
        }

        private void array(Collection<?> items) {
            boolean saved = needComma;
            sb.append('[');
            boolean first = true;
            for (Object o : items) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                needComma = false;
                value(o);
            }
            sb.append(']');
            needComma = saved;
        }

        void string(String s) {
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char ch = s.charAt(i);
                switch (ch) {
                    case '"': sb.append("\\\""); break;
                    case '\\': sb.append("\\\\"); break;
                    case '\n': sb.append("\\n"); break;
                    case '\r': sb.append("\\r"); break;
                    case '\t': sb.append("\\t"); break;
                    case '\b': sb.append("\\b"); break;
                    case '\f': sb.append("\\f"); break;
                    default:
                        if (ch < 0x20 || ch == 0x2028 || ch == 0x2029) {
                            sb.append(String.format("\\u%04x", (int) ch));
                        } else {
                            sb.append(ch);
                        }
                }
            }
            sb.append('"');
        }
    }
}
