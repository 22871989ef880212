package dev.consistentcut.stress.broken;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.stress.harness.ChannelUnderTest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * DELIBERATELY BROKEN: a channel whose overtaking barrier insert is not atomic. It copies the
 * queued records (what the barrier overtakes) under the lock, releases the lock, and only then
 * puts the barrier in the priority lane. A receiver polling in that window takes a record that is
 * also reported as overtaken: the record would be both processed before the snapshot and restored
 * from the persisted channel state, i.e. counted twice after a recovery. It exists only to show
 * that {@code Channel_01_PriorityOvertake} catches exactly this bug. Never use it otherwise.
 *
 * <p>Otherwise it behaves like the engine's channel: one lock, a records lane with a capacity, a
 * priority lane delivered first. Threading as {@link ChannelUnderTest}.
 */
public final class BrokenOvertakingChannel implements ChannelUnderTest {

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Record> recordsLane = new ArrayDeque<>();
    private final ArrayDeque<Barrier> priorityLane = new ArrayDeque<>();

    public BrokenOvertakingChannel(int capacity) {
        this.capacity = capacity;
    }

    @Override
    public boolean offerRecord(Record r) {
        lock.lock();
        try {
            if (recordsLane.size() >= capacity) {
                return false;
            }
            recordsLane.addLast(r);
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<Record> putBarrierOvertaking(Barrier b) {
        List<Record> overtaken;
        lock.lock();
        try {
            overtaken = new ArrayList<>(recordsLane);
        } finally {
            lock.unlock();
        }
        // THE BUG: the receiver may poll a record right here, after it was counted as overtaken.
        lock.lock();
        try {
            priorityLane.addLast(b);
        } finally {
            lock.unlock();
        }
        return overtaken;
    }

    @Override
    public Message poll() {
        lock.lock();
        try {
            Barrier b = priorityLane.pollFirst();
            return b != null ? b : recordsLane.pollFirst();
        } finally {
            lock.unlock();
        }
    }
}
