package io.lanes.examples.cli;

import io.lanes.applier.SourceFiles;
import java.nio.file.Path;
import java.util.List;

/**
 * The commands that read binlog files themselves ({@code dump}, {@code stat}) check them up front the way a pipeline
 * does ({@code apply}, {@code demo}), so a missing file or a directory reads the same everywhere ("does not exist", "is
 * a directory ...") rather than as the bare path the JDK's exception carries.
 */
final class SourceFileCheck {
    private SourceFileCheck() {
    }

    /** Why the first file that cannot be read as a binlog file cannot be, or null when all can. */
    static String firstUnusable(List<Path> files) {
        for (Path f : files) {
            String why = SourceFiles.unusable(f);
            if (why != null) {
                return why;
            }
        }
        return null;
    }
}
