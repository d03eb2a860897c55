package io.lanes.binlog.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What a test can see of the spill files this JVM holds open (they are unlinked once open, so a listing shows none). */
public final class SpillFiles {
    private SpillFiles() {
    }

    /** Whether this JVM's open descriptors can be looked at ({@code /proc/self/fd}: Linux). */
    public static boolean observable() {
        return Files.isDirectory(Path.of("/proc/self/fd"));
    }

    /**
     * Descriptors this JVM holds open on spill files made in {@code dir} (their link names end "(deleted)"); 0 where
     * {@link #observable()} is false.
     */
    public static long openIn(Path dir) throws IOException {
        if (!observable()) {
            return 0;
        }
        long open = 0;
        try (Stream<Path> list = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : list.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(dir.toString()) && target.contains("lanes-spill-")) {
                        open++;
                    }
                } catch (IOException | UnsupportedOperationException gone) {
                    // closed meanwhile (the listing's own descriptor among them)
                }
            }
        }
        return open;
    }
}
