package io.lanes.examples.cli;

import picocli.CommandLine;

/** picocli default values for options that mirror library options, read from {@code LanesConfig.Option}. */
public final class LanesDefaults implements CommandLine.IDefaultValueProvider {
    @Override
    public String defaultValue(CommandLine.Model.ArgSpec argSpec) {
        if (argSpec instanceof CommandLine.Model.OptionSpec o) {
            String fromCommand = commandDefault(o);
            return fromCommand != null ? fromCommand : ApplyCommand.defaultFor(o.longestName());
        }
        return null;
    }

    /** Commands may override library defaults (the demo runs by schema with 10 workers). */
    private static String commandDefault(CommandLine.Model.OptionSpec o) {
        Object command = o.command() == null ? null : o.command().userObject();
        if (command instanceof DemoCommand) {
            return DemoCommand.defaultFor(o.longestName());
        }
        return null;
    }
}
