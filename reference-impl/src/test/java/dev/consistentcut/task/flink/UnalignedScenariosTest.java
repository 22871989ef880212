package dev.consistentcut.task.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scenarios of Flink's {@code UnalignedCheckpointsTest}, replayed against one unaligned
 * {@code OperatorTask}: the first barrier snapshots, records of inputs whose barrier is still to
 * come are persisted, the last barrier (or end of partition) acknowledges. Persisted records are
 * written {@code input:offset}, offsets counted per input from 0. Exceptions in
 * docs/flink-scenarios.md.
 */
@Timeout(10)
class UnalignedScenariosTest {

    private static OneTask task(int inputs) {
        return new OneTask(inputs, BarrierHandlers.unaligned());
    }

    // Flink: testSingleChannelNoBarriers / testMultiChannelNoBarriers -- nothing persisted, the
    // task ends with its last input.
    @Test
    void withoutBarriersNothingIsPersisted() {
        OneTask t = task(4).run("r2 r2 r0 r1 r0 e0 r3 r1 e3 r1 e1 r2 e2");
        t.assertAllRecordsPassedOn();
        assertTrue(t.task.ended());
        assertEquals(List.of(), t.acknowledged());
        OneTask one = task(1).run("r0 r0 e0");
        assertTrue(one.task.ended());
    }

