package io.lanes.applier.jdbc;

import java.util.Locale;

/**
 * The JDBC URL a pipeline opens for the target URL it was given. Whoever reads the target back afterwards (the
 * command line's {@code demo} check, a test) opens the same URL and so sees the database as the pipeline wrote it.
 *
 * <p>Only embedded H2 URLs change, and only by settings they do not set themselves:
 * <ul>
 *   <li>{@link Dialect#h2RecommendedUrlOptions()} (MySQL mode, lower-case names) when {@code h2MysqlMode} and the URL has
 *       no {@code MODE=}: the names the source's DDL created are lower case, so a reader without them finds no column
 *       {@code ID};</li>
 *   <li>{@code DB_CLOSE_DELAY=-1} for {@code jdbc:h2:mem:}: workers open and close their own connections, and an
 *       in-memory database must outlive each of them;</li>
 *   <li>{@code DB_CLOSE_ON_EXIT=FALSE} for an embedded database: H2's own JVM shutdown hook would otherwise close the
 *       database while a shutdown hook of the application (Ctrl-C) still stops the pipeline, under its workers; the
 *       pipeline closes its connections itself when it stops, which closes the database.</li>
 * </ul>
 * Stateless and thread-safe.
 */
public final class TargetUrls {
    private TargetUrls() {
    }

    /** The URL a pipeline opens for {@code url}; see the class description. */
    public static String asOpened(String url, boolean h2MysqlMode) {
        if (Dialect.forJdbcUrl(url).kind() != Dialect.Kind.H2) {
            return url;
        }
        String upper = url.toUpperCase(Locale.ROOT);
        String out = url;
        if (h2MysqlMode && !upper.contains(";MODE=")) {
            out += Dialect.h2RecommendedUrlOptions();
        }
        if (upper.startsWith("JDBC:H2:MEM:") && !upper.contains(";DB_CLOSE_DELAY=")) {
            out += ";DB_CLOSE_DELAY=-1";
        }
        if (JdbcTarget.isInProcessUrl(url) && !upper.contains(";DB_CLOSE_ON_EXIT=")) {
            out += ";DB_CLOSE_ON_EXIT=FALSE";
        }
        return out;
    }
}
