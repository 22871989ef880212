// Longer than 500 lines: buffers, credits, the priority lane and an overtaking barrier's race with the receiver are one compare-and-set protocol on one word.
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
 * The plain path of a {@link Channel}: its lock-free single-producer single-consumer protocol,
 * with nothing of tracing in it. {@link Channel} states what the channel does and the threading
 * contract; this class how it does it without a lock per record.
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
 * {@link #awaitRoom}, per buffer read to its end.
 */
final class SpscChannel extends SpscChannelReceiverPad implements ChannelEnds {

    private static final Runnable NO_OP = () -> { };
    /** Left in the queue where {@link #prioritizeBarrier} took a barrier out; skipped by the receiver. */
    private static final Object MOVED = new Object();

    /** The flag bit of {@code state}: the priority lane is not empty. */
    private static final long PRIORITY = 1L << 62;

    private static final VarHandle SENT;
    private static final VarHandle STATE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SENT = l.findVarHandle(SpscChannelFields.class, "sentView", long.class);
            STATE = l.findVarHandle(SpscChannelReceiverFields.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String id;
    private final int bufferSize;
    private final int bufferCapacity;
    /** How a buffer carries its records once handed over. */
    private final BufferEncoding encoding;

    /** Buffers ({@link RecordBuffer}) and in-band events ({@link Message}), FIFO. */
    private final SpscQueue<Object> lane = new SpscQueue<>();

    // The sender's and the receiver's per-record fields (sentView and state among them) are in
    // SpscChannelFields, each side on cache lines of its own.

    // ------------------------------------------------ shared
    /** In-band events put (sender writes) and taken or moved to the priority lane (receiver writes): {@link #isEmpty}. */
    private volatile long eventsPut;
    private volatile long eventsTaken;
    /** A sender waits in {@link #awaitRoom}: the receiver signals when it releases a buffer. */
    private volatile boolean senderWaiting;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a buffer is released, or on restore. */
    private final Condition roomAvailable = lock.newCondition();
    /** Guarded by {@link #lock}. Overtaking barriers and priority cancellation barriers, FIFO among themselves. */
    private final ArrayDeque<Message> priorityLane = new ArrayDeque<>();

    private volatile Runnable onElementAvailable = NO_OP;
    private volatile Runnable onRoomAvailable = NO_OP;

    /** See {@link Channel#Channel(String, int, int, BufferEncoding)}. */
    SpscChannel(String id, int capacity, int bufferSize, BufferEncoding encoding) {
        this.encoding = Objects.requireNonNull(encoding, "encoding");
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

    String id() {
        return id;
    }

    int capacity() {
        return bufferCapacity * bufferSize;
    }

    int bufferSize() {
        return bufferSize;
    }

    int bufferCapacity() {
        return bufferCapacity;
    }

    /**
     * Installs the wake-up hooks of a threaded runtime. {@code onElementAvailable} runs after a
     * buffer is handed over or an event is put, {@code onRoomAvailable} after the receiver read a
     * buffer to its end (its credit is free); both run on the thread that made the change, outside the lock, so they may call
     * back into this channel.
     */
    void setListeners(Runnable onElementAvailable, Runnable onRoomAvailable) {
        this.onElementAvailable = Objects.requireNonNull(onElementAvailable, "onElementAvailable");
        this.onRoomAvailable = Objects.requireNonNull(onRoomAvailable, "onRoomAvailable");
    }

    /** Guards the priority lane and a waiting sender (a test holds it: {@link Channel#plainLock}). */
    ReentrantLock lock() {
        return lock;
    }

    // ---------------------------------------------------------------- sender side

    @Override
    public boolean hasRoom() {
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

    @Override
    public boolean offerRecord(Record r) {
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

    @Override
    public void awaitRoom() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            senderWaiting = true; // then read the count (in hasRoom): Dekker's order with the receiver
            while (!hasRoom()) {
                roomAvailable.await();
            }
        } finally {
            senderWaiting = false;
            lock.unlock();
        }
    }

    @Override
    public boolean hasOpenBuffer() {
        return openSize > 0;
    }

    @Override
    public boolean flush() {
        if (openSize == 0) {
            return false;
        }
        handOver();
        return true;
    }

    private void handOver() {
        RecordBuffer b = encoding.seal(open, openSize, openFirstSeq, handedOver++);
        open = null;
        openSize = 0;
        retained.addLast(b);
        lane.offer(b);
        onElementAvailable.run();
    }

    /** An event after everything sent: the open buffer goes first. */
    private void putInBand(Message e) {
        if (openSize > 0) {
            RecordBuffer b = encoding.seal(open, openSize, openFirstSeq, handedOver++);
            open = null;
            openSize = 0;
            retained.addLast(b);
            lane.offer(b);
        }
        lane.offer(e);
        eventsPut = eventsPut + 1;
        onElementAvailable.run();
    }

    @Override
    public void putBarrier(Barrier b) {
        putInBand(Objects.requireNonNull(b, "barrier"));
    }

    @Override
    public List<Record> putBarrierOvertaking(Barrier b) {
        Objects.requireNonNull(b, "barrier");
        flush();
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
            int first = (int) Math.max(0, from - buf.firstSeq);
            if (first < buf.size) {
                Record[] records = buf.records();
                for (int i = first; i < buf.size; i++) {
                    overtaken.add(records[i]);
                }
            }
        }
        return overtaken;
    }

    @Override
    public void putCancelBarrier(CancelBarrier b, boolean priority) {
        Objects.requireNonNull(b, "cancel barrier");
        if (!priority) {
            putInBand(b);
            return;
        }
        flush();
        lock.lock();
        try {
            priorityLane.addLast(b);
            STATE.getAndBitwiseOr(this, PRIORITY);
        } finally {
            lock.unlock();
        }
        onElementAvailable.run();
    }

    @Override
    public void putEndOfPartition() {
        putInBand(EndOfPartition.INSTANCE);
    }

    // ---------------------------------------------------------------- receiver side

    @Override
    public Message peek() {
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
                current = b.readable();
                index = 0;
                return current.records[0];
            }
            return (Message) head;
        }
    }

    @Override
    public Message poll() {
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

    @Override
    public Barrier firstInBandBarrier() {
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

    @Override
    public List<Record> prioritizeBarrier(long checkpointId) {
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
                Record[] records = buf.records();
                for (int i = 0; i < buf.size; i++) {
                    ahead.add(records[i]);
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

    @Override
    public int recordCount() {
        long c = (long) STATE.getVolatile(this) & ~PRIORITY;
        long s = (long) SENT.getAcquire(this);
        return (int) Math.max(0, s - c);
    }

    @Override
    public boolean isEmpty() {
        return recordCount() == 0 && ((long) STATE.getVolatile(this) & PRIORITY) == 0 && eventsPut == eventsTaken;
    }

    @Override
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
                    Record[] records = b.records();
                    for (int i = 0; i < b.size; i++) {
                        all.add(records[i]);
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

    @Override
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
                RecordBuffer b = encoding.seal(recs, n, sent, handedOver++);
                sent += n;
                retained.addLast(b);
                lane.offer(b);
            }
            SENT.setRelease(this, sent);
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
