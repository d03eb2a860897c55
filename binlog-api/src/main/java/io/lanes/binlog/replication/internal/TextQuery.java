package io.lanes.binlog.replication.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * COM_QUERY over the text protocol: sends statements (together, pipelined) and reads each one's OK, ERR or result set
 * (column definitions, then text rows, ended by EOF, or by an OK packet with an 0xfe header under CLIENT_DEPRECATE_EOF).
 * Values are strings or null.
 */
public final class TextQuery {
    /** A server's answer to a statement. */
    public record Result(List<String> columns, List<List<String>> rows) {
        /** The first row's first value, or null when there is no row. */
        public String scalar() {
            return rows.isEmpty() || rows.get(0).isEmpty() ? null : rows.get(0).get(0);
        }
    }

    /** The server answered with an ERR packet. */
    public static final class ServerErrorException extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient ServerError error;

        public ServerErrorException(ServerError error) {
            super(error.toString());
            this.error = error;
        }

        public ServerError error() {
            return error;
        }
    }

    private final PacketChannel channel;
    private final boolean deprecateEof;
    private final long timeoutMillis;

    public TextQuery(PacketChannel channel, boolean deprecateEof, long timeoutMillis) {
        this.channel = channel;
        this.deprecateEof = deprecateEof;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Queues the statements to go with the next packet written with a flush ({@link PacketChannel#writeCommand}); read
     * their answers with {@link #readAnswers} once it is written. The server runs them one after another, as if sent
     * one at a time, and one failing does not stop the others: one round trip for all of them (pipelining), for
     * statements whose text does not depend on an earlier one's answer.
     */
    public void queue(List<String> statements) {
        for (String sql : statements) {
            channel.queueCommand(command(sql));
        }
    }

    /** Sends the statements together (the last with a flush); read their answers with {@link #readAnswers}. */
    public void send(List<String> statements) {
        if (statements.isEmpty()) {
            return;
        }
        queue(statements.subList(0, statements.size() - 1));
        channel.writeCommand(command(statements.get(statements.size() - 1)));
    }

    /** Reads the answers of {@code n} statements sent together: per statement, its {@link Result} or its error. */
    public List<Object> readAnswers(int n) throws IOException, InterruptedException {
        List<Object> answers = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            try {
                answers.add(readAnswer());
            } catch (ServerErrorException e) {
                answers.add(e.error());
            }
        }
        return answers;
    }

    private static ByteBuf command(String sql) {
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        ByteBuf cmd = Unpooled.buffer(1 + text.length);
        return cmd.writeByte(Protocol.COM_QUERY).writeBytes(text);
    }

    /**
     * Reads one statement's whole answer: an OK, an ERR, or a result set up to its EOF (or the ERR that ends it early),
     * so that the next pipelined answer is read from its first packet.
     */
    private Result readAnswer() throws IOException, InterruptedException, ServerErrorException {
        Packet first = channel.read(timeoutMillis);
        try {
            int h = first.header();
            if (h == 0xff) {
                throw new ServerErrorException(ServerError.parse(first.payload()));
            }
            if (h == 0x00) {
                return new Result(List.of(), List.of());
            }
            long count = Wire.readLenEncInt(first.payload());
            if (count <= 0 || count > 4096) {
                throw new ProtocolException("bad column count " + count + " in the answer to a query");
            }
            List<String> columns = new ArrayList<>((int) count);
            for (int i = 0; i < count; i++) {
                Packet def = channel.read(timeoutMillis);
                try {
                    ByteBuf b = def.payload();
                    for (int skip = 0; skip < 4; skip++) {
                        Wire.readLenEncBytes(b); // catalog, schema, table, org_table
                    }
                    columns.add(Wire.readLenEncString(b));
                } finally {
                    def.release();
                }
            }
            if (!deprecateEof) {
                channel.read(timeoutMillis).release();
            }
            List<List<String>> rows = new ArrayList<>();
            while (true) {
                Packet row = channel.read(timeoutMillis);
                try {
                    if (row.isEof()) {
                        break;
                    }
                    if (row.isError()) {
                        // an ERR ends the result set: nothing of this statement follows it
                        throw new ServerErrorException(ServerError.parse(row.payload()));
                    }
                    List<String> values = new ArrayList<>((int) count);
                    ByteBuf b = row.payload();
                    for (int i = 0; i < count; i++) {
                        values.add(Wire.readLenEncString(b));
                    }
                    rows.add(values);
                } finally {
                    row.release();
                }
            }
            return new Result(columns, rows);
        } finally {
            first.release();
        }
    }
}