    // Flink: testSingleChannelWithBarriers -- one input: every barrier is a whole checkpoint.
    @Test
    void singleInputEveryBarrierIsACheckpoint() {
        OneTask t = task(1).run("r0 r0 r0 b1@0 r0 r0 r0 r0 b2@0 b3@0 r0 r0 b4@0 b5@0 b6@0 r0 e0");
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), t.acknowledged());
        t.persisted().values().forEach(p -> assertEquals(List.of(), p));
    }

    // Flink: testMultiChannelWithBarriers -- exactly the records taken between the first barrier
    // and their own input's barrier are persisted.
    @Test
    void threeInputsPersistWhatWasInFlight() {
        OneTask t = task(3).run("r0 r2 r0 b1@1 b1@2 r2 r1 r0 b1@0");
        assertEquals(Map.of(1L, List.of("0:2")), t.persisted(), "input 0's record after the first barrier");
        t.run("r0 r0 r1 r1 r2 b2@0 b2@1 b2@2");
        t.run("r2 r2 b3@2 r2 r2 b3@0 b3@1");
        t.run("b4@1 b4@2 b4@0");
        t.run("r0 r2 r0 b5@1 r2 r0 r2 r1 b5@2 r1 r0 r2 r1 b5@0");
        Map<Long, List<String>> p = t.persisted();
        assertEquals(List.of(), p.get(2L));
        assertEquals(List.of(), p.get(3L));
        assertEquals(List.of(), p.get(4L));
        // After 5's first barrier (input 1): input 2's two records before its barrier and input
        // 0's two records before its barrier (Flink's sequence5[4], [5], [6], [10]).
        assertEquals(List.of("0:7", "0:8", "2:8", "2:9"), p.get(5L));
        t.run("r0 e0 e1 e2");
        assertTrue(t.task.ended());
    }

    // Flink: testMultiChannelTrailingInflightData / testEarlyCleanup -- an input that ends before
    // its barrier counts as arrived; its records before the end were persisted.
    @Test
    void inputsEndingBeforeTheirBarrierCompleteTheCheckpoint() {
        OneTask t = task(3).run("r0 r1 r2 b1@1 b1@2 b1@0 r2 r1 r0 b2@1 r1 r1 e1 r0 r2 b2@2 r2 e2 r0");
        assertEquals(List.of(1L), t.acknowledged(), "2 still waits for input 0");
        t.run("e0");
        assertEquals(List.of(1L, 2L), t.acknowledged());
        assertEquals(List.of("0:2", "0:3", "2:2"), t.persisted().get(2L));
        assertTrue(t.task.ended());
    }

    // Flink: testMissingCancellationBarriers -- cancellations of newer checkpoints end the
    // pending one; 3's cancellation is forwarded once.
    @Test
    void cancellationsOfNewerCheckpoints() {
        OneTask t = task(2).run("b1@0 x2@0 x3@0 x3@1 r0 e0 e1");
        assertEquals(List.of(1L), t.snapshots());
        assertEquals(List.of(1L, 2L, 3L), t.cancelled());
        assertEquals(List.of(), t.acknowledged());
        assertTrue(t.task.ended());
    }

    // Flink: testStartAlignmentWithClosedChannels.
    @Test
    void endedInputsAreNeverWaitedFor() {
        OneTask t = task(4).run("e2 e1 r0 r0 r3 b2@3 b2@0");
        t.run("r3 r0 b3@3 r3 r0 b3@0");
        assertEquals(List.of("0:3"), t.persisted().get(3L));
        t.run("b4@0 b4@3 r0 r0 r3 e0 r3 b5@3 r3 e3");
        assertEquals(List.of(2L, 3L, 4L, 5L), t.acknowledged());
        assertTrue(t.task.ended());
    }

    // Flink: testEndOfStreamWhileCheckpoint -- inputs ending during checkpoint 2.
    @Test
    void inputsEndingDuringACheckpoint() {
        OneTask t = task(3).run("b1@0 b1@1 b1@2 r0 r0 r2 b2@2 b2@0 r0 r2 r1 e2 e1");
        assertEquals(List.of(1L, 2L), t.acknowledged(), "input 1 ended before its barrier");
        assertEquals(List.of("1:0"), t.persisted().get(2L), "Flink's sequence2[7]: input 1's record");
        t.run("r0 e0");
        assertTrue(t.task.ended());
    }

    // Flink: testNotifyAbortCheckpointBeforeCanellingAsyncCheckpoint /
    // testProcessCancellationBarrierAfterProcessBarrier -- a cancellation of the pending
    // checkpoint abandons it; what was persisted for it is dropped.
    @Test
    void cancellationAfterTheFirstBarrierAbandonsTheCheckpoint() {
        OneTask t = task(2).run("b1@0 r1 x1@1 r1 e0 e1");
        assertEquals(List.of(1L), t.snapshots());
        assertEquals(List.of(1L), t.cancelled());
        assertEquals(List.of(), t.acknowledged());
    }

    // Flink: testProcessCancellationBarrierBeforeProcessAndReceiveBarrier -- a cancellation before
    // any barrier: the barrier that follows starts nothing.
    @Test
    void cancellationBeforeAnyBarrier() {
        OneTask t = task(1).run("x1@0 b1@0");
        assertEquals(List.of(), t.snapshots());
        assertEquals(List.of(1L), t.cancelled());
        assertEquals(1, t.task.handlerState().latestCheckpointId());
    }

    // Flink: testSingleChannelAbortCheckpoint.
    @Test
    void singleInputCancellations() {
        OneTask t = task(1).run("r0 b1@0 r0 b2@0 x4@0 b5@0 r0 x6@0 r0 e0");
        assertEquals(List.of(1L, 2L, 5L), t.acknowledged());
        assertEquals(List.of(4L, 6L), t.cancelled());
    }

    // Flink: testMultiChannelAbortCheckpoint -- cancelled on the last barrier, before the first
    // (no snapshot at all), and by several cancellations.
    @Test
    void multiInputCancellations() {
        OneTask t = task(3).run("r0 r2 r0 b1@1 b1@2 r2 r1 b1@0 r0 r2");
        t.run("b2@0 b2@2 r0 r2 x2@1");
        t.run("r2 r1 b3@1 b3@2 b3@0");
        t.run("r0 r1 x4@1 b4@2 r0 b4@0");
        t.run("r0 r1 r2 b5@2 b5@1 b5@0 r0 r1");
        t.run("x6@1 x6@2 b6@0 r0 e0 e1 e2");
        assertEquals(List.of(1L, 3L, 5L), t.acknowledged());
        assertEquals(List.of(1L, 2L, 3L, 5L), t.snapshots(), "4 and 6 never started");
        assertEquals(List.of(2L, 4L, 6L), t.cancelled());
    }

    // Flink: testEndOfStreamWithPendingCheckpoint -- Flink (checkpoints after tasks finish off)
    // aborts the pending checkpoint on end of partition; with FLIP-147 the ended input counts as
    // arrived and the checkpoint completes.
    @Test
    void endOfPartitionWithAPendingCheckpointCompletesIt() {
        OneTask t = task(2).run("b1@0 e1");
        assertEquals(List.of(1L), t.acknowledged());
        assertEquals(Set.of(), t.blocked());
    }

    // Not from Flink: unaligned survives the barriers of an aborted checkpoint still travelling
    // when the next one starts (the coordinator no longer waits for them).
    @Test
    void lateBarriersOfAnAbortedCheckpointAreDroppedWhileTheNextRuns() {
        OneTask t = task(2).run("b1@0 n1 b2@0 r1 b1@1 r1 b2@1");
        assertEquals(List.of(1L, 2L), t.snapshots());
        assertEquals(List.of(1L), t.cancelled());
        assertEquals(List.of(2L), t.acknowledged());
        assertEquals(List.of("1:0", "1:1"), t.persisted().get(2L), "both records preceded input 1's barrier 2");
    }
}
