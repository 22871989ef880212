package dev.consistentcut.stress.harness;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * One race on one channel: the sender offers records {@code r0, r1}, inserts an overtaking
 * barrier, offers {@code r2}; meanwhile the receiver polls. Afterwards (single-threaded) the rest
 * is drained and the run is judged.
 *
 * <p>The claim (action {@code InjectBarrier}/{@code ReceiveBarrier}, unaligned): each record sent
 * before the barrier is either delivered before the barrier or in the list the barrier overtook
 * (the persisted channel state), never both and never neither; a record sent after it is neither;
 * every record is delivered exactly once, in FIFO order.
 *
 * <p>Outcome {@code (r1, r2, r3)}: r1 = records delivered before the barrier, r2 = records the
 * barrier overtook, r3 = the first defect found (0 none; see the {@code DEFECT_} constants).
 * Used by one thread per role as jcstress prescribes: {@link #send} by the sender actor,
 * {@link #receive} by the receiver actor, {@link #judge} by the arbiter after both.
 */
public final class OvertakeScenario {

    public static final int DEFECT_NONE = 0;
    /** A record was delivered twice, or never, or the barrier not exactly once. */
    public static final int DEFECT_LOST_OR_DUPLICATED = 1;
    /** A record sent before the barrier was delivered before it AND persisted. */
    public static final int DEFECT_DELIVERED_AND_PERSISTED = 2;
    /** A record sent before the barrier was neither delivered before it nor persisted. */
    public static final int DEFECT_NEITHER = 3;
    /** The record sent after the barrier was delivered before it or persisted. */
    public static final int DEFECT_AFTER_BARRIER_IN_CUT = 4;
    /** Records were delivered out of FIFO order. */
    public static final int DEFECT_ORDER = 5;

    private static final int RECEIVER_POLLS = 6;

    private final ChannelUnderTest channel;
    private final Record[] sent = {record(0), record(1), record(2)};
    private final Barrier barrier = new Barrier(1);
    private List<Record> overtaken = List.of();
    private final List<Message> delivered = new ArrayList<>();

    public OvertakeScenario(ChannelUnderTest channel) {
        this.channel = channel;
    }

    private static Record record(long offset) {
        return new Record(new RecordId("s#0", offset), offset, offset);
    }

    /** Sender actor. Capacity must be at least 3, so no offer fails. */
    public void send() {
        channel.offerRecord(sent[0]);
        channel.offerRecord(sent[1]);
        overtaken = channel.putBarrierOvertaking(barrier);
        channel.offerRecord(sent[2]);
    }

    /** Receiver actor: a few non-blocking polls, racing the sender. */
    public void receive() {
        for (int i = 0; i < RECEIVER_POLLS; i++) {
            Message e = channel.poll();
            if (e != null) {
                delivered.add(e);
            }
        }
    }

    /** Arbiter: drains what is left, then judges the whole run. */
    public void judge(III_Result r) {
        for (Message e = channel.poll(); e != null; e = channel.poll()) {
            delivered.add(e);
        }
        int barrierAt = delivered.indexOf(barrier);
        List<Record> beforeBarrier = new ArrayList<>();
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < delivered.size(); i++) {
            if (delivered.get(i) instanceof Record rec) {
                records.add(rec);
                if (barrierAt < 0 || i < barrierAt) {
                    beforeBarrier.add(rec);
                }
            }
        }
        r.r1 = beforeBarrier.size();
        r.r2 = overtaken.size();
        r.r3 = defect(records, beforeBarrier, barrierAt);
    }

    private int defect(List<Record> records, List<Record> beforeBarrier, int barrierAt) {
        long barriers = delivered.stream().filter(e -> e instanceof Barrier).count();
        if (barriers != 1 || records.size() != sent.length || !records.containsAll(List.of(sent))) {
            return DEFECT_LOST_OR_DUPLICATED;
        }
        for (int i = 0; i < 2; i++) {
            boolean before = beforeBarrier.contains(sent[i]);
            boolean persisted = overtaken.contains(sent[i]);
            if (before && persisted) {
                return DEFECT_DELIVERED_AND_PERSISTED;
            }
            if (!before && !persisted) {
                return DEFECT_NEITHER;
            }
        }
        if (beforeBarrier.contains(sent[2]) || overtaken.contains(sent[2])) {
            return DEFECT_AFTER_BARRIER_IN_CUT;
        }
        // Delivery is FIFO, and the barrier overtakes exactly the pre-barrier records not yet taken.
        if (!records.equals(List.of(sent)) || !overtaken.equals(List.of(sent).subList(beforeBarrier.size(), 2))) {
            return DEFECT_ORDER;
        }
        return DEFECT_NONE;
    }
}
