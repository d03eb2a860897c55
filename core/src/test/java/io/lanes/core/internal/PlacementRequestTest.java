package io.lanes.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class PlacementRequestTest {

    private final InFlightWindow window = new InFlightWindow(64, 64, 1_000, 0, "p0", () -> { });

    @Test
    void aWaitGivenAgainInARowIsKeptOnce() {
        for (long s = 1; s <= 5; s++) {
            window.dispatch(s, 0, "p" + s);
        }
        PlacementRequest r = new PlacementRequest();
        r.reset(10);
        for (int i = 0; i < 1_000; i++) {
            r.after(3); // a scheduler that reports the last writer of each of 1,000 rows, all written by 3
        }
        r.after(5);
        r.after(3);
        r.after(5);
        r.after(5);
        assertArrayEquals(new long[] {3, 5, 3, 5}, r.dependencies(window),
                "each run of the same wait is one entry; waits apart from each other stay (each is cheap to check)");
    }

    @Test
    void committedWaitsAndThoseCoveredByAfterAllUpToAreLeftOut() {
        for (long s = 1; s <= 8; s++) {
            window.dispatch(s, 0, "p" + s);
        }
        window.markCommitted(6);
        PlacementRequest r = new PlacementRequest();
        r.reset(10);
        r.afterAllUpTo(4);
        r.after(2);
        r.after(6);
        r.after(7);
        r.after(7);
        assertArrayEquals(new long[] {7}, r.dependencies(window));
        r.reset(11);
        assertArrayEquals(Task.NONE, r.dependencies(window), "reset forgets the waits");
    }
}
