package dev.consistentcut.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.sink.SinkFiles;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A restored checkpoint may hold several pre-committed sink transactions, none committed yet: with
 * two checkpoints in flight (or a lost notification followed by the next checkpoint) the sink
 * pre-commits 1, then 2, and the failure comes before either notification. The restore of 2 must
 * re-commit both; re-committing only the newest would lose checkpoint 1's output for good (its
 * temp file is then aborted as a leftover). The restore in {@code TaskStateEdgesTest} has one
 * pending transaction, and {@code TransactionalFileSinkTest}'s has two of which the older was
 * committed before the failure, so neither sees that bug.
 */
@Timeout(10)
class RestoreRecommitsEveryPendingTransactionTest {

    private final FakeGateway gateway = new FakeGateway();
    private final RunObserver observer = e -> { };

    private static Record rec(long offset) {
        return new Record(new RecordId("s#0", offset), offset, 1);
    }

    @Test
    void aRestoreRecommitsEveryPendingTransactionOfTheRestoredCheckpoint() {
        OneSinkTask sink = new OneSinkTask(gateway, observer);
        Channel in = sink.in;
        OperatorTask out = sink.out;
        for (long c = 1; c <= 2; c++) {
            in.offerRecord(rec(c));
            out.processRecord(0);
            in.putBarrier(new Barrier(c));
            out.receiveBarrier(0); // pre-commits checkpoint c's transaction; no notification follows
        }
        assertEquals(Map.of(), out.committedOutput(), "both pre-committed, neither committed");
        Acknowledgement two = gateway.acks.get(1);
        assertEquals(2, two.checkpointId());

        out.restore(two.snapshot());
        assertEquals(List.of(1L, 2L), out.lastRecommitted(), "every pending transaction of checkpoint 2, not only its newest");
        assertEquals(Map.of(new RecordId("s#0", 1), 1, new RecordId("s#0", 2), 1), out.committedOutput());
        assertTrue(sink.dir.list().stream().noneMatch(SinkFiles::isTemp), "nothing left pending: " + sink.dir.list());
    }
}
