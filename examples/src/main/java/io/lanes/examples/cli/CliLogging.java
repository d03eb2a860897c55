package io.lanes.examples.cli;

/**
 * The command line's logging (slf4j-simple, configured by {@code simplelogger.properties}): warnings only, and nothing
 * from the loggers that would repeat the failure the command prints itself. {@code --verbose} lowers them all to INFO.
 */
final class CliLogging {
    /** The loggers {@code simplelogger.properties} quiets, each with the level it has there. */
    private static final String[] QUIETED = {"io.lanes.applier.Lanes", "io.lanes.core.internal.EngineRuntime",
        "org.mariadb.jdbc"};

    private CliLogging() {
    }

    /**
     * Every logger at INFO. System properties win over the properties file, but slf4j-simple reads both once, when the
     * first logger is made: this takes effect when called before any (the command line calls it before it builds a
     * pipeline; a JVM that already logged, a test's say, keeps its levels).
     */
    static void verbose() {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "info");
        for (String logger : QUIETED) {
            System.setProperty("org.slf4j.simpleLogger.log." + logger, "info");
        }
    }
}
