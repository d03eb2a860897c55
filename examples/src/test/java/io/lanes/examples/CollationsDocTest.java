package io.lanes.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.CollationMap;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/collations.md holds exactly the collation table the code uses ({@link CollationMap#markdownTable()}).
 * {@code -Dlanes.docs.update=true} rewrites the table instead of failing.
 */
class CollationsDocTest {
    static final Path DOC = Path.of("../docs/collations.md");
    static final String BEGIN = "<!-- collations:begin (generated from CollationMap; do not edit by hand) -->\n";
    static final String END = "<!-- collations:end -->";

    @Test
    void theCollationTableMatchesTheCode() throws Exception {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertTrue(begin >= 0 && end > begin, DOC + " lacks the generated-table markers");
        String generated = CollationMap.markdownTable();
        if (Boolean.getBoolean("lanes.docs.update")) {
            Files.writeString(DOC, doc.substring(0, begin + BEGIN.length()) + generated + doc.substring(end),
                    StandardCharsets.UTF_8);
            return;
        }
        assertEquals(generated, doc.substring(begin + BEGIN.length(), end), DOC + " differs from CollationMap: "
                + "regenerate it with -Dlanes.docs.update=true");
    }
}
