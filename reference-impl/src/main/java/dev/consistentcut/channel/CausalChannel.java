package dev.consistentcut.channel;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Causal tracing around a {@link Channel}: a decorator of its ends that tells a
 * {@link ChannelClock} of every element put and taken, atomically with the put or take. The
 * threaded runtime installs one on every channel when a causal trace is recorded
 * ({@link #install}); without one the channel runs its plain, lock-free path and knows nothing of
 * clocks.
 *
 * <p><b>One lock per channel.</b> Every operation but {@link Channel#recordCount},
 * {@link Channel#isEmpty} and {@link Channel#hasOpenBuffer} runs under this decorator's lock, and
 * the clock is told inside it, so a clock changes atomically with the channel and
 * {@link Channel#contents} is exact on any thread: a causal trace records without the trace lock.
 * Messages, their order and every return value are the plain path's: the decorator only adds the
 * lock and the clock calls.
 *
 * <p><b>Threading contract.</b> The channel's (one sender thread, one receiver thread).
 * {@link #lockForStep} holds this lock across one whole step of a task at either end, so that
 * the step's operations on the channel (and the clock edges they carry) are one unit for the
 * other end, as the spec's step is; the lock is reentrant, so the step's own operations take it
 * again. A task locks all its channels in {@link #STEP_ORDER} (no deadlock between two steps) and
 * takes no other lock meanwhile but the coordinator clock's, whose holders take no channel lock.
 * {@link Channel#putRecord} waits for room outside this lock: do not call it while holding
 * {@link #lockForStep}, or the receiver could never free the room.
 */
public final class CausalChannel implements ChannelEnds {

    /** The one order in which a step locks several channels ({@link #lockForStep}): by id. */
    public static final Comparator<CausalChannel> STEP_ORDER = Comparator.comparing(CausalChannel::id);

    private final String id;
    private final ChannelEnds inner;
    private final ChannelClock clock;
    private final ReentrantLock lock = new ReentrantLock();

    private CausalChannel(String id, ChannelEnds inner, ChannelClock clock) {
        this.id = id;
        this.inner = inner;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Decorates {@code channel} with {@code clock}; while the channel is idle (set-up, before the
     * threads that use it start). From then on every operation of the channel goes through the
     * returned decorator.
     */
    public static CausalChannel install(Channel channel, ChannelClock clock) {
        CausalChannel[] made = new CausalChannel[1];
        channel.decorate(inner -> made[0] = new CausalChannel(channel.id(), inner, clock));
        return made[0];
    }

    /** The decorated channel's id. */
    public String id() {
        return id;
    }

    /** Holds this channel's lock for a whole step of a task at either end; pair with {@link #unlockAfterStep}. */
    public void lockForStep() {
        lock.lock();
    }

    /** Releases what {@link #lockForStep} took. */
    public void unlockAfterStep() {
        lock.unlock();
    }

    private <T> T locked(Supplier<T> op) {
        lock.lock();
        try {
            return op.get();
        } finally {
            lock.unlock();
        }
    }

    private void locked(Runnable op) {
        locked(() -> {
            op.run();
            return null;
        });
    }

    // ---------------------------------------------------------------- sender side

    @Override
    public boolean hasRoom() {
        return locked(inner::hasRoom);
    }

    @Override
    public boolean offerRecord(Record r) {
        return locked(() -> {
            boolean ok = inner.offerRecord(r);
            if (ok) { // a refused record is no put
                clock.put(true, false);
            }
            return ok;
        });
    }

    /** Outside this lock: the receiver needs it to free the room. */
    @Override
    public void awaitRoom() throws InterruptedException {
        inner.awaitRoom();
    }

    @Override
    public boolean flush() {
        return locked(inner::flush);
    }

    @Override
    public boolean hasOpenBuffer() {
        return inner.hasOpenBuffer();
    }

    @Override
    public void putBarrier(Barrier b) {
        locked(() -> {
            inner.putBarrier(b);
            clock.put(false, false);
        });
    }

    @Override
    public List<Record> putBarrierOvertaking(Barrier b) {
        return locked(() -> {
            List<Record> overtaken = inner.putBarrierOvertaking(b);
            clock.put(false, true);
            return overtaken;
        });
    }

    @Override
    public void putCancelBarrier(CancelBarrier b, boolean priority) {
        locked(() -> {
            inner.putCancelBarrier(b, priority);
            clock.put(false, priority);
        });
    }

    @Override
    public void putEndOfPartition() {
        locked(() -> {
            inner.putEndOfPartition();
            clock.put(false, false);
        });
    }

    // ---------------------------------------------------------------- receiver side

    @Override
    public Message peek() {
        return locked(inner::peek);
    }

    @Override
    public Message poll() {
        return locked(() -> {
            Message e = inner.poll();
            if (e != null) {
                clock.take(e instanceof Record);
            }
            return e;
        });
    }

    @Override
    public Barrier firstInBandBarrier() {
        return locked(inner::firstInBandBarrier);
    }

    /** Moving a barrier ahead is a take for the clock: the receiver acted on what the sender put. */
    @Override
    public List<Record> prioritizeBarrier(long checkpointId) {
        return locked(() -> {
            List<Record> ahead = inner.prioritizeBarrier(checkpointId);
            if (ahead != null) {
                clock.take(false);
            }
            return ahead;
        });
    }

    // ---------------------------------------------------------------- any thread

    @Override
    public int recordCount() {
        return inner.recordCount();
    }

    @Override
    public boolean isEmpty() {
        return inner.isEmpty();
    }

    @Override
    public List<Message> contents() {
        return locked(inner::contents);
    }

    // ---------------------------------------------------------------- recovery

    @Override
    public void restore(List<Record> persisted) {
        locked(() -> {
            inner.restore(persisted);
            clock.restored(persisted.size());
        });
    }

    @Override
    public String toString() {
        return "Causal" + inner;
    }
}
