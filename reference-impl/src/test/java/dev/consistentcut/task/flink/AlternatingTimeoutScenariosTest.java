package dev.consistentcut.task.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The alignment-timeout scenarios of Flink's {@code AlternatingCheckpointsTest}
 * ({@code flink-streaming-java/src/test/java/org/apache/flink/streaming/runtime/io/checkpointing/},
 * commit c5ed2b74), re-told against one {@link dev.consistentcut.task.OperatorTask} in alternating
 * mode. Flink's timer is the token {@code tC} (the timer of C fires and the task takes
 * {@code TimeoutAlignment}) or {@code ~C} (it fires, no step yet); its "announcement" (a barrier
 * received by the network but not yet polled) is a barrier queued behind records ({@code +bC@I}).
 * Flink's "triggered unaligned" is our forwarded barrier {@code "Cu"}; its overtaken input
 * buffers are our persisted input channel state. As in Flink and the spec, the passive timeout
 * prioritizes the queued barriers (they jump to the head of their inputs, unaligned; what they
 * jumped over is kept as channel state) and the first of them, when taken, takes the snapshot;
 * the active one takes the snapshot at once.
 */
@Timeout(10)
class AlternatingTimeoutScenariosTest {

    private static OneTask task(int inputs) {
        return new OneTask(inputs, BarrierHandlers.alternating(100));
    }

    // Flink: testAlignedAfterTimedOut -- one input: checkpoint 1 times out while its barrier
    // waits (passive) and goes unaligned; checkpoint 2, on time, stays aligned.
    @Test
    void alignedAgainAfterATimedOutCheckpoint() {
        OneTask t = task(1).run("+b1@0 t1");
        assertEquals(List.of(), t.forwardedBarriers(), "prioritized, not taken yet");
        t.run("T0");
        assertEquals(List.of("1u"), t.forwardedBarriers());
        assertEquals(List.of(1L), t.acknowledged());
        t.run("b2@0");
        assertEquals(List.of("1u", "2"), t.forwardedBarriers());
        assertEquals(List.of(1L, 2L), t.acknowledged());
        assertEquals(List.of(1L), t.coordinator.switched);
    }

    // Flink: testAlignedNeverTimeoutableCheckpoint -- while the timer does not fire, a long
    // alignment stays aligned: no snapshot, no switch, nothing persisted.
    @Test
    void withoutTheTimerTheAlignmentStaysAligned() {
        OneTask t = task(2).run("b1@0");
        for (int i = 0; i < 200; i++) {
            t.run("r1");
        }
        assertFalse(t.timeoutEnabled());
        assertEquals(List.of(), t.forwardedBarriers());
        t.run("b1@1");
        assertEquals(List.of("1"), t.forwardedBarriers());
        assertEquals(Map.of(1L, List.of()), t.persisted());
    }

    // Flink: testTimeoutAlignment, testActiveTimeoutAlignmentOnAnnouncement,
    // testActiveTimeoutBeforeFirstAnnouncementPassiveTimeout -- both barriers wait behind records;
    // the timeout makes both overtake: one unaligned checkpoint, the overtaken records persisted
    // and then processed as usual.
    @Test
    void barriersWaitingBehindRecordsOvertakeThemOnTheTimeout() {
        OneTask t = task(2).run("+r0 +r0 +b1@0 +r1 +b1@1");
        assertEquals(List.of(), t.forwardedBarriers());
        t.run("t1");
        assertEquals(List.of(), t.forwardedBarriers(), "both barriers now head their inputs, unaligned");
        t.run("T0");
        assertEquals(List.of("1u"), t.forwardedBarriers(), "the first prioritized barrier takes the snapshot");
        t.run("T1");
        assertEquals(Map.of(1L, List.of("0:0", "0:1", "1:0")), t.persisted());
        t.run("T0 T0 T1");
        assertEquals(Map.of(1L, List.of("0:0", "0:1", "1:0")), t.persisted(), "persisted once, not again when processed");
        t.assertAllRecordsPassedOn();
    }

