package io.lanes.applier;

import io.lanes.applier.internal.FailureMessages;
import io.lanes.applier.jdbc.ConnectionHeadroom;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.core.Engine;
import io.lanes.core.RecoveryPoint;
import io.lanes.applier.schema.SchemaHistory;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link Lanes#start()} checks before it starts reading, each as the {@link LanesException} it throws, or null when
 * the check passes: so that a pipeline that cannot run says why at once, before anything is applied. Stateless.
 */
final class StartChecks {
    private static final Logger LOG = LoggerFactory.getLogger(Lanes.class);

    private StartChecks() {
    }

    /**
     * The configured source files, each readable and none repeating or going backwards, and the schema file, whose
     * definitions are loaded into {@code history}: the first problem, or null.
     */
    static LanesException sources(LanesConfig config, SchemaHistory history) {
        for (Path f : config.sourceFiles) { // none for a live source
            LanesException unusable = sourceFile(f);
            if (unusable != null) {
                return unusable;
            }
        }
        try {
            SourceOrderGuard.checkFiles(config.sourceFiles);
        } catch (IllegalArgumentException repeated) {
            return new LanesException(repeated.getMessage() + "; nothing was applied", null, null);
        }
        if (config.sourceSchemaFile != null) {
            try {
                history.loadSchemaFile(config.sourceSchemaFile);
            } catch (IOException | RuntimeException ex) {
                return new LanesException("cannot read the schema file " + config.sourceSchemaFile + ": "
                        + ex.getMessage() + "; nothing was applied", null, ex);
            }
            LOG.info("lanes pipeline '{}': schema file {} gives {} table definitions", config.pipeline,
                    config.sourceSchemaFile, history.tables().size());
        }
        return null;
    }

    /** A source file that cannot be read: missing, a directory, not a regular file, not readable. */
    static LanesException sourceFile(Path file) {
        String unusable = SourceFiles.unusable(file);
        return unusable == null ? null : new LanesException(unusable, file + ":0", null);
    }

    /**
     * A JDBC target that accepts fewer connections than the pipeline holds ({@link #connectionsNeeded}), or none at
     * all: the connection that asks is the pipeline's first, and its failure is the start's.
     */
    static LanesException connections(LanesConfig config, JdbcTarget jdbc) {
        if (jdbc.dialect().kind() == Dialect.Kind.H2) {
            return null;
        }
        String shortfall;
        try (Connection c = jdbc.connections().open()) {
            shortfall = ConnectionHeadroom.shortfall(c, jdbc.dialect(), config.engine.workers(),
                    connectionsNeeded(config.engine.workers()));
        } catch (SQLException | RuntimeException e) {
            return cannotStart(config, e);
        }
        return shortfall == null ? null
                : new LanesException("cannot start on " + config.targetDescription() + ": " + shortfall, null, null);
    }

    /** The target could not be reached, or its checkpoints not read: with a hint when TLS may be why. */
    static LanesException cannotStart(LanesConfig config, Exception e) {
        String tlsHint = config.targetUrl == null ? "" : config.targetTls.connectFailureHint(config.targetUrl, e);
        return new LanesException("cannot start on " + config.targetDescription() + ": "
                + FailureMessages.describe(e) + tlsHint, null, e);
    }

    /**
     * Target connections a JDBC pipeline holds at most: one per worker (one applier on the reading thread without
     * workers), the checkpoint thread's and the table metadata's (the reading thread's catalog connection).
     */
    static int connectionsNeeded(int workers) {
        return Math.max(1, workers) + 2;
    }

    /** A live source with no start of its own on a target that holds no checkpoint of the pipeline: nowhere to start. */
    static LanesException liveStart(LanesConfig config, RecoveryPoint recovered) {
        if (config.sourceClient == null || config.sourceStart != null || recovered.position() != null) {
            return null;
        }
        return new LanesException("the target holds no checkpoint of pipeline '" + config.pipeline + "' to resume "
                + "from, and no start was given for this fresh target: give one (" + LanesConfig.Option.SOURCE_START.key()
                + ": NAME:POS or gtid=SET) or the pipeline name of the run that wrote it",
                null, null);
    }

    /** Stops an engine that was started but given nothing, for a start that fails after all. */
    static void stopQuietly(Engine<SourceTransaction> e) {
        try {
            e.stop();
        } catch (RuntimeException nothingWasApplied) {
            // nothing was submitted: there is nothing to report beyond the reason the start fails
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
