package io.lanes.applier.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lanes.applier.ddl.StatementPolicy.Triggers;
import io.lanes.applier.jdbc.TargetTls.Mode;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The labels properties use for the configuration enums, and parsing them back. */
class LabelsTest {

    @Test
    void labelsAreTheDocumentedNames() {
        assertEquals(List.of("guard", "skip", "as-written"), Arrays.stream(Triggers.values()).map(Triggers::label).toList());
        assertEquals(List.of("disabled", "preferred", "required", "verify-ca", "verify-identity"),
                Arrays.stream(Mode.values()).map(Mode::label).toList());
    }

    @Test
    void parseAcceptsWhatItAcceptedBefore() {
        assertEquals(Triggers.AS_WRITTEN, Triggers.parse(" As-Written "));
        assertThrows(IllegalArgumentException.class, () -> Triggers.parse("as_written"));
        assertEquals(Mode.VERIFY_CA, Mode.parse("VERIFY_CA"));
        assertEquals(Mode.VERIFY_IDENTITY, Mode.parse(" verify-identity"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Mode.parse("on"));
        assertEquals("unknown TLS mode 'on'; expected one of disabled, preferred, required, verify-ca, verify-identity",
                e.getMessage());
        assertEquals("unknown trigger mode 'x'; expected guard, skip or as-written",
                assertThrows(IllegalArgumentException.class, () -> Triggers.parse("x")).getMessage());
    }
}
