package dev.consistentcut.task.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scenarios of Flink's {@code AlignedCheckpointsTest} (flink-streaming-java,
 * runtime/io/checkpointing), replayed against one aligned {@code OperatorTask}. Each test names
 * the Flink test it translates; the scripts are re-told in this project's terms (see
 * {@link OneTask}). Scenarios that do not apply are listed in docs/flink-scenarios.md.
 */
@Timeout(10)
class AlignedScenariosTest {

    private static OneTask task(int inputs) {
        return new OneTask(inputs, BarrierHandlers.aligned());
    }

    // Flink: testSingleChannelNoBarriers -- records and the end of the only input pass in order.
    @Test
    void singleInputWithoutBarriersPassesEverythingAndEnds() {
        OneTask t = task(1).run("r0 r0 r0 e0");
        t.assertAllRecordsPassedOn();
        assertTrue(t.task.ended() && t.endOfPartitionForwarded());
        assertEquals(List.of(), t.acknowledged());
    }

    // Flink: testMultiChannelNoBarriers -- four inputs end one by one; the task ends with the last.
    @Test
    void fourInputsWithoutBarriersEndOneByOne() {
        OneTask t = task(4).run("r2 r2 r0 r1 r0 e0 r3 r1 e3 r1 e1 r2");
        assertTrue(!t.task.ended());
        t.run("e2");
        t.assertAllRecordsPassedOn();
        assertTrue(t.task.ended());
    }

