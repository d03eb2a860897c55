package io.lanes.examples.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** {@code lanes --version}: the version the build wrote into {@code lanes-version.properties} (a filtered resource). */
final class VersionProvider implements CommandLine.IVersionProvider {
    static final String RESOURCE = "/io/lanes/examples/cli/lanes-version.properties";

    /** The build's version, e.g. {@code 0.1.0-SNAPSHOT}. */
    static String version() {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the build");
            }
            p.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
        return p.getProperty("version");
    }

    @Override
    public String[] getVersion() {
        return new String[] {"lanes " + version(), "Java " + Runtime.version() + " (" + System.getProperty("java.vendor")
                + ")"};
    }
}
