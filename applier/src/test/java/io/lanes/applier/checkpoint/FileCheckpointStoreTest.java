package io.lanes.applier.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCheckpointStoreTest {
    @TempDir
    Path dir;

    static CheckpointRow row(String pipeline, int worker, long seqno) {
        return new CheckpointRow(pipeline, worker, "bin.000001:" + seqno, "0-1-" + seqno + "\nforged=line\\x",
                new byte[] {1, 2, (byte) 0xff}, seqno, Instant.parse("2026-11-21T10:15:30.123456789Z"));
    }

    @Test
    void roundTripsEveryFieldIncludingLineBreaksAndBackslashes() throws IOException {
        FileCheckpointStore store = new FileCheckpointStore(dir);
        assertNull(store.read("p", 0));
        store.write(row("p", 0, 1));
        assertEquals(row("p", 0, 1), store.read("p", 0));
        store.write(row("p", 0, 2));
        assertEquals(row("p", 0, 2), store.read("p", 0), "replaced");
    }

    @Test
    void workersAndPipelinesAreSeparateFilesAndNoTemporaryFilesRemain() throws IOException {
        FileCheckpointStore store = new FileCheckpointStore(dir);
        store.write(row("p", 2, 5));
        store.write(row("p", 0, 5));
        store.write(row("p", 10, 5));
        store.write(row("../evil name/", 0, 1));
        assertEquals(List.of(row("p", 0, 5), row("p", 2, 5), row("p", 10, 5)), store.readAll("p"));
        assertEquals(List.of(row("../evil name/", 0, 1)), store.readAll("../evil name/"));
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> all = files.toList();
            assertEquals(4, all.size(), all.toString());
            assertTrue(all.stream().noneMatch(f -> f.getFileName().toString().contains(".tmp")), all.toString());
        }
    }

    @Test
    void leftoverTemporaryFileFromACrashIsIgnored() throws IOException {
        FileCheckpointStore store = new FileCheckpointStore(dir);
        store.write(row("p", 0, 1));
        Path torn = dir.resolve(store.fileOf("p", 0).getFileName() + ".tmp-crashed");
        Files.write(torn, "lanes-checkpoint=1\npipeline=p\nwor".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(row("p", 0, 1)), store.readAll("p"));
    }

    @Test
    void corruptionIsATypedErrorNamingFileAndOffset() throws IOException {
        FileCheckpointStore store = new FileCheckpointStore(dir);
        store.write(row("p", 0, 1));
        Path file = store.fileOf("p", 0);
        byte[] bytes = Files.readAllBytes(file);
        bytes[25] ^= 1;
        Files.write(file, bytes);
        CheckpointFormatException crc = assertThrows(CheckpointFormatException.class, () -> store.read("p", 0));
        assertTrue(crc.getMessage().contains("CRC32 mismatch") && crc.getMessage().contains(file.toString()),
                crc.getMessage());
        assertTrue(crc.offset() > 0);

        Files.write(file, java.util.Arrays.copyOf(bytes, 40));
        CheckpointFormatException truncated = assertThrows(CheckpointFormatException.class, () -> store.read("p", 0));
        assertEquals(40, truncated.offset(), truncated.getMessage());

        Files.write(file, "hello\ncrc32=0\n".getBytes(StandardCharsets.UTF_8));
        assertThrows(CheckpointFormatException.class, () -> store.read("p", 0));
    }

    @Test
    void oversizedFileIsRefusedBeforeReading() throws IOException {
        FileCheckpointStore store = new FileCheckpointStore(dir);
        try (RandomAccessFile raf = new RandomAccessFile(store.fileOf("p", 0).toFile(), "rw")) {
            raf.setLength(FileCheckpointStore.MAX_FILE_BYTES + 1); // sparse: costs no disk
        }
        CheckpointFormatException e = assertThrows(CheckpointFormatException.class, () -> store.read("p", 0));
        assertTrue(e.getMessage().contains("more than"), e.getMessage());
    }
}
