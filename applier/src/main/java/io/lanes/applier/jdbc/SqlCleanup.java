package io.lanes.applier.jdbc;

import java.sql.SQLException;

/**
 * Clean-up steps whose failure changes nothing for the caller: closing a connection or statement that may be broken,
 * dropping a batch the rollback that follows discards anyway. Each call site says why its failure can be ignored.
 * Stateless; safe from any thread.
 */
final class SqlCleanup {
    /** One JDBC step. */
    @FunctionalInterface
    interface Step {
        void run() throws SQLException;
    }

    private SqlCleanup() {
    }

    /** Runs {@code step}, ignoring the {@link SQLException} it may throw. */
    static void quietly(Step step) {
        try {
            step.run();
        } catch (SQLException ignored) {
            // the caller's contract: nothing depends on this step succeeding
        }
    }
}
