package io.lanes.binlog.internal;

/**
 * Makes the exception a shared parser throws, so that each caller reports bad input in its own terms: the binlog
 * decoder a {@link io.lanes.binlog.BinlogFormatException} naming the file and byte offset, the replication client a
 * protocol error naming the connection and stream position.
 */
@FunctionalInterface
public interface ErrorFactory {
    /**
     * @param index the index, in the array being parsed, of the byte where the problem is
     * @param problem what is wrong
     */
    RuntimeException error(int index, String problem);
}
