package io.lanes.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.LanesConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md holds exactly the option table the code generates ({@link LanesConfig#optionsMarkdownTable()}),
 * so the reference cannot drift from the code. {@code -Dlanes.docs.update=true} rewrites the table instead of failing.
 */
class ConfigurationDocTest {
    static final Path DOC = Path.of("../docs/configuration.md");
    static final String BEGIN = "<!-- options:begin (generated from LanesConfig.Option; do not edit by hand) -->\n";
    static final String END = "<!-- options:end -->";

    @Test
    void theConfigurationReferenceMatchesTheCode() throws Exception {
        String documented = GeneratedDocSection.check(DOC, BEGIN, END, LanesConfig.optionsMarkdownTable(),
                "LanesConfig.Option");
        for (LanesConfig.Option o : LanesConfig.Option.values()) {
            assertTrue(documented.contains("`" + o.key() + "`"), o.key());
        }
    }
}
