package io.lanes.applier.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.zip.CRC32;

/**
 * Checkpoints in files, for sinks without transactions: one file per (pipeline, worker) in a directory, replaced
 * atomically (written to a temporary file in the same directory, fsynced, renamed over the old one, directory fsynced),
 * so a crash leaves either the old or the new checkpoint, never a torn one.
 *
 * <p><b>At-least-once.</b> The file is written after the sink has acknowledged the data it covers, and the two cannot be
 * made atomic: a crash between the sink's acknowledgement and the rename replays those transactions on restart. Sinks fed
 * from this store must tolerate redelivery (idempotent writes, or deduplication by position).
 *
 * <p>File format (UTF-8 text, one {@code key=value} per line): {@code lanes-checkpoint=1}, pipeline, worker, lwm, gtid,
 * bitmap (Base64), seqno, updated (ISO-8601), and a last line {@code crc32=} over every byte before it. Values are
 * escaped so that a line break cannot forge a line.
 *
 * <p>Thread-safe for distinct workers (distinct files); one worker's writes must not overlap (the worker thread writes).
 */
public final class FileCheckpointStore {
    /** Far more than any checkpoint needs; a larger file is refused before it is read. */
    static final long MAX_FILE_BYTES = 16L << 20;
    private static final String MAGIC = "lanes-checkpoint=1";

    private final Path directory;

    public FileCheckpointStore(Path directory) throws IOException {
        this.directory = Objects.requireNonNull(directory, "directory");
        Files.createDirectories(directory);
    }

    public Path directory() {
        return directory;
    }

    /** The file holding a worker's checkpoint. Pipeline names are hex-encoded so that any name is a safe file name. */
    public Path fileOf(String pipeline, int workerId) {
        return directory.resolve("ckpt-" + hex(pipeline) + "-" + workerId + ".txt");
    }

