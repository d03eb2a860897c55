package io.lanes.applier.jdbc;

import io.lanes.binlog.SqlSecrets;
import java.sql.SQLException;

/**
 * The target refused a source transaction: the message names the transaction's source position (binlog file:offset and
 * its GTID when it has one), the target table (or the statement), the SQLState, the vendor code and the
 * {@link TargetErrorClass}, followed by the driver's own message. The SQLState and vendor code are those of the
 * driver's exception, which is the cause.
 *
 * <p>Whether the engine retries it is {@link #retryable()}; a {@link JdbcApplier} never retries one that is not.
 */
public final class TargetRefusedException extends SQLException {
    private static final long serialVersionUID = 1L;

    private final String position;
    private final String table;
    private final transient TargetErrorPolicy.TargetError error;

    public TargetRefusedException(String position, String table, TargetErrorPolicy.TargetError error, Throwable cause) {
        // The driver's message may quote the statement, and an account statement its password.
        super(SqlSecrets.redact(message(position, table, error, cause)), error.sqlState(), error.vendorCode(),
                SqlSecrets.redact(cause));
        this.position = position;
        this.table = table;
        this.error = error;
    }

    private static String message(String position, String table, TargetErrorPolicy.TargetError error, Throwable cause) {
        String detail = cause == null ? "" : cause.getMessage() != null ? cause.getMessage() : cause.toString();
        return "target refused the transaction at " + position + (table == null ? "" : " on " + table) + ": "
                + error.describe() + ": " + detail;
    }

    /** The failing transaction's source position ({@code file:offset}, with its GTID when it has one). */
    public String position() {
        return position;
    }

    /** The target table ({@code schema.table}) or statement concerned, or null when not known. */
    public String table() {
        return table;
    }

    public TargetErrorPolicy.TargetError error() {
        return error;
    }

    public TargetErrorClass errorClass() {
        return error.errorClass();
    }

    public boolean retryable() {
        return error.errorClass().retryable();
    }
}
