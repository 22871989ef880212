package dev.consistentcut.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SpscQueue} on its own, on one thread. {@link Channel} uses only part of its interface
 * (it discards what {@code poll} and {@code replace} return and never asks {@code size} or
 * {@code isEmpty}), so the channel's tests leave those results unchecked: mutation testing
 * (docs/mutation-testing.md) found them free to be wrong. The cross-thread publication is the
 * business of the channel's jcstress tests, which hand buffers over through this queue.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SpscQueueTest {

    @Test
    void pollReturnsTheElementsInTheOrderOfferedThenNull() {
        SpscQueue<String> q = new SpscQueue<>();
        assertNull(q.peek());
        assertNull(q.poll());
        q.offer("a");
        q.offer("b");
        assertEquals("a", q.peek());
        assertEquals("a", q.peek(), "peek takes nothing");
        assertEquals("a", q.poll());
        assertEquals("b", q.peek());
        assertEquals("b", q.poll());
        assertNull(q.peek());
        assertNull(q.poll());
        q.offer("c"); // the last polled node is now the sentinel: the queue goes on from it
        assertEquals("c", q.poll());
    }

    @Test
    void sizeCountsOfferedMinusTakenAndClearResetsBothCounts() {
        SpscQueue<String> q = new SpscQueue<>();
        assertEquals(0, q.size());
        assertTrue(q.isEmpty());
        q.offer("a");
        q.offer("b");
        q.offer("c");
        assertEquals(3, q.size());
        assertFalse(q.isEmpty());
        q.poll();
        assertEquals(2, q.size());
        q.poll();
        q.poll();
        assertEquals(0, q.size());
        assertTrue(q.isEmpty());
        q.poll(); // on an empty queue: takes nothing, counts nothing
        assertEquals(0, q.size());

        q.offer("d");
        q.offer("e");
        q.poll();
        q.clear(); // 5 offered, 4 taken: both counts go back to 0, not one of them
        assertEquals(0, q.size());
        assertTrue(q.isEmpty());
        assertNull(q.poll());
        q.offer("f");
        assertEquals(1, q.size());
        assertEquals("f", q.poll());
    }

    @Test
    void replaceSwapsTheFirstIdenticalElementAndSaysWhetherItFoundOne() {
        SpscQueue<String> q = new SpscQueue<>();
        String b = new String("b");
        q.offer("a");
        q.offer(b);
        q.offer("c");
        assertFalse(q.replace(new String("b"), "x"), "identity, not equals: an equal copy is not in the queue");
        assertTrue(q.replace(b, "x"));
        assertFalse(q.replace(b, "y"), "b was replaced: there is no b left to replace");
        List<String> seen = new ArrayList<>();
        q.forEachQuiescent(seen::add);
        assertEquals(List.of("a", "x", "c"), seen);
        assertEquals(3, q.size(), "a replacement neither adds nor takes");
        assertThrows(NullPointerException.class, () -> q.replace("a", null));
    }

    @Test
    void forEachFromHeadStopsWhereTheActionSaysAndSkipsWhatWasTaken() {
        SpscQueue<Integer> q = new SpscQueue<>();
        for (int i = 0; i < 5; i++) {
            q.offer(i);
        }
        q.poll();
        List<Integer> seen = new ArrayList<>();
        q.forEachFromHead(e -> {
            seen.add(e);
            return e < 3;
        });
        assertEquals(List.of(1, 2, 3), seen);
    }

    @Test
    void offerRejectsNullAndChangesNothing() {
        SpscQueue<String> q = new SpscQueue<>();
        assertThrows(NullPointerException.class, () -> q.offer(null));
        assertTrue(q.isEmpty());
        assertNull(q.peek());
    }
}
