package io.lanes.binlog.replication;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy for fault tests: forwards bytes between a client and a server, and can cut every open connection (as a
 * network failure would, at any byte) or stall them (the sockets stay open but nothing moves, as with a dead peer).
 */
final class ReplicationTestProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final List<Pipe> pipes = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean closed;
    private final List<ByteArrayOutputStream> clientBytes = new CopyOnWriteArrayList<>();
    private volatile int recordLimit;
    private final List<ByteArrayOutputStream> serverBytes = new CopyOnWriteArrayList<>();
    private volatile int serverRecordLimit;

    ReplicationTestProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "test-proxy-accept");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Records what clients send, up to {@code limit} bytes per connection, for connections accepted from now on. */
    void recordClientBytes(int limit) {
        recordLimit = limit;
    }

    /** What each recorded connection's client sent, in connection order. */
    List<byte[]> clientBytes() {
        List<byte[]> out = new java.util.ArrayList<>();
        for (ByteArrayOutputStream b : clientBytes) {
            synchronized (b) {
                out.add(b.toByteArray());
            }
        }
        return out;
    }

    /** Records what the server sends, up to {@code limit} bytes per connection, for connections accepted from now on. */
    void recordServerBytes(int limit) {
        serverRecordLimit = limit;
    }

    /** What the server sent on each recorded connection, in connection order. */
    List<byte[]> serverBytes() {
        List<byte[]> out = new java.util.ArrayList<>();
        for (ByteArrayOutputStream b : serverBytes) {
            synchronized (b) {
                out.add(b.toByteArray());
            }
        }
        return out;
    }

    int acceptedConnections() {
        return accepted.get();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                accepted.incrementAndGet();
                Socket server;
                try {
                    server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                } catch (IOException e) {
                    client.close();
                    continue;
                }
                Pipe p = new Pipe(client, server);
                if (recordLimit > 0) {
                    p.upRecord = new ByteArrayOutputStream();
                    p.upLimit = recordLimit;
                    clientBytes.add(p.upRecord);
                }
                if (serverRecordLimit > 0) {
                    p.downRecord = new ByteArrayOutputStream();
                    p.downLimit = serverRecordLimit;
                    serverBytes.add(p.downRecord);
                }
                pipes.add(p);
                p.start();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    /** Closes every open connection at once. */
    void cutAll() {
        for (Pipe p : pipes) {
            p.close();
        }
        pipes.clear();
    }

    /**
     * Lets the open connections forward {@code bytes} more bytes from the server to the client, then cuts them: the cut
     * falls at an arbitrary byte, mostly inside a packet and inside a transaction.
     */
    void cutAfterServerBytes(long bytes) {
        for (Pipe p : pipes) {
            p.downBudget = bytes;
        }
    }

    /** Stops forwarding on the open connections, leaving them open; new connections are forwarded normally. */
    void stallAll() {
        for (Pipe p : pipes) {
            p.stalled = true;
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        cutAll();
    }

    private final class Pipe {
        final Socket client;
        final Socket server;
        volatile boolean stalled;
        volatile long downBudget = -1;
        ByteArrayOutputStream upRecord;
        int upLimit;
        ByteArrayOutputStream downRecord;
        int downLimit;

        Pipe(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            pump(client, server, false);
            pump(server, client, true);
        }

        private void pump(Socket from, Socket to, boolean down) {
            Thread t = new Thread(() -> {
                byte[] buf = new byte[8192];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    int n;
                    while ((n = in.read(buf)) >= 0) {
                        while (stalled) {
                            Thread.sleep(20);
                            if (from.isClosed()) {
                                return;
                            }
                        }
                        record(down ? downRecord : upRecord, down ? downLimit : upLimit, buf, n);
                        long budget = downBudget;
                        if (down && budget >= 0) {
                            int allowed = (int) Math.min(n, budget);
                            out.write(buf, 0, allowed);
                            out.flush();
                            downBudget = budget - allowed;
                            if (budget - allowed == 0) {
                                return; // finally: close both sides
                            }
                            continue;
                        }
                        out.write(buf, 0, n);
                    }
                } catch (IOException | InterruptedException e) {
                    // the other side or cutAll closed the socket
                } finally {
                    close();
                }
            }, "test-proxy-" + (down ? "down" : "up"));
            t.setDaemon(true);
            t.start();
        }

        private void record(ByteArrayOutputStream to, int limit, byte[] buf, int n) {
            if (to != null) {
                synchronized (to) {
                    to.write(buf, 0, Math.max(0, Math.min(n, limit - to.size())));
                }
            }
        }

        void close() {
            try {
                client.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            try {
                server.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
