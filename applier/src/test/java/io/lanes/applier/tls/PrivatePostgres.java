package io.lanes.applier.tls;

import io.lanes.binlog.testing.MariaDbServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A throwaway PostgreSQL with TLS for tests: {@code initdb} into a temporary directory, {@code ssl=on} with a given
 * certificate and key, listening on a free loopback port; {@code pg_hba.conf} is exactly the lines a test gives (so a
 * test can allow only {@code hostssl}). Torn down by {@link #close()}.
 *
 * <p>PostgreSQL refuses to run as root: when the JVM runs as root the server tools run as the {@code postgres} account
 * (through {@code runuser}) and the directory is handed to that account; otherwise they run as the current user.
 *
 * <p>Not thread-safe: one test thread drives a server.
 */
final class PrivatePostgres implements AutoCloseable {
    private final Path dir;
    private final Path data;
    private final Path bin;
    private final List<String> asServerUser;
    private final int port;
    private boolean running;

    private PrivatePostgres(Path dir, Path bin, List<String> asServerUser, int port) {
        this.dir = dir;
        this.data = dir.resolve("data");
        this.bin = bin;
        this.asServerUser = asServerUser;
        this.port = port;
    }

    /**
     * The directory of {@code initdb} and {@code pg_ctl}: the newest {@code /usr/lib/postgresql/N/bin} (Debian's layout),
     * else the directory of an {@code initdb} on PATH; empty when there is none.
     */
    static Optional<Path> binaries() {
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (var versions = Files.list(debian)) {
                Optional<Path> newest = versions.map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                        .max(Comparator.comparingInt(PrivatePostgres::majorVersion));
                if (newest.isPresent()) {
                    return newest;
                }
            } catch (IOException ignored) {
                // fall through to PATH
            }
        }
        return io.lanes.binlog.testing.MariaDbServer.find("initdb").map(p -> Path.of(p).getParent());
    }

    private static int majorVersion(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Why this JVM cannot run a private PostgreSQL, or empty when it can. */
    static Optional<String> unavailableBecause() {
        if (binaries().isEmpty()) {
            return Optional.of("PostgreSQL server binaries (initdb, pg_ctl) not found: install the postgresql package");
        }
        if (isRoot() && (!Files.isExecutable(Path.of("/usr/sbin/runuser")) && !Files.isExecutable(Path.of("/sbin/runuser"))
                || lookupUser("postgres") == null)) {
            return Optional.of("running as root, and PostgreSQL refuses root: needs runuser and a 'postgres' account");
        }
        return Optional.empty();
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static UserPrincipal lookupUser(String name) {
        try {
            return java.nio.file.FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(name);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Initialises and starts a server.
     *
     * @param cert the server certificate (PEM)
     * @param key its private key (PEM)
     * @param hba the complete {@code pg_hba.conf}
     */
    static PrivatePostgres start(Path cert, Path key, List<String> hba) throws IOException {
        Path bin = binaries().orElseThrow(() -> new IllegalStateException(unavailableBecause().orElse("no PostgreSQL")));
        Path dir = Files.createTempDirectory("lanes-pg-tls-");
        List<String> as = new ArrayList<>();
        if (isRoot()) {
            as.addAll(List.of(Files.isExecutable(Path.of("/usr/sbin/runuser")) ? "/usr/sbin/runuser" : "/sbin/runuser",
                    "-u", "postgres", "--"));
            Files.setOwner(dir, lookupUser("postgres"));
        }
        PrivatePostgres pg = new PrivatePostgres(dir, bin, as, freePort());
        try {
            pg.initialise(cert, key, hba);
            pg.launch();
            return pg;
        } catch (RuntimeException | IOException e) {
            pg.close();
            throw e;
        }
    }

    int port() {
        return port;
    }

    private void initialise(Path cert, Path key, List<String> hba) throws IOException {
        serverTool("initdb", "-D", data.toString(), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C",
                "--no-sync");
        Files.copy(cert, data.resolve("server.pem"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(key, data.resolve("server.key"), StandardCopyOption.REPLACE_EXISTING);
        Files.write(data.resolve("pg_hba.conf"), hba, StandardCharsets.UTF_8);
        Files.writeString(data.resolve("postgresql.conf"), String.join("\n",
                "listen_addresses = '127.0.0.1'",
                "port = " + port,
                "unix_socket_directories = '" + dir + "'",
                "ssl = on",
                "ssl_cert_file = 'server.pem'",
                "ssl_key_file = 'server.key'",
                "fsync = off",
                "synchronous_commit = off",
                "full_page_writes = off",
                "shared_buffers = 16MB",
                "max_connections = 40",
                ""), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        // The key must belong to the server's account and be private to it, or the server refuses to start.
        Files.setPosixFilePermissions(data.resolve("server.key"), PosixFilePermissions.fromString("rw-------"));
        if (isRoot()) {
            UserPrincipal postgres = lookupUser("postgres");
            for (String f : List.of("server.pem", "server.key", "pg_hba.conf")) {
                Files.setOwner(data.resolve(f), postgres);
            }
        }
    }

    private void launch() {
        serverTool("pg_ctl", "-D", data.toString(), "-l", dir.resolve("server.log").toString(), "-w", "-t", "60", "start");
        running = true;
    }

    private String serverTool(String tool, String... args) {
        List<String> cmd = new ArrayList<>(asServerUser);
        cmd.add(bin.resolve(tool).toString());
        cmd.addAll(List.of(args));
        try {
            return TestPki.run(dir, cmd.toArray(new String[0]));
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "\nserver log: " + serverLog(), e);
        }
    }

    private String serverLog() {
        try {
            String log = Files.readString(dir.resolve("server.log"), StandardCharsets.UTF_8);
            return log.length() > 4000 ? log.substring(log.length() - 4000) : log;
        } catch (IOException e) {
            return "(none)";
        }
    }

    @Override
    public void close() {
        try {
            if (running) {
                running = false;
                serverTool("pg_ctl", "-D", data.toString(), "-m", "immediate", "-w", "-t", "60", "stop");
            }
        } finally {
            MariaDbServer.deleteTree(dir);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