    // Flink: testSingleChannelWithBarriers -- with one input each barrier completes its checkpoint.
    @Test
    void singleInputEveryBarrierIsACheckpoint() {
        OneTask t = task(1).run("r0 r0 r0 b1@0 r0 r0 r0 r0 b2@0 b3@0 r0 r0 b4@0 b5@0 b6@0 r0 e0");
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), t.acknowledged());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), t.snapshots());
        t.assertAllRecordsPassedOn();
    }

    // Flink: testMultiChannelWithBarriers -- inputs block from their barrier until the last one.
    @Test
    void threeInputsAlignFourCheckpoints() {
        OneTask t = task(3).run("r0 r2 r0 b1@1 b1@2");
        assertEquals(Set.of(1, 2), t.blocked());
        t.run("r0 b1@0");
        assertEquals(Set.of(), t.blocked());
        t.run("r0 r0 r1 r1 r2 b2@0 b2@1 b2@2");
        t.run("r2 r2 b3@2 r0 r0 b3@0 b3@1 b4@1 b4@2 b4@0 r0 e0 e1 e2");
        assertEquals(List.of(1L, 2L, 3L, 4L), t.acknowledged());
        assertTrue(t.task.ended());
    }

    // Flink: testMultiChannelJumpingOverCheckpoint -- a barrier of a later checkpoint on an
    // unblocked input gives up the pending alignment (subsumed). Flink's test runs with
    // checkpoints after tasks finish disabled, so there end of partition aborts checkpoint 4;
    // with FLIP-147 (our only mode) the ended inputs count as arrived and 4 completes.
    @Test
    void laterBarrierOnAnUnblockedInputSubsumesThePendingAlignment() {
        OneTask t = task(3).run("r0 r2 r0 b1@1 b1@2 r0 b1@0 r1 r0 b2@1 r2 b2@0 r2");
        assertEquals(Set.of(0, 1), t.blocked());
        t.run("b3@2");
        assertEquals(Set.of(2), t.blocked(), "2 given up, 3 aligning with only input 2 arrived");
        t.run("r1 r0 b3@0");
        assertEquals(Set.of(0, 2), t.blocked());
        t.run("b4@1");
        assertEquals(Set.of(1), t.blocked());
        t.run("r2 r0 e0 r2 e2");
        assertEquals(List.of(1L, 4L), t.acknowledged());
        assertEquals(List.of(2L, 3L), t.declined());
        assertEquals(List.of(2L, 3L), t.cancelled());
        t.run("r1 e1");
        assertTrue(t.task.ended());
    }

    // Flink: testMissingCancellationBarriers -- a cancellation of a newer checkpoint ends the
    // alignment of an older one; later cancellations of older or the same checkpoint are dropped.
    @Test
    void cancellationOfANewerCheckpointEndsTheOlderAlignment() {
        OneTask t = task(2).run("b1@0 x3@1 x2@0 x3@0 r0");
        assertEquals(Set.of(), t.blocked());
        assertEquals(List.of(1L, 3L), t.cancelled(), "1 given up (declined), 3 forwarded once");
        assertEquals(List.of(1L), t.declined());
        assertEquals(List.of(), t.acknowledged());
    }

    // Flink: testStartAlignmentWithClosedChannels -- ended inputs never hold an alignment up.
    @Test
    void endedInputsDoNotHoldAlignmentUp() {
        OneTask t = task(4).run("e2 e1 r0 r0 r3 b2@3 b2@0");
        assertEquals(List.of(2L), t.acknowledged());
        t.run("b3@0 b3@3 r0 r0 r3 e0 r3 b4@3");
        assertEquals(List.of(2L, 3L, 4L), t.acknowledged());
        assertEquals(Set.of(), t.blocked());
        t.run("r3 e3");
        assertTrue(t.task.ended());
    }

    // Flink: testEndOfStreamWhileCheckpoint -- inputs end while checkpoint 2 aligns. Flink (without
    // checkpoints after tasks finish) aborts 2; with FLIP-147 the ended inputs count as arrived.
    @Test
    void inputsEndingDuringAnAlignmentCompleteIt() {
        OneTask t = task(3).run("b1@0 b1@1 b1@2 r0 r0 r2 b2@2 b2@0 r1 e1");
        assertEquals(List.of(1L, 2L), t.acknowledged(), "input 1 ended: every input arrived or ended");
        assertEquals(Set.of(), t.blocked());
        t.run("e2 r0 e0");
        assertTrue(t.task.ended());
    }

    // Flink: testSingleChannelAbortCheckpoint -- cancellations of checkpoints the task has not
    // seen are forwarded and their later barriers dropped.
    @Test
    void singleInputCancellations() {
        OneTask t = task(1).run("r0 b1@0 r0 b2@0 r0 x4@0 b5@0 r0 x6@0 r0");
        assertEquals(List.of(1L, 2L, 5L), t.acknowledged());
        assertEquals(List.of(4L, 6L), t.cancelled());
        t.run("b6@0");
        assertEquals(List.of(1L, 2L, 5L), t.acknowledged(), "late barrier of the cancelled 6 dropped");
    }

    // Flink: testMultiChannelAbortCheckpoint -- cancelled on the last barrier, on the first
    // barrier, and by several cancellations before a barrier.
    @Test
    void multiInputCancellations() {
        OneTask t = task(3).run("r0 r2 r0 b1@1 b1@2 r0 b1@0 r0 r2 b2@0 b2@2 r1");
        assertEquals(Set.of(0, 2), t.blocked());
        t.run("x2@1");
        assertEquals(Set.of(), t.blocked(), "the cancellation unblocks every input at once");
        t.run("r2 r1 b3@1 b3@2 b3@0 r0 r1 x4@1 b4@2");
        assertEquals(Set.of(), t.blocked(), "barriers of the cancelled 4 are dropped, nothing blocks");
        t.run("r2 b4@0 r0 r1 r2 b5@2 b5@1 b5@0 r0 r1 x6@1 x6@2 b6@0 r0");
        assertEquals(List.of(1L, 3L, 5L), t.acknowledged());
        assertEquals(List.of(2L, 4L, 6L), t.cancelled());
    }

    // Flink: testAbortOnCanceledBarriers -- a late barrier of a cancelled checkpoint is dropped
    // and does not disturb the next alignment (the FLINK-20654 shape).
    @Test
    void lateBarrierOfACancelledCheckpointIsDropped() {
        OneTask t = task(3).run("r1 b1@1 r2 r0 x1@0 r1 b2@1 r2 r0");
        assertEquals(Set.of(1), t.blocked());
        t.run("b1@2");
        assertEquals(Set.of(1), t.blocked(), "the late barrier 1 is neither aligned nor blocking");
        t.run("r0 r2 b2@0 b2@2 r0 r1 r2");
        assertEquals(List.of(2L), t.acknowledged());
        assertEquals(List.of(1L), t.cancelled());
    }

    // Flink: testIgnoreCancelBarrierIfCheckpointSubsumed -- after a newer barrier subsumed 3, a
    // cancellation of 3 changes nothing.
    @Test
    void cancellationOfASubsumedCheckpointIsDropped() {
        OneTask t = task(3).run("r2 b3@1 b3@0 r2");
        assertEquals(Set.of(0, 1), t.blocked());
        t.run("b5@2");
        assertEquals(Set.of(2), t.blocked());
        assertEquals(List.of(3L), t.declined());
        t.run("r1 r0 x3@0 r0 r1");
        assertEquals(Set.of(2), t.blocked(), "still aligning 5");
        t.run("b5@0 b5@1 r0 r1 r2");
        assertEquals(List.of(5L), t.acknowledged());
        assertEquals(List.of(3L), t.cancelled(), "3's cancellation forwarded once, when subsumed");
    }

    // Flink: testTriggerCheckpointsWithEndOfPartition -- the last input's end completes 1.
    @Test
    void endOfTheLastMissingInputCompletesTheCheckpoint() {
        OneTask t = task(3).run("b1@0 b1@1 e2");
        assertEquals(List.of(1L), t.acknowledged());
        assertEquals(0, t.task.handlerState().checkpointId(), "nothing pending");
    }

    // Flink: testDeduplicateChannelsWithBothBarrierAndEndOfPartition -- an input that delivered
    // the barrier and then ended counts once.
    @Test
    void inputWithBarrierThenEndCountsOnce() {
        OneTask t = task(3).run("b2@0 b2@1");
        assertEquals(Set.of(0, 1), t.blocked());
        // Input 1 is blocked, so its end of partition waits behind the alignment (Flink's gate
        // delivers it; here it stays queued until 2 completes).
        t.run("b2@2");
        assertEquals(List.of(2L), t.acknowledged());
        t.run("e1");
        assertEquals(0, t.task.handlerState().checkpointId());
    }

    // Flink: testTriggerCheckpointsAfterReceivedEndOfPartition -- after inputs ended, the
    // remaining ones alone complete 6 and 7.
    @Test
    void checkpointsCompleteOnTheInputsLeft() {
        OneTask t = task(3).run("e2 b6@0 b6@1 e1 b7@0");
        assertEquals(List.of(6L, 7L), t.acknowledged());
    }

    // Not from Flink: the coordinator's notification of an abort unblocks an alignment at once,
    // and a notification of a newer checkpoint's abort leaves the older alignment alone.
    @Test
    void abortNotificationUnblocksOnlyItsOwnCheckpoint() {
        OneTask t = task(2).run("b1@0 n2");
        assertEquals(Set.of(0), t.blocked(), "an abort of 2 says nothing about 1");
        t.run("b1@1 b2@0");
        assertEquals(List.of(1L), t.acknowledged());
        assertEquals(List.of(2L), t.cancelled(), "2 is cancelled on its first barrier");
        t.run("b3@1 n3");
        assertEquals(Set.of(), t.blocked());
        assertEquals(List.of(2L, 3L), t.cancelled());
    }
}
