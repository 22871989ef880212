package dev.consistentcut.channel;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.EndOfPartition;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Channel} with buffers of more than one record, with the records in the buffers as
 * objects and serialized: the channel's behaviour must not depend on how a buffer carries them.
 */
@ParameterizedClass
@EnumSource(BufferEncoding.class)
class BufferedChannelTest {

    @Parameter
    BufferEncoding encoding;

    private static Record rec(long offset) {
        return new Record(new RecordId("src", offset), offset, offset * 10);
    }

    private static List<Record> drainRecords(Channel c) {
        List<Record> out = new ArrayList<>();
        for (Message e; (e = c.poll()) != null; ) {
            out.add((Record) e);
        }
        return out;
    }

    @Test
    void capacityIsCountedInBuffersAndStatedInRecords() {
        Channel c = new Channel("e", 10, 3, encoding);
        assertEquals(3, c.bufferSize());
        assertEquals(3, c.bufferCapacity());
        assertEquals(9, c.capacity(), "3 buffers of 3 records: 9 records, the spec's Capacity");
        Channel small = new Channel("e", 2, 8, encoding);
        assertEquals(2, small.bufferSize(), "a buffer is never larger than the channel");
        assertEquals(1, small.bufferCapacity());
        Channel one = new Channel("e", 5);
        assertEquals(1, one.bufferSize());
        assertEquals(5, one.bufferCapacity());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Channel("a->b", 4, 0));
        assertTrue(e.getMessage().contains("a->b") && e.getMessage().contains("buffer size"), e.getMessage());
    }

    @Test
    void aBufferIsHandedOverWhenFullNotBefore() {
        Channel c = new Channel("e", 6, 3, encoding);
        AtomicInteger available = new AtomicInteger();
        c.setListeners(available::incrementAndGet, () -> { });
        c.offerRecord(rec(0));
        c.offerRecord(rec(1));
        assertNull(c.peek(), "an open buffer is the sender's: nothing to read yet");
        assertEquals(2, c.recordCount(), "but its records are in the channel");
        assertFalse(c.isEmpty());
        assertEquals(List.of(rec(0), rec(1)), c.contents());
        assertEquals(0, available.get());
        c.offerRecord(rec(2));
        assertEquals(1, available.get(), "handed over when full: one wake-up per buffer");
        assertEquals(List.of(rec(0), rec(1), rec(2)), drainRecords(c));
        assertTrue(c.isEmpty());
    }

    @Test
    void flushHandsOverAPartBufferWhichStillTakesAWholeCredit() {
        Channel c = new Channel("e", 6, 3, encoding);
        assertFalse(c.flush(), "nothing to flush");
        c.offerRecord(rec(0));
        assertTrue(c.hasOpenBuffer());
        assertTrue(c.flush());
        assertFalse(c.hasOpenBuffer());
        c.offerRecord(rec(1));
        assertTrue(c.flush());
        assertFalse(c.hasRoom(), "two part-full buffers use both credits");
        assertFalse(c.offerRecord(rec(2)));
        assertEquals(2, c.recordCount());
        assertEquals(rec(0), c.poll());
        assertTrue(c.hasRoom(), "reading a buffer to its end releases its credit");
        assertTrue(c.offerRecord(rec(2)));
        assertEquals(List.of(rec(1)), drainRecords(c), "rec(2) is in the open buffer");
        c.flush();
        assertEquals(List.of(rec(2)), drainRecords(c));
    }

    @Test
    void theOpenBufferGoesAheadOfEveryEvent() {
        Channel c = new Channel("e", 12, 4, encoding);
        assertTrue(c.offerRecord(rec(0)));
        c.putBarrier(new Barrier(1));
        assertTrue(c.offerRecord(rec(1)));
        c.putCancelBarrier(new CancelBarrier(1), false);
        assertTrue(c.offerRecord(rec(2)), "a third credit");
        c.putEndOfPartition();
        assertFalse(c.hasRoom(), "three part-full buffers, each handed over by the event behind it, hold the three credits");
        assertEquals(List.of(rec(0), new Barrier(1), rec(1), new CancelBarrier(1), rec(2), EndOfPartition.INSTANCE),
                c.contents());
        assertEquals(rec(0), c.poll());
        assertEquals(new Barrier(1), c.peek());
        assertEquals(new Barrier(1), c.poll());
        assertEquals(rec(1), c.poll());
        assertEquals(new CancelBarrier(1), c.poll());
        assertEquals(rec(2), c.poll());
        assertSame(EndOfPartition.INSTANCE, c.poll());
        assertNull(c.poll());
        assertTrue(c.isEmpty());
    }

    @Test
    void anOvertakingBarrierOvertakesTheRestOfTheBufferBeingReadTheQueueAndTheOpenBuffer() {
        Channel c = new Channel("e", 9, 3, encoding);
        for (long i = 0; i < 7; i++) {
            c.offerRecord(rec(i)); // buffers [0 1 2] [3 4 5], open [6]
        }
        assertEquals(rec(0), c.poll()); // reading the first buffer
        List<Record> overtaken = c.putBarrierOvertaking(new Barrier(1));
        assertEquals(List.of(rec(1), rec(2), rec(3), rec(4), rec(5), rec(6)), overtaken);
        assertEquals(new Barrier(1), c.peek(), "delivered between two records of one buffer");
        assertEquals(new Barrier(1), c.poll());
        assertEquals(overtaken, drainRecords(c), "the overtaken records stay queued, in order");
    }

    @Test
    void overtakingAfterTheReceiverReadSomeBuffersOvertakesOnlyWhatIsLeft() {
        Channel c = new Channel("e", 4, 2, encoding);
        for (long i = 0; i < 4; i++) {
            c.offerRecord(rec(i));
        }
        assertEquals(rec(0), c.poll());
        assertEquals(rec(1), c.poll());
        assertEquals(rec(2), c.poll());
        c.offerRecord(rec(4));
        c.offerRecord(rec(5));
        assertEquals(List.of(rec(3), rec(4), rec(5)), c.putBarrierOvertaking(new Barrier(2)));
        assertEquals(List.of(), c.putBarrierOvertaking(new Barrier(3)).subList(0, 0));
        assertEquals(new Barrier(2), c.poll());
        assertEquals(new Barrier(3), c.poll());
        assertEquals(List.of(rec(3), rec(4), rec(5)), drainRecords(c));
        assertEquals(List.of(), c.putBarrierOvertaking(new Barrier(4)), "an empty channel: nothing overtaken");
    }

    @Test
    void restoreQueuesEveryPersistedRecordInFullBuffersBeyondCapacity() {
        Channel c = new Channel("e", 4, 2, encoding);
        c.offerRecord(rec(100));
        List<Record> persisted = new ArrayList<>();
        for (long i = 0; i < 7; i++) {
            persisted.add(rec(i));
        }
        c.restore(persisted);
        assertEquals(persisted, c.contents());
        assertEquals(7, c.recordCount());
        assertFalse(c.hasRoom(), "4 buffers restored, 2 credits");
        assertEquals(persisted.subList(0, 3), List.of((Record) c.poll(), (Record) c.poll(), (Record) c.poll()));
        assertFalse(c.hasRoom(), "3 buffers in use");
        for (int i = 0; i < 3; i++) {
            c.poll();
        }
        assertTrue(c.hasRoom(), "1 buffer in use: one credit free");
        assertEquals(List.of(rec(6)), drainRecords(c));
        assertTrue(c.isEmpty());
    }

    @Test
    void aPrioritizedBarrierOvertakesTheRestOfTheBufferAndTheBuffersQueuedBeforeIt() {
        Channel c = new Channel("e", 8, 2, encoding);
        for (long i = 0; i < 3; i++) {
            c.offerRecord(rec(i));
        }
        c.putBarrier(new Barrier(5));
        c.offerRecord(rec(3));
        assertEquals(rec(0), c.poll());
        assertEquals(new Barrier(5), c.firstInBandBarrier());
        assertNull(c.prioritizeBarrier(4));
        assertEquals(List.of(rec(1), rec(2)), c.prioritizeBarrier(5));
        assertNull(c.firstInBandBarrier());
        assertEquals(new Barrier(5).asUnaligned(), c.poll());
        assertEquals(rec(1), c.poll());
        assertEquals(rec(2), c.poll());
        assertNull(c.poll(), "rec(3) is still in the open buffer");
        assertFalse(c.isEmpty());
        c.flush();
        assertEquals(rec(3), c.poll());
        assertTrue(c.isEmpty());
    }

    @Test
    void putRecordWaitsForACreditAndTheReleaseOfABufferWakesIt() throws Exception {
        Channel c = new Channel("e", 2, 2, encoding);
        c.offerRecord(rec(0));
        c.offerRecord(rec(1)); // the only buffer handed over: no credit left
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                c.putRecord(rec(2));
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.start();
        while (t.getState() != Thread.State.WAITING) {
            assertTrue(t.isAlive(), "the put returned instead of waiting");
            Thread.onSpinWait();
        }
        assertEquals(rec(0), c.poll());
        assertEquals(Thread.State.WAITING, t.getState(), "half a buffer read: no credit yet");
        assertEquals(rec(1), c.poll());
        t.join();
        assertNull(failure.get());
        c.flush();
        assertEquals(List.of(rec(2)), drainRecords(c));
    }

    /** Causal tracing: with a clock the channel runs under its lock and reports every put and take. */
    @Test
    void withAClockEveryPutAndTakeIsReportedAndTheChannelBehavesTheSame() {
        Channel c = new Channel("e", 8, 2, encoding);
        List<String> events = new ArrayList<>();
        CausalChannel.install(c, new ChannelClock() {
            @Override
            public void put(boolean record, boolean overtaking) {
                events.add("put " + (record ? "record" : "event") + (overtaking ? " overtaking" : ""));
            }

            @Override
            public void take(boolean record) {
                events.add("take " + (record ? "record" : "event"));
            }

            @Override
            public void restored(int records) {
                events.add("restored " + records);
            }
        });
        assertTrue(c.hasRoom());
        assertTrue(c.offerRecord(rec(0)));
        assertTrue(c.offerRecord(rec(1)));
        assertTrue(c.offerRecord(rec(2)));
        assertTrue(c.flush());
        assertFalse(c.flush());
        c.putBarrier(new Barrier(1));
        assertEquals(new Barrier(1), c.firstInBandBarrier());
        assertEquals(rec(0), c.peek());
        assertEquals(rec(0), c.poll());
        assertEquals(List.of(rec(1), rec(2)), c.prioritizeBarrier(1));
        assertEquals(List.of(rec(1), rec(2)), c.putBarrierOvertaking(new Barrier(2)));
        c.putCancelBarrier(new CancelBarrier(2), true);
        c.putCancelBarrier(new CancelBarrier(3), false);
        c.putEndOfPartition();
        assertEquals(List.of(new Barrier(1).asUnaligned(), new Barrier(2), new CancelBarrier(2), rec(1), rec(2),
                new CancelBarrier(3), EndOfPartition.INSTANCE), c.contents());
        List<Message> rest = new ArrayList<>();
        for (Message e; (e = c.poll()) != null; ) {
            rest.add(e);
        }
        assertEquals(c.contents(), List.of());
        assertEquals(7, rest.size());
        c.restore(List.of(rec(9)));
        assertEquals(List.of("put record", "put record", "put record", "put event", "take record", "take event",
                "put event overtaking", "put event overtaking", "put event", "put event",
                "take event", "take event", "take event", "take record", "take record", "take event", "take event",
                "restored 1"), events);
    }
}
