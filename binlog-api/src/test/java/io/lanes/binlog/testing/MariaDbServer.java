package io.lanes.binlog.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway MariaDB server for tests: {@code mariadbd} started in a temporary directory on a free loopback port, with
 * the options a test asks for (a row-based binlog by default), torn down by {@link #close()}.
 *
 * <p>The data directory is initialised once per JVM by {@code mariadb-install-db} into a template and copied for each
 * server, so starting one costs about a second. A missing {@code mariadbd} is an {@link IllegalStateException}: tests that
 * need a real server fail rather than skip (in CI the script installs it).
 *
 * <p>SQL can be run without a JDBC driver through {@link #sql(String)}, which uses the {@code mariadb} client over the
 * server's socket; applier tests use {@link #jdbcUrl(String)} with a driver of their own.
 *
 * <p>Not thread-safe: one test thread drives a server.
 */
public final class MariaDbServer implements AutoCloseable {
    private static Path template;

    private final Path dir;
    private final Path dataDir;
    private final Path socket;
    private final List<String> options;
    private final int port;
    private Process process;

    private MariaDbServer(Path dir, int port, List<String> options) {
        this.dir = dir;
        this.dataDir = dir.resolve("data");
        this.socket = dir.resolve("mysqld.sock");
        this.port = port;
        this.options = List.copyOf(options);
    }

    /** A server with a row-based, CRC32-checksummed binlog named {@code bin} and server id 1. */
    public static MariaDbServer startWithBinlog(String... extraOptions) {
        List<String> opts = new ArrayList<>(List.of("--server-id=1", "--log-bin=bin", "--binlog-format=ROW",
                "--binlog-checksum=CRC32"));
        opts.addAll(List.of(extraOptions));
        return start(opts);
    }

    /** A server with exactly these extra mariadbd options (no binlog unless asked for). */
    public static MariaDbServer start(List<String> extraOptions) {
        try {
            Path dir = Files.createTempDirectory("lanes-mariadb-");
            Path tpl = template();
            copyTree(tpl, dir.resolve("data"));
            MariaDbServer server = new MariaDbServer(dir, freePort(), extraOptions);
            server.launch();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path socket() {
        return socket;
    }

    /** The binlog files the server has written so far, in order (for a server started with {@code --log-bin=bin}). */
    public List<Path> binlogFiles() {
        try (var s = Files.list(dataDir)) {
            return s.filter(p -> p.getFileName().toString().matches("bin\\.\\d+")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Copies the binlog files written so far into {@code dir} (created when missing), so that a test reads a stable copy
     * while the server goes on; returns the copies in order.
     */
    public List<Path> copyBinlogFiles(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> copies = new ArrayList<>();
        for (Path p : binlogFiles()) {
            copies.add(Files.copy(p, dir.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING));
        }
        return copies;
    }

    /** {@code jdbc:mariadb://127.0.0.1:PORT/DB?user=root} (the root user has no password). */
    public String jdbcUrl(String database) {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + (database == null ? "" : database) + "?user=root";
    }

    /** Runs SQL through the {@code mariadb} client and returns its tab-separated output (no column headers). */
    public String sql(String statements) {
        return run(List.of(clientBinary(), "--no-defaults", "-uroot", "-S", socket.toString(), "-N", "-B", "-e",
                statements));
    }

    /** Stops the server cleanly (shutdown through the client), waiting for the process to end. */
    public void stop() {
        if (process == null) {
            return;
        }
        try {
            run(List.of(adminBinary(), "--no-defaults", "-uroot", "-S", socket.toString(), "shutdown"));
        } catch (RuntimeException ignored) {
            // fall through to destroy
        }
        waitFor(process, Duration.ofSeconds(30));
        process = null;
    }

    /** Kills the server with SIGKILL, as a crash would. */
    public void kill() {
        if (process != null) {
            process.toHandle().destroyForcibly();
            waitFor(process, Duration.ofSeconds(30));
            process = null;
        }
    }

    /** Starts the server again on the same port and data directory after {@link #stop()} or {@link #kill()}. */
    public void restart() {
        if (process != null) {
            stop();
        }
        launch();
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    @Override
    public void close() {
        try {
            kill();
        } finally {
            deleteTree(dir);
        }
    }

    private void launch() {
        List<String> cmd = new ArrayList<>(List.of(serverBinary(), "--no-defaults", "--datadir=" + dataDir,
                "--user=" + System.getProperty("user.name"), "--port=" + port, "--bind-address=127.0.0.1",
                "--socket=" + socket, "--pid-file=" + dir.resolve("mysqld.pid"), "--log-error=" + dir.resolve("error.log"),
                "--innodb-buffer-pool-size=64M", "--innodb-log-file-size=48M", "--max-connections=300",
                "--skip-name-resolve", "--character-set-server=utf8mb4", "--tmpdir=" + privateTmp()));
        cmd.addAll(options);
        try {
            process = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout.log").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("mariadbd exited with " + process.exitValue() + ": " + errorLog());
            }
            try {
                sql("SELECT 1");
                return;
            } catch (RuntimeException notYet) {
                sleep(100);
            }
        }
        kill();
        throw new IllegalStateException("mariadbd did not start within 60 s: " + errorLog());
    }

    private Path privateTmp() {
        try {
            return Files.createDirectories(dir.resolve("tmp"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String errorLog() {
        try {
            String log = Files.readString(dir.resolve("error.log"), StandardCharsets.UTF_8);
            return log.length() > 4000 ? log.substring(log.length() - 4000) : log;
        } catch (IOException e) {
            return "(no error log)";
        }
    }

    private static synchronized Path template() throws IOException {
        if (template != null) {
            return template;
        }
        Path tpl = Files.createTempDirectory("lanes-mariadb-template-");
        tpl.toFile().deleteOnExit();
        // a private tmpdir: bootstraps of concurrent test JVMs sharing /tmp collided on #sql-temptable files
        Path tmp = Files.createDirectories(tpl.resolve("tmp"));
        run(List.of(installBinary(), "--no-defaults", "--datadir=" + tpl.resolve("data"),
                "--user=" + System.getProperty("user.name"), "--auth-root-authentication-method=normal",
                "--skip-test-db", "--tmpdir=" + tmp));
        template = tpl.resolve("data");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(tpl)));
        return template;
    }

    private static String serverBinary() {
        return find("mariadbd", "/usr/sbin/mariadbd", "/usr/local/sbin/mariadbd", "/usr/libexec/mariadbd")
                .orElseThrow(() -> new IllegalStateException(
                        "mariadbd not found: install the mariadb-server package (apt-get install -y mariadb-server)"));
    }

    private static String installBinary() {
        return find("mariadb-install-db", "/usr/bin/mariadb-install-db", "/usr/local/bin/mariadb-install-db")
                .orElseThrow(() -> new IllegalStateException("mariadb-install-db not found: install mariadb-server"));
    }

    private static String clientBinary() {
        return find("mariadb", "/usr/bin/mariadb").orElseThrow(
                () -> new IllegalStateException("mariadb client not found: install mariadb-client"));
    }

    private static String adminBinary() {
        return find("mariadb-admin", "/usr/bin/mariadb-admin").orElseThrow(
                () -> new IllegalStateException("mariadb-admin not found: install mariadb-client"));
    }

    /** Looks a binary up on PATH, then at the given absolute paths. */
    public static Optional<String> find(String name, String... fallbacks) {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(File.pathSeparator)) {
                Path p = Path.of(d, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(p.toString());
                }
            }
        }
        for (String f : fallbacks) {
            if (Files.isExecutable(Path.of(f))) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    private static String run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("timed out: " + cmd.get(0));
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(cmd.get(0) + " exited with " + p.exitValue() + ": " + text);
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void waitFor(Process p, Duration d) {
        try {
            if (!p.waitFor(d.toMillis(), TimeUnit.MILLISECONDS)) {
                p.toHandle().destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(d)));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                Files.copy(f, to.resolve(from.relativize(f)), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Deletes a directory tree, best effort (also used by other tests' private servers). */
    public static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                    Files.deleteIfExists(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException ignored) {
            // best effort: a temp directory left behind is not a test failure
        }
    }
}
