package io.lanes.core;

/**
 * The engine stopped because a transaction kept failing after every retry (or an applier could not be created).
 * Thrown by {@link Engine#submit}, {@link Engine#stop()} and {@link Engine#close()} once the engine has shut down
 * cleanly: every transaction at or before {@link #lowWaterMark()} is applied, and the checkpoints saved so far tell
 * {@link RecoveryPoint} exactly which transactions beyond it are applied too.
 */
public final class ApplierFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long failedSequence;
    private final String failedPosition;
    private final int workerId;
    private final long lowWaterMark;

    public ApplierFailedException(String message, long failedSequence, String failedPosition, int workerId,
            long lowWaterMark, Throwable cause) {
        super(message, cause);
        this.failedSequence = failedSequence;
        this.failedPosition = failedPosition;
        this.workerId = workerId;
        this.lowWaterMark = lowWaterMark;
    }

    /** Sequence number of the failing transaction (-1 when no transaction was involved, e.g. an applier that did not open). */
    public long failedSequence() {
        return failedSequence;
    }

    /** Source position of the failing transaction ({@link Transaction#position()}), or null. */
    public String failedPosition() {
        return failedPosition;
    }

    public int workerId() {
        return workerId;
    }

    /** The low-water mark when the engine had stopped. */
    public long lowWaterMark() {
        return lowWaterMark;
    }
}
