package io.lanes.applier;

/**
 * A {@link Lanes} pipeline stopped after a failure: the target refused a transaction after every retry
 * ({@link io.lanes.core.ApplierFailedException} as cause), the source could not be decoded
 * ({@link io.lanes.binlog.BinlogFormatException} as cause, naming file and byte offset), a row did not match its target
 * table, or the recovery position was not found in the input. Everything committed before the failure is checkpointed:
 * running the pipeline again resumes after it.
 */
public class LanesException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String position;

    public LanesException(String message, String position, Throwable cause) {
        super(message, cause);
        this.position = position;
    }

    /**
     * Where it failed: the failing transaction's source position ({@code file:offset[ gtid=...]}), or the file and byte
     * offset of undecodable input ({@code file:offset}); null when unknown.
     */
    public String position() {
        return position;
    }
}
