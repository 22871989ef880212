package dev.consistentcut.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What an operator task keeps between steps, and what a restore or the next checkpoint must not
 * inherit from it: the channel state of an acknowledged checkpoint, the inputs that ended, the
 * checkpoints remembered as aborted; the decline on a first barrier; a transactional sink's
 * pre-commit, commit and re-commit through the task; a barrier that overtakes a record after the
 * step was chosen (the threaded runtime's race); {@code PrioritizeBarrier} in alternating mode.
 */
@Timeout(10)
class TaskStateEdgesTest {

    private final TwoSourceCountJob job = new TwoSourceCountJob(4);
    private final PhysicalGraph graph = job.graph;
    private final Map<String, Channel> channels = job.channels;
    private final FakeGateway gateway = job.gateway;
    private final RunObserver observer = job.observer;
    private static final String S1 = TwoSourceCountJob.S1;
    private static final String S2 = TwoSourceCountJob.S2;
    private static final String OUT = TwoSourceCountJob.OUT;

    private OperatorTask count(BarrierMode mode) {
        return new OperatorTask("count#0", graph, channels, mode, gateway, observer, true);
    }

    private static Record rec(String source, long offset, long key) {
        return new Record(new RecordId(source, offset), key, 1);
    }

    private RunEvent last() {
        return job.last();
    }

    @Test
    void theNextCheckpointDoesNotInheritTheChannelStateOfTheLastOne() {
        OperatorTask count = count(BarrierHandlers.unaligned());
        channels.get(S1).putBarrier(new Barrier(1));
        count.receiveBarrier(0);
        channels.get(S2).offerRecord(rec("s2#0", 0, 4));
        count.processRecord(1);                      // persisted for checkpoint 1
        channels.get(S2).putBarrier(new Barrier(1));
        count.receiveBarrier(1);
        assertEquals(Map.of(S2, List.of(rec("s2#0", 0, 4))), gateway.acks.get(0).inputChannelState());
        channels.get(S1).putBarrier(new Barrier(2));
        channels.get(S2).putBarrier(new Barrier(2));
        count.receiveBarrier(0);
        count.receiveBarrier(1);
        Acknowledgement second = gateway.acks.get(1);
        assertEquals(2, second.checkpointId());
        assertTrue(second.inputChannelState().values().stream().allMatch(List::isEmpty),
                "nothing was in flight for checkpoint 2: " + second.inputChannelState());
    }

    @Test
    void aRestoreForgetsEndedInputsRememberedAbortsAndTheCheckpointInProgress() {
        OperatorTask count = count(BarrierHandlers.unaligned());
        count.notifyCheckpointAborted(3);            // remembered: barriers of 3 are dropped
        channels.get(S1).putEndOfPartition();
        count.receiveEndOfPartition(0);
        channels.get(S2).putBarrier(new Barrier(1));
        count.receiveBarrier(1);                     // input 0 ended: checkpoint 1 complete at once
        channels.get(S1).restore(List.of());
        channels.get(S2).restore(List.of());
        channels.get(OUT).restore(List.of());
        channels.get(S2).putBarrier(new Barrier(2));
        count.receiveBarrier(1);                     // checkpoint 2 in progress? input 0 ended: done too
        gateway.acks.clear();

        count.restore(null);
        assertFalse(count.inputEnded(0), "a restored task's inputs are open again");
        channels.get(S1).putBarrier(new Barrier(3));
        count.receiveBarrier(0);
        assertEquals(3, count.handlerState().checkpointId(), "3 is no longer known as aborted: its barrier starts it");
        channels.get(S2).offerRecord(rec("s2#0", 0, 4));
        count.processRecord(1);
        channels.get(S2).putBarrier(new Barrier(3));
        count.receiveBarrier(1);
        assertEquals(1, gateway.acks.size());
        assertEquals(Map.of(S2, List.of(rec("s2#0", 0, 4))), gateway.acks.get(0).inputChannelState());
    }

    @Test
    void aRestoreDropsTheChannelStateOfACheckpointLeftHalfway() {
        OperatorTask count = count(BarrierHandlers.unaligned());
        channels.get(S1).putBarrier(new Barrier(1));
        count.receiveBarrier(0);
        channels.get(S2).offerRecord(rec("s2#0", 0, 4));
        count.processRecord(1);                      // persisted for checkpoint 1, which never completes here
        count.restore(null);
        channels.values().forEach(c -> c.restore(List.of()));
        channels.get(S1).putBarrier(new Barrier(2));
        channels.get(S2).putBarrier(new Barrier(2));
        count.receiveBarrier(0);
        count.receiveBarrier(1);
        assertEquals(List.of(2L), gateway.acks.stream().map(Acknowledgement::checkpointId).toList());
        assertTrue(gateway.acks.get(0).inputChannelState().values().stream().allMatch(List::isEmpty),
                gateway.acks.get(0).inputChannelState().toString());
    }

    @Test
    void aTaskThatCannotTakePartDeclinesOnTheFirstBarrierAndAbandonsTheCheckpoint() {
        OperatorTask count = count(BarrierHandlers.aligned());
        gateway.declineOnFirstBarrier.add(1L);
        channels.get(S1).putBarrier(new Barrier(1));
        count.receiveBarrier(0);
        assertEquals(List.of(1L), gateway.declined, "DeclineCheckpoint(1)");
        assertFalse(count.isBlocked(0), "the declined checkpoint is not aligned");
        assertEquals(List.of(new CancelBarrier(1)), channels.get(OUT).contents(), "its cancellation goes downstream");
        channels.get(S2).putBarrier(new Barrier(1));
        count.receiveBarrier(1);
        assertEquals(List.of(1L), gateway.declineAsked, "asked once, on the first barrier only");
        assertEquals(List.of(), gateway.acks);

        // a checkpoint already known to be aborted is dropped without asking
        count.notifyCheckpointAborted(2);
        gateway.declineOnFirstBarrier.add(2L);
        channels.get(S1).putBarrier(new Barrier(2));
        count.receiveBarrier(0);
        assertEquals(List.of(1L), gateway.declineAsked);
        assertEquals(List.of(1L), gateway.declined);
    }

    @Test
    void aBarrierThatOvertookTheChosenRecordIsTakenInItsPlace() {
        OperatorTask count = count(BarrierHandlers.unaligned());
        channels.get(S1).offerRecord(rec("s1#0", 0, 1));
        assertTrue(count.canProcessRecord(0));       // the step is chosen here ...
        channels.get(S1).putBarrierOvertaking(new Barrier(1)); // ... then the sender's barrier overtakes
        count.processRecord(0);
        assertEquals("ReceiveBarrier", last().name());
        assertEquals(1, count.handlerState().checkpointId());
        assertEquals(List.of(rec("s1#0", 0, 1)), channels.get(S1).contents(), "the record waits behind");
        channels.get(S2).offerRecord(rec("s2#0", 0, 4));
        channels.get(S2).putCancelBarrier(new CancelBarrier(1), true);
        count.processRecord(1);
        assertEquals("ReceiveCancelBarrier", last().name());
        assertEquals(List.of(1L), ((RunEvent.ReceiveCancelBarrier) last()).abandoned());
    }

    @Test
    void aReceiveBarrierAfterAnAbandoningStepReportsNothingAbandoned() {
        OperatorTask count = count(BarrierHandlers.unaligned());
        channels.get(S1).putBarrier(new Barrier(1));
        count.receiveBarrier(0);
        count.notifyCheckpointAborted(1);
        assertEquals(List.of(1L), ((RunEvent.NotifyCheckpointAborted) last()).abandoned());
        channels.get(S2).putBarrier(new Barrier(2));
        count.receiveBarrier(1);
        assertEquals(List.of(), ((RunEvent.ReceiveBarrier) last()).abandoned(), "each step reports only what it abandoned");
    }

    @Test
    void aTransactionalSinkPreCommitsInItsSnapshotCommitsOnNotificationAndRecommitsOnRestore() {
        OneSinkTask sink = new OneSinkTask(gateway, observer);
        Channel in = sink.in;
        OperatorTask out = sink.out;
        in.offerRecord(rec("s#0", 0, 1));
        out.processRecord(0);
        in.putBarrier(new Barrier(1));
        out.receiveBarrier(0);                       // pre-commit into checkpoint 1's snapshot
        assertEquals(Map.of(), out.committedOutput(), "pre-committed, not committed");
        assertFalse(out.transactionsSettled());

        gateway.completions.put("out#0", new TreeSet<>(List.of(1L)));
        List<Step> steps = new ArrayList<>();
        out.enabledSteps(steps);
        assertEquals(new Step(Action.NOTIFY_CHECKPOINT_COMPLETE, "out#0", -1, 1), steps.get(0));
        out.perform(steps.get(0));
        assertEquals(new RunEvent.NotifyCheckpointComplete("out#0", 1, List.of(1L)), last());
        assertEquals(Map.of(new RecordId("s#0", 0), 1), out.committedOutput());
        assertTrue(out.transactionsSettled());
        assertTrue(gateway.completions.get("out#0").isEmpty(), "the task took the notification (completeNotified)");

        in.offerRecord(rec("s#0", 1, 2));
        out.processRecord(0);
        in.putBarrier(new Barrier(2));
        out.receiveBarrier(0);
        Acknowledgement two = gateway.acks.get(1);
        out.restore(two.snapshot());                 // the notification of 2 was lost: the restore re-commits
        assertEquals(List.of(2L), out.lastRecommitted());
        assertEquals(Map.of(new RecordId("s#0", 0), 1, new RecordId("s#0", 1), 1), out.committedOutput());

        in.offerRecord(rec("s#0", 2, 3));
        out.processRecord(0);
        in.putEndOfPartition();
        out.receiveEndOfPartition(0);                // the last transaction goes into the final state
        assertTrue(out.ended());
        assertFalse(out.transactionsSettled(), "the final checkpoint still has to commit it");
        gateway.completions.put("out#0", new TreeSet<>(List.of(3L)));
        steps.clear();
        out.enabledSteps(steps);
        assertEquals(List.of(new Step(Action.NOTIFY_CHECKPOINT_COMPLETE, "out#0", -1, 3)), steps,
                "an ended sink still takes completion notifications, and nothing else");
        out.perform(steps.get(0));
        assertTrue(out.transactionsSettled());
        assertEquals(3, out.committedOutput().size());
    }

    @Test
    void onlyATransactionalSinkIsOfferedCompletionNotifications() {
        OperatorTask count = count(BarrierHandlers.aligned());
        gateway.completions.put("count#0", new TreeSet<>(List.of(1L)));
        List<Step> steps = new ArrayList<>();
        count.enabledSteps(steps);
        assertEquals(List.of(), steps);
        assertEquals("count#0", count.id());
    }

    @Test
    void everyStepIsPerformedByItsMethod() {
        SourceTask s1 = new SourceTask("s1#0", graph, channels, BarrierHandlers.aligned(), gateway, observer, true);
        OperatorTask count = count(BarrierHandlers.aligned());
        assertEquals("s1#0", s1.id());
        s1.perform(new Step(Action.EMIT_RECORD, "s1#0", -1, 0));
        assertEquals(1, s1.offset());
        count.perform(new Step(Action.PROCESS_RECORD, "count#0", 0, 0));
        assertEquals(1, count.processed().size());
        channels.get(S1).putBarrier(new Barrier(1));
        count.perform(new Step(Action.RECEIVE_BARRIER, "count#0", 0, 1));
        assertTrue(count.isBlocked(0));
        channels.get(S2).putCancelBarrier(new CancelBarrier(1), false);
        count.perform(new Step(Action.RECEIVE_CANCEL_BARRIER, "count#0", 1, 1));
        assertFalse(count.isBlocked(0));
        channels.get(S2).putEndOfPartition();
        count.perform(new Step(Action.RECEIVE_END_OF_PARTITION, "count#0", 1, 0));
        assertTrue(count.inputEnded(1));
        gateway.news.put("count#0", new TreeSet<>(List.of(4L)));
        count.perform(new Step(Action.NOTIFY_CHECKPOINT_ABORTED, "count#0", -1, 4));
        assertEquals("NotifyCheckpointAborted", last().name());
    }

    @Test
    void alternatingWithAZeroTimeoutIsStillAlternating() {
        BarrierMode zero = BarrierHandlers.alternating(0);
        SourceTask s1 = new SourceTask("s1#0", graph, channels, zero, gateway, observer, true);
        OperatorTask count = count(zero);
        gateway.nextBarrier.put("s1#0", 1L);
        s1.injectBarrier(1);
        assertEquals(true, ((RunEvent.InjectBarrier) last()).aligned(), "InjectBarrier reports the flag with a 0 ms timeout too");
        count.receiveBarrier(0);
        assertEquals(true, ((RunEvent.ReceiveBarrier) last()).aligned());
        gateway.timedOut.add(1L);
        assertEquals(java.util.OptionalLong.of(1), count.alignmentTimeoutDue(), "a 0 ms timeout is due at once");
    }

    @Test
    void withAZeroTimeoutPrioritizeBarrierIsOfferedToo() {
        OperatorTask count = count(BarrierHandlers.alternating(0));
        channels.get(S2).offerRecord(rec("s2#0", 0, 4));
        channels.get(S1).putBarrierOvertaking(new Barrier(1, false, false));
        count.receiveBarrier(0);
        channels.get(S2).putBarrier(new Barrier(1));
        List<Step> steps = new ArrayList<>();
        count.enabledSteps(steps);
        assertEquals(List.of(new Step(Action.PRIORITIZE_BARRIER, "count#0", 1, 1), new Step(Action.PROCESS_RECORD, "count#0", 1, 0)),
                steps, "PrioritizeBarrier is listed before the inputs' steps (the threaded runtime takes it first)");
    }

    @Test
    void aBarrierQueuedBehindARecordAfterTheSwitchIsPrioritizedByItsOwnStep() {
        OperatorTask count = count(BarrierHandlers.alternating(5));
        channels.get(S2).offerRecord(rec("s2#0", 0, 4));
        channels.get(S1).putBarrierOvertaking(new Barrier(1, false, false)); // unaligned from upstream: the task switches
        count.receiveBarrier(0);
        assertFalse(count.canPrioritizeBarrier(1), "input 1's barrier is not queued yet");
        channels.get(S2).putBarrier(new Barrier(1));
        assertFalse(count.canPrioritizeBarrier(0), "input 0 delivered its barrier");
        assertFalse(count.canPrioritizeBarrier(-1));
        assertFalse(count.canPrioritizeBarrier(2));
        assertTrue(count.canPrioritizeBarrier(1));
        List<Step> steps = new ArrayList<>();
        count.enabledSteps(steps);
        assertEquals(new Step(Action.PRIORITIZE_BARRIER, "count#0", 1, 1), steps.get(0));
        count.perform(steps.get(0));
        assertEquals(new RunEvent.PrioritizeBarrier("count#0", 1, S2, 1, Map.of(S2, List.of(rec("s2#0", 0, 4)))), last());
        assertTrue(channels.get(S2).peek() instanceof Barrier, "the barrier now heads input 1");
        count.receiveBarrier(1);
        assertEquals(Map.of(S2, List.of(rec("s2#0", 0, 4))), gateway.acks.get(0).inputChannelState());
    }

    @Test
    void aBarrierOfACheckpointTheTaskHasGonePastNeverTimesOut() {
        OperatorTask count = count(BarrierHandlers.alternating(5));
        channels.get(S1).putCancelBarrier(new CancelBarrier(1), false);
        count.receiveCancelBarrier(0);               // the task abandons 1 before any barrier of it
        channels.get(S2).putBarrier(new Barrier(1)); // a late barrier of 1 waits in input 1
        gateway.timedOut.add(1L);
        assertTrue(count.alignmentTimeoutDue().isEmpty());
    }
}
