package dev.consistentcut.stress.harness;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The buffer hand-off of a buffered channel raced by an overtaking barrier: one buffer
 * of three records {@code r0 r1 r2} has been handed over before the race; the receiver polls
 * (taking the buffer, then reading record after record without a lock) while the sender puts an
 * overtaking barrier and then sends {@code r3} in a buffer of its own.
 *
 * <p>The claim (unaligned {@code InjectBarrier}/{@code ReceiveBarrier} over buffers): the barrier
 * is delivered between two records of the buffer being read if it comes then; each record sent
 * before it is either delivered before it or in the list it overtook (the persisted channel
 * state), never both and never neither; {@code r3} is neither; every record is delivered exactly
 * once, in FIFO order.
 *
 * <p>Outcome {@code (r1, r2, r3)}: r1 = records delivered before the barrier, r2 = records the
 * barrier overtook, r3 = the first defect (0 none; the {@code DEFECT_} constants of
 * {@link OvertakeScenario}). One thread per role, as jcstress prescribes.
 */
public final class MidBufferOvertakeScenario {

    /** The part of a buffered channel this race drives; one sender thread, one receiver thread. */
    public interface BufferedChannel {
        boolean offerRecord(Record r);

        boolean flush();

        List<Record> putBarrierOvertaking(Barrier b);

        Message poll();

        static BufferedChannel of(Channel c) {
            return new BufferedChannel() {
                @Override
                public boolean offerRecord(Record r) {
                    return c.offerRecord(r);
                }

                @Override
                public boolean flush() {
                    return c.flush();
                }

                @Override
                public List<Record> putBarrierOvertaking(Barrier b) {
                    return c.putBarrierOvertaking(b);
                }

                @Override
                public Message poll() {
                    return c.poll();
                }
            };
        }
    }

    /** Buffers of 3 records, 2 credits. */
    public static final int BUFFER_SIZE = 3;
    public static final int CAPACITY = 6;
    private static final int RECEIVER_POLLS = 6;

    private final BufferedChannel channel;
    private final Record[] sent = {record(0), record(1), record(2), record(3)};
    private final Barrier barrier = new Barrier(1);
    private List<Record> overtaken = List.of();
    private final List<Message> delivered = new ArrayList<>();

    /** Sends {@code r0 r1 r2}, which fill one buffer and hand it over (before the actors start). */
    public MidBufferOvertakeScenario(BufferedChannel channel) {
        this.channel = channel;
        for (int i = 0; i < 3; i++) {
            if (!channel.offerRecord(sent[i])) {
                throw new IllegalStateException("no room for " + sent[i]);
            }
        }
    }

    private static Record record(long offset) {
        return new Record(new RecordId("s#0", offset), offset, offset);
    }

    /** Sender actor. */
    public void send() {
        overtaken = channel.putBarrierOvertaking(barrier);
        channel.offerRecord(sent[3]);
        channel.flush();
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
        r.r3 = defect(records, beforeBarrier);
    }

    private int defect(List<Record> records, List<Record> beforeBarrier) {
        long barriers = delivered.stream().filter(e -> e instanceof Barrier).count();
        if (barriers != 1 || records.size() != sent.length || !records.containsAll(List.of(sent))) {
            return OvertakeScenario.DEFECT_LOST_OR_DUPLICATED;
        }
        for (int i = 0; i < 3; i++) {
            boolean before = beforeBarrier.contains(sent[i]);
            boolean persisted = overtaken.contains(sent[i]);
            if (before && persisted) {
                return OvertakeScenario.DEFECT_DELIVERED_AND_PERSISTED;
            }
            if (!before && !persisted) {
                return OvertakeScenario.DEFECT_NEITHER;
            }
        }
        if (beforeBarrier.contains(sent[3]) || overtaken.contains(sent[3])) {
            return OvertakeScenario.DEFECT_AFTER_BARRIER_IN_CUT;
        }
        if (!records.equals(List.of(sent)) || !overtaken.equals(List.of(sent).subList(beforeBarrier.size(), 3))) {
            return OvertakeScenario.DEFECT_ORDER;
        }
        return OvertakeScenario.DEFECT_NONE;
    }
}
