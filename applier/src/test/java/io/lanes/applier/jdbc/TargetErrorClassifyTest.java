package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.BatchUpdateException;
import java.sql.SQLNonTransientConnectionException;
import org.junit.jupiter.api.Test;

/**
 * MariaDB reported "Data truncated for column" (1265) with SQLState 01000 in an exception of a connection type: it was
 * classified as a lost connection and retried eleven times before the pipeline stopped. Found by the differential
 * campaign (an ENUM value the target column could not hold). Data errors are classified by their code first.
 */
class TargetErrorClassifyTest {
    @Test
    void dataErrorCodesAreDataErrorsWhateverTheirStateOrType() {
        for (int code : new int[] {1265, 1292, 1366, 1406}) {
            var driver = new SQLNonTransientConnectionException("Data truncated for column 'c' at row 1", "01000", code);
            var batch = new BatchUpdateException("batch", "01000", code, new long[0], driver);
            assertEquals(TargetErrorClass.DATA, TargetErrorPolicy.classify(batch).errorClass(), "code " + code);
            assertEquals(false, TargetErrorPolicy.classify(batch).errorClass().retryable());
        }
        // a real lost connection stays one
        assertEquals(TargetErrorClass.CONNECTION, TargetErrorPolicy.classify(
                new SQLNonTransientConnectionException("Connection reset", "08000", 0)).errorClass());
    }
}
