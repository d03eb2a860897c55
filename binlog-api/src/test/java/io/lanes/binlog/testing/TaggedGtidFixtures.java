package io.lanes.binlog.testing;

import io.lanes.binlog.replication.TaggedGtidBinlogs;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@link TaggedGtidBinlogs} for the tests of other modules: a package of its own, since modules compiled with a
 * module-info (applier) cannot see test classes in a package of the {@code io.lanes.binlog} module.
 */
public final class TaggedGtidFixtures {
    /** The source UUID of the tagged GTIDs. */
    public static final String UUID = TaggedGtidBinlogs.UUID;

    private TaggedGtidFixtures() {
    }

    /** See {@link TaggedGtidBinlogs#taggedTransactions}. */
    public static Path taggedTransactions(Path dir, int count) throws IOException {
        return TaggedGtidBinlogs.taggedTransactions(dir, count);
    }
}
