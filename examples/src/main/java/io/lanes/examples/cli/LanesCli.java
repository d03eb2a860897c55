package io.lanes.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code lanes} command line: {@code demo} (the main job), {@code apply}, {@code stat}, {@code dump}. Exit codes,
 * for every command: 0 success, 1 failure (a binlog that cannot be decoded, a failed apply, a failed verification; the
 * message names the position), 2 bad usage. Each command's {@code --help} says more; {@code --json} makes the output
 * one JSON object (JSON Lines for {@code dump}).
 */
@Command(name = "lanes", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        usageHelpWidth = 120,
        description = {"Reads MySQL and MariaDB binary logs and applies them in parallel.", "",
            "Start with: lanes demo        (applies a bundled real MariaDB binlog into H2 and verifies it)"},
        exitCodeListHeading = "%nExit status (every command):%n",
        exitCodeList = {"0:success", "1:failure (the message names the file and position)", "2:bad usage",
            "130:apply, demo: stopped by Ctrl-C before the end of the files (143: by SIGTERM)"},
        subcommands = {CommandLine.HelpCommand.class, DemoCommand.class, ApplyCommand.class, StatCommand.class, DumpCommand.class,
            StatusCommand.class})
public final class LanesCli implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The JVM's own stdout when {@link #main} started, to tell it from a stream a caller put in its place. */
    private static volatile java.io.PrintStream processStdout;

    public static void main(String[] args) {
        processStdout = System.out;
        System.exit(run(args));
    }

    /** Whether {@link System#out} is still the stdout of the process that {@link #main} runs in. */
    static boolean stdoutIsTheProcesss() {
        return processStdout != null && System.out == processStdout;
    }

    /** Runs the command line and returns the exit code (for tests and embedding). */
    public static int run(String... args) {
        return new CommandLine(new LanesCli()).execute(args);
    }

    /**
     * {@code lanes} without a command is bad usage, as picocli's own usage errors are: the usage on stderr, exit
     * status 2 ({@code lanes --help} prints it on stdout with status 0).
     */
    @Override
    public Integer call() {
        System.err.println("lanes: a command is missing");
        spec.commandLine().usage(System.err);
        return 2;
    }
}
