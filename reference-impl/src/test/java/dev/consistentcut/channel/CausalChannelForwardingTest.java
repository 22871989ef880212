package dev.consistentcut.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The answers a {@link CausalChannel} passes through without a clock (the sender's open buffer, the
 * record count, the wait for room, the id the runtime orders step locks by, the text) are the
 * decorated channel's own. The seeded comparison with a plain channel lives with the vector clocks
 * (dev.consistentcut.causal.CausalChannelTest); these are the pass-throughs that script does not
 * ask, checked here with a clock that counts nothing.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CausalChannelForwardingTest {

    private static final ChannelClock SILENT = new ChannelClock() {
        @Override
        public void put(boolean record, boolean overtaking) {
        }

        @Override
        public void take(boolean record) {
        }

        @Override
        public void restored(int records) {
        }
    };

    private static Record rec(long off) {
        return new Record(new RecordId("a", off), off, off);
    }

    @Test
    void theOpenBufferAndTheRecordCountAreTheDecoratedChannels() {
        Channel plain = new Channel("a->b", 8, 4);
        Channel decorated = new Channel("a->b", 8, 4);
        CausalChannel.install(decorated, SILENT);
        for (Channel ch : List.of(plain, decorated)) {
            assertFalse(ch.hasOpenBuffer(), ch + ": nothing put yet");
            assertTrue(ch.offerRecord(rec(0)));
            assertTrue(ch.offerRecord(rec(1)));
            assertTrue(ch.hasOpenBuffer(), ch + ": two records in a buffer of four, not handed over");
            assertEquals(2, ch.recordCount(), ch + ": the open buffer counts");
            assertTrue(ch.flush());
            assertFalse(ch.hasOpenBuffer(), ch + ": handed over");
            assertEquals(2, ch.recordCount(), ch + ": handed over, still in the channel");
        }
    }

    @Test
    void theDecoratorTellsItsIdAndOrdersStepLocksByIt() {
        CausalChannel b = CausalChannel.install(new Channel("b->c", 4, 1), SILENT);
        CausalChannel a = CausalChannel.install(new Channel("a->c", 4, 1), SILENT);
        assertEquals("b->c", b.id());
        List<CausalChannel> locks = new ArrayList<>(List.of(b, a));
        locks.sort(CausalChannel.STEP_ORDER);
        assertEquals(List.of(a, b), locks, "step locks are taken in the order of the channels' ids");
    }

    @Test
    void theDecoratorsTextNamesItAndTheChannel() {
        Channel plain = new Channel("a->b", 4, 1);
        Channel decorated = new Channel("a->b", 4, 1);
        CausalChannel causal = CausalChannel.install(decorated, SILENT);
        String text = causal.toString();
        assertTrue(text.startsWith("Causal") && text.contains("a->b"), text);
    }

    /**
     * A sender putting into a full channel parks (the decorator passes the wait for room to the
     * channel, outside its own lock) until the receiver frees a buffer, then puts. A sender that did
     * not wait would spin, never parked, and this test would time out. The receiver frees room only
     * once the sender is parked, so the outcome does not depend on how the threads interleave.
     */
    @Test
    void aSenderAtAFullChannelParksThroughTheDecoratorUntilTheReceiverFreesRoom() throws Exception {
        Channel ch = new Channel("a->b", 2, 1);
        CausalChannel.install(ch, SILENT);
        long next = 0;
        while (ch.offerRecord(rec(next))) {
            next++;
        }
        assertFalse(ch.hasRoom(), "full");
        long last = next;
        AtomicBoolean put = new AtomicBoolean();
        Thread sender = new Thread(() -> {
            try {
                ch.putRecord(rec(last));
                put.set(true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "sender");
        sender.start();
        while (sender.getState() != Thread.State.WAITING && sender.getState() != Thread.State.TIMED_WAITING
                && sender.getState() != Thread.State.TERMINATED) {
            Thread.onSpinWait();
        }
        assertFalse(put.get(), "put into a full channel");
        ch.poll();
        sender.join();
        assertTrue(put.get(), "the sender put once the receiver freed room");
        assertEquals(next, ch.recordCount(), "one record taken, one put");
    }
}
