package io.lanes.examples;

import io.lanes.applier.jdbc.CollationMap;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/collations.md holds exactly the collation table the code uses ({@link CollationMap#markdownTable()}).
 * {@code -Dlanes.docs.update=true} rewrites the table instead of failing.
 */
class CollationsDocTest {
    @Test
    void theCollationTableMatchesTheCode() throws Exception {
        GeneratedDocSection.check(Path.of("../docs/collations.md"),
                "<!-- collations:begin (generated from CollationMap; do not edit by hand) -->\n", "<!-- collations:end -->",
                CollationMap.markdownTable(), "CollationMap");
    }
}