    // Flink: testTimeoutAlignmentAfterProcessingBarrier -- the barrier of a third input was taken
    // first, so the timeout is active: snapshot now, and the barriers queued on the other inputs
    // are prioritized (AlternatingCollectingBarriers.alignmentTimeout calls
    // prioritizeAllAnnouncements): both come next, ahead of the records they overtook, which are
    // persisted then and processed after them; input 2 persists nothing. (without this
    // the switched task waited for those barriers behind their backlog.)
    @Test
    void activeTimeoutPrioritizesTheBarriersQueuedOnThePendingInputs() {
        OneTask t = task(3).run("b1@2 +r0 +r0 +b1@0 +r1 +b1@1");
        assertEquals(Set.of(2), t.blocked());
        t.run("t1");
        assertEquals(List.of("1u"), t.forwardedBarriers());
        assertEquals(Set.of(), t.blocked());
        assertEquals("1u", t.head(0), "the barrier overtook input 0's two records");
        assertEquals("1u", t.head(1), "the barrier overtook input 1's record");
        t.run("T0 T1");
        assertEquals(List.of(1L), t.acknowledged(), "complete before any overtaken record is processed");
        assertEquals(Map.of(1L, List.of("0:0", "0:1", "1:0")), t.persisted());
        t.run("T0 T0 T1");
        assertEquals(Map.of(1L, List.of("0:0", "0:1", "1:0")), t.persisted(), "persisted once, not again when processed");
        t.assertAllRecordsPassedOn();
    }

    // Flink: testPassiveTimeoutAlignmentOnAnnouncement, AlternatingCollectingBarriersUnaligned's
    // announcementReceived -- the task switched on input 0's barrier; input 1's barrier is queued
    // only afterwards, behind two records: its announcement converts it to a priority event at
    // once (our PrioritizeBarrier), the two records persisted, the checkpoint completing without
    // waiting for them.
    @Test
    void aBarrierQueuedAfterTheSwitchIsPrioritized() {
        OneTask t = task(2).run("b1@0 t1 +r1 +r1");
        assertFalse(t.prioritizeEnabled(1), "no barrier queued yet");
        t.run("+b1@1");
        assertTrue(t.prioritizeEnabled(1));
        assertFalse(t.prioritizeEnabled(0), "input 0 delivered its barrier");
        t.run("p1");
        assertEquals("1u", t.head(1));
        assertFalse(t.prioritizeEnabled(1), "once at the head there is nothing to overtake");
        t.run("T1");
        assertEquals(List.of(1L), t.acknowledged());
        assertEquals(Map.of(1L, List.of("1:0", "1:1")), t.persisted());
        t.run("T1 T1");
        t.assertAllRecordsPassedOn();
        assertThrows(IllegalStateException.class, () -> t.run("p1"), "not enabled any more");
    }

    // Not in Flink's test (its announcements are per barrier, not per state): after a passive
    // timeout the task awaits checkpoint 1 unaligned; a barrier of 1 queued later on another input
    // is prioritized as it comes, before the task has taken any barrier of 1.
    @Test
    void aBarrierQueuedAfterAPassiveTimeoutIsPrioritized() {
        OneTask t = task(2).run("+r0 +b1@0 t1 +r1 +b1@1");
        assertTrue(t.prioritizeEnabled(1));
        t.run("p1 T0 T1");
        assertEquals(List.of(1L), t.acknowledged());
        assertEquals(Map.of(1L, List.of("0:0", "1:0")), t.persisted());
    }

    // An aligned alignment never prioritizes: PrioritizeBarrier is for a task handling unaligned.
    @Test
    void noPrioritizingWhileAligning() {
        OneTask t = task(2).run("b1@0 +r1 +b1@1");
        assertFalse(t.prioritizeEnabled(1));
        assertThrows(IllegalStateException.class, () -> t.run("p1"));
    }

    // Flink: testTimeoutAlignmentOnFirstBarrier -- barriers queued on both inputs, nothing ahead:
    // the switched checkpoint completes at once with no channel state.
    @Test
    void aSwitchWithNothingInFlightPersistsNothing() {
        OneTask t = task(2).run("+b1@0 +b1@1 t1 T0 T1");
        assertEquals(List.of(1L), t.acknowledged());
        assertEquals(Map.of(1L, List.of()), t.persisted());
        assertEquals(List.of(1L), t.coordinator.switched);
    }

