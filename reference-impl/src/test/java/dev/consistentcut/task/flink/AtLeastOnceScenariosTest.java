package dev.consistentcut.task.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scenarios of Flink's {@code CheckpointBarrierTrackerTest}, replayed against one
 * {@code OperatorTask} in {@code at-least-once} mode: nothing ever blocks; a checkpoint is
 * snapshot (barrier forwarded, acknowledged) when its last barrier arrives; several checkpoints
 * may be pending at once. Flink's "aborted" (negative ids in its validator) is our forwarded
 * cancellation. Exceptions in docs/flink-scenarios.md.
 */
@Timeout(10)
class AtLeastOnceScenariosTest {

    private static OneTask task(int inputs) {
        return new OneTask(inputs, BarrierHandlers.atLeastOnce());
    }

    // Flink: testSingleChannelNoBarriers / testMultiChannelNoBarriers.
    @Test
    void withoutBarriersRecordsPass() {
        task(1).run("r0 r0 r0").assertAllRecordsPassedOn();
        OneTask t = task(4).run("r2 r2 r0 r1 r0 r3 r1 r1 r2");
        t.assertAllRecordsPassedOn();
        assertEquals(List.of(), t.acknowledged());
    }

    // Flink: testSingleChannelWithBarriers / testSingleChannelWithSkippedBarriers.
    @Test
    void singleInputEveryBarrierIsACheckpointSkippedIdsToo() {
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L),
                task(1).run("r0 r0 r0 b1@0 r0 r0 r0 r0 b2@0 b3@0 r0 r0 b4@0 b5@0 b6@0 r0").acknowledged());
        assertEquals(List.of(1L, 3L, 4L, 6L, 7L, 10L),
                task(1).run("r0 b1@0 r0 r0 b3@0 r0 b4@0 b6@0 r0 b7@0 r0 b10@0 r0").acknowledged());
    }

    // Flink: testMultiChannelWithBarriers -- records keep flowing from inputs whose barrier came.
    @Test
    void threeInputsNeverBlock() {
        OneTask t = task(3).run("r0 r2 r0 b1@1 b1@2 r2 r1");
        assertEquals(Set.of(), t.blocked());
        assertEquals(List.of(), t.acknowledged());
        t.run("b1@0 r0 r0 r1 r1 r2 b2@0 b2@1 b2@2 r2 r2 b3@2 r2 r2 b3@0 b3@1 b4@1 b4@2 b4@0 r0");
        assertEquals(List.of(1L, 2L, 3L, 4L), t.acknowledged());
        t.assertAllRecordsPassedOn();
    }

    // Flink: testMultiChannelSkippingCheckpoints -- 3 never completes once 4 does.
    @Test
    void aCompletedNewerCheckpointDropsAnOlderPendingOne() {
        OneTask t = task(3).run("r0 r2 r0 b1@1 b1@2 r2 r1 b1@0 r0 r0 r1 r1 r2 b2@0 b2@1 b2@2 r2 r2 b3@2 r2 r2"
                + " b4@0 r0 r1 r2 b4@1 r1 b4@2 r0");
        assertEquals(List.of(1L, 2L, 4L), t.acknowledged());
        assertEquals(List.of(3L), t.declined(), "3 can no longer complete here");
    }

    // Flink: testCompleteCheckpointsOnLateBarriers -- barriers of later checkpoints do not
    // discard a pending one (inputs of different latency).
    @Test
    void lateBarriersStillCompleteTheirCheckpoint() {
        OneTask t = task(3).run("r1 r1 r0 r2 b2@1 b2@0 b2@2 r1 r0 b3@1 b3@2 r1 r0 b4@2 b4@1 r1 r2 b3@0 r0 b4@0"
                + " r1 r2 b5@1 r0 b5@0 r1 b5@2 r1 b6@1 r0 b6@0 r1 b7@1 r0 b7@2 r2 b8@2 r0 b8@1 r1 b9@1"
                + " b7@0 r0 b9@2 r2 b10@2 b8@0 r1 r2 b9@0 r1 r0 r2 b10@0 b10@1");
        assertEquals(List.of(2L, 3L, 4L, 5L, 7L, 8L, 9L, 10L), t.acknowledged());
    }

    // Flink: testNextFirstCheckpointBarrierOvertakesCancellationBarrier / testTwoLastBarriersOneByOne.
    @Test
    void twoPendingCheckpointsEachCompletes() {
        assertEquals(List.of(2L), task(2).run("b1@1 b2@1 x1@0 b2@0").acknowledged());
        assertEquals(List.of(1L, 2L), task(2).run("b1@1 b2@1 b1@0 b2@0").acknowledged());
    }

    // Flink: testSingleChannelAbortCheckpoint.
    @Test
    void singleInputCancellations() {
        OneTask t = task(1).run("r0 b1@0 r0 b2@0 x4@0 b5@0 r0 x6@0 r0");
        assertEquals(List.of(1L, 2L, 5L), t.acknowledged());
        assertEquals(List.of(4L, 6L), t.cancelled());
    }

    // Flink: testMultiChannelAbortCheckpoint.
    @Test
    void multiInputCancellations() {
        OneTask t = task(3).run("r0 r2 r0 b1@1 b1@2 r2 r1 b1@0 r0 r2 b2@0 b2@2 r0 r2 x2@1 r2 r1 b3@1 b3@2 b3@0"
                + " r0 r1 x4@1 b4@2 r0 b4@0 r0 r1 r2 b5@2 b5@1 b5@0 r0 r1 x6@1 x6@2 b6@0 r0");
        assertEquals(List.of(1L, 3L, 5L), t.acknowledged());
        assertEquals(List.of(2L, 4L, 6L), t.cancelled());
    }

    // Flink: testInterleavedCancellationBarriers -- each checkpoint is cancelled once.
    @Test
    void interleavedCancellationsCancelEachOnce() {
        OneTask t = task(3).run("b1@0 x2@0 x1@1 x2@1 x1@2 x2@2 r0");
        assertEquals(List.of(2L), t.cancelled(), "1 is given up (declined) with 2, not cancelled apart");
        assertEquals(List.of(1L), t.declined());
        assertEquals(List.of(), t.acknowledged());
    }

    // Flink: testTriggerCheckpointsWithEndOfPartition -- only the newest complete one (4) is
    // snapshot when input 2 ends; 5 stays pending.
    @Test
    void endOfPartitionCompletesTheNewestPendingOne() {
        OneTask t = task(3).run("b1@0 b2@0 b2@1 b3@0 b4@0 b4@1 b5@1 e2");
        assertEquals(List.of(4L), t.acknowledged());
        assertEquals(5, t.task.handlerState().checkpointId(), "5 pending");
    }

    // Flink: testDeduplicateChannelsWithBothBarrierAndEndOfPartition / testNoFastPathWithChannelFinishedDuringCheckpoints.
    @Test
    void inputWithBarrierThenEndCountsOnce() {
        OneTask t = task(3).run("b2@0 b2@1 e1");
        assertEquals(List.of(), t.acknowledged());
        t.run("b2@2");
        assertEquals(List.of(2L), t.acknowledged());
        OneTask u = task(2).run("b1@0 e0 b1@1");
        assertEquals(List.of(1L), u.acknowledged());
        assertEquals(0, u.task.handlerState().checkpointId(), "nothing left pending");
    }

    // Flink: testTriggerCheckpointsAfterReceivedEndOfPartition.
    @Test
    void checkpointsCompleteOnTheInputsLeft() {
        assertEquals(List.of(6L, 7L), task(3).run("e2 b5@0 b6@0 b6@1 e1 b7@0").acknowledged());
    }

    // Flink: testCompleteAndRemoveAbortedCheckpointWithEndOfPartition /
    // testAbortCheckpointsAfterEndOfPartitionReceived / testNoFastPathWithChannelFinishedDuringCheckpointsCancel.
    @Test
    void cancellationsAroundEndedInputs() {
        OneTask t = task(3).run("x4@0 b4@1 b5@1 e2");
        assertEquals(List.of(4L), t.cancelled());
        assertEquals(List.of(), t.acknowledged());
        assertEquals(5, t.task.handlerState().checkpointId());
        OneTask u = task(3).run("e2 b5@0 b6@0 x6@1 e1 x7@0");
        assertEquals(List.of(6L, 7L), u.cancelled());
        assertEquals(List.of(5L), u.declined(), "5 dropped with 6 (Flink counts it aborted)");
        assertEquals(List.of(), u.acknowledged());
        OneTask v = task(2).run("b1@0 e0 x1@1");
        assertEquals(List.of(1L), v.cancelled());
        assertEquals(0, v.task.handlerState().checkpointId());
    }

    // Not from Flink: a checkpoint the coordinator said is aborted is cancelled on its first
    // barrier, with nothing pending (a stalled seeded run found this path).
    @Test
    void knownAbortedCheckpointIsCancelledOnItsFirstBarrier() {
        OneTask t = task(2).run("n1 b1@0 b1@1 b2@0 b2@1");
        assertEquals(List.of(1L), t.cancelled());
        assertEquals(List.of(2L), t.acknowledged());
    }

    // Flink: CheckpointBarrierTrackerTest#testMultiChannelSkippingCheckpoints ignores a barrier of
    // a checkpoint the tracker no longer holds. A late barrier of an older checkpoint that is no
    // longer pending counts for nothing: counted for the newest pending one, it would complete that
    // checkpoint before its own barrier came on that input, snapshotting too early.
    @Test
    void aLateBarrierOfACheckpointNoLongerPendingCountsForNothing() {
        OneTask t = task(3).run("b1@0 b2@0 b2@1 n1"); // 1 aborted while pending: dropped; 2 waits for input 2
        t.run("b1@2");
        assertEquals(List.of(), t.snapshots(), "input 2's late barrier of 1 is not its barrier of 2");
        t.run("b2@2");
        assertEquals(List.of(2L), t.acknowledged());

        OneTask u = task(2).run("b2@0 b1@1"); // 1 was never pending here: older than the newest pending one
        assertEquals(List.of(), u.snapshots(), "input 1's barrier of 1 is not its barrier of 2");
        assertEquals(2, u.task.handlerState().checkpointId(), "2 still pending");
        u.run("b2@1");
        assertEquals(List.of(2L), u.acknowledged());
    }

    // Not from Flink: records of an input whose barrier has arrived flow into the snapshot, which
    // is what makes this mode at-least-once (NoDoubleCountInv does not hold).
    @Test
    void recordsAfterAnEarlyBarrierAreInTheSnapshot() {
        OneTask t = task(2).run("b1@0 r0 b1@1");
        assertEquals(1, t.coordinator.acks.get(0).snapshot().timesProcessed(
                new dev.consistentcut.message.RecordId("s0#0", 0)), "the record after input 0's barrier");
        assertTrue(t.blocked().isEmpty());
    }
}
