package dev.consistentcut.channel;

import dev.consistentcut.record.Record;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bounded FIFO channel for one physical edge between two task instances: the spec's
 * {@code chan[e]}.
 *
 * <p>Two lanes. The <em>records lane</em> is FIFO and holds records and in-band (aligned)
 * barriers; at most {@link #capacity()} <em>records</em> (barriers never take capacity and never
 * wait). The <em>priority lane</em> holds unaligned barriers, which are delivered before anything
 * in the records lane: {@link #putBarrierOvertaking} returns the records such a barrier overtook,
 * so the sender can persist them as this channel's state; the records stay queued and are
 * delivered after the barrier.
 *
 * <p><b>Threading contract.</b> Exactly one sender thread calls {@link #hasRoom}, {@link
 * #offerRecord}, {@link #putRecord}, {@link #putBarrier} and {@link #putBarrierOvertaking}; exactly
 * one receiver thread calls {@link #peek} and {@link #poll}. {@link #restore} and {@link
 * #setListeners} run while neither is running (recovery, set-up). {@link #recordCount}, {@link
 * #isEmpty} and {@link #contents} may be called by any thread and return a consistent snapshot.
 * {@link #putRecord} is the only blocking call; {@link #offerRecord} is its non-blocking twin.
 * The class starts no threads. One lock guards both lanes: simple over fast, because this is a
 * reference engine.
 *
 * <p><b>Memory consistency.</b> Actions of the sender before putting an element happen-before the
 * actions of the receiver after the {@link #poll} that returns it (both take the same lock).
 */
public final class Channel {

    private static final Runnable NO_OP = () -> { };

    private final String id;
    private final int capacity;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a record leaves the records lane, or on restore. */
    private final Condition roomAvailable = lock.newCondition();

    /** Guarded by {@link #lock}. Records and in-band barriers, FIFO. */
    private final ArrayDeque<ChannelElement> recordsLane = new ArrayDeque<>();
    /** Guarded by {@link #lock}. Overtaking barriers and cancellation barriers, FIFO among themselves. */
    private final ArrayDeque<ChannelElement> priorityLane = new ArrayDeque<>();
    /** Guarded by {@link #lock}. Number of records (not barriers) in {@link #recordsLane}. */
    private int records;
    /**
     * Guarded by {@link #lock}. The in-band barriers of {@link #recordsLane}, in its order: so that
     * {@link #firstInBandBarrier}, which an alternating task asks before each step, is O(1)
     * instead of a walk over up to capacity records.
     */
    private final ArrayDeque<Barrier> inBandBarriers = new ArrayDeque<>();

    private volatile Runnable onElementAvailable = NO_OP;
    private volatile Runnable onRoomAvailable = NO_OP;
    /** Causal tracing (issue 13): called under {@link #lock} at every put and take. */
    private volatile ChannelClock clock = ChannelClock.NONE;

    /**
     * @param id the channel id, as used in checkpoints (not blank)
     * @param capacity the most records the records lane holds before the sender waits (>= 1)
     * @throws IllegalArgumentException naming the id, when the id is blank or capacity < 1
     */
    public Channel(String id, int capacity) {
        Objects.requireNonNull(id, "channel id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("channel id must not be blank, got '" + id + "'");
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("channel " + id + ": capacity must be >= 1, got " + capacity);
        }
        this.id = id;
        this.capacity = capacity;
    }

    public String id() {
        return id;
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Installs the wake-up hooks of a threaded runtime. {@code onElementAvailable} runs after any
     * element is added, {@code onRoomAvailable} after a record is removed; both run on the thread
     * that made the change, outside the lock, so they may call back into this channel.
     */
    public void setListeners(Runnable onElementAvailable, Runnable onRoomAvailable) {
        this.onElementAvailable = Objects.requireNonNull(onElementAvailable, "onElementAvailable");
        this.onRoomAvailable = Objects.requireNonNull(onRoomAvailable, "onRoomAvailable");
    }

    /** Installs the clock of a causal trace (issue 13); like the listeners, while the channel is idle. */
    public void setClock(ChannelClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    // ---------------------------------------------------------------- sender side

    /** True when fewer than {@link #capacity()} records are queued, so a record can be put now. */
    public boolean hasRoom() {
        lock.lock();
        try {
            return records < capacity;
        } finally {
            lock.unlock();
        }
    }

    /** Queues {@code r} if there is room; false, and nothing changed, when the channel is full. */
    public boolean offerRecord(Record r) {
        Objects.requireNonNull(r, "record");
        lock.lock();
        try {
            if (records >= capacity) {
                return false;
            }
            enqueueRecord(r);
        } finally {
            lock.unlock();
        }
        onElementAvailable.run();
        return true;
    }

    /** Queues {@code r}, waiting while the channel is full (backpressure). */
    public void putRecord(Record r) throws InterruptedException {
        Objects.requireNonNull(r, "record");
        lock.lockInterruptibly();
        try {
            while (records >= capacity) {
                roomAvailable.await();
            }
            enqueueRecord(r);
        } finally {
            lock.unlock();
        }
        onElementAvailable.run();
    }

    /** Aligned: queues {@code b} in-band, after every queued record. Never waits. */
    public void putBarrier(Barrier b) {
        Objects.requireNonNull(b, "barrier");
        lock.lock();
        try {
            recordsLane.addLast(b);
            inBandBarriers.addLast(b);
            clock.put(false, false);
        } finally {
            lock.unlock();
        }
        onElementAvailable.run();
    }

    /**
     * Unaligned: queues {@code b} in the priority lane, so it is delivered before every element of
     * the records lane (after earlier overtaking barriers). Never waits.
     *
     * @return a copy of the records it overtook, in FIFO order; they stay queued and are delivered
     *     after the barrier. (In-band barriers it overtakes, which a purely unaligned job never
     *     has, are not part of the list.)
     */
    public List<Record> putBarrierOvertaking(Barrier b) {
        Objects.requireNonNull(b, "barrier");
        List<Record> overtaken = new ArrayList<>();
        lock.lock();
        try {
            for (ChannelElement e : recordsLane) {
                if (e instanceof Record r) {
                    overtaken.add(r);
                }
            }
            priorityLane.addLast(b);
            clock.put(false, true);
        } finally {
            lock.unlock();
        }
        onElementAvailable.run();
        return overtaken;
    }

    /**
     * Queues cancellation barrier {@code b}: in the priority lane when {@code priority} (unaligned
     * jobs, as Flink sends its {@code CancelCheckpointMarker} as a priority event), else in-band.
     * Never waits.
     */
    public void putCancelBarrier(CancelBarrier b, boolean priority) {
        Objects.requireNonNull(b, "cancel barrier");
        lock.lock();
        try {
            if (priority) {
                priorityLane.addLast(b);
            } else {
                recordsLane.addLast(b);
            }
            clock.put(false, priority);
        } finally {
            lock.unlock();
        }
        onElementAvailable.run();
    }

    /** Queues end of partition in-band, after everything queued. The sender sends nothing more. Never waits. */
    public void putEndOfPartition() {
        lock.lock();
        try {
            recordsLane.addLast(EndOfPartition.INSTANCE);
            clock.put(false, false);
        } finally {
            lock.unlock();
        }
        onElementAvailable.run();
    }

    // ---------------------------------------------------------------- receiver side

    /** The next element to be delivered (priority lane first, then the FIFO head); null if empty. */
    public ChannelElement peek() {
        lock.lock();
        try {
            ChannelElement b = priorityLane.peekFirst();
            return b != null ? b : recordsLane.peekFirst();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes and returns what {@link #peek} returns; null if empty. Removing a record wakes a
     * sender waiting in {@link #putRecord} and runs the room-available listener.
     */
    public ChannelElement poll() {
        ChannelElement e;
        lock.lock();
        try {
            e = priorityLane.pollFirst();
            if (e == null) {
                e = recordsLane.pollFirst();
                if (e instanceof Record) {
                    records--;
                    roomAvailable.signal();
                } else if (e instanceof Barrier) {
                    inBandBarriers.pollFirst(); // the head of the records lane is its first in-band barrier
                }
            }
            if (e != null) {
                clock.take(e instanceof Record);
            }
        } finally {
            lock.unlock();
        }
        if (e instanceof Record) {
            onRoomAvailable.run();
        }
        return e;
    }

    /**
     * Alternating mode, receiver side: the first in-band barrier in the records lane (possibly
     * behind records), or null if there is none. A barrier waiting there is what a passive
     * alignment timeout looks at (Flink: an announced barrier; FLINK-27251: barriers still in
     * output buffers count too, and here the channel is both buffers).
     */
    public Barrier firstInBandBarrier() {
        lock.lock();
        try {
            return inBandBarriers.peekFirst();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Alternating mode, receiver side, on a passive alignment timeout (Flink's
     * {@code prioritizeAllAnnouncements}, the spec's {@code Prioritized(t, c)}): the in-band
     * barrier of {@code checkpointId} leaves the records lane and goes to the head of the priority
     * lane as an unaligned barrier, overtaking the records queued ahead of it. Atomic with respect
     * to the sender: a barrier put concurrently is either found (and moved) or not there yet.
     *
     * @return a copy of the records the barrier overtook, in FIFO order (they stay queued and are
     *     delivered after it); null, and nothing changed, when no in-band barrier of
     *     {@code checkpointId} is queued
     */
    public List<Record> prioritizeBarrier(long checkpointId) {
        List<Record> ahead = new ArrayList<>();
        lock.lock();
        try {
            for (java.util.Iterator<ChannelElement> it = recordsLane.iterator(); it.hasNext(); ) {
                ChannelElement e = it.next();
                if (e instanceof Barrier b && b.checkpointId() == checkpointId) {
                    it.remove();
                    inBandBarriers.remove(b);
                    priorityLane.addFirst(b.asUnaligned());
                    clock.take(false);
                    return ahead;
                }
                if (e instanceof Record r) {
                    ahead.add(r);
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- any thread

    /** Records queued (barriers not counted). */
    public int recordCount() {
        lock.lock();
        try {
            return records;
        } finally {
            lock.unlock();
        }
    }

    /** True when neither lane holds anything. */
    public boolean isEmpty() {
        lock.lock();
        try {
            return priorityLane.isEmpty() && recordsLane.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** A copy of everything queued, in delivery order: for tests, tracing and invariant checks. */
    public List<ChannelElement> contents() {
        lock.lock();
        try {
            List<ChannelElement> all = new ArrayList<>(priorityLane.size() + recordsLane.size());
            all.addAll(priorityLane);
            all.addAll(recordsLane);
            return all;
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- recovery

    /**
     * Recovery ({@code FailAndRestore}): empties both lanes and queues {@code persisted} in order,
     * ahead of anything sent later. All of {@code persisted} is queued even when it holds more than
     * {@link #capacity()} records, because dropping any would lose data; the sender then waits
     * until the receiver has brought the count below capacity. Call only while neither the sender
     * nor the receiver runs.
     */
    public void restore(List<Record> persisted) {
        List<Record> copy = List.copyOf(persisted); // rejects null elements before anything changes
        lock.lock();
        try {
            priorityLane.clear();
            recordsLane.clear();
            inBandBarriers.clear();
            recordsLane.addAll(copy);
            records = copy.size();
            clock.restored(copy.size());
            roomAvailable.signalAll();
        } finally {
            lock.unlock();
        }
        if (!copy.isEmpty()) {
            onElementAvailable.run();
        }
    }

    private void enqueueRecord(Record r) {
        recordsLane.addLast(r);
        records++;
        clock.put(true, false);
    }

    @Override
    public String toString() {
        lock.lock();
        try {
            return "Channel[" + id + ", records=" + records + "/" + capacity
                    + ", priority=" + priorityLane.size() + "]";
        } finally {
            lock.unlock();
        }
    }
}
