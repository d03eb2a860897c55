package io.lanes.core.internal;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Hints of idle workers: a lock-free stack that workers push themselves onto when their queue runs dry and the
 * dispatcher pops from (many producers, one consumer, so popping has no ABA problem). A worker is on the stack at most
 * once. Popped entries are only hints: the dispatcher re-checks the worker's load.
 */
final class IdleWorkers {
    private static final class Node {
        final int worker;
        Node next;

        Node(int worker) {
            this.worker = worker;
        }
    }

    private final Node[] nodes;
    private final AtomicIntegerArray queued;
    private final AtomicReference<Node> head = new AtomicReference<>();

    IdleWorkers(int workers) {
        nodes = new Node[workers];
        for (int i = 0; i < workers; i++) {
            nodes[i] = new Node(i);
        }
        queued = new AtomicIntegerArray(workers);
    }

    /** Any thread. */
    void push(int worker) {
        if (queued.get(worker) != 0 || !queued.compareAndSet(worker, 0, 1)) {
            return;
        }
        Node n = nodes[worker];
        for (;;) {
            Node h = head.get();
            n.next = h;
            if (head.compareAndSet(h, n)) {
                return;
            }
        }
    }

    /** Dispatcher only; -1 when empty. */
    int pop() {
        for (;;) {
            Node h = head.get();
            if (h == null) {
                return -1;
            }
            if (head.compareAndSet(h, h.next)) {
                h.next = null;
                queued.set(h.worker, 0);
                return h.worker;
            }
        }
    }
}
