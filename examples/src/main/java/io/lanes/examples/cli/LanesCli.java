package io.lanes.examples.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code lanes} command line: {@code demo} (the main job), {@code apply}, {@code stat}, {@code dump}. Exit codes,
 * for every command: 0 success, 1 failure (a binlog that cannot be decoded, a failed apply, a failed verification; the
 * message names the position), 2 bad usage. Each command's {@code --help} says more; {@code --json} makes the output
 * one JSON object (JSON Lines for {@code dump}).
 */
@Command(name = "lanes", mixinStandardHelpOptions = true, version = "lanes 0.1.0-SNAPSHOT",
        usageHelpWidth = 120,
        description = {"Reads MySQL and MariaDB binary logs and applies them in parallel.", "",
            "Start with: lanes demo        (applies a bundled real MariaDB binlog into H2 and verifies it)"},
        exitCodeListHeading = "%nExit status (every command):%n",
        exitCodeList = {"0:success", "1:failure (the message names the file and position)", "2:bad usage"},
        subcommands = {CommandLine.HelpCommand.class, DemoCommand.class, ApplyCommand.class, StatCommand.class, DumpCommand.class})
public final class LanesCli implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (for tests and embedding). */
    public static int run(String... args) {
        return new CommandLine(new LanesCli()).execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
