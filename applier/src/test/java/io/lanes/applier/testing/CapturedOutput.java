package io.lanes.applier.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Captures everything written to {@code System.out} and {@code System.err} (slf4j-simple logs there) between
 * {@link #start()} and {@link #stop()}, so a test can search the logs for what must never appear in them.
 * Not thread-safe: one test at a time.
 */
public final class CapturedOutput {
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream savedErr;
    private PrintStream savedOut;

    /** Redirects both streams into the capture. */
    public void start() {
        savedErr = System.err;
        savedOut = System.out;
        PrintStream tee = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setErr(tee);
        System.setOut(tee);
    }

    /** Restores the streams as they were before {@link #start()}. */
    public void stop() {
        System.setErr(savedErr);
        System.setOut(savedOut);
    }

    /** Everything captured so far. */
    public String text() {
        return captured.toString(StandardCharsets.UTF_8);
    }

    public int size() {
        return captured.size();
    }

    /** The real standard output, for a test's own report lines while the capture runs. */
    public PrintStream realOut() {
        return savedOut;
    }
}
