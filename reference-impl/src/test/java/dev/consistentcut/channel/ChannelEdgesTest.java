package dev.consistentcut.channel;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.EndOfPartition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Edges of {@link Channel} its other tests left unchecked, found by mutation testing of the
 * buffered channel (docs/mutation-testing.md): the credit of a buffer an event hands over, a full
 * channel under a clock, the wake-ups of a priority cancellation barrier and of a restore, the
 * channel's and end of partition's text.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ChannelEdgesTest {

    private static Record rec(long offset) {
        return new Record(new RecordId("src", offset), offset, offset * 10);
    }

    /**
     * An in-band event hands the open buffer over ahead of itself: that buffer takes a credit
     * until it is read, and a later overtaking barrier overtakes its records (they are channel
     * state). Forgetting it would let the sender past the bound and, in alternating mode (an
     * aligned barrier, then an unaligned one), leave its records out of the checkpoint: lost on restore.
     */
    @Test
    void aBufferHandedOverByAnEventKeepsItsCreditAndIsOvertakenLikeAnyOther() {
        Channel c = new Channel("e", 4, 2); // 2 credits
        assertTrue(c.offerRecord(rec(0)));
        c.putBarrier(new Barrier(1)); // hands over [rec 0]
        assertTrue(c.offerRecord(rec(1)));
        c.putCancelBarrier(new CancelBarrier(1), false); // hands over [rec 1]
        assertFalse(c.hasRoom(), "two part-full buffers handed over by events hold both credits");
        assertFalse(c.offerRecord(rec(2)));
        assertEquals(List.of(rec(0), rec(1)), c.putBarrierOvertaking(new Barrier(2)));
        assertEquals(List.of(new Barrier(2), rec(0), new Barrier(1), rec(1), new CancelBarrier(1)), c.contents());
        assertEquals(new Barrier(2), c.poll());
        assertEquals(rec(0), c.poll());
        assertTrue(c.hasRoom(), "the first buffer read to its end: its credit is free");
        c.putEndOfPartition(); // the end of partition hands over nothing: no open buffer
        assertTrue(c.hasRoom());
    }

    /**
     * With a clock (causal tracing) a full channel refuses a record as without one. A refusal
     * reported as success would lose the record: {@code putRecord} stops retrying on true.
     */
    @Test
    void withAClockAFullChannelRefusesARecordAndReportsNoPut() {
        Channel c = new Channel("e", 2);
        RecordingClock clock = new RecordingClock();
        CausalChannel.install(c, clock);
        assertTrue(c.offerRecord(rec(0)));
        assertTrue(c.offerRecord(rec(1)));
        assertFalse(c.offerRecord(rec(2)), "full: refused");
        assertEquals(List.of("put", "put"), clock.events, "a refused record is no put");
        assertEquals(List.of(rec(0), rec(1)), c.contents());
    }

    /** A priority cancellation barrier wakes the receiver (a threaded runtime's task waits for exactly this). */
    @Test
    void aPriorityCancellationBarrierWakesTheReceiver() {
        Channel c = new Channel("e", 4, 2);
        AtomicInteger available = new AtomicInteger();
        c.setListeners(available::incrementAndGet, () -> { });
        c.putCancelBarrier(new CancelBarrier(1), true); // no open buffer: the only wake-up is the event's
        assertEquals(1, available.get());
        assertEquals(new CancelBarrier(1), c.peek());
    }

    /** A restore that queues records wakes the receiver; one that queues none has nothing to say. */
    @Test
    void aRestoreWithRecordsWakesTheReceiverAndAnEmptyOneDoesNot() {
        Channel c = new Channel("e", 4, 2);
        AtomicInteger available = new AtomicInteger();
        c.setListeners(available::incrementAndGet, () -> { });
        c.restore(List.of(rec(0), rec(1), rec(2)));
        assertEquals(1, available.get(), "one wake-up per restore, not per buffer");
        c.restore(List.of());
        assertEquals(1, available.get());
    }

    /**
     * A sender waiting for a credit in {@code putRecord} is woken by a restore that empties the
     * channel ({@code roomAvailable} is signalled on restore). The runtimes stop their workers
     * before a restore, so none waits then today; this holds the channel to its own comment, so
     * that a runtime that restores around a parked sender does not hang.
     */
    @Test
    void aSenderWaitingForACreditIsWokenByARestoreThatEmptiesTheChannel() throws Exception {
        Channel c = new Channel("e", 2, 2);
        c.offerRecord(rec(0));
        c.offerRecord(rec(1)); // the only buffer handed over: no credit left
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                c.putRecord(rec(2));
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        sender.setDaemon(true);
        sender.start();
        while (sender.getState() != Thread.State.WAITING) {
            assertTrue(sender.isAlive(), "the put returned instead of waiting");
            Thread.onSpinWait();
        }
        c.restore(List.of());
        sender.join(5_000);
        try {
            assertFalse(sender.isAlive(), "the restore freed every credit, yet the sender still waits");
        } finally {
            sender.interrupt();
        }
        assertNull(failure.get());
        c.flush();
        assertEquals(List.of(rec(2)), c.contents());
    }

    /**
     * The channel's text names it, its fill and bound, its buffer size when above one and whether
     * an overtaking element is pending (a debugging aid; no message quotes it). End of partition's
     * text is quoted: a task's "not enabled" error names the head of the input.
     */
    @Test
    void theTextOfAChannelAndOfEndOfPartitionSaysWhatTheyAre() {
        Channel buffered = new Channel("a->b", 6, 3);
        buffered.offerRecord(rec(0));
        buffered.offerRecord(rec(1));
        assertEquals("Channel[a->b, records=2/6, buffers of 3, priority=false]", buffered.toString());
        buffered.putBarrierOvertaking(new Barrier(1));
        assertEquals("Channel[a->b, records=2/6, buffers of 3, priority=true]", buffered.toString());
        assertEquals("Channel[e, records=0/2, priority=false]", new Channel("e", 2).toString());
        assertEquals("EndOfPartition", EndOfPartition.INSTANCE.toString());
    }
}