    // Flink: testTimeoutAlignmentBeforeFirstBarrier -- the timeout expired before the first
    // barrier came: the checkpoint goes unaligned as soon as that barrier is in the input.
    @Test
    void timeoutExpiredBeforeTheFirstBarrier() {
        OneTask t = task(2).run("~1");
        assertFalse(t.timeoutEnabled(), "no barrier of 1 anywhere: nothing to time out");
        t.run("+b1@0");
        assertTrue(t.timeoutEnabled());
        t.run("t1 T0");
        assertEquals(List.of("1u"), t.forwardedBarriers());
        assertEquals(List.of(), t.acknowledged(), "input 1 still owes its barrier");
        t.run("r1 b1@1");
        assertEquals(Map.of(1L, List.of("1:0")), t.persisted());
    }

    // Flink: testTimeoutAlignmentWhenLocalBarrierFirst -- checkpoint 1 aligned on time; for 2 the
    // timer has not fired when its first barrier is taken, so it aligns; once it fires, the switch.
    @Test
    void theTimeoutCountsFromTheCheckpointNotFromTheLastOne() {
        OneTask t = task(3).run("b1@0 b1@1 b1@2");
        assertEquals(List.of("1"), t.forwardedBarriers());
        t.run("b2@0");
        assertFalse(t.timeoutEnabled());
        t.run("+r1 +b2@1 t2");
        assertEquals(List.of("1", "2u"), t.forwardedBarriers());
        t.run("T1 T1 b2@2");
        assertEquals(Map.of(1L, List.of(), 2L, List.of("1:0")), t.persisted());
    }

    // Flink: testActiveTimeoutAfterLocalBarrierPassiveTimeout, testActiveTimeoutAfterAnnouncementPassiveTimeout
    // -- input 0 delivered its barrier, a record follows it; input 1 has a record and its barrier
    // queued. The switch persists input 1's record only (input 0's follows its barrier: after the
    // cut), and a second firing of the timer does nothing.
    @Test
    void theSwitchPersistsOnlyThePendingInputsAndHappensOnce() {
        OneTask t = task(2).run("b1@0 +r0 +r1 +b1@1 t1");
        assertFalse(t.timeoutEnabled(), "already unaligned: the timer firing again changes nothing");
        t.run("T0 T1 T1");
        assertEquals(Map.of(1L, List.of("1:0")), t.persisted());
        assertEquals(List.of(1L), t.coordinator.switched);
        t.assertAllRecordsPassedOn();
    }

    // Flink: testTimeoutAlignmentOnAnnouncementForSecondCheckpoint -- after an aligned first
    // checkpoint, the second one's queued barriers time out and overtake.
    @Test
    void theSecondCheckpointTimesOutAfterAnAlignedFirst() {
        OneTask t = task(2).run("b1@0 b1@1 +r0 +b2@0 +r1 +b2@1 t2 T0 T1");
        assertEquals(List.of("1", "2u"), t.forwardedBarriers());
        assertEquals(Map.of(1L, List.of(), 2L, List.of("0:0", "1:0")), t.persisted());
    }

    // Flink: testPassiveTimeoutAlignmentOnAnnouncement, testActiveTimeoutAlignmentOnFirstBarrier
    // -- one barrier taken, the timer fires: the snapshot is taken then, unaligned; the other
    // input's records until its barrier are persisted.
    @Test
    void activeTimeoutOnTheFirstBarrier() {
        OneTask t = task(2).run("b1@0 t1");
        assertEquals(List.of("1u"), t.forwardedBarriers());
        assertEquals(List.of(), t.acknowledged());
        t.run("r1 r1 b1@1 r1");
        assertEquals(Map.of(1L, List.of("1:0", "1:1")), t.persisted());
    }

    // Flink: testAllChannelsUnblockedAfterAlignmentTimeout
    @Test
    void everyInputIsUnblockedByTheSwitch() {
        OneTask t = task(2).run("b1@0");
        assertEquals(Set.of(0), t.blocked());
        t.run("t1");
        assertEquals(Set.of(), t.blocked());
        t.run("r0");
        assertEquals(List.of(), t.persisted().getOrDefault(1L, List.of()));
    }

