package dev.consistentcut.causal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.channel.CausalChannel;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The causal decorator changes nothing a channel's ends see: one script of puts and takes on a
 * plain channel and on one with a {@link CausalChannel} returns the same values and delivers the
 * same messages in the same order; and the decorated one carries the clocks (a take's event comes
 * after the put's). One thread plays sender and receiver in turn ({@link VectorClocks#bind}).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CausalChannelTest {

    private static Record rec(long off) {
        return new Record(new RecordId("a", off), off, off * 10);
    }

    /** Every return value of a seeded script of both ends' operations, and the contents after each. */
    private static List<Object> script(Channel ch, long seed, Function<String, Runnable> as) {
        Random r = new Random(seed);
        List<Object> seen = new ArrayList<>();
        long next = 0;
        long checkpoint = 0;
        for (int i = 0; i < 400; i++) {
            int op = r.nextInt(10);
            as.apply(op < 6 ? "a" : "b").run();
            switch (op) {
                case 0, 1, 2 -> {
                    boolean ok = ch.offerRecord(rec(next));
                    seen.add(ok);
                    next += ok ? 1 : 0;
                }
                case 3 -> seen.add(ch.flush());
                case 4 -> {
                    checkpoint++;
                    if (r.nextBoolean()) {
                        seen.add(ch.putBarrierOvertaking(new Barrier(checkpoint)));
                    } else {
                        ch.putBarrier(new Barrier(checkpoint));
                    }
                }
                case 5 -> ch.putCancelBarrier(new CancelBarrier(Math.max(1, checkpoint)), r.nextBoolean());
                case 6, 7, 8 -> seen.add(ch.poll());
                default -> {
                    seen.add(ch.peek());
                    seen.add(ch.firstInBandBarrier());
                    seen.add(ch.prioritizeBarrier(checkpoint));
                }
            }
            seen.add(ch.contents());
            seen.add(ch.recordCount());
            seen.add(ch.isEmpty());
        }
        as.apply("b").run();
        for (Message m; (m = ch.poll()) != null; ) {
            seen.add(m);
        }
        return seen;
    }

    @Test
    void theDecoratorDeliversWhatThePlainChannelDeliversInTheSameOrder() {
        for (long seed = 1; seed <= 20; seed++) {
            Channel plain = new Channel("a->b", 8, 2);
            List<Object> expected = script(plain, seed, who -> () -> { });
            VectorClocks clocks = new VectorClocks(List.of("a", "b"));
            Channel decorated = new Channel("a->b", 8, 2);
            CausalChannel.install(decorated, clocks.channel(decorated.capacity()));
            List<Object> actual = script(decorated, seed, who -> () -> clocks.bind(who));
            assertEquals(expected, actual, "seed " + seed);
        }
    }

    /** a puts a record and records a1; b takes it and records b1: b1's clock. */
    private static long[] putThenTake(VectorClocks clocks, Channel ch) {
        clocks.bind("a");
        assertTrue(ch.offerRecord(rec(0)));
        assertTrue(ch.flush());
        clocks.current().event("a1");
        clocks.bind("b");
        assertEquals(rec(0), ch.poll());
        return clocks.current().event("b1");
    }

    @Test
    void theDecoratorAttachesClocks() {
        VectorClocks clocks = new VectorClocks(List.of("a", "b"));
        Channel ch = new Channel("a->b", 4, 2);
        CausalChannel.install(ch, clocks.channel(ch.capacity()));
        clocks.bind("b");
        long[] before = clocks.current().event("b0");
        assertArrayEquals(new long[] {0, 1}, before, "nothing taken yet: b knows nothing of a");
        assertArrayEquals(new long[] {1, 2}, putThenTake(clocks, ch), "the take carries the put's clock: b1 after a1");
    }

    @Test
    void aPlainChannelAttachesNoClocks() {
        VectorClocks clocks = new VectorClocks(List.of("a", "b"));
        Channel ch = new Channel("a->b", 4, 2);
        assertArrayEquals(new long[] {0, 1}, putThenTake(clocks, ch), "no decorator, no edge");
    }
}
