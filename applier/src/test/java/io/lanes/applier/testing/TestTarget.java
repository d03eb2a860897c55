package io.lanes.applier.testing;

import io.lanes.applier.jdbc.Dialect;
import io.lanes.binlog.testing.MariaDbServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real target database for tests: H2 in-process, the PostgreSQL on 127.0.0.1:5432 (db test), or a MariaDB.
 * {@link #newSchema()} creates a uniquely named schema (database on MariaDB) that {@link #close()} drops, so tests never
 * see each other's tables. A missing server fails the test: never skipped.
 */
public abstract class TestTarget implements AutoCloseable {
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private final List<String> schemas = new ArrayList<>();

    public abstract Dialect dialect();

    public abstract String url();

    protected abstract Properties properties();

    public Connection connect() throws SQLException {
        Properties p = properties();
        dialect().recommendedConnectionProperties().forEach(p::setProperty);
        return DriverManager.getConnection(url(), p);
    }

    /** A connection with {@link Dialect#initSession} applied (auto-commit off). */
    public Connection session() throws SQLException {
        Connection c = connect();
        dialect().initSession(c);
        return c;
    }

    /** Creates a fresh schema named {@code lt_<pid>_<n>_<suffix>} and returns its name. */
    /** The rows a query returns, each as its columns' text joined by {@code |} (NULL as {@code null}). */
    public List<String> rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect(); Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    public String newSchema(String suffix) throws SQLException {
        String name = "lt_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet() + (suffix.isEmpty() ? "" : "_" + suffix);
        createSchema(name);
        return name;
    }

    public String newSchema() throws SQLException {
        return newSchema("");
    }

    /** Creates a schema of exactly this name, dropped on close. */
    public void createSchema(String name) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(dialect().createSchemaIfAbsent(name));
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
        schemas.add(name);
    }

    /** Registers a schema created elsewhere (by DDL under test) for dropping on close. */
    public void dropOnClose(String name) {
        schemas.add(name);
    }

    @Override
    public void close() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String schema : schemas) {
                String q = dialect().quoteIdentifier(schema);
                s.execute(switch (dialect().kind()) {
                    case MYSQL -> "DROP DATABASE IF EXISTS " + q;
                    case H2, POSTGRESQL -> "DROP SCHEMA IF EXISTS " + q + " CASCADE";
                });
            }
        }
        schemas.clear();
    }

    @Override
    public String toString() {
        return dialect().kind().toString();
    }

    /** An in-memory H2 database in MySQL mode, private to this target, alive until close. */
    public static TestTarget h2() {
        return new TestTarget() {
            private final String url = "jdbc:h2:mem:lanes" + COUNTER.incrementAndGet() + ";DB_CLOSE_DELAY=-1"
                    + Dialect.h2RecommendedUrlOptions();

            @Override
            public Dialect dialect() {
                return Dialect.h2();
            }

            @Override
            public String url() {
                return url;
            }

            @Override
            protected Properties properties() {
                return new Properties();
            }

            @Override
            public void close() throws SQLException {
                try (Connection c = connect(); Statement s = c.createStatement()) {
                    s.execute("SHUTDOWN");
                }
            }
        };
    }

    /** The PostgreSQL at 127.0.0.1:5432, database test, user postgres (trust). */
    public static TestTarget postgres() {
        return new TestTarget() {
            @Override
            public Dialect dialect() {
                return Dialect.postgresql();
            }

            @Override
            public String url() {
                return "jdbc:postgresql://127.0.0.1:5432/test";
            }

            @Override
            protected Properties properties() {
                Properties p = new Properties();
                p.setProperty("user", "postgres");
                return p;
            }
        };
    }

    /**
     * A throwaway MariaDB ({@link MariaDbServer}, no binlog) shared by every test of this JVM: started on first use, shut
     * down when the JVM exits. Each test still works in its own databases.
     */
    public static synchronized MariaDbServer sharedMariaDb() {
        if (sharedMariaDb == null) {
            // Tests do not need each commit flushed to disk; crash tests start servers of their own.
            MariaDbServer server = MariaDbServer.start(List.of("--innodb-flush-log-at-trx-commit=0"));
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "mariadb-test-target-shutdown"));
            sharedMariaDb = server;
        }
        return sharedMariaDb;
    }

    private static MariaDbServer sharedMariaDb;

    /** A MariaDB target: the {@link #sharedMariaDb() shared throwaway server}. */
    public static TestTarget mariadb() {
        MariaDbServer server = sharedMariaDb();
        return new TestTarget() {
            @Override
            public Dialect dialect() {
                return Dialect.mysql();
            }

            @Override
            public String url() {
                return "jdbc:mariadb://127.0.0.1:" + server.port() + "/";
            }

            @Override
            protected Properties properties() {
                Properties p = new Properties();
                p.setProperty("user", "root");
                return p;
            }
        };
    }

    /** Every target kind, fresh. */
    public static List<TestTarget> all() {
        return List.of(h2(), postgres(), mariadb());
    }
}
