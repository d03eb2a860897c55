package io.lanes.applier.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.TargetTls;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** {@link TargetTls#connectFailureHint}: only for a MariaDB/MySQL "access denied" (1045) with TLS off. */
class TargetTlsHintTest {
    static final SQLException ACCESS_DENIED = new SQLException("Access denied for user 'u'@'h' (using password: YES)",
            "28000", 1045);

    @Test
    void aMariaDbAccessDeniedWithTlsOffSaysSo() {
        String url = "jdbc:mariadb://db:3306/";
        RuntimeException wrapped = new RuntimeException("loading checkpoints failed", ACCESS_DENIED);
        assertTrue(TargetTls.NONE.connectFailureHint(url, wrapped).contains("TLS to the target is not configured"));
        assertTrue(new TargetTls(TargetTls.Mode.DISABLED, null).connectFailureHint(url, wrapped)
                .contains("TLS to the target is disabled"));
        assertTrue(new TargetTls(TargetTls.Mode.DISABLED, null).connectFailureHint("jdbc:mysql://db/", wrapped)
                .contains("disabled"));
    }

    @Test
    void nothingToAddOtherwise() {
        Path ca = Path.of("ca.pem");
        assertEquals("", new TargetTls(null, ca).connectFailureHint("jdbc:mariadb://db/", ACCESS_DENIED), "TLS on");
        assertEquals("", new TargetTls(TargetTls.Mode.REQUIRED, null).connectFailureHint("jdbc:mariadb://db/",
                ACCESS_DENIED));
        assertEquals("", TargetTls.NONE.connectFailureHint("jdbc:mysql://db/", ACCESS_DENIED), "Connector/J prefers TLS");
        assertEquals("", TargetTls.NONE.connectFailureHint("jdbc:postgresql://db/x", ACCESS_DENIED));
        assertEquals("", TargetTls.NONE.connectFailureHint("jdbc:mariadb://db/",
                new SQLException("Unknown database", "42000", 1049)));
    }
}
