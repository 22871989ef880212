package dev.consistentcut.channel;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ChannelTest {

    private static Record rec(long offset) {
        return new Record(new RecordId("src", offset), offset, offset * 10);
    }

    /** Waits (without a time limit) until {@code t} parks: the only way to see a blocked put. */
    private static void awaitParked(Thread t) {
        while (t.getState() != Thread.State.WAITING) {
            if (!t.isAlive()) {
                throw new AssertionError("thread ended instead of waiting");
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void rejectsBadArgumentsNamingTheChannel() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Channel("a->b", 0));
        assertTrue(e.getMessage().contains("a->b"), e.getMessage());
        assertTrue(e.getMessage().contains("capacity"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Channel("  ", 1));
        assertThrows(NullPointerException.class, () -> new Channel(null, 1));
    }

    @Test
    void deliversRecordsInFifoOrder() {
        Channel c = new Channel("e", 10);
        for (long i = 0; i < 5; i++) {
            assertTrue(c.offerRecord(rec(i)));
        }
        assertEquals(5, c.recordCount());
        for (long i = 0; i < 5; i++) {
            assertEquals(rec(i), c.peek());
            assertEquals(rec(i), c.poll());
        }
        assertNull(c.peek());
        assertNull(c.poll());
        assertTrue(c.isEmpty());
    }

    @Test
    void offerFailsWhenFullAndChangesNothing() {
        Channel c = new Channel("e", 2);
        assertTrue(c.offerRecord(rec(0)));
        assertTrue(c.hasRoom());
        assertTrue(c.offerRecord(rec(1)));
        assertFalse(c.hasRoom());
        assertFalse(c.offerRecord(rec(2)));
        assertEquals(List.of(rec(0), rec(1)), c.contents());
        assertEquals(2, c.recordCount());
        c.poll();
        assertTrue(c.hasRoom());
        assertTrue(c.offerRecord(rec(2)));
        assertEquals(List.of(rec(1), rec(2)), c.contents());
    }

    @Test
    void barriersTakeNoCapacityAndNeverWait() {
        Channel c = new Channel("e", 1);
        c.offerRecord(rec(0));
        c.putBarrier(new Barrier(1)); // full, yet accepted at once
        assertEquals(List.of(rec(0), new Barrier(1)), c.contents());
        c.putBarrierOvertaking(new Barrier(2));
        assertEquals(1, c.recordCount());
        assertFalse(c.hasRoom());
        assertEquals(3, c.contents().size());
    }

    @Test
    void alignedBarrierTravelsInBandAfterQueuedRecords() {
        Channel c = new Channel("e", 5);
        c.offerRecord(rec(0));
        c.offerRecord(rec(1));
        c.putBarrier(new Barrier(7));
        c.offerRecord(rec(2));
        assertEquals(List.of(rec(0), rec(1), new Barrier(7), rec(2)), c.contents());
        assertEquals(rec(0), c.poll());
        assertEquals(rec(1), c.poll());
        assertEquals(new Barrier(7), c.poll());
        assertEquals(rec(2), c.poll());
    }

    @Test
    void overtakingBarrierReturnsExactlyTheOvertakenRecordsAndDeliversThemAfter() {
        Channel c = new Channel("e", 5);
        c.offerRecord(rec(0));
        c.offerRecord(rec(1));
        c.offerRecord(rec(2));
        assertEquals(rec(0), c.poll()); // delivered before the barrier: not overtaken

        List<Record> overtaken = c.putBarrierOvertaking(new Barrier(3));
        assertEquals(List.of(rec(1), rec(2)), overtaken);
        c.offerRecord(rec(3)); // sent after the barrier: not overtaken, and not in the returned copy
        assertEquals(List.of(rec(1), rec(2)), overtaken);

        assertEquals(new Barrier(3), c.peek());
        assertEquals(List.of(new Barrier(3), rec(1), rec(2), rec(3)), c.contents());
        assertEquals(new Barrier(3), c.poll());
        assertEquals(rec(1), c.poll());
        assertEquals(rec(2), c.poll());
        assertEquals(rec(3), c.poll());
        assertTrue(c.isEmpty());
    }

    @Test
    void overtakingBarriersKeepTheirOrderAmongThemselves() {
        Channel c = new Channel("e", 5);
        c.offerRecord(rec(0));
        assertEquals(List.of(rec(0)), c.putBarrierOvertaking(new Barrier(1)));
        c.offerRecord(rec(1));
        assertEquals(List.of(rec(0), rec(1)), c.putBarrierOvertaking(new Barrier(2)));
        assertEquals(List.of(new Barrier(1), new Barrier(2), rec(0), rec(1)), c.contents());
    }

    @Test
    void overtakingAnEmptyChannelOvertakesNothing() {
        Channel c = new Channel("e", 1);
        assertEquals(List.of(), c.putBarrierOvertaking(new Barrier(1)));
        assertEquals(new Barrier(1), c.poll());
        assertTrue(c.isEmpty());
    }

    @Test
    void putRecordWaitsWhileFullAndAPollReleasesIt() throws Exception {
        Channel c = new Channel("e", 1);
        c.offerRecord(rec(0));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                c.putRecord(rec(1));
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        sender.start();
        awaitParked(sender);
        // Parked, and the put has not happened: backpressure.
        assertEquals(List.of(rec(0)), c.contents());

        assertEquals(rec(0), c.poll());
        sender.join();
        assertNull(failure.get());
        assertEquals(List.of(rec(1)), c.contents());
    }

    @Test
    void anInterruptedWaitingPutQueuesNothing() throws Exception {
        Channel c = new Channel("e", 1);
        c.offerRecord(rec(0));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                c.putRecord(rec(1));
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        sender.start();
        awaitParked(sender);
        sender.interrupt();
        sender.join();
        assertTrue(failure.get() instanceof InterruptedException, String.valueOf(failure.get()));
        assertEquals(List.of(rec(0)), c.contents());
    }

    @Test
    void restoreEmptiesBothLanesAndQueuesPersistedRecordsFirst() {
        Channel c = new Channel("e", 3);
        c.offerRecord(rec(9));
        c.putBarrierOvertaking(new Barrier(1));
        c.restore(List.of(rec(1), rec(2)));
        assertEquals(List.of(rec(1), rec(2)), c.contents());
        assertEquals(2, c.recordCount());
        c.offerRecord(rec(3));
        assertEquals(List.of(rec(1), rec(2), rec(3)), c.contents());
    }

    @Test
    void restoreBeyondCapacityKeepsEveryRecordAndTheSenderWaitsUntilBelowCapacity() {
        Channel c = new Channel("e", 2);
        c.restore(List.of(rec(0), rec(1), rec(2), rec(3)));
        assertEquals(4, c.recordCount());
        assertFalse(c.hasRoom());
        assertFalse(c.offerRecord(rec(4)));
        c.poll();
        c.poll();
        assertFalse(c.hasRoom()); // 2 left: still at capacity
        c.poll();
        assertTrue(c.offerRecord(rec(4)));
        assertEquals(List.of(rec(3), rec(4)), c.contents());
    }

    @Test
    void listenersRunOnAddAndOnRecordRemoval() {
        Channel c = new Channel("e", 2);
        AtomicInteger added = new AtomicInteger();
        AtomicInteger room = new AtomicInteger();
        c.setListeners(added::incrementAndGet, room::incrementAndGet);
        c.offerRecord(rec(0));
        c.putBarrier(new Barrier(1));
        c.putBarrierOvertaking(new Barrier(2));
        assertTrue(c.offerRecord(rec(1)));
        assertFalse(c.offerRecord(rec(2))); // full: nothing added, no event
        assertEquals(4, added.get());
        c.poll(); // barrier 2: no room freed
        assertEquals(0, room.get());
        c.poll(); // record 0
        assertEquals(1, room.get());
    }

    @Test
    void listenersMayCallBackIntoTheChannel() {
        Channel c = new Channel("e", 2);
        List<Message> seen = new ArrayList<>();
        c.setListeners(() -> seen.add(c.peek()), () -> seen.add(null));
        c.offerRecord(rec(0)); // would deadlock or fail if the listener ran under a non-reentrant lock
        assertEquals(rec(0), seen.get(0));
    }

    @Test
    void oneSenderAndOneReceiverPassEveryElementInOrderUnderBackpressure() throws Exception {
        Channel c = new Channel("e", 2);
        int n = 20_000;
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                start.await();
                for (long i = 0; i < n; i++) {
                    c.putRecord(rec(i));
                    if (i % 1000 == 999) {
                        c.putBarrier(new Barrier(i / 1000 + 1));
                    }
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        sender.start();
        start.countDown();
        List<Message> received = new ArrayList<>();
        while (received.size() < n + n / 1000) {
            Message e = c.poll();
            if (e != null) {
                assertTrue(c.recordCount() <= 2);
                received.add(e);
            } else {
                Thread.onSpinWait();
            }
        }
        sender.join();
        assertNull(failure.get());
        List<Message> expected = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            expected.add(rec(i));
            if (i % 1000 == 999) {
                expected.add(new Barrier(i / 1000 + 1));
            }
        }
        assertEquals(expected, received);
        assertNull(c.poll());
    }

    @Test
    void contentsIsACopy() {
        Channel c = new Channel("e", 2);
        c.offerRecord(rec(0));
        List<Message> snapshot = c.contents();
        c.poll();
        assertEquals(List.of(rec(0)), snapshot);
        assertSame(null, c.peek());
    }

    // The alternating switch moves a queued in-band barrier to the head (the spec's
    // PrioritizedOn, Flink's convertToPriorityEvent) and hands back the records it overtook, which
    // stay queued behind it, in order.
    @Test
    void aPrioritizedBarrierOvertakesTheRecordsAheadOfItWhichStayQueued() {
        Channel ch = new Channel("a->b", 10);
        assertNull(ch.firstInBandBarrier());
        ch.offerRecord(rec(0));
        ch.offerRecord(rec(1));
        ch.putBarrier(new Barrier(1));
        ch.offerRecord(rec(2));
        assertEquals(1, ch.firstInBandBarrier().checkpointId());
        assertNull(ch.prioritizeBarrier(2), "no barrier of 2 queued: nothing changes");
        assertEquals(List.of(rec(0), rec(1)), ch.prioritizeBarrier(1));
        assertNull(ch.firstInBandBarrier(), "the barrier left the records lane");
        assertEquals(3, ch.recordCount());
        Barrier head = (Barrier) ch.poll();
        assertEquals(1, head.checkpointId());
        assertFalse(head.aligned(), "it travels on as an unaligned barrier");
        assertEquals(List.of(rec(0), rec(1), rec(2)), List.of(ch.poll(), ch.poll(), ch.poll()));
        assertTrue(ch.isEmpty());
    }

    // firstInBandBarrier is asked before every step of an alternating task: it follows the
    // records lane's in-band barriers through puts, polls, prioritizations and restores.
    @Test
    void theFirstInBandBarrierFollowsTheRecordsLane() {
        Channel ch = new Channel("a->b", 10);
        ch.putBarrier(new Barrier(1));
        ch.offerRecord(rec(0));
        ch.putBarrier(new Barrier(2));
        assertEquals(1, ch.firstInBandBarrier().checkpointId());
        ch.poll();
        assertEquals(2, ch.firstInBandBarrier().checkpointId());
        assertEquals(List.of(rec(0)), ch.prioritizeBarrier(2));
        assertNull(ch.firstInBandBarrier());
        ch.putBarrier(new Barrier(3));
        ch.restore(List.of(rec(5)));
        assertNull(ch.firstInBandBarrier(), "a restore empties the lanes");
        ch.putBarrier(new Barrier(4));
        assertEquals(4, ch.firstInBandBarrier().checkpointId());
    }
}
