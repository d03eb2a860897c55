package io.lanes.core.internal;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** The worker queue's links: a taken task must not keep later tasks reachable (see {@link TaskQueue#remove}). */
class TaskQueueTest {
    @Test
    void takenTasksHoldNoLinkToLaterOnes() {
        TaskQueue<Object> q = new TaskQueue<>();
        Task<Object> a = new Task<>();
        Task<Object> b = new Task<>();
        Task<Object> c = new Task<>();
        q.offer(a);
        q.offer(b);
        assertSame(a, q.peek());
        q.remove(a);
        assertSame(b, q.peek());
        q.remove(b);
        // a was taken before b: it must no longer reach b (nor, through b, anything queued later).
        assertNull(a.next(), "a taken task still links to its successor");
        assertNull(q.peek());
        q.offer(c);
        assertSame(c, q.peek(), "the last taken task must still accept the next link");
        q.remove(c);
        assertNull(b.next());
        assertNull(q.peek());
    }
}
