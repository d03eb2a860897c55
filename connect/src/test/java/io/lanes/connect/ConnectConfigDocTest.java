package io.lanes.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * docs/kafka-connect.md holds exactly the option tables the connectors' ConfigDefs generate, so the reference cannot
 * drift from the code. {@code -Dlanes.docs.update=true} rewrites the tables instead of failing.
 */
class ConnectConfigDocTest {
    static final Path DOC = Path.of("../docs/kafka-connect.md");

    @Test
    void theConnectorReferenceTablesMatchTheCode() throws Exception {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        for (Map.Entry<String, ConfigDef> e : Map.of("sink", LanesSinkConfig.CONFIG_DEF, "source", LanesSourceConfig.CONFIG_DEF,
                "router", SchemaGroupRouter.CONFIG_DEF).entrySet()) {
            String begin = "<!-- " + e.getKey() + "-options:begin (generated from the ConfigDef; do not edit by hand) -->\n";
            String end = "<!-- " + e.getKey() + "-options:end -->";
            int b = doc.indexOf(begin);
            int en = doc.indexOf(end);
            assertTrue(b >= 0 && en > b, DOC + " lacks the markers of the " + e.getKey() + " table");
            String generated = ConfigTables.markdown(e.getValue());
            if (Boolean.getBoolean("lanes.docs.update")) {
                doc = doc.substring(0, b + begin.length()) + generated + doc.substring(en);
                continue;
            }
            assertEquals(generated, doc.substring(b + begin.length(), en), DOC + ": the " + e.getKey()
                    + " table differs from its ConfigDef: regenerate with -Dlanes.docs.update=true");
        }
        if (Boolean.getBoolean("lanes.docs.update")) {
            Files.writeString(DOC, doc, StandardCharsets.UTF_8);
        }
    }
}
