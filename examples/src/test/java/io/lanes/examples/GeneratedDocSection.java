package io.lanes.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A part of a document generated from the code, between two marker lines: a test checks that the document holds exactly
 * what the code generates, or with {@code -Dlanes.docs.update=true} rewrites that part instead of failing.
 */
final class GeneratedDocSection {
    private GeneratedDocSection() {
    }

    /** Checks (or rewrites) the part of {@code doc} between {@code begin} and {@code end}; returns what it held. */
    static String check(Path doc, String begin, String end, String generated, String source) throws IOException {
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        assertTrue(from >= 0 && to > from, doc + " lacks the generated-table markers");
        String documented = text.substring(from + begin.length(), to);
        if (Boolean.getBoolean("lanes.docs.update")) {
            Files.writeString(doc, text.substring(0, from + begin.length()) + generated + text.substring(to),
                    StandardCharsets.UTF_8);
            return generated;
        }
        assertEquals(generated, documented, doc + " differs from " + source + ": regenerate it with "
                + "-Dlanes.docs.update=true (see the file)");
        return documented;
    }
}