    // Flink: testNoActiveTimeoutAlignmentAfterLastBarrier
    @Test
    void noTimeoutAfterTheLastBarrier() {
        OneTask t = task(2).run("b1@0 b1@1 ~1");
        assertFalse(t.timeoutEnabled());
        assertThrows(IllegalStateException.class, () -> t.task.timeoutAlignment(1));
        assertEquals(List.of("1"), t.forwardedBarriers());
        assertEquals(List.of(), t.coordinator.switched);
    }

    // Flink: testNoActiveTimeoutAlignmentAfterAbort
    @Test
    void noTimeoutAfterTheCheckpointWasCancelled() {
        OneTask t = task(2).run("b1@0 x1@1 ~1");
        assertFalse(t.timeoutEnabled());
        assertEquals(List.of(), t.forwardedBarriers());
        assertEquals(List.of(1L), t.cancelled());
    }

    // Flink: testNoActiveTimeoutAlignmentAfterClose -- the task restarted (our close: a failure
    // and restore) before the timer fired.
    @Test
    void noTimeoutAfterTheTaskWasRestored() {
        OneTask t = task(2).run("b1@0");
        t.task.restore(null);
        t.run("~1");
        assertFalse(t.timeoutEnabled());
        assertEquals(List.of(), t.forwardedBarriers());
    }

    // Flink: testActiveTimeoutAfterBarrierPassiveTimeout -- input 0's records were processed
    // before the timeout, then its barrier (now at the head) is pulled; input 1's record and
    // barrier come later and the record is persisted.
    @Test
    void passiveTimeoutAfterTheRecordsAheadWereProcessed() {
        OneTask t = task(2).run("+r0 +r0 +b1@0 T0 T0 t1 T0");
        assertEquals(List.of("1u"), t.forwardedBarriers());
        t.run("r1 b1@1");
        assertEquals(Map.of(1L, List.of("1:0")), t.persisted());
    }

    // Flink: testTimeoutAlignmentOnUnalignedCheckpoint -- aligning 1 on input 0, an unaligned
    // barrier of 1 (it timed out upstream) overtakes two records on input 1: the task handles 1
    // unaligned at once; those two records are the sender's part of input 1's state (it persisted
    // what its barrier overtook), so the receiver persists nothing more for them. Not a timeout here.
    @Test
    void anUnalignedBarrierFromUpstreamSwitchesTheTask() {
        OneTask t = task(3).run("b1@0 +r1 +r1 u1@1");
        assertEquals(List.of("1u"), t.forwardedBarriers());
        assertEquals(List.of(1L), t.coordinator.switched, "no timeout here, but the task handles 1 unaligned");
        assertEquals(2, t.queued(1));
        t.run("T1 T1 b1@2");
        assertEquals(Map.of(1L, List.of()), t.persisted());
    }

    // Flink: testTimeoutAlignmentAfterReceivedEndOfPartition -- after the timeout, the other two
    // inputs deliver a record and end: the records are persisted, the ends complete it, unaligned.
    @Test
    void inputsEndingAfterTheSwitchComplete() {
        OneTask t = task(3).run("b1@0 t1 r1 e1 r2 e2");
        assertEquals(List.of(1L), t.acknowledged());
        assertEquals(List.of("1u"), t.forwardedBarriers());
        assertEquals(Map.of(1L, List.of("1:0", "2:0")), t.persisted());
    }

    // Flink: testStartNewCheckpointViaAnnouncement -- a queued barrier, an input ending, then the
    // barriers: aligned, completed once (no timer).
    @Test
    void anInputEndingDuringTheAlignmentWithoutTimeout() {
        OneTask t = task(3).run("+b1@0 e1 T0 b1@2");
        assertEquals(List.of(1L), t.acknowledged());
        assertEquals(List.of("1"), t.forwardedBarriers());
    }

