// Longer than 500 lines: one queue with priority overtaking and buffer accounting under one threading contract.
package dev.consistentcut.channel;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.EndOfPartition;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bounded FIFO channel for one physical edge between two task instances: the spec's
 * {@code chan[e]}. Records travel in <em>buffers</em> (issue 16; Flink's network buffers).
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
 * <p><b>Threading contract.</b> Exactly one sender thread calls {@link #hasRoom},
 * {@link #offerRecord}, {@link #putRecord}, {@link #flush}, {@link #hasOpenBuffer},
 * {@link #putBarrier}, {@link #putBarrierOvertaking}, {@link #putCancelBarrier} and
 * {@link #putEndOfPartition}; exactly one receiver thread calls {@link #peek}, {@link #poll},
 * {@link #firstInBandBarrier} and {@link #prioritizeBarrier}. {@link #restore} and
 * {@link #setListeners} run while neither is running (recovery, set-up). {@link #recordCount}
 * and {@link #isEmpty} are exact on the receiver's thread; on other threads they may lag a step
 * behind (a record whose read a racing overtaking barrier undoes). {@link #contents} is exact
 * while neither side runs or when the caller is ordered with both by a common lock (the threaded
 * runtime's trace lock); it must not race either side. {@link #putRecord} is the only blocking call. The class starts no threads.
 *
 * <p><b>No lock per record.</b> Appending to the open buffer is the sender's own business; a
 * buffer is handed over with one lock-free queue operation; the receiver reads the buffer it
 * took without a lock. One word, {@code state}, holds the number of records the receiver has
 * taken and a flag "priority element pending". The receiver takes a record with one
 * compare-and-set of that word (count + 1, flag clear); the sender of an overtaking barrier sets
 * the flag with one atomic or, which returns the count at that instant: exactly the records from
 * there on are overtaken, and the receiver's compare-and-set fails from then on until it has
 * delivered the priority lane. So a record is read before the barrier or overtaken by it, never
 * both. A buffer's credit is free once every record of it is taken (the sender reads the count),
 * so taking a record and freeing its buffer's credit are one step. The priority lane's lock is
 * taken per overtaking barrier and per priority element delivered, and, when a sender waits in
 * {@link #putRecord}, per buffer read to its end.
 *
 * <p><b>Memory consistency.</b> Actions of the sender before putting an element happen-before
 * the actions of the receiver after the {@link #poll} that returns it.
 */
public final class Channel {

    private static final Runnable NO_OP = () -> { };
    /** Left in the queue where {@link #prioritizeBarrier} took a barrier out; skipped by the receiver. */
    private static final Object MOVED = new Object();

    /** The flag bit of {@link #state}: the priority lane is not empty. */
    private static final long PRIORITY = 1L << 62;

    private static final VarHandle SENT;
    private static final VarHandle STATE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SENT = l.findVarHandle(Channel.class, "sentView", long.class);
            STATE = l.findVarHandle(Channel.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String id;
    private final int bufferSize;
    private final int bufferCapacity;

    /** Buffers ({@link RecordBuffer}) and in-band events ({@link Message}), FIFO. */
    private final SpscQueue<Object> lane = new SpscQueue<>();

    // ------------------------------------------------ sender's own
    private Record[] open;
    private int openSize;
    private long openFirstSeq;
    /** Records sent since the last restore (open buffer included). */
    private long sent;
    /** Buffers handed over since the last restore. */
    private long handedOver;
    /** Buffers handed over that the receiver may not have read to their end, in order: their credits, and what an overtaking barrier overtakes. */
    private final ArrayDeque<RecordBuffer> retained = new ArrayDeque<>();

    // ------------------------------------------------ receiver's own
    private RecordBuffer current;
    private int index;

    // ------------------------------------------------ shared
    /** {@link #sent}, published per record with a release store for {@link #recordCount}. */
    @SuppressWarnings("unused")
    private volatile long sentView;
    /**
     * Records the receiver has taken (low bits; the receiver adds one by compare-and-set) and
     * {@link #PRIORITY} while the priority lane is not empty (set by whoever puts a priority
     * element, cleared by the receiver when it delivered the last; both under {@link #lock}).
     */
    @SuppressWarnings("unused")
    private volatile long state;
    /** In-band events put (sender writes) and taken or moved to the priority lane (receiver writes): {@link #isEmpty}. */
    private volatile long eventsPut;
    private volatile long eventsTaken;
    /** A sender waits in {@link #putRecord}: the receiver signals when it releases a buffer. */
    private volatile boolean senderWaiting;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a buffer is released, or on restore. */
    private final Condition roomAvailable = lock.newCondition();
    /** Guarded by {@link #lock}. Overtaking barriers and priority cancellation barriers, FIFO among themselves. */
    private final ArrayDeque<Message> priorityLane = new ArrayDeque<>();

    private volatile Runnable onElementAvailable = NO_OP;
    private volatile Runnable onRoomAvailable = NO_OP;
    /** Causal tracing (issue 13): told of every put and take, under {@link #lock}. */
    private volatile ChannelClock clock = ChannelClock.NONE;
    /**
     * With a clock installed every operation runs under {@link #lock} (the channel as it was
     * before issue 16, lock per record), so that a clock changes atomically with the channel and
     * {@link #contents} is exact on any thread: causal traces record without the trace lock.
     */
    private volatile boolean locked;

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
        Objects.requireNonNull(id, "channel id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("channel id must not be blank, got '" + id + "'");
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("channel " + id + ": capacity must be >= 1, got " + capacity);
        }
        if (bufferSize < 1) {
            throw new IllegalArgumentException("channel " + id + ": buffer size must be >= 1, got " + bufferSize);
        }
        this.id = id;
        this.bufferSize = Math.min(bufferSize, capacity);
        this.bufferCapacity = capacity / this.bufferSize;
    }

    public String id() {
        return id;
    }

    /** The most records the channel holds (buffers x buffer size): the spec's {@code Capacity}. */
    public int capacity() {
        return bufferCapacity * bufferSize;
    }

    /** Records per buffer. */
    public int bufferSize() {
        return bufferSize;
    }

    /** The channel's credits: the most buffers in use at once (handed over and not read to their end, plus the open one). */
    public int bufferCapacity() {
        return bufferCapacity;
    }

    /**
     * Installs the wake-up hooks of a threaded runtime. {@code onElementAvailable} runs after a
     * buffer is handed over or an event is put, {@code onRoomAvailable} after the receiver read a
     * buffer to its end (its credit is free); both run on the thread that made the change, outside the lock, so they may call
     * back into this channel.
     */
    public void setListeners(Runnable onElementAvailable, Runnable onRoomAvailable) {
        this.onElementAvailable = Objects.requireNonNull(onElementAvailable, "onElementAvailable");
        this.onRoomAvailable = Objects.requireNonNull(onRoomAvailable, "onRoomAvailable");
    }

    /**
     * Installs the clock of a causal trace (issue 13); like the listeners, while the channel is
     * idle. From then on every operation takes the channel's lock (see {@link #locked}).
     */
    public void setClock(ChannelClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.locked = clock != ChannelClock.NONE;
    }

    /**
     * Causal tracing (issue 13): holds this channel's lock across one whole step of a task at
     * either end, so that the step's operations on it (and the clock edges they carry) are one
     * unit for the other end, as the spec's step is. Reentrant: the step's own operations take the
     * lock again. A task locks all its channels in {@link #STEP_ORDER} (no deadlock between two
     * steps), only while a clock is installed (every operation is locked then anyway), and takes
     * no other lock meanwhile but the coordinator clock's, whose holders take no channel lock.
     * Pair with {@link #unlockAfterStep}.
     */
    public void lockForStep() {
        lock.lock();
    }

    /** Releases what {@link #lockForStep} took. */
    public void unlockAfterStep() {
        lock.unlock();
    }

    /** The one order in which a step locks several channels ({@link #lockForStep}): by id. */
    public static final java.util.Comparator<Channel> STEP_ORDER = java.util.Comparator.comparing(Channel::id);

    private <T> T underLock(java.util.function.Supplier<T> op) {
        lock.lock();
        try {
            return op.get();
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- sender side

    /** True when a record can be put now: the open buffer has room, or a credit for a new buffer is free. */
    public boolean hasRoom() {
        return locked ? underLock(this::hasRoom0) : hasRoom0();
    }

    /** Appends {@code r} if there is room (handing the buffer over when it is full); false, and nothing changed, when full. */
    public boolean offerRecord(Record r) {
        if (!locked) {
            return offerRecord0(r);
        }
        return underLock(() -> {
            boolean ok = offerRecord0(r);
            if (ok) {
                clock.put(true, false);
            }
            return ok;
        });
    }

    /**
     * Hands the open buffer over, part-full (Flink's flush on the buffer timeout); nothing if it is
     * empty. It keeps its credit until the receiver has read it.
     *
     * @return whether a buffer was handed over
     */
    public boolean flush() {
        return locked ? underLock(this::flush0) : flush0();
    }

    /** Aligned: queues {@code b} in-band, after every record sent (the open buffer is handed over first). Never waits. */
    public void putBarrier(Barrier b) {
        if (!locked) {
            putBarrier0(b);
            return;
        }
        underLock(() -> {
            putBarrier0(b);
            clock.put(false, false);
            return null;
        });
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
        if (!locked) {
            return putBarrierOvertaking0(b);
        }
        return underLock(() -> {
            List<Record> overtaken = putBarrierOvertaking0(b);
            clock.put(false, true);
            return overtaken;
        });
    }

    /**
     * Queues cancellation barrier {@code b}: in the priority lane when {@code priority} (unaligned
     * jobs, as Flink sends its {@code CancelCheckpointMarker} as a priority event), else in-band.
     * Never waits.
     */
    public void putCancelBarrier(CancelBarrier b, boolean priority) {
        if (!locked) {
            putCancelBarrier0(b, priority);
            return;
        }
        underLock(() -> {
            putCancelBarrier0(b, priority);
            clock.put(false, priority);
            return null;
        });
    }

    /** Queues end of partition in-band, after everything sent. The sender sends nothing more. Never waits. */
    public void putEndOfPartition() {
        if (!locked) {
            putEndOfPartition0();
            return;
        }
        underLock(() -> {
            putEndOfPartition0();
            clock.put(false, false);
            return null;
        });
    }

    /** The next element to be delivered (priority lane first, then the FIFO head); null if empty. */
    public Message peek() {
        return locked ? underLock(this::peek0) : peek0();
    }

    /**
     * Removes and returns what {@link #peek} returns; null if empty. Reading a buffer to its end
     * frees its credit: that wakes a sender waiting in {@link #putRecord} and runs the
     * room-available listener.
     */
    public Message poll() {
        if (!locked) {
            return poll0();
        }
        return underLock(() -> {
            Message e = poll0();
            if (e != null) {
                clock.take(e instanceof Record);
            }
            return e;
        });
    }

    /** Alternating mode, receiver side: the first in-band barrier in the queue (possibly behind records), or null. */
    public Barrier firstInBandBarrier() {
        return locked ? underLock(this::firstInBandBarrier0) : firstInBandBarrier0();
    }

    /** Alternating mode, receiver side: see {@link #prioritizeBarrier0}. */
    public List<Record> prioritizeBarrier(long checkpointId) {
        if (!locked) {
            return prioritizeBarrier0(checkpointId);
        }
        return underLock(() -> {
            List<Record> ahead = prioritizeBarrier0(checkpointId);
            if (ahead != null) {
                clock.take(false);
            }
            return ahead;
        });
    }

    /** True when a record can be put now: the open buffer has room, or a credit for a new buffer is free. */
    private boolean hasRoom0() {
        return openSize > 0 || buffersInUse() < bufferCapacity;
    }

    /** Sender: buffers handed over and not read to their end (retained pruned by the receiver's count). */
    private int buffersInUse() {
        if (!retained.isEmpty()) {
            long taken = (long) STATE.getVolatile(this) & ~PRIORITY;
            while (!retained.isEmpty() && retained.peekFirst().endSeq() <= taken) {
                retained.pollFirst(); // read to its end: its credit is free, no barrier can overtake it
            }
        }
        return retained.size();
    }

    /** Appends {@code r} if there is room (handing the buffer over when it is full); false, and nothing changed, when full. */
    private boolean offerRecord0(Record r) {
        Objects.requireNonNull(r, "record");
        if (openSize == 0) {
            if (buffersInUse() >= bufferCapacity) {
                return false;
            }
            open = new Record[bufferSize];
            openFirstSeq = sent;
        }
        open[openSize++] = r;
        sent++;
        if (openSize == bufferSize) {
            handOver();
        }
        SENT.setRelease(this, sent); // after a hand-over: a counted record of a full buffer can be polled
        return true;
    }

    /** Appends {@code r}, waiting while the channel is full (backpressure). */
    public void putRecord(Record r) throws InterruptedException {
        Objects.requireNonNull(r, "record");
        while (!offerRecord(r)) { // (in locked mode each try takes the lock)
            lock.lockInterruptibly();
            try {
                senderWaiting = true; // then read the count (in hasRoom): Dekker's order with the receiver
                while (!hasRoom0()) {
                    roomAvailable.await();
                }
            } finally {
                senderWaiting = false;
                lock.unlock();
            }
        }
    }

    /** Whether the open buffer holds records not handed over yet. */
    public boolean hasOpenBuffer() {
        return openSize > 0;
    }

    /**
     * Hands the open buffer over, part-full (Flink's flush on the buffer timeout); nothing if it is
     * empty. It keeps its credit until the receiver has read it.
     *
     * @return whether a buffer was handed over
     */
    private boolean flush0() {
        if (openSize == 0) {
            return false;
        }
        handOver();
        return true;
    }

    private void handOver() {
        RecordBuffer b = new RecordBuffer(open, openSize, openFirstSeq, handedOver++);
        open = null;
        openSize = 0;
        retained.addLast(b);
        lane.offer(b);
        onElementAvailable.run();
    }

    /** An event after everything sent: the open buffer goes first. */
    private void putInBand(Message e) {
        if (openSize > 0) {
            RecordBuffer b = new RecordBuffer(open, openSize, openFirstSeq, handedOver++);
            open = null;
            openSize = 0;
            retained.addLast(b);
            lane.offer(b);
        }
        lane.offer(e);
        eventsPut = eventsPut + 1;
        onElementAvailable.run();
    }

    /** Aligned: queues {@code b} in-band, after every record sent (the open buffer is handed over first). Never waits. */
    private void putBarrier0(Barrier b) {
        putInBand(Objects.requireNonNull(b, "barrier"));
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
    private List<Record> putBarrierOvertaking0(Barrier b) {
        Objects.requireNonNull(b, "barrier");
        flush0();
        long from;
        lock.lock();
        try {
            priorityLane.addLast(b);
            // One atomic step: the flag set, the receiver's count read. From here on its
            // compare-and-set fails until it has delivered the priority lane.
            from = (long) STATE.getAndBitwiseOr(this, PRIORITY) & ~PRIORITY;
        } finally {
            lock.unlock();
        }
        onElementAvailable.run();
        // Every record numbered from `from` on: the receiver reads none of them before the barrier.
        // Buffers are immutable once handed over; retained holds every one not read to its end.
        List<Record> overtaken = new ArrayList<>((int) Math.min(Integer.MAX_VALUE, Math.max(0, sent - from)));
        for (RecordBuffer buf : retained) {
            for (int i = (int) Math.max(0, from - buf.firstSeq); i < buf.size; i++) {
                overtaken.add(buf.records[i]);
            }
        }
        return overtaken;
    }

    /**
     * Queues cancellation barrier {@code b}: in the priority lane when {@code priority} (unaligned
     * jobs, as Flink sends its {@code CancelCheckpointMarker} as a priority event), else in-band.
     * Never waits.
     */
    private void putCancelBarrier0(CancelBarrier b, boolean priority) {
        Objects.requireNonNull(b, "cancel barrier");
        if (!priority) {
            putInBand(b);
            return;
        }
        flush0();
        lock.lock();
        try {
            priorityLane.addLast(b);
            STATE.getAndBitwiseOr(this, PRIORITY);
        } finally {
            lock.unlock();
        }
        onElementAvailable.run();
    }

    /** Queues end of partition in-band, after everything sent. The sender sends nothing more. Never waits. */
    private void putEndOfPartition0() {
        putInBand(EndOfPartition.INSTANCE);
    }

    // ---------------------------------------------------------------- receiver side

    /** The next element to be delivered (priority lane first, then the FIFO head); null if empty. */
    private Message peek0() {
        if (((long) STATE.getVolatile(this) & PRIORITY) != 0) {
            lock.lock();
            try {
                Message p = priorityLane.peekFirst();
                if (p != null) {
                    return p;
                }
            } finally {
                lock.unlock();
            }
        }
        if (current != null) {
            return current.records[index];
        }
        return advance();
    }

    /**
     * Receiver: with no buffer being read, the next element of the queue: a buffer becomes the one
     * being read (its first record is returned, nothing taken); an event is returned and stays.
     */
    private Message advance() {
        while (true) {
            Object head = lane.peek();
            if (head == null) {
                return null;
            }
            if (head == MOVED) {
                lane.poll();
                continue;
            }
            if (head instanceof RecordBuffer b) {
                lane.poll();
                current = b;
                index = 0;
                return b.records[0];
            }
            return (Message) head;
        }
    }

    /**
     * Removes and returns what {@link #peek} returns; null if empty. Reading a buffer to its end
     * releases its credit: that wakes a sender waiting in {@link #putRecord} and runs the
     * room-available listener.
     */
    private Message poll0() {
        while (true) {
            long v = (long) STATE.getVolatile(this);
            if ((v & PRIORITY) != 0) {
                Message p = pollPriority();
                if (p != null) {
                    return p;
                }
                continue;
            }
            if (current == null) {
                Message head = advance();
                if (head == null) {
                    return null;
                }
                if (!(head instanceof Record)) {
                    lane.poll(); // an event
                    eventsTaken = eventsTaken + 1;
                    return head;
                }
            }
            Record r = current.records[index];
            // The record is taken when this succeeds; it fails only if a priority element came
            // meanwhile (only the receiver changes the count): then that goes first.
            if (!STATE.compareAndSet(this, v, v + 1)) {
                continue;
            }
            if (++index == current.size) {
                current = null;
                index = 0;
                bufferRead();
            }
            return r;
        }
    }

    /** The receiver took the last record of a buffer: its credit is free. */
    private void bufferRead() {
        if (senderWaiting) {
            lock.lock();
            try {
                roomAvailable.signalAll();
            } finally {
                lock.unlock();
            }
        }
        onRoomAvailable.run();
    }

    private Message pollPriority() {
        lock.lock();
        try {
            Message p = priorityLane.pollFirst();
            if (priorityLane.isEmpty()) {
                STATE.getAndBitwiseAnd(this, ~PRIORITY);
            }
            return p;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Alternating mode, receiver side: the first in-band barrier in the queue (possibly behind
     * records), or null if there is none. A barrier waiting there is what a passive alignment
     * timeout looks at (Flink: an announced barrier; FLINK-27251: barriers still in output buffers
     * count too, and here the channel is both buffers).
     */
    private Barrier firstInBandBarrier0() {
        Barrier[] found = new Barrier[1];
        lane.forEachFromHead(e -> {
            if (e instanceof Barrier b) {
                found[0] = b;
                return false;
            }
            return true;
        });
        return found[0];
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
    private List<Record> prioritizeBarrier0(long checkpointId) {
        List<Record> ahead = new ArrayList<>();
        if (current != null) {
            for (int i = index; i < current.size; i++) {
                ahead.add(current.records[i]);
            }
        }
        Barrier[] found = new Barrier[1];
        lane.forEachFromHead(e -> {
            if (e instanceof Barrier b && b.checkpointId() == checkpointId) {
                found[0] = b;
                return false;
            }
            if (e instanceof RecordBuffer buf) {
                for (int i = 0; i < buf.size; i++) {
                    ahead.add(buf.records[i]);
                }
            }
            return true;
        });
        if (found[0] == null) {
            return null;
        }
        lane.replace(found[0], MOVED);
        eventsTaken = eventsTaken + 1;
        lock.lock();
        try {
            priorityLane.addFirst(found[0].asUnaligned());
            STATE.getAndBitwiseOr(this, PRIORITY);
        } finally {
            lock.unlock();
        }
        return ahead;
    }

    // ---------------------------------------------------------------- any thread

    /** Records in the channel (open buffer included; barriers not counted). */
    public int recordCount() {
        long c = (long) STATE.getVolatile(this) & ~PRIORITY;
        long s = (long) SENT.getAcquire(this);
        return (int) Math.max(0, s - c);
    }

    /** True when the channel holds nothing: no record (open buffer included), no event. */
    public boolean isEmpty() {
        return recordCount() == 0 && ((long) STATE.getVolatile(this) & PRIORITY) == 0 && eventsPut == eventsTaken;
    }

    /**
     * A copy of everything in the channel, in delivery order (priority lane, the rest of the buffer
     * being read, the queue, the open buffer): for tests, tracing and invariant checks. Exact while
     * neither side runs or when the caller is ordered with both by a common lock.
     */
    public List<Message> contents() {
        lock.lock();
        try {
            List<Message> all = new ArrayList<>(priorityLane);
            if (current != null) {
                for (int i = index; i < current.size; i++) {
                    all.add(current.records[i]);
                }
            }
            lane.forEachQuiescent(e -> {
                if (e instanceof RecordBuffer b) {
                    for (int i = 0; i < b.size; i++) {
                        all.add(b.records[i]);
                    }
                } else if (e != MOVED) {
                    all.add((Message) e);
                }
            });
            for (int i = 0; i < openSize; i++) {
                all.add(open[i]);
            }
            return all;
        } finally {
            lock.unlock();
        }
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
        List<Record> copy = List.copyOf(persisted); // rejects null elements before anything changes
        lock.lock();
        try {
            priorityLane.clear();
            STATE.setVolatile(this, 0L);
            lane.clear();
            retained.clear();
            current = null;
            index = 0;
            open = null;
            openSize = 0;
            sent = 0;
            handedOver = 0;
            eventsPut = 0;
            eventsTaken = 0;
            for (int from = 0; from < copy.size(); from += bufferSize) {
                int n = Math.min(bufferSize, copy.size() - from);
                Record[] recs = copy.subList(from, from + n).toArray(new Record[bufferSize]);
                RecordBuffer b = new RecordBuffer(recs, n, sent, handedOver++);
                sent += n;
                retained.addLast(b);
                lane.offer(b);
            }
            SENT.setRelease(this, sent);
            clock.restored(copy.size());
            roomAvailable.signalAll();
        } finally {
            lock.unlock();
        }
        if (!copy.isEmpty()) {
            onElementAvailable.run();
        }
    }

    @Override
    public String toString() {
        return "Channel[" + id + ", records=" + recordCount() + "/" + capacity()
                + (bufferSize > 1 ? ", buffers of " + bufferSize : "")
                + ", priority=" + (((long) STATE.getVolatile(this) & PRIORITY) != 0) + "]";
    }
}
