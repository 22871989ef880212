package dev.consistentcut.stress.harness;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A channel of capacity 2 filled past capacity while the receiver polls: the sender offers 4
 * records (keeping those accepted), the receiver polls twice. The claims: the channel never holds
 * more records than its capacity, its record count is exactly the records it holds, and every
 * accepted record is delivered once, in order.
 *
 * <p>Outcome {@code (r1, r2, r3, r4)}: r1 = records accepted; r2 = records the receiver took during
 * the race; r3 = the channel's record count after the race; r4 = defect code: 0 none; 1 the count
 * differs from the records actually held; 2 more records held than the capacity; 3 a record lost,
 * duplicated or out of order (the receiver's records and a final drain against the accepted ones);
 * 4 after the drain the count is not 0 or there is no room.
 */
public final class CapacityScenario {

    public static final int CAPACITY = 2;
    private static final int OFFERS = 4;

    /** The part of a channel's contract this race exercises; one sender, one receiver thread. */
    public interface CountingChannel {
        boolean offerRecord(Record r);

        Message poll();

        int recordCount();

        boolean hasRoom();

        /** The records held now (test inspection; any thread after the race). */
        int recordsHeld();

        static CountingChannel of(Channel c) {
            return new CountingChannel() {
                @Override
                public boolean offerRecord(Record r) {
                    return c.offerRecord(r);
                }

                @Override
                public Message poll() {
                    return c.poll();
                }

                @Override
                public int recordCount() {
                    return c.recordCount();
                }

                @Override
                public boolean hasRoom() {
                    return c.hasRoom();
                }

                @Override
                public int recordsHeld() {
                    return (int) c.contents().stream().filter(e -> e instanceof Record).count();
                }
            };
        }
    }

    private final CountingChannel channel;
    private final List<Record> accepted = new ArrayList<>();
    private final List<Record> received = new ArrayList<>();

    public CapacityScenario(CountingChannel channel) {
        this.channel = channel;
    }

    /** Sender actor: offers records 1..4; a refused offer is not retried. */
    public void send() {
        for (int i = 1; i <= OFFERS; i++) {
            Record r = new Record(new RecordId("s#0", i), i, i);
            if (channel.offerRecord(r)) {
                accepted.add(r);
            }
        }
    }

    /** Receiver actor: two polls. */
    public void receive() {
        for (int i = 0; i < 2; i++) {
            if (channel.poll() instanceof Record r) {
                received.add(r);
            }
        }
    }

    public void judge(IIII_Result r) {
        r.r1 = accepted.size();
        r.r2 = received.size();
        int count = channel.recordCount();
        r.r3 = count;
        int held = channel.recordsHeld();
        int defect = 0;
        if (count != held) {
            defect = 1;
        } else if (held > CAPACITY) {
            defect = 2;
        }
        List<Record> delivered = new ArrayList<>(received);
        for (Message e; (e = channel.poll()) != null; ) {
            if (e instanceof Record rec) {
                delivered.add(rec);
            }
        }
        if (defect == 0 && !delivered.equals(accepted)) {
            defect = 3;
        }
        if (defect == 0 && (channel.recordCount() != 0 || !channel.hasRoom())) {
            defect = 4;
        }
        r.r4 = defect;
    }
}
