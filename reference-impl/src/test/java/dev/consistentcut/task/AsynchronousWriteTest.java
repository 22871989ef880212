package dev.consistentcut.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.checkpoint.MaterialisedUploads;
import dev.consistentcut.checkpoint.TaskSnapshot;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The task's write of a checkpoint's changes runs off its thread and the acknowledgement follows
 * it: the task freezes its snapshot at the barrier, hands the write over and goes on processing
 * records; once the write is done, the task's own thread acknowledges, with the snapshot frozen at
 * the barrier. Flink's asynchronous phase: SubtaskCheckpointCoordinatorImpl#checkpointState takes
 * the synchronous part and hands an AsyncCheckpointRunnable to the task's async-operations pool,
 * which reports the acknowledgement when its uploads are done (FLIP-158: the changelog writer's
 * persist completes a future the asynchronous part waits on); the task thread processes records
 * meanwhile (SubtaskCheckpointCoordinatorTest#testNotifyCheckpointAbortedDuringAsyncPhase holds the
 * asynchronous part the same way). Unlike Flink's, the acknowledgement is sent by the task's own
 * thread, not the writer's: the engine's gateway and causal clocks take a task's calls from it.
 *
 * <p>No thread but the test's: the writer is an executor that holds each write until the test runs
 * it, and the test calls {@link OperatorTask#acknowledgeWritten} where the threaded runtime's task
 * thread calls it, before its next step.
 */
@Timeout(30)
class AsynchronousWriteTest {

    /** One call of persist: its checkpoint and snapshot, and the task's acknowledgements by then. */
    private record Persisted(long checkpoint, TaskSnapshot snapshot, int countAcksBefore) {
    }

    /** Holds every write it is given until {@link #release} runs the oldest. */
    private static final class HeldWrites implements Executor {
        final ArrayDeque<Runnable> held = new ArrayDeque<>();

        @Override
        public void execute(Runnable write) {
            held.add(write);
        }

        void release() {
            held.remove().run();
        }
    }

    private final TwoSourceCountJob job = new TwoSourceCountJob(16);
    private final List<Persisted> persisted = new ArrayList<>();
    private final HeldWrites writes = new HeldWrites();
    private RuntimeException failWith;
    private int wakeups;
    private SourceTask s1;
    private SourceTask s2;
    private OperatorTask count;

    private final MaterialisedUploads store = new MaterialisedUploads() {
        @Override
        public boolean upload(String task, List<Object> segments) {
            return false;
        }

        @Override
        public void discard(List<Object> segments) {
            // nothing uploaded
        }

        @Override
        public boolean persist(String task, long checkpoint, TaskSnapshot snapshot) {
            if (failWith != null) {
                throw failWith;
            }
            persisted.add(new Persisted(checkpoint, snapshot, countAcks().size()));
            return true;
        }
    };

    @BeforeEach
    void start() {
        s1 = new SourceTask("s1#0", job.graph, job.channels, BarrierHandlers.aligned(), job.gateway, job.observer, true);
        s2 = new SourceTask("s2#0", job.graph, job.channels, BarrierHandlers.aligned(), job.gateway, job.observer, true);
        count = new OperatorTask("count#0", job.graph, job.channels, BarrierHandlers.aligned(), job.gateway,
                RunObserver.NONE, true, Runnable::run, store, writes);
        count.onWritten(() -> wakeups++);
    }

    private List<Acknowledgement> countAcks() {
        return job.gateway.acks.stream().filter(a -> a.task().equals("count#0")).toList();
    }

    /** Both sources inject barrier {@code c}; count takes it on both inputs: its snapshot, the write handed over. */
    private void checkpoint(long c) {
        job.gateway.nextBarrier.put("s1#0", c);
        job.gateway.nextBarrier.put("s2#0", c);
        s1.injectBarrier(c);
        s2.injectBarrier(c);
        while (count.canProcessRecord(0)) {
            count.processRecord(0);
        }
        while (count.canProcessRecord(1)) {
            count.processRecord(1);
        }
        count.receiveBarrier(0);
        count.receiveBarrier(1);
    }

    @Test
    void theTaskGoesOnWhileItsWriteIsHeldAndAcknowledgesOnceAfterItWithTheSnapshotOfTheBarrier() {
        s1.emitRecord();
        checkpoint(1);
        assertEquals(1, writes.held.size(), "the write is handed over");
        assertEquals(List.of(), persisted, "nothing written while the write is held");
        assertEquals(List.of(), countAcks(), "no acknowledgement before the write is done");
        assertEquals(1, count.pendingWrites());

        s1.emitRecord();
        s2.emitRecord();
        count.processRecord(0);
        count.processRecord(1);
        assertEquals(3, count.processed().size(), "the task processes records while its write is held");
        assertEquals(0, count.acknowledgeWritten(), "the task's next step: still nothing to acknowledge");
        assertEquals(List.of(), countAcks(), "no acknowledgement before the write is done");

        writes.release();
        assertEquals(1, persisted.size());
        assertEquals(1, persisted.get(0).checkpoint());
        assertEquals(0, persisted.get(0).countAcksBefore(), "written before the task's acknowledgement");
        assertEquals(1, wakeups, "the writer wakes the task");
        assertEquals(List.of(), countAcks(), "the acknowledgement goes out on the task's thread, not the writer's");

        assertEquals(1, count.acknowledgeWritten(), "the task's next step acknowledges");
        s1.emitRecord();
        count.processRecord(0);
        assertEquals(0, count.acknowledgeWritten());
        List<Acknowledgement> acks = countAcks();
        assertEquals(1, acks.size(), "acknowledged exactly once");
        assertEquals(1, acks.get(0).checkpointId());
        assertSame(persisted.get(0).snapshot(), acks.get(0).snapshot(), "what was written is what was acknowledged");
        assertEquals(1, acks.get(0).snapshot().processed().size(),
                "the snapshot frozen at the barrier, not the state when the write was done");
        assertEquals(0, count.pendingWrites());
    }

    @Test
    void aBatchOfRecordsStopsAtAFinishedWriteSoThatItsAcknowledgementDoesNotWaitForTheBatch() {
        s1.emitRecord();
        checkpoint(1);
        s1.emitRecord();
        s1.emitRecord();
        assertEquals(1, count.processRecords(0, 1), "a batch runs while the write is held");
        writes.release();
        assertEquals(0, count.processRecords(0, 10), "the batch stops at the finished write");
        assertEquals(1, count.acknowledgeWritten(), "the runtime's next step acknowledges");
        assertEquals(1, count.processRecords(0, 10), "then the batch goes on");
        assertEquals(List.of(1L), countAcks().stream().map(Acknowledgement::checkpointId).toList());
    }

    @Test
    void twoWritesOutstandingAreWrittenAndAcknowledgedInCheckpointOrder() {
        s1.emitRecord();
        checkpoint(1);
        s2.emitRecord();
        checkpoint(2);
        assertEquals(1, writes.held.size(), "the second write waits for the first: one at a time");
        assertEquals(2, count.pendingWrites());

        writes.release(); // the first; the second is handed over when it is done
        assertEquals(List.of(1L), persisted.stream().map(Persisted::checkpoint).toList());
        assertEquals(1, writes.held.size());
        assertEquals(1, count.acknowledgeWritten());
        assertEquals(List.of(1L), countAcks().stream().map(Acknowledgement::checkpointId).toList());

        writes.release();
        assertEquals(List.of(1L, 2L), persisted.stream().map(Persisted::checkpoint).toList());
        assertEquals(1, count.acknowledgeWritten());
        assertEquals(List.of(1L, 2L), countAcks().stream().map(Acknowledgement::checkpointId).toList());
        assertEquals(1, countAcks().get(0).snapshot().processed().size());
        assertEquals(2, countAcks().get(1).snapshot().processed().size());
    }

    @Test
    void theTaskEndsOnlyAfterEveryEarlierWriteIsAcknowledged() {
        s1.emitRecord();
        checkpoint(1);
        while (!s1.exhausted()) {
            s1.emitRecord();
        }
        while (!s2.exhausted()) {
            s2.emitRecord();
        }
        s1.sendEndOfPartition();
        s2.sendEndOfPartition();
        while (count.canProcessRecord(0)) {
            count.processRecord(0);
        }
        count.receiveEndOfPartition(0);
        while (count.canProcessRecord(1)) {
            count.processRecord(1);
        }
        assertFalse(count.canReceiveEndOfPartition(1), "the last end of partition waits for the held write");
        assertFalse(enabled().contains(Action.RECEIVE_END_OF_PARTITION));
        writes.release();
        assertFalse(count.canReceiveEndOfPartition(1), "written, not yet acknowledged");
        assertEquals(1, count.acknowledgeWritten());
        assertTrue(count.canReceiveEndOfPartition(1));
        assertTrue(enabled().contains(Action.RECEIVE_END_OF_PARTITION));
        count.receiveEndOfPartition(1);
        assertEquals(List.of(1L), countAcks().stream().map(Acknowledgement::checkpointId).toList(),
                "checkpoint 1 acknowledged before the task ended");
        assertEquals(1, job.gateway.ended.stream().filter(a -> a.task().equals("count#0")).count());
        assertEquals(List.of(1L, Long.MAX_VALUE), persisted.stream().map(Persisted::checkpoint).toList());
        assertEquals(1, persisted.get(1).countAcksBefore(), "the final state written after the acknowledgement");
    }

    private List<Action> enabled() {
        List<Step> steps = new ArrayList<>();
        count.enabledSteps(steps);
        return steps.stream().map(Step::action).toList();
    }

    @Test
    void aRestoreDropsTheWriteHeldAndItsAcknowledgement() {
        s1.emitRecord();
        checkpoint(1);
        count.restore(null);
        writes.release();
        assertEquals(List.of(), persisted, "a write dropped by a restore writes nothing");
        assertEquals(0, count.acknowledgeWritten());
        assertEquals(List.of(), countAcks());
        assertEquals(0, count.pendingWrites());
    }

    @Test
    void aWriteThatFailsDeclinesItsCheckpoint() {
        failWith = new IllegalStateException("disk gone");
        s1.emitRecord();
        checkpoint(1);
        writes.release();
        assertEquals(1, count.acknowledgeWritten());
        assertEquals(List.of(), countAcks(), "no acknowledgement of a checkpoint whose write failed");
        assertEquals(List.of(1L), job.gateway.declined);
        assertTrue(count.pendingWrites() == 0);
    }
}
