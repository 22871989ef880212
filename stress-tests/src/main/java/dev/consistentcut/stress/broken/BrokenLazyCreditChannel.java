package dev.consistentcut.stress.broken;

import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.stress.harness.BlockedSenderScenario;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * DELIBERATELY BROKEN: a buffered channel with credits like the engine's (at most
 * {@code buffers} buffers in use: handed over and not read to their end, plus the open one; a
 * sender in {@code putRecord} waits for a credit), except that the receiver gives a buffer's
 * credit back, and wakes the sender, only when it takes the next buffer, as if the previous
 * buffer were recycled on the next read. When the receiver reads the last buffer to its end there
 * is no next buffer: the credit stays taken and a sender waiting for it waits for good, the
 * missed wake-up. It exists only to show that {@code Channel_03_BlockedSenderWokenByTheLastBuffer}
 * and the lincheck {@code ChannelBlockingPutTest} catch this bug. Never use it otherwise.
 *
 * <p>Threading as {@link BlockedSenderScenario.BlockingChannel}: one sender, one receiver; one
 * lock guards everything.
 */
public final class BrokenLazyCreditChannel implements BlockedSenderScenario.BlockingChannel {

    private final int bufferSize;
    private final int buffers;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition roomAvailable = lock.newCondition();
    // all guarded by lock
    private final ArrayDeque<Record[]> lane = new ArrayDeque<>();
    private Record[] open;
    private int openSize;
    private int inUse;
    private Record[] current;
    private int currentSize;
    private int index;
    private boolean readToItsEnd;

    public BrokenLazyCreditChannel(int capacity, int bufferSize) {
        this.bufferSize = bufferSize;
        this.buffers = capacity / bufferSize;
    }

    @Override
    public boolean offerRecord(Record r) {
        lock.lock();
        try {
            if (openSize == 0) {
                if (inUse >= buffers) {
                    return false;
                }
                open = new Record[bufferSize];
                inUse++;
            }
            open[openSize++] = r;
            if (openSize == bufferSize) {
                handOver();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void putRecord(Record r) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (!offerRecord(r)) {
                roomAvailable.await();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean flush() {
        lock.lock();
        try {
            if (openSize == 0) {
                return false;
            }
            handOver();
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void handOver() {
        Record[] full = java.util.Arrays.copyOf(open, openSize);
        lane.addLast(full);
        open = null;
        openSize = 0;
    }

    @Override
    public Message poll() {
        lock.lock();
        try {
            if (current == null) {
                Record[] next = lane.pollFirst();
                if (next == null) {
                    return null;
                }
                if (readToItsEnd) {
                    // THE BUG: the previous buffer's credit is given back only now, when a next buffer comes
                    readToItsEnd = false;
                    inUse--;
                    roomAvailable.signalAll();
                }
                current = next;
                currentSize = next.length;
                index = 0;
            }
            Record r = current[index++];
            if (index == currentSize) {
                current = null;
                readToItsEnd = true;
            }
            return r;
        } finally {
            lock.unlock();
        }
    }
}
