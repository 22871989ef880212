package dev.consistentcut.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.SinkFiles;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.LinkedHashMap;
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
        MemorySinkDirectory dir = new MemorySinkDirectory();
        PhysicalGraph job = PhysicalGraph.of(JobGraph.builder()
                .source("s", InMemorySourceLog.ofKeys(1, 2, 3))
                .operator("out", 1, () -> new TransactionalFileSink(dir))
                .edge("s", "out", Partitioning.FORWARD, 4)
                .build());
        Map<String, Channel> ch = new LinkedHashMap<>();
        job.channels().forEach(c -> ch.put(c.id(), new Channel(c.id(), c.capacity())));
        Channel in = ch.get("s#0->out#0");
        OperatorTask out = new OperatorTask("out#0", job, ch, BarrierHandlers.aligned(), gateway, observer, true);
        out.restore(null);
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
        assertTrue(dir.list().stream().noneMatch(SinkFiles::isTemp), "nothing left pending: " + dir.list());
    }
}
