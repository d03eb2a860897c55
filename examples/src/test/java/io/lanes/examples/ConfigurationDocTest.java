package io.lanes.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.LanesConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertTrue(begin >= 0 && end > begin, DOC + " lacks the generated-table markers");
        String documented = doc.substring(begin + BEGIN.length(), end);
        String generated = LanesConfig.optionsMarkdownTable();
        if (Boolean.getBoolean("lanes.docs.update")) {
            Files.writeString(DOC, doc.substring(0, begin + BEGIN.length()) + generated + doc.substring(end),
                    StandardCharsets.UTF_8);
            return;
        }
        assertEquals(generated, documented, DOC + " differs from LanesConfig.Option: regenerate it with "
                + "-Dlanes.docs.update=true (see the file's introduction)");
        for (LanesConfig.Option o : LanesConfig.Option.values()) {
            assertTrue(documented.contains("`" + o.key() + "`"), o.key());
        }
    }
}
