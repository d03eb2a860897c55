package io.lanes.applier.ddl;

import io.lanes.binlog.SqlSecrets;

/**
 * A source statement the target's {@link DdlHandler} cannot apply faithfully. The message names the statement (abbreviated),
 * its source position when known and the reason. Retrying cannot help: the apply stops, and the user excludes the table,
 * supplies a {@link DdlHandler} of their own, or changes the target by hand.
 */
public final class UnsupportedDdlException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnsupportedDdlException(SourceStatement statement, String reason, Throwable cause) {
        super(SqlSecrets.redact("cannot apply the statement" + (statement.position() == null ? "" : " at " + statement.position())
                + ": " + reason + "; statement: " + statement.abbreviated()), SqlSecrets.redact(cause));
    }
}
