package io.lanes.applier.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Properties;

/**
 * Opens connections to the target; each worker opens its own. Implementations must be thread-safe. A DataSource's
 * {@code getConnection} fits: {@code dataSource::getConnection}.
 */
@FunctionalInterface
public interface ConnectionFactory {
    Connection open() throws SQLException;

    /**
     * Connections through {@link DriverManager}. The properties (user, password, driver options) are copied; the password
     * never appears in {@code toString()} or in exceptions this factory makes.
     */
    static ConnectionFactory of(String url, Properties properties) {
        Objects.requireNonNull(url, "url");
        Properties copy = new Properties();
        copy.putAll(properties);
        return new ConnectionFactory() {
            @Override
            public Connection open() throws SQLException {
                try {
                    return DriverManager.getConnection(url, copy);
                } catch (SQLException e) {
                    String m = e.getMessage();
                    int q = url.indexOf('?');
                    if (m == null || q < 0 || !m.contains(url.substring(q))) {
                        throw e;
                    }
                    // DriverManager ("No suitable driver found for <url>") and some drivers repeat the URL, whose
                    // parameters may hold a password: the same exception with the parameters cut out.
                    SQLException redacted = new SQLException(m.replace(url.substring(q), "?..."),
                            e.getSQLState(), e.getErrorCode());
                    redacted.setStackTrace(e.getStackTrace());
                    throw redacted;
                }
            }

            @Override
            public String toString() {
                int q = url.indexOf('?');
                // URL parameters may carry credentials; show only the part before them.
                return "ConnectionFactory[" + (q < 0 ? url : url.substring(0, q) + "?...") + ", user="
                        + copy.getProperty("user") + "]";
            }
        };
    }
}
