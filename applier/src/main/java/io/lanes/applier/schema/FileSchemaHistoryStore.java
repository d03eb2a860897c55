package io.lanes.applier.schema;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.TreeMap;

/**
 * A {@link SchemaHistoryStore} in a directory, beside a sink's {@link io.lanes.applier.checkpoint.FileCheckpointStore}
 * checkpoint files: one file per version, {@code schema-history-HEXPIPELINE-VERSION.txt}, whose first line is the
 * position and the rest {@link SchemaHistory#toText()}. Each file is written to a temporary name, forced to disk and
 * renamed, so a crash leaves whole versions only.
 */
public final class FileSchemaHistoryStore implements SchemaHistoryStore {
    private final Path directory;

    public FileSchemaHistoryStore(Path directory) throws IOException {
        this.directory = Files.createDirectories(directory);
    }

    @Override
    public void save(String pipeline, String position, SchemaHistory history) throws IOException {
        TreeMap<Long, Path> versions = versions(pipeline);
        long next = versions.isEmpty() ? 1 : versions.lastKey() + 1;
        Path target = directory.resolve(prefix(pipeline) + String.format("%012d", next) + ".txt");
        Path temp = directory.resolve(target.getFileName() + ".tmp");
        byte[] bytes = (position + "\n" + history.toText()).getBytes(StandardCharsets.UTF_8);
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public SchemaHistory load(String pipeline, String checkpointPosition) throws IOException {
        for (Path file : versions(pipeline).descendingMap().values()) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            int nl = text.indexOf('\n');
            if (nl < 0) {
                throw new IOException("schema history file " + file + " has no position line");
            }
            if (SchemaHistoryStore.inForceAt(text.substring(0, nl), checkpointPosition)) {
                try {
                    return SchemaHistory.fromText(text.substring(nl + 1));
                } catch (IllegalArgumentException e) {
                    throw new IOException("schema history file " + file + ": " + e.getMessage(), e);
                }
            }
        }
        return null;
    }

    private TreeMap<Long, Path> versions(String pipeline) throws IOException {
        TreeMap<Long, Path> out = new TreeMap<>();
        String prefix = prefix(pipeline);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, prefix + "*.txt")) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                try {
                    out.put(Long.parseLong(name.substring(prefix.length(), name.length() - 4)), f);
                } catch (NumberFormatException notOurs) {
                    // another file that happens to share the prefix
                }
            }
        }
        return out;
    }

    private static String prefix(String pipeline) {
        return "schema-history-" + HexFormat.of().formatHex(pipeline.getBytes(StandardCharsets.UTF_8)) + "-";
    }
}