    /** Replaces the worker's checkpoint durably (returns after the rename and the directory are on disk). */
    public void write(CheckpointRow row) throws IOException {
        Path target = fileOf(row.pipeline(), row.workerId());
        byte[] bytes = encode(row);
        Path temp = directory.resolve(target.getFileName() + ".tmp-" + UUID.randomUUID());
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system of " + directory + " cannot rename atomically; checkpoints there "
                        + "could tear", e);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
        fsyncDirectory();
    }

    /** The worker's checkpoint, or {@code null} when none was written. */
    public CheckpointRow read(String pipeline, int workerId) throws IOException {
        Path file = fileOf(pipeline, workerId);
        try {
            return decode(file);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Every worker's checkpoint of the pipeline, by worker id. Leftover temporary files are ignored. */
    public List<CheckpointRow> readAll(String pipeline) throws IOException {
        List<CheckpointRow> rows = new ArrayList<>();
        String prefix = "ckpt-" + hex(pipeline) + "-";
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, prefix + "*.txt")) {
            for (Path f : files) {
                String rest = f.getFileName().toString().substring(prefix.length());
                if (rest.matches("-?[0-9]+\\.txt")) {
                    rows.add(decode(f));
                }
            }
        }
        rows.sort(Comparator.comparingInt(CheckpointRow::workerId));
        return rows;
    }

    static byte[] encode(CheckpointRow row) {
        StringBuilder sb = new StringBuilder(MAGIC).append('\n');
        line(sb, "pipeline", row.pipeline());
        line(sb, "worker", Integer.toString(row.workerId()));
        line(sb, "lwm", row.lwmPosition());
        line(sb, "gtid", row.gtidState());
        line(sb, "bitmap", Base64.getEncoder().encodeToString(row.bitmap()));
        line(sb, "seqno", Long.toString(row.seqno()));
        line(sb, "updated", row.updatedAt().toString());
        byte[] body = sb.toString().getBytes(StandardCharsets.UTF_8);
        CRC32 crc = new CRC32();
        crc.update(body);
        byte[] trailer = ("crc32=" + Long.toHexString(crc.getValue()) + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[body.length + trailer.length];
        System.arraycopy(body, 0, out, 0, body.length);
        System.arraycopy(trailer, 0, out, body.length, trailer.length);
        return out;
    }

    private static void line(StringBuilder sb, String key, String value) {
        sb.append(key).append('=');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                default -> sb.append(c);
            }
        }
        sb.append('\n');
    }

    static CheckpointRow decode(Path file) throws IOException {
        long size = Files.size(file);
        if (size > MAX_FILE_BYTES) {
            throw new CheckpointFormatException(file, 0, "file is " + size + " bytes, more than the " + MAX_FILE_BYTES
                    + " a checkpoint may have");
        }
        byte[] bytes = Files.readAllBytes(file);
        int crcLineStart = bytes.length - 1;
        if (bytes.length == 0 || bytes[bytes.length - 1] != '\n') {
            throw new CheckpointFormatException(file, bytes.length, "truncated: no final line break");
        }
        while (crcLineStart > 0 && bytes[crcLineStart - 1] != '\n') {
            crcLineStart--;
        }
        String crcLine = new String(bytes, crcLineStart, bytes.length - 1 - crcLineStart, StandardCharsets.UTF_8);
        if (!crcLine.startsWith("crc32=")) {
            throw new CheckpointFormatException(file, crcLineStart, "missing crc32 line");
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, crcLineStart);
        if (!crcLine.substring(6).equals(Long.toHexString(crc.getValue()))) {
            throw new CheckpointFormatException(file, crcLineStart, "CRC32 mismatch: stored " + crcLine.substring(6)
                    + ", computed " + Long.toHexString(crc.getValue()));
        }
        Map<String, String> values = new LinkedHashMap<>();
        int offset = 0;
        boolean first = true;
        while (offset < crcLineStart) {
            int end = offset;
            while (bytes[end] != '\n') {
                end++;
            }
            String line = new String(bytes, offset, end - offset, StandardCharsets.UTF_8);
            if (first) {
                if (!line.equals(MAGIC)) {
                    throw new CheckpointFormatException(file, offset, "not a Lanes checkpoint (first line " + line + ")");
                }
                first = false;
            } else {
                int eq = line.indexOf('=');
                if (eq <= 0) {
                    throw new CheckpointFormatException(file, offset, "line without key=value");
                }
                values.put(line.substring(0, eq), unescape(line.substring(eq + 1), file, offset));
            }
            offset = end + 1;
        }
        try {
            return new CheckpointRow(require(values, "pipeline", file), Integer.parseInt(require(values, "worker", file)),
                    require(values, "lwm", file), require(values, "gtid", file),
                    Base64.getDecoder().decode(require(values, "bitmap", file)),
                    Long.parseLong(require(values, "seqno", file)), Instant.parse(require(values, "updated", file)));
        } catch (RuntimeException e) {
            throw new CheckpointFormatException(file, 0, "bad value: " + e.getMessage());
        }
    }

    private static String require(Map<String, String> values, String key, Path file) throws CheckpointFormatException {
        String v = values.get(key);
        if (v == null) {
            throw new CheckpointFormatException(file, 0, "missing key " + key);
        }
        return v;
    }

    private static String unescape(String s, Path file, long offset) throws CheckpointFormatException {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (++i >= s.length()) {
                throw new CheckpointFormatException(file, offset, "dangling escape");
            }
            switch (s.charAt(i)) {
                case '\\' -> sb.append('\\');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                default -> throw new CheckpointFormatException(file, offset, "unknown escape \\" + s.charAt(i));
            }
        }
        return sb.toString();
    }

    private void fsyncDirectory() throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // Some platforms (Windows) cannot open a directory; the rename is still atomic there.
            if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("win")) {
                throw e;
            }
        }
    }

    private static String hex(String s) {
        return java.util.HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
    }
}
