package io.lanes.examples.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The command line run as a user runs it: {@code java -cp <this test's class path> io.lanes.examples.cli.LanesCli ...}
 * in a process of its own, with its stdout and stderr in files, for what only a real process shows: signals, the exit
 * status {@code System.exit} gives, what reaches stderr through the real logging configuration, a pipe closed by its
 * reader.
 *
 * <p>A process started by a shell without job control (CI scripts, {@code cmd &}) inherits SIGINT ignored, and a JVM
 * that starts with SIGINT ignored keeps ignoring it, as {@code nohup} wants. So the child starts through
 * {@code env --default-signal=INT,TERM} (GNU coreutils 8.31 and later) where that exists, and Ctrl-C reaches it as it
 * reaches a command typed at a terminal.
 */
final class ChildCli implements AutoCloseable {
    private static final Boolean ENV_RESETS_SIGNALS = probeEnv();

    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private ChildCli(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** Starts {@code lanes ARGS}, stdout and stderr to files in {@code dir}. */
    static ChildCli start(Path dir, String... args) throws IOException {
        Path out = Files.createTempFile(dir, "stdout", ".txt");
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command(args)).redirectOutput(out.toFile()).redirectError(err.toFile());
        return new ChildCli(pb.start(), out, err);
    }

    /** Starts {@code lanes ARGS} with its stdout a pipe this test reads (and may close); stderr to a file. */
    static ChildCli startPiped(Path dir, String... args) throws IOException {
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command(args)).redirectError(err.toFile());
        return new ChildCli(pb.start(), null, err);
    }

    static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>();
        if (ENV_RESETS_SIGNALS) {
            cmd.addAll(List.of("env", "--default-signal=INT,TERM"));
        }
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                LanesCli.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    Process process() {
        return process;
    }

    /** Sends a signal by name ("INT", "TERM") with kill(1), as a terminal's Ctrl-C or a service manager would. */
    void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -" + name + " " + process.pid() + " failed");
        }
    }

    /** Waits for the exit; the exit status, or an AssertionError with stderr's tail after {@code seconds}. */
    int waitFor(long seconds) throws IOException, InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
            throw new AssertionError("lanes did not end within " + seconds + " s; stderr:\n" + err());
        }
        return process.exitValue();
    }

    /** stdout's lines (a last line without its newline included). */
    List<String> out() throws IOException {
        String text = Files.readString(stdout, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        if (lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    /** The raw bytes of stdout as text, to check that the last line ends with a newline. */
    String rawOut() throws IOException {
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    String err() throws IOException {
        return Files.readString(stderr, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    private static Boolean probeEnv() {
        try {
            Process p = new ProcessBuilder("env", "--default-signal=INT,TERM", "true").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
