package io.lanes.applier;

/**
 * A {@link Lanes} pipeline stopped after a failure: the target refused a transaction after every retry
 * ({@link io.lanes.core.ApplierFailedException} as cause), the source could not be decoded
 * ({@link io.lanes.binlog.BinlogFormatException} as cause, naming file and byte offset), a row did not match its target
 * table, or the recovery position was not found in the input. Everything committed before the failure is checkpointed:
 * running the pipeline again resumes after it.
 *
 * <p>The message is one line of text (a driver's own message may add lines) that names the position once: "pipeline 'P'
 * failed at FILE:OFFSET gtid=G: what happened" ("pipeline 'P' failed: FILE at byte offset N: ..." for undecodable
 * input), the causes' messages joined without their repeats. The causes themselves stay in the chain, for stack traces.
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
