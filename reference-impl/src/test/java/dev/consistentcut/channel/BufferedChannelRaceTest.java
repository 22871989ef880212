package dev.consistentcut.channel;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.EndOfPartition;
import dev.consistentcut.message.Message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A buffered {@link Channel} between a real sender and receiver thread. Its own class
 * so that mutation testing of the channel package can leave it out: a mutant that loses a record
 * makes its receiver wait for ever, and PIT then spends its timeout on it.
 */
class BufferedChannelRaceTest {

    private static Record rec(long offset) {
        return new Record(new RecordId("src", offset), offset, offset * 10);
    }

    /**
     * One sender, one receiver, buffers of 4, random flushes and overtaking barriers: every record
     * delivered once in order, and each barrier's overtaken list is exactly the records sent before
     * it and delivered after it (the Dekker hand-shake between a record's read and a barrier's put).
     */
    @Test
    void overtakenListsAreExactUnderARacingReceiver() throws Exception {
        Channel c = new Channel("e", 16, 4);
        int n = 20_000;
        List<List<Record>> overtakenLists = new ArrayList<>();
        List<Long> sentBefore = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                SplittableRandom random = new SplittableRandom(16);
                long barrier = 1;
                for (long i = 0; i < n; i++) {
                    c.putRecord(rec(i));
                    int roll = random.nextInt(100);
                    if (roll < 3) {
                        sentBefore.add(i + 1);
                        overtakenLists.add(c.putBarrierOvertaking(new Barrier(barrier++)));
                    } else if (roll < 10) {
                        c.flush();
                    }
                }
                c.flush();
                c.putEndOfPartition();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        List<Message> delivered = new ArrayList<>();
        sender.start();
        while (true) {
            Message e = c.poll();
            if (e == null) {
                Thread.onSpinWait();
                continue;
            }
            if (e == EndOfPartition.INSTANCE) {
                break;
            }
            delivered.add(e);
        }
        sender.join();
        assertNull(failure.get());
        List<Record> records = new ArrayList<>();
        int barriers = 0;
        for (int p = 0; p < delivered.size(); p++) {
            Message e = delivered.get(p);
            if (e instanceof Record r) {
                records.add(r);
                continue;
            }
            Barrier b = assertInstanceOf(Barrier.class, e);
            int k = (int) b.checkpointId() - 1;
            assertEquals(barriers++, k, "barriers in order");
            long before = sentBefore.get(k);
            List<Record> after = new ArrayList<>();
            for (int q = p + 1; q < delivered.size(); q++) {
                if (delivered.get(q) instanceof Record r && r.id().offset() < before) {
                    after.add(r);
                }
            }
            assertEquals(after, overtakenLists.get(k), "barrier " + b.checkpointId());
        }
        assertEquals(overtakenLists.size(), barriers);
        assertEquals(n, records.size());
        for (int i = 0; i < n; i++) {
            assertEquals(i, records.get(i).id().offset());
        }
        assertTrue(c.isEmpty());
    }
}
