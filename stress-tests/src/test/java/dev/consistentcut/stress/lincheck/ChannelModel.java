package dev.consistentcut.stress.lincheck;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The sequential specification of {@link dev.consistentcut.channel.Channel}, written from its
 * contract and nothing else: a records lane (FIFO, at most {@link #CAPACITY} records; in-band
 * barriers take no capacity) and a priority lane delivered first. Operations take small ints that
 * lincheck generates; {@link #record(int)} and {@link #barrier(int)} turn them into elements.
 * Not thread-safe: lincheck runs it sequentially.
 */
public class ChannelModel {

    static final int CAPACITY = 2;

    private final ArrayDeque<Message> recordsLane = new ArrayDeque<>();
    private final ArrayDeque<Barrier> priorityLane = new ArrayDeque<>();

    // Made once: built inside an operation they would make the model checker trace their constructors.
    private static final Record[] RECORDS = {rec(0), rec(1), rec(2), rec(3)};
    private static final Barrier[] BARRIERS = {null, new Barrier(1), new Barrier(2)};

    private static Record rec(int offset) {
        return new Record(new RecordId("s#0", offset), offset, offset);
    }

    /** The record with offset {@code offset}, 0..3. */
    static Record record(int offset) {
        return RECORDS[offset];
    }

    /** The barrier of checkpoint {@code id}, 1..2. */
    static Barrier barrier(int id) {
        return BARRIERS[id];
    }

    private int records() {
        return (int) recordsLane.stream().filter(e -> e instanceof Record).count();
    }

    public boolean offerRecord(int offset) {
        if (records() >= CAPACITY) {
            return false;
        }
        recordsLane.addLast(record(offset));
        return true;
    }

    /**
     * The sender's blocking put. Sequentially a full channel would wait for good, so there the model
     * refuses the put (an exception the engine never throws): no linearization may place the put
     * before the poll that frees its room.
     */
    public void putRecord(int offset) {
        if (!offerRecord(offset)) {
            throw new IllegalStateException("full: the sender waits, so the put cannot take effect here");
        }
    }

    /** Handing the open buffer over changes nothing a record-level model sees. */
    public void flush() {
        // records are in the records lane from their put on
    }

    public boolean hasRoom() {
        return records() < CAPACITY;
    }

    public void putBarrier(int id) {
        recordsLane.addLast(barrier(id));
    }

    public List<Record> putBarrierOvertaking(int id) {
        List<Record> overtaken = new ArrayList<>();
        for (Message e : recordsLane) {
            if (e instanceof Record r) {
                overtaken.add(r);
            }
        }
        priorityLane.addLast(barrier(id));
        return overtaken;
    }

    public Message poll() {
        Barrier b = priorityLane.pollFirst();
        return b != null ? b : recordsLane.pollFirst();
    }

    public Message peek() {
        Barrier b = priorityLane.peekFirst();
        return b != null ? b : recordsLane.peekFirst();
    }

    public int recordCount() {
        return records();
    }

    public boolean isEmpty() {
        return priorityLane.isEmpty() && recordsLane.isEmpty();
    }

    public List<Message> contents() {
        List<Message> all = new ArrayList<>(priorityLane);
        all.addAll(recordsLane);
        return all;
    }
}
