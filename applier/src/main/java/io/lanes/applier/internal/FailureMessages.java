package io.lanes.applier.internal;

import io.lanes.applier.LanesException;
import io.lanes.binlog.BinlogFormatException;
import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.core.ApplierFailedException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One readable line for a failure and its causes, as {@code LanesException} shows it.
 *
 * <p>A failure reaches the pipeline wrapped: the engine's {@code ApplierFailedException} ("transaction 7 at P failed
 * on worker 2 ...") around the target's refusal ("target refused the transaction at P on ...") around the driver's
 * exception, or a decoder's {@code BinlogFormatException} ("F at byte offset O: ..."). Joined as they are, each layer
 * repeats the position and the driver's text. {@link #describe} joins the messages of the chain once each, and
 * {@link #withoutPosition} drops the " at P" of the inner layers, so that the outer message names the position once. The
 * cause chain itself stays on the exception for stack traces ({@code --verbose} on the command line).
 *
 * <p>Stateless and thread-safe.
 */
public final class FailureMessages {
    /** Causes followed at most; a chain deeper than this is cut (its stack trace still has it all). */
    private static final int MAX_DEPTH = 8;
    /**
     * After a position: not more of an offset or of a GTID (bin.1:579 is not bin.1:5790, 0-1-3 not 0-1-30, uuid:1-5 not
     * uuid:1-5:7); a ": " that goes on with the message is not part of it.
     */
    private static final String NOT_CONTINUED = "(?![0-9A-Za-z,-]|:[0-9A-Za-z])";

    private FailureMessages() {
    }

    /**
     * {@code text} when it has at most {@code max} characters, else its start and "..." in {@code max} characters. The
     * cut never falls between the two halves of a character outside the Basic Multilingual Plane (an emoji, a rare CJK
     * ideograph): half of one is no character, so an encoder writes it as '?' or, as {@code Files.writeString} does,
     * refuses the whole text (the differential campaign's results file, seed 9225, a statement full of emoji).
     *
     * @param max at least 4
     */
    public static String abbreviate(String text, int max) {
        if (max < 4) {
            throw new IllegalArgumentException("max < 4: " + max);
        }
        if (text.length() <= max) {
            return text;
        }
        int cut = max - 3;
        if (Character.isHighSurrogate(text.charAt(cut - 1)) && Character.isLowSurrogate(text.charAt(cut))) {
            cut--;
        }
        return text.substring(0, cut) + "...";
    }

    /**
     * A pipeline's failure as the one {@code LanesException} its callers see: "pipeline 'P' failed at POSITION: what",
     * naming the position once (the inner layers' own " at POSITION" dropped); undecodable input names its file and
     * byte offset the decoder's way ("pipeline 'P' failed: FILE at byte offset N: ..."); a {@code LanesException} keeps
     * its message. The failure is the cause, for stack traces.
     *
     * @param readingAt where the reading thread was, for a failure that carries no position of its own (may be null)
     */
    public static LanesException asLanesException(String pipeline, Throwable f, String readingAt) {
        if (f instanceof LanesException le) {
            return new LanesException(le.getMessage(), le.position(), le);
        }
        String prefix = "pipeline '" + pipeline + "' failed";
        if (f instanceof BinlogFormatException b) {
            // its message starts with "FILE at byte offset N": the position in the decoder's words
            return new LanesException(prefix + ": " + describe(f), b.source() + ":" + b.offset(), f);
        }
        String position = f instanceof ApplierFailedException a ? a.failedPosition() : readingAt;
        String what = withoutPosition(describe(f), position);
        return new LanesException(prefix + (position == null ? "" : " at " + position) + ": " + what, position, f);
    }

    /**
     * The messages of {@code t} and its causes joined by ": ", each only when the text so far does not already contain
     * it; a throwable without a message shows its class's simple name. Cycles in the chain are followed once.
     */
    public static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Throwable c = t;
        for (int depth = 0; c != null && depth < MAX_DEPTH && seen.add(c); depth++, c = c.getCause()) {
            String m = c.getMessage();
            if (m == null || m.isBlank()) {
                if (c.getCause() != null && c.getCause() != c) {
                    continue; // a bare wrapper: its cause speaks
                }
                m = c.getClass().getSimpleName();
            }
            m = m.strip();
            if (sb.indexOf(m) >= 0) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append(": ");
            }
            sb.append(m);
        }
        return sb.length() == 0 ? t.getClass().getSimpleName() : sb.toString();
    }

    /**
     * {@code message} without the phrases that name {@code position} once more ({@code " at " + position}, also
     * without the position's {@code " gtid=..."} part), for a message that is shown after "failed at POSITION: ".
     * Unchanged when {@code position} is null.
     */
    public static String withoutPosition(String message, String position) {
        if (position == null || position.isEmpty() || message == null) {
            return message;
        }
        String out = message.replaceAll(Pattern.quote(" at " + position) + NOT_CONTINUED, "");
        int gtid = position.indexOf(SourcePosition.GTID_MARK);
        if (gtid > 0) {
            // the file and offset alone, where a layer names no GTID (and not the start of another GTID's mention)
            String fileAndOffset = Pattern.quote(" at " + position.substring(0, gtid));
            out = out.replaceAll(fileAndOffset + NOT_CONTINUED + "(?!" + Pattern.quote(SourcePosition.GTID_MARK) + ")", "");
        }
        return out;
    }
}
