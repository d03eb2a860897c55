package io.lanes.applier;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Checks a source binlog file before a pipeline starts, with a message that says what is wrong with it: the check
 * {@link Lanes} makes at start, for tools that read files themselves to report a bad one the same way. Stateless.
 */
public final class SourceFiles {
    private SourceFiles() {
    }

    /**
     * Why {@code file} cannot be read as a binlog file, or null when it can: it does not exist, is a directory (the
     * files in it are meant), is not a regular file, or is not readable.
     */
    public static String unusable(Path file) {
        if (!Files.exists(file)) {
            return Files.exists(file, LinkOption.NOFOLLOW_LINKS)
                    ? "source file " + file + " is a symbolic link to a file that does not exist"
                    : "source file " + file + " does not exist";
        }
        if (Files.isDirectory(file)) {
            return "source " + file + " is a directory, not a binlog file: give the binlog files in it, in order (e.g. "
                    + file.resolve("mysql-bin.0*") + ")";
        }
        if (!Files.isRegularFile(file)) {
            return "source " + file + " is not a regular file";
        }
        if (!Files.isReadable(file)) {
            return "source file " + file + " is not readable by this user (" + System.getProperty("user.name") + ")";
        }
        return null;
    }
}
