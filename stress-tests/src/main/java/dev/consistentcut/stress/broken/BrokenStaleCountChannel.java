package dev.consistentcut.stress.broken;

import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.stress.harness.CapacityScenario;
import java.util.ArrayDeque;

/**
 * DELIBERATELY BROKEN: a channel that keeps its queue under a lock but reads its record count
 * before taking the lock and writes it back after (count = old + 1, count = old - 1). A sender and
 * a receiver working at once lose one of the two updates: the count drifts from the records held,
 * so the channel refuses records with room left, or accepts more than its capacity. It exists only
 * to show that {@code Channel_02_FillToCapacity} catches this bug. Never use it otherwise.
 */
public final class BrokenStaleCountChannel implements CapacityScenario.CountingChannel {

    private final int capacity;
    private final ArrayDeque<Record> queue = new ArrayDeque<>();
    private volatile int count;

    public BrokenStaleCountChannel(int capacity) {
        this.capacity = capacity;
    }

    @Override
    public boolean offerRecord(Record r) {
        int n = count; // THE BUG: read outside the lock, written back after it
        if (n >= capacity) {
            return false;
        }
        synchronized (queue) {
            queue.addLast(r);
        }
        count = n + 1;
        return true;
    }

    @Override
    public Message poll() {
        int n = count;
        Record r;
        synchronized (queue) {
            r = queue.pollFirst();
        }
        if (r != null) {
            count = n - 1;
        }
        return r;
    }

    @Override
    public int recordCount() {
        return count;
    }

    @Override
    public boolean hasRoom() {
        return count < capacity;
    }

    @Override
    public int recordsHeld() {
        synchronized (queue) {
            return queue.size();
        }
    }
}