    // Flink: testSwitchToUnalignedByUpstream -- checkpoint 1's aligned barrier waits in input 0;
    // its unaligned barrier arrives on input 1: the task starts 1 unaligned at once, and input
    // 0's record ahead of its barrier is persisted when taken.
    @Test
    void anUnalignedBarrierFromUpstreamStartsTheCheckpointUnaligned() {
        OneTask t = task(2).run("+r0 +b1@0 u1@1");
        assertEquals(List.of("1u"), t.forwardedBarriers());
        t.run("T0 T0");
        assertEquals(List.of(1L), t.acknowledged());
        assertEquals(Map.of(1L, List.of("0:0")), t.persisted());
    }

    // (the state between a passive timeout and its barrier, AlternatingWaitingForFirstBarrierUnaligned)
    // Flink: testNoActiveTimeoutAlignmentAfterAbort, for a passive timeout -- aborted after its
    // barriers were prioritized: the kept channel state is dropped, the barrier then obsolete.
    @Test
    void anAbortAfterAPassiveTimeoutDropsWhatItKept() {
        OneTask t = task(1).run("+r0 +b1@0 t1 n1");
        assertEquals(List.of(1L), t.cancelled());
        t.run("T0 T0");
        assertEquals(List.of(), t.acknowledged());
        assertEquals(List.of(), t.forwardedBarriers());
        t.run("b2@0");
        assertEquals(Map.of(2L, List.of()), t.persisted(), "nothing of 1's kept state leaks into 2");
    }

    // Flink: testChannelResetOnNewBarrier -- a savepoint aligns on input 0 (blocked, a record
    // behind its barrier); an unaligned barrier of a newer checkpoint on input 1 subsumes it; the
    // record, now before checkpoint 2's barrier on input 0, is persisted for 2.
    @Test
    void aNewerUnalignedCheckpointSubsumesAnAligningSavepoint() {
        OneTask t = task(2).run("s1@0 +r0 u2@1");
        assertEquals(List.of(1L), t.declined());
        t.run("T0 b2@0");
        assertEquals(List.of(2L), t.acknowledged());
        assertEquals(Map.of(2L, List.of("0:0")), t.persisted());
    }

    // Flink: testPreviousHandlerReset -- savepoints (blocking their input) and unaligned
    // checkpoints (blocking none) alternate, each newer one subsuming the one before.
    @Test
    void savepointsAndUnalignedCheckpointsAlternate() {
        OneTask t = task(2);
        for (long c = 1; c <= 4; c++) {
            boolean savepoint = c % 2 == 1;
            int input = savepoint ? 0 : 1;
            t.run((savepoint ? "s" : "u") + c + "@" + input);
            assertEquals(savepoint ? Set.of(0) : Set.of(), t.blocked(), "checkpoint " + c);
            assertEquals(c, t.task.handlerState().checkpointId());
            assertEquals(List.of(), t.acknowledged());
        }
    }

    // Flink: testSavepointHandling in alternating mode -- a savepoint aligns, its timer firing
    // changes nothing (FLINK-33693: a savepoint must never switch), and it persists nothing.
    @Test
    void aSavepointNeverSwitches() {
        OneTask t = task(2).run("s123@0 ~123");
        assertFalse(t.timeoutEnabled());
        assertThrows(IllegalStateException.class, () -> t.task.timeoutAlignment(123));
        t.run("s123@1");
        assertEquals(List.of("123s"), t.forwardedBarriers());
        assertEquals(Map.of(123L, List.of()), t.persisted());
        assertEquals(Set.of(), t.blocked());
    }

    // Flink: testSavepointHandling (passive half) -- a savepoint barrier waiting behind records is
    // never pulled ahead, however old.
    @Test
    void aWaitingSavepointBarrierIsNotTimedOut() {
        OneTask t = task(2).run("+r0 +s5@0 ~5");
        assertFalse(t.timeoutEnabled());
    }

    // Flink: testCheckpointHandling in alternating mode -- an unaligned barrier snapshots on the
    // first input; the second completes it.
    @Test
    void anUnalignedCheckpointSnapshotsOnItsFirstBarrier() {
        OneTask t = task(2).run("u123@0");
        assertEquals(List.of("123u"), t.forwardedBarriers());
        t.run("u123@1");
        assertEquals(List.of(123L), t.acknowledged());
    }
}
