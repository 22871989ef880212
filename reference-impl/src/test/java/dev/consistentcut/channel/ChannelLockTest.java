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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which operations of a {@link Channel} take a lock. On the plain path, none of the per-record
 * ones ("no lock per record": its lock guards the priority lane and a waiting sender only). With
 * the {@link CausalChannel} of a causal trace around it, every one, so that a step holding the
 * channel ({@link CausalChannel#lockForStep}) is one unit for the other end, as the spec's step is.
 * Both are seen from another thread: the test thread holds the lock and a worker runs the
 * operation. Single-threaded tests cannot tell a locked call from an unlocked one (the lock is
 * reentrant), so mutation testing could not see a lock dropped or added.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ChannelLockTest {

    /** How long a worker may take for a few channel operations that wait for nothing (generous: PIT and a shared machine). */
    private static final long NO_WAIT_MILLIS = 5_000;

    private static Record rec(long offset) {
        return new Record(new RecordId("src", offset), offset, offset * 10);
    }

    private static Thread start(Callable<?> op, AtomicReference<Object> result) {
        Thread t = new Thread(() -> {
            try {
                result.set(op.call());
            } catch (Throwable e) {
                result.set(e);
            }
        });
        t.setDaemon(true); // a mutant's worker stuck on the lock must not keep PIT's minion alive
        t.start();
        return t;
    }

    /** Waits until {@code t} parks (on the channel's lock, here); fails if it ends instead. */
    private static void awaitParked(Thread t, String what) {
        while (t.getState() != Thread.State.WAITING) {
            assertTrue(t.isAlive(), what + " ran to its end while another thread held the channel");
            Thread.onSpinWait();
        }
    }

    @Test
    void withoutAClockNoPerRecordOperationWaitsForTheChannelsLock() throws Exception {
        Channel c = new Channel("e", 4, 2);
        List<Object> results = new ArrayList<>();
        AtomicReference<Object> failure = new AtomicReference<>();
        c.plainLock().lock(); // the channel's lock, held here as any other holder would (an overtaking put, contents())
        Thread worker;
        try {
            worker = start(() -> {
                results.add(c.hasRoom());
                results.add(c.offerRecord(rec(0)));
                results.add(c.flush());
                results.add(c.offerRecord(rec(1)));
                results.add(c.hasOpenBuffer());
                c.putBarrier(new Barrier(1));
                c.putCancelBarrier(new CancelBarrier(1), false);
                results.add(c.firstInBandBarrier());
                results.add(c.peek());
                results.add(c.poll());
                results.add(c.poll());
                results.add(c.recordCount());
                results.add(c.isEmpty());
                return null;
            }, failure);
            worker.join(NO_WAIT_MILLIS);
            assertFalse(worker.isAlive(), "a channel operation without a clock waited for the channel's lock: "
                    + worker.getState() + " at " + List.of(worker.getStackTrace()));
        } finally {
            c.plainLock().unlock();
        }
        assertNull(failure.get());
        assertEquals(List.of(true, true, true, true, true, new Barrier(1), rec(0), rec(0), rec(1), 0, false), results);
    }

    /**
     * Every public operation of either end, with a clock: each waits while a step of the other
     * end holds the channel, then runs and reports to the clock. The operations run one after the
     * other, each on a fresh thread, so a lock an operation failed to release would stop the next
     * {@code lockForStep} here.
     */
    @Test
    void withAClockEveryOperationWaitsForAStepHoldingTheChannel() throws Exception {
        Channel c = new Channel("e", 4, 2);
        RecordingClock clock = new RecordingClock();
        CausalChannel causal = CausalChannel.install(c, clock);
        Map<String, Callable<?>> ops = new LinkedHashMap<>();
        ops.put("hasRoom", c::hasRoom);
        ops.put("offerRecord", () -> c.offerRecord(rec(0)));
        ops.put("flush", c::flush);
        ops.put("putBarrier", () -> {
            c.putBarrier(new Barrier(1));
            return "done";
        });
        ops.put("firstInBandBarrier", c::firstInBandBarrier);
        ops.put("peek", c::peek);
        ops.put("poll", c::poll);
        ops.put("prioritizeBarrier", () -> c.prioritizeBarrier(1));
        ops.put("putBarrierOvertaking", () -> c.putBarrierOvertaking(new Barrier(2)));
        ops.put("putCancelBarrier", () -> {
            c.putCancelBarrier(new CancelBarrier(2), true);
            return "done";
        });
        ops.put("putEndOfPartition", () -> {
            c.putEndOfPartition();
            return "done";
        });
        List<Object> results = new ArrayList<>();
        for (Map.Entry<String, Callable<?>> op : ops.entrySet()) {
            AtomicReference<Object> result = new AtomicReference<>();
            int eventsBefore = clock.events.size();
            causal.lockForStep();
            Thread worker;
            try {
                worker = start(op.getValue(), result);
                awaitParked(worker, op.getKey());
                assertEquals(eventsBefore, clock.events.size(), op.getKey() + " reported to the clock before it had the channel");
            } finally {
                causal.unlockAfterStep();
            }
            worker.join(NO_WAIT_MILLIS);
            assertFalse(worker.isAlive(), op.getKey() + " still waits after the step released the channel");
            results.add(result.get());
        }
        assertEquals(List.of(true, true, true, "done", new Barrier(1), rec(0), rec(0), List.of(),
                List.of(), "done", "done"), results);
        assertEquals(List.of("put", "put", "take", "take", "put", "put", "put"), clock.events);
        assertEquals(List.of(new Barrier(1).asUnaligned(), new Barrier(2), new CancelBarrier(2), EndOfPartition.INSTANCE),
                c.contents());
    }
}
