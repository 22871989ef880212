package dev.consistentcut.channel;

import dev.consistentcut.annotation.TestSeam;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A bounded FIFO channel for one physical edge between two task instances: the spec's
 * {@code chan[e]}. Records travel in <em>buffers</em> (Flink's network buffers).
 *
 * <p><b>Buffers.</b> The sender appends records to its <em>open buffer</em> and hands it over to
 * the receiver when it is full, when {@link #flush} is called (the runtime's buffer timeout, or a
 * sender with nothing else to do), or when an event follows (a barrier, a cancellation barrier,
 * end of partition): events travel between buffers. The bound is counted in buffers, as Flink's
 * credits: at most {@link #bufferCapacity()} buffers are in use (handed over and not yet read to
 * their end by the receiver, plus the open one). So the channel holds at most {@link #capacity()}
 * = buffers x {@link #bufferSize()} records, the record bound the spec's {@code Capacity} maps to
 * (docs/vocabulary.md); a buffer handed over part-full still takes a whole credit. With a buffer
 * size of 1 (the simulation, and the constructor without a buffer size) every record is handed
 * over at once and the channel behaves exactly as a per-record channel of that capacity.
 *
 * <p><b>Lanes.</b> Buffers and in-band events (aligned barriers, in-band cancellation barriers,
 * end of partition) travel FIFO through a lock-free single-producer single-consumer queue
 * ({@link SpscQueue}). The <em>priority lane</em> holds overtaking barriers and priority
 * cancellation barriers, delivered before any record: {@link #putBarrierOvertaking} returns the
 * records such a barrier overtook, exactly the records in the channel at that moment (the rest of
 * the buffer the receiver is reading, the queued buffers and the open one), so the sender can
 * persist them as this channel's state; they stay queued and are delivered after the barrier.
 * The receiver reads records one at a time ({@link #peek}, {@link #poll}): a task still performs
 * {@code ProcessRecord} once per record, and an overtaking barrier is delivered between two
 * records of one buffer, as Flink's mailbox takes a priority event between two records.
 *
 * <p><b>One path, decorators around it.</b> Every operation goes to the plain path,
 * {@link SpscChannel} (no lock per record), or to a decorator installed around it while the
 * channel is idle: {@link CausalChannel}, which a causal trace installs to carry vector clocks.
 * The channel asks nothing about what is installed; the wiring decides once.
 *
 * <p><b>Threading contract.</b> Exactly one sender thread calls {@link #hasRoom},
 * {@link #offerRecord}, {@link #putRecord}, {@link #flush}, {@link #hasOpenBuffer},
 * {@link #putBarrier}, {@link #putBarrierOvertaking}, {@link #putCancelBarrier} and
 * {@link #putEndOfPartition}; exactly one receiver thread calls {@link #peek}, {@link #poll},
 * {@link #firstInBandBarrier} and {@link #prioritizeBarrier}. {@link #restore},
 * {@link #setListeners} and {@link #decorate} run while neither is running (recovery, set-up).
 * {@link #recordCount} and {@link #isEmpty} are exact on the receiver's thread; on other threads
 * they may lag a step behind (a record whose read a racing overtaking barrier undoes).
 * {@link #contents} is exact while neither side runs or when the caller is ordered with both by a
 * common lock (the threaded runtime's trace lock, or a {@link CausalChannel}'s); it must not race
 * either side otherwise. {@link #putRecord} is the only blocking call. The class starts no threads.
 *
 * <p><b>Memory consistency.</b> Actions of the sender before putting an element happen-before
 * the actions of the receiver after the {@link #poll} that returns it.
 */
public final class Channel {

    private final SpscChannel plain;
    /** {@link #plain}, or a decorator around it; replaced only while the channel is idle (before the threads start). */
    private ChannelEnds ends;

    /**
     * A channel of buffers of one record: {@code capacity} records, each handed over at once.
     *
     * @param id the channel id, as used in checkpoints (not blank)
     * @param capacity the most records the channel holds before the sender waits (>= 1)
     * @throws IllegalArgumentException naming the id, when the id is blank or capacity < 1
     */
    public Channel(String id, int capacity) {
        this(id, capacity, 1);
    }

    /**
     * A channel of {@code capacity / bufferSize} buffers (at least one; the buffer size is capped
     * at the capacity) of {@code bufferSize} records each.
     *
     * @param capacity the edge's capacity in records (>= 1); the channel holds at most
     *     {@link #capacity()} records, which is {@code capacity} when {@code bufferSize} divides it
     * @param bufferSize records per buffer (>= 1)
     * @throws IllegalArgumentException naming the id, when the id is blank, capacity < 1 or bufferSize < 1
     */
    public Channel(String id, int capacity, int bufferSize) {
        this(id, capacity, bufferSize, BufferEncoding.REFERENCES);
    }

    /**
     * A channel of {@code capacity / bufferSize} buffers of {@code bufferSize} records each, whose
     * buffers carry their records as {@code encoding} says (objects, or serialized bytes).
     *
     * @throws IllegalArgumentException naming the id, when the id is blank, capacity < 1 or bufferSize < 1
     */
    public Channel(String id, int capacity, int bufferSize, BufferEncoding encoding) {
        this.plain = new SpscChannel(id, capacity, bufferSize, encoding);
        this.ends = plain;
    }

    public String id() {
        return plain.id();
    }

    /** The most records the channel holds (buffers x buffer size): the spec's {@code Capacity}. */
    public int capacity() {
        return plain.capacity();
    }

    /** Records per buffer. */
    public int bufferSize() {
        return plain.bufferSize();
    }

    /** The channel's credits: the most buffers in use at once (handed over and not read to their end, plus the open one). */
    public int bufferCapacity() {
        return plain.bufferCapacity();
    }

    /**
     * Installs the wake-up hooks of a threaded runtime. {@code onElementAvailable} runs after a
     * buffer is handed over or an event is put, {@code onRoomAvailable} after the receiver read a
     * buffer to its end (its credit is free); both run on the thread that made the change, outside
     * any lock of the channel, so they may call back into it.
     */
    public void setListeners(Runnable onElementAvailable, Runnable onRoomAvailable) {
        plain.setListeners(onElementAvailable, onRoomAvailable);
    }

    /**
     * Wraps what the ends call so far in {@code decorator} (while the channel is idle, before the
     * threads that use it start: {@code Thread.start} publishes it). Package-private: the
     * decorators of this package install themselves ({@link CausalChannel#install}).
     */
    void decorate(UnaryOperator<ChannelEnds> decorator) {
        ends = decorator.apply(ends);
    }

    /** The plain path's lock (guarding its priority lane and a waiting sender), for tests that hold it. */
    @TestSeam
    java.util.concurrent.locks.ReentrantLock plainLock() {
        return plain.lock();
    }

    // ---------------------------------------------------------------- sender side

    /** True when a record can be put now: the open buffer has room, or a credit for a new buffer is free. */
    public boolean hasRoom() {
        return ends.hasRoom();
    }

    /** Appends {@code r} if there is room (handing the buffer over when it is full); false, and nothing changed, when full. */
    public boolean offerRecord(Record r) {
        return ends.offerRecord(r);
    }

    /** Appends {@code r}, waiting while the channel is full (backpressure). */
    public void putRecord(Record r) throws InterruptedException {
        ends.putRecord(r);
    }

    /** Whether the open buffer holds records not handed over yet. */
    public boolean hasOpenBuffer() {
        return ends.hasOpenBuffer();
    }

    /**
     * Hands the open buffer over, part-full (Flink's flush on the buffer timeout); nothing if it is
     * empty. It keeps its credit until the receiver has read it.
     *
     * @return whether a buffer was handed over
     */
    public boolean flush() {
        return ends.flush();
    }

    /** Aligned: queues {@code b} in-band, after every record sent (the open buffer is handed over first). Never waits. */
    public void putBarrier(Barrier b) {
        ends.putBarrier(b);
    }

    /**
     * Unaligned: queues {@code b} in the priority lane, so it is delivered before every record in
     * the channel (after earlier priority elements). Never waits. The open buffer is handed over.
     *
     * @return a copy of the records it overtook, in FIFO order: every record in the channel now
     *     (the rest of the buffer the receiver reads, the queued buffers, the open one); they stay
     *     queued and are delivered after the barrier. (In-band barriers it overtakes, which a purely
     *     unaligned job never has, are not part of the list.)
     */
    public List<Record> putBarrierOvertaking(Barrier b) {
        return ends.putBarrierOvertaking(b);
    }

    /**
     * Queues cancellation barrier {@code b}: in the priority lane when {@code priority} (unaligned
     * jobs, as Flink sends its {@code CancelCheckpointMarker} as a priority event), else in-band.
     * Never waits.
     */
    public void putCancelBarrier(CancelBarrier b, boolean priority) {
        ends.putCancelBarrier(b, priority);
    }

    /** Queues end of partition in-band, after everything sent. The sender sends nothing more. Never waits. */
    public void putEndOfPartition() {
        ends.putEndOfPartition();
    }

    // ---------------------------------------------------------------- receiver side

    /** The next element to be delivered (priority lane first, then the FIFO head); null if empty. */
    public Message peek() {
        return ends.peek();
    }

    /**
     * Removes and returns what {@link #peek} returns; null if empty. Reading a buffer to its end
     * frees its credit: that wakes a sender waiting in {@link #putRecord} and runs the
     * room-available listener.
     */
    public Message poll() {
        return ends.poll();
    }

    /**
     * Alternating mode, receiver side: the first in-band barrier in the queue (possibly behind
     * records), or null if there is none. A barrier waiting there is what a passive alignment
     * timeout looks at (Flink: an announced barrier; FLINK-27251: barriers still in output buffers
     * count too, and here the channel is both buffers).
     */
    public Barrier firstInBandBarrier() {
        return ends.firstInBandBarrier();
    }

    /**
     * Alternating mode, receiver side, on a passive alignment timeout (Flink's
     * {@code prioritizeAllAnnouncements}, the spec's {@code Prioritized(t, c)}): the in-band
     * barrier of {@code checkpointId} leaves the queue and goes to the head of the priority lane
     * as an unaligned barrier, overtaking the records ahead of it (the rest of the buffer being
     * read and the buffers queued before it). A barrier the sender puts concurrently is either
     * found (and moved) or not there yet.
     *
     * @return a copy of the records the barrier overtook, in FIFO order (they stay queued and are
     *     delivered after it); null, and nothing changed, when no in-band barrier of
     *     {@code checkpointId} is queued
     */
    public List<Record> prioritizeBarrier(long checkpointId) {
        return ends.prioritizeBarrier(checkpointId);
    }

    // ---------------------------------------------------------------- any thread

    /** Records in the channel (open buffer included; barriers not counted). */
    public int recordCount() {
        return ends.recordCount();
    }

    /** True when the channel holds nothing: no record (open buffer included), no event. */
    public boolean isEmpty() {
        return ends.isEmpty();
    }

    /**
     * A copy of everything in the channel, in delivery order (priority lane, the rest of the buffer
     * being read, the queue, the open buffer): for tests, tracing and invariant checks. Exact while
     * neither side runs or when the caller is ordered with both by a common lock.
     */
    public List<Message> contents() {
        return ends.contents();
    }

    // ---------------------------------------------------------------- recovery

    /**
     * Recovery ({@code FailAndRestore}): empties the channel and queues {@code persisted} in order,
     * in full buffers, ahead of anything sent later. All of {@code persisted} is queued even when
     * it holds more than {@link #capacity()} records, because dropping any would lose data; the
     * sender then waits until the receiver has released enough buffers. Call only while neither
     * the sender nor the receiver runs.
     */
    public void restore(List<Record> persisted) {
        ends.restore(persisted);
    }

    @Override
    public String toString() {
        return plain.toString();
    }
}
