package io.lanes.applier;

/**
 * Where a pipeline's transactions come from: binlog files ({@link FileSource}) or a live server ({@link LiveSource}).
 * A source owns reading and decoding, its size and progress, the GTID state the input carries outside transactions
 * (PREVIOUS_GTIDS, GTID_LIST), and when it has caught up. It hands every transaction, whole and in source order, to
 * the {@link Pipeline}: an input read from its beginning to {@link Pipeline#offer}, which passes over what the
 * checkpoint covers; a server, which starts its stream after the checkpoint, to {@link Pipeline#submit}.
 *
 * <p>Threads: {@link #run} runs on the engine's dispatching thread and returns when the input ends (files), when the
 * pipeline's stop is requested, or when the engine halts; it throws what made reading impossible. The stats accessors
 * may be called from any thread.
 */
interface Source {
    /** Reads and hands over transactions until the input ends, a stop is requested or the engine halts. */
    void run(Pipeline pipeline) throws Exception;

    /** Whether the source follows a server, which never ends by itself. */
    boolean live();

    /** Releases what {@link #run} may leave open (monitors); idempotent; from the dispatching thread. */
    default void close() {
    }
}
