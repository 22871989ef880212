package dev.consistentcut.stress.broken;

import dev.consistentcut.channel.SpscQueue;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.stress.harness.MidBufferOvertakeScenario;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * DELIBERATELY BROKEN: a buffered channel built like the engine's (buffers handed over through
 * the lock-free {@link SpscQueue}, the receiver publishing how far it has read, an overtaking
 * barrier overtaking every record from there on), except that the receiver looks at the
 * priority lane only when it takes a new buffer, as if a barrier could only arrive between
 * buffers. A barrier put while the receiver reads a buffer has overtaken the rest of that buffer
 * (they are in its persisted list), yet the receiver delivers them before it: after a restore
 * they would be counted twice. It exists only to show that {@code Buffers_01_OvertakeMidBuffer}
 * catches this bug. Never use it otherwise.
 */
public final class BrokenPerBufferPriorityChannel implements MidBufferOvertakeScenario.BufferedChannel {

    private final int bufferSize;
    private final SpscQueue<Record[]> lane = new SpscQueue<>();
    // sender's own
    private final List<Record> open = new ArrayList<>();
    private final ArrayDeque<Record[]> handedOver = new ArrayDeque<>();
    private long sentBeforeOpen;
    // receiver's own
    private Record[] current;
    private int index;
    // shared
    private volatile long consumed;
    private final ArrayDeque<Message> priorityLane = new ArrayDeque<>();
    private volatile int priorityCount;

    public BrokenPerBufferPriorityChannel(int bufferSize) {
        this.bufferSize = bufferSize;
    }

    @Override
    public boolean offerRecord(Record r) {
        open.add(r);
        if (open.size() == bufferSize) {
            flush();
        }
        return true;
    }

    @Override
    public boolean flush() {
        if (open.isEmpty()) {
            return false;
        }
        Record[] b = open.toArray(new Record[0]);
        open.clear();
        handedOver.addLast(b);
        sentBeforeOpen += b.length;
        lane.offer(b);
        return true;
    }

    @Override
    public List<Record> putBarrierOvertaking(Barrier b) {
        flush();
        long from;
        synchronized (priorityLane) {
            priorityCount++;
            from = consumed;
            priorityLane.addLast(b);
        }
        List<Record> overtaken = new ArrayList<>();
        long seq = sentBeforeOpen;
        for (Record[] buf : handedOver) {
            seq -= buf.length;
        }
        for (Record[] buf : handedOver) {
            for (Record r : buf) {
                if (seq++ >= from) {
                    overtaken.add(r);
                }
            }
        }
        return overtaken;
    }

    @Override
    public Message poll() {
        if (current == null) {
            // THE BUG: the priority lane is looked at here only, between buffers.
            if (priorityCount != 0) {
                synchronized (priorityLane) {
                    Message p = priorityLane.pollFirst();
                    if (p != null) {
                        priorityCount--;
                        return p;
                    }
                }
            }
            current = lane.poll();
            index = 0;
            if (current == null) {
                return null;
            }
        }
        Record r = current[index++];
        consumed = consumed + 1;
        if (index == current.length) {
            current = null;
        }
        return r;
    }
}
