package dev.consistentcut.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.EndOfPartition;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What each task step tells its {@link RunObserver}: the parameters of the trace events
 *, which trace validation checks against the spec's {@code snapProcessed},
 * {@code snapChan} and lifecycle variables. A wrong parameter there is a trace rejected for the
 * wrong reason (or a wrong trace accepted), so each step's parameter map is asserted whole, with
 * the acknowledgement's timing (start delay, alignment duration) and the gateway calls each step
 * makes. The job is {@code s1, s2 -> count -> sink}, parallelism 1, driven by hand.
 */
@Timeout(10)
class TaskEventsTest {

    private final TwoSourceCountJob job = new TwoSourceCountJob(4);
    private final PhysicalGraph graph = job.graph;
    private final Map<String, Channel> channels = job.channels;
    private final FakeGateway gateway = job.gateway;
    private final RunObserver observer = job.observer;

    private static final String S1 = TwoSourceCountJob.S1;
    private static final String S2 = TwoSourceCountJob.S2;
    private static final String OUT = TwoSourceCountJob.OUT;

    private SourceTask source(String id, BarrierMode mode) {
        return new SourceTask(id, graph, channels, mode, gateway, observer, true);
    }

    private OperatorTask count(BarrierMode mode) {
        return new OperatorTask("count#0", graph, channels, mode, gateway, observer, true);
    }

    /** The last event, which must be a {@code type}. */
    private <E extends RunEvent> E last(Class<E> type) {
        RunEvent e = job.last();
        assertInstanceOf(type, e, "the last event");
        return type.cast(e);
    }

    private static RecordId id(String source, long offset) {
        return new RecordId(source, offset);
    }

    @Test
    void alignedStepsReportWhatTheyDidAndTheAcknowledgementTimesTheAlignment() {
        SourceTask s1 = source("s1#0", BarrierHandlers.aligned());
        SourceTask s2 = source("s2#0", BarrierHandlers.aligned());
        OperatorTask count = count(BarrierHandlers.aligned());
        s1.emitRecord();
        assertEquals(new RunEvent.EmitRecord("s1#0", id("s1#0", 0)), last(RunEvent.EmitRecord.class));
        count.processRecord(0);
        assertEquals(new RunEvent.ProcessRecord("count#0", 0, S1, id("s1#0", 0), false), last(RunEvent.ProcessRecord.class));

        gateway.nextBarrier.put("s1#0", 1L);
        gateway.nextBarrier.put("s2#0", 1L);
        gateway.triggerTimes.put(1L, 10L);
        gateway.now = 12;
        s1.injectBarrier(1);
        assertEquals(new RunEvent.InjectBarrier("s1#0", 1, 1, Map.of(), true),
                last(RunEvent.InjectBarrier.class), "aligned: the barrier goes in-band, overtaking nothing");
        assertEquals(2, gateway.acks.get(0).startDelay(), "source: from the trigger (10) to the injection (12)");

        gateway.now = 15;
        count.receiveBarrier(0);
        assertEquals(new RunEvent.ReceiveBarrier("count#0", 0, S1, 1, true, List.of(), null, null, Map.of()),
                last(RunEvent.ReceiveBarrier.class), "the first barrier of an aligned task: no snapshot yet");

        gateway.now = 20;
        s2.injectBarrier(1);
        gateway.now = 27;
        count.receiveBarrier(1);
        assertEquals(new RunEvent.ReceiveBarrier("count#0", 1, S2, 1, true, List.of(), Map.of(id("s1#0", 0), 1), null,
                Map.of()), last(RunEvent.ReceiveBarrier.class), "the last barrier snapshots");
        Acknowledgement ack = gateway.acks.get(2);
        assertEquals("count#0", ack.task());
        assertEquals(5, ack.startDelay(), "from the trigger (10) to the first barrier (15), not the last (27)");
        assertEquals(12, ack.alignmentDuration(), "from the first barrier (15) to the last (27)");
    }

    @Test
    void unalignedStepsReportTheOvertakenAndThePersistedRecords() {
        SourceTask s1 = source("s1#0", BarrierHandlers.unaligned());
        SourceTask s2 = source("s2#0", BarrierHandlers.unaligned());
        OperatorTask count = count(BarrierHandlers.unaligned());
        s2.emitRecord();
        count.processRecord(1);   // s2@0, before the cut: queued towards the sink
        s2.emitRecord();          // s2@1 in flight
        s1.emitRecord();          // s1@0 in flight, overtaken by s1's barrier
        gateway.nextBarrier.put("s1#0", 1L);
        gateway.nextBarrier.put("s2#0", 1L);
        s1.injectBarrier(1);
        assertEquals(new RunEvent.InjectBarrier("s1#0", 1, 1, Map.of(S1, List.of(new Record(id("s1#0", 0), 1, 1))), true),
                last(RunEvent.InjectBarrier.class));

        count.receiveBarrier(0);
        Record counted = new Record(id("s2#0", 0), 4, 1);
        assertEquals(new RunEvent.ReceiveBarrier("count#0", 0, S1, 1, true, List.of(), Map.of(id("s2#0", 0), 1),
                Map.of(OUT, List.of(counted)), Map.of()),
                last(RunEvent.ReceiveBarrier.class), "the first unaligned barrier snapshots and overtakes the output queue");

        count.processRecord(1);   // s2@1 before s2's barrier: persisted as channel state
        assertEquals(new RunEvent.ProcessRecord("count#0", 1, S2, id("s2#0", 1), true), last(RunEvent.ProcessRecord.class));
        s2.injectBarrier(1);
        count.receiveBarrier(1);
        assertEquals(new RunEvent.ReceiveBarrier("count#0", 1, S2, 1, true, List.of(), null, null, Map.of()),
                last(RunEvent.ReceiveBarrier.class), "the last barrier neither snapshots nor overtakes again");
        count.processRecord(0);   // s1@0 after the checkpoint: not persisted
        assertEquals(false, last(RunEvent.ProcessRecord.class).persisted());
    }

    @Test
    void aCancellationBarrierReportsTheCheckpointItAbandoned() {
        OperatorTask count = count(BarrierHandlers.unaligned());
        channels.get(S1).putBarrier(new Barrier(1));
        count.receiveBarrier(0);
        channels.get(S2).putCancelBarrier(new CancelBarrier(1), false);
        count.receiveCancelBarrier(1);
        assertEquals(new RunEvent.ReceiveCancelBarrier("count#0", 1, S2, 1, List.of(1L)),
                last(RunEvent.ReceiveCancelBarrier.class));
        channels.get(S1).putCancelBarrier(new CancelBarrier(1), false);
        count.receiveCancelBarrier(0);
        assertEquals(List.of(), last(RunEvent.ReceiveCancelBarrier.class).abandoned(), "abandoned once; the second one is obsolete");

        // A newer barrier subsumes an older one: the step reports the older one abandoned.
        channels.get(S1).putBarrier(new Barrier(2));
        count.receiveBarrier(0);
        channels.get(S2).putBarrier(new Barrier(3));
        count.receiveBarrier(1);
        assertEquals(List.of(2L), last(RunEvent.ReceiveBarrier.class).abandoned());
    }

    @Test
    void anAbortNotificationReportsWhetherItAbandonedOrRememberedTheCheckpoint() {
        OperatorTask count = count(BarrierHandlers.aligned());
        gateway.news.put("count#0", new TreeSet<>(List.of(2L)));
        List<Step> steps = new ArrayList<>();
        count.enabledSteps(steps);
        assertEquals(List.of(new Step(Action.NOTIFY_CHECKPOINT_ABORTED, "count#0", -1, 2)), steps);
        count.perform(steps.get(0));
        assertEquals(new RunEvent.NotifyCheckpointAborted("count#0", 2, List.of(), true),
                last(RunEvent.NotifyCheckpointAborted.class), "a checkpoint not reached yet is remembered, so its barriers are dropped");
        assertTrue(gateway.news.get("count#0").isEmpty(), "the task took the news (abortNotified)");
        count.notifyCheckpointAborted(2);
        assertEquals(false, last(RunEvent.NotifyCheckpointAborted.class).remembered(), "already remembered");

        channels.get(S1).putBarrier(new Barrier(3));
        count.receiveBarrier(0);
        count.notifyCheckpointAborted(3);
        assertEquals(new RunEvent.NotifyCheckpointAborted("count#0", 3, List.of(3L), false),
                last(RunEvent.NotifyCheckpointAborted.class), "the checkpoint being aligned is abandoned, not remembered");
        assertFalse(count.isBlocked(0));
        count.notifyCheckpointAborted(1);
        assertEquals(new RunEvent.NotifyCheckpointAborted("count#0", 1, List.of(), false),
                last(RunEvent.NotifyCheckpointAborted.class), "a checkpoint the task has gone past changes nothing");
    }

    @Test
    void endOfPartitionReportsTheAlignmentItCompletesAndTheEndOfTheTask() {
        OperatorTask count = count(BarrierHandlers.aligned());
        channels.get(S1).putBarrier(new Barrier(1));
        count.receiveBarrier(0);
        assertTrue(count.isBlocked(0));
        channels.get(S2).putEndOfPartition();
        count.receiveEndOfPartition(1);
        assertEquals(new RunEvent.ReceiveEndOfPartition("count#0", 1, S2, false, 1, Map.of()),
                last(RunEvent.ReceiveEndOfPartition.class),
                "the ended input counts as arrived: the alignment completes with this step");
        assertEquals(1, gateway.acks.size());
        assertTrue(count.inputEnded(1));
        assertFalse(count.inputEnded(0));
        assertFalse(count.ended());
        assertEquals(List.of(new Barrier(1)), channels.get(OUT).contents());

        channels.get(S1).putEndOfPartition();
        count.receiveEndOfPartition(0);
        assertEquals(new RunEvent.ReceiveEndOfPartition("count#0", 0, S1, true, 0, null),
                last(RunEvent.ReceiveEndOfPartition.class));
        assertTrue(count.ended());
        assertEquals(List.of(new Barrier(1), EndOfPartition.INSTANCE), channels.get(OUT).contents());
        assertEquals(1, gateway.ended.size(), "the final state went to the coordinator once");
        assertEquals("count#0", gateway.ended.get(0).task());
        List<Step> steps = new ArrayList<>();
        count.enabledSteps(steps);
        assertEquals(List.of(), steps, "an ended task has no more steps");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> count.notifyCheckpointAborted(2));
        assertEquals("task count#0: NotifyCheckpointAborted(2) after the task ended", e.getMessage());
    }

    @Test
    void aSourceReportsItsEndOfPartitionWithItsFinalOffset() {
        SourceTask s2 = source("s2#0", BarrierHandlers.aligned());
        assertFalse(s2.canSendEndOfPartition(), "the log is not read yet");
        s2.emitRecord();
        s2.emitRecord();
        assertTrue(s2.canSendEndOfPartition());
        List<Step> steps = new ArrayList<>();
        s2.enabledSteps(steps);
        assertEquals(List.of(new Step(Action.SEND_END_OF_PARTITION, "s2#0", -1, 0)), steps);
        s2.perform(steps.get(0));
        assertEquals(new RunEvent.SendEndOfPartition("s2#0", 2), last(RunEvent.SendEndOfPartition.class));
        assertTrue(s2.ended());
        assertEquals(EndOfPartition.INSTANCE, channels.get(S2).contents().get(2));
        assertEquals(1, gateway.ended.size());
        assertEquals(2, gateway.ended.get(0).sourceOffset());
        steps.clear();
        s2.enabledSteps(steps);
        assertEquals(List.of(), steps, "an ended source has no more steps");
        IllegalStateException e = assertThrows(IllegalStateException.class, s2::sendEndOfPartition);
        assertEquals("task s2#0: SendEndOfPartition is not enabled (already sent)", e.getMessage());
    }

    @Test
    void alternatingStepsReportTheBarrierFlagsAndWhatATimeoutPrioritized() {
        BarrierMode mode = BarrierHandlers.alternating(5);
        SourceTask s1 = source("s1#0", mode);
        OperatorTask count = count(mode);
        s1.emitRecord();
        gateway.nextBarrier.put("s1#0", 1L);
        s1.injectBarrier(1);
        assertEquals(new RunEvent.InjectBarrier("s1#0", 1, 1, Map.of(), true),
                last(RunEvent.InjectBarrier.class), "every checkpoint starts aligned: in-band, overtaking nothing");
        channels.get(S2).offerRecord(new Record(id("s2#0", 0), 4, 1));
        channels.get(S2).putBarrier(new Barrier(1));
        assertTrue(count.alignmentTimeoutDue().isEmpty(), "the timer has not fired");

        // Passive: no barrier taken yet; the timeout pulls both queued barriers ahead of their records.
        gateway.timedOut.add(1L);
        assertEquals(java.util.OptionalLong.of(1), count.alignmentTimeoutDue());
        List<Step> steps = new ArrayList<>();
        count.enabledSteps(steps);
        assertEquals(new Step(Action.TIMEOUT_ALIGNMENT, "count#0", -1, 1), steps.get(0), "a due timeout is listed first");
        count.perform(steps.get(0));
        RunEvent.TimeoutAlignment timeout = last(RunEvent.TimeoutAlignment.class);
        assertTrue(timeout.passive());
        assertEquals(new RunEvent.TimeoutAlignment("count#0", 1, null, null,
                Map.of(S1, List.of(new Record(id("s1#0", 0), 1, 1)), S2, List.of(new Record(id("s2#0", 0), 4, 1)))),
                timeout, "passive: nothing snapshot or overtaken yet, the records passed are the channel state");
        count.receiveBarrier(0);
        RunEvent.ReceiveBarrier first = last(RunEvent.ReceiveBarrier.class);
        assertEquals(Map.of(), first.snapshot(), "the prioritized barrier snapshots at once");
        assertEquals(Map.of(OUT, List.of()), first.overtaken(), "and goes on overtaking");
        assertFalse(first.aligned(), "the barrier's flag: prioritized, it is unaligned");
        count.receiveBarrier(1);
        assertEquals(List.of("s1#0", "count#0"), gateway.acks.stream().map(Acknowledgement::task).toList());
        assertEquals(List.of(1L), gateway.switched);
    }

    @Test
    void anActiveTimeoutReportsItsSnapshotAndTheOvertakenOutput() {
        BarrierMode mode = BarrierHandlers.alternating(5);
        OperatorTask count = count(mode);
        channels.get(S1).putBarrier(new Barrier(1));
        count.receiveBarrier(0);
        assertNull(last(RunEvent.ReceiveBarrier.class).snapshot(), "aligned so far: input 0 blocked");
        assertEquals(true, last(RunEvent.ReceiveBarrier.class).aligned());
        channels.get(S2).offerRecord(new Record(id("s2#0", 0), 4, 1));
        channels.get(S2).putBarrier(new Barrier(1));
        gateway.timedOut.add(1L);
        count.timeoutAlignment(1);
        assertFalse(last(RunEvent.TimeoutAlignment.class).passive());
        assertEquals(new RunEvent.TimeoutAlignment("count#0", 1, Map.of(), Map.of(OUT, List.of()),
                Map.of(S2, List.of(new Record(id("s2#0", 0), 4, 1)))),
                last(RunEvent.TimeoutAlignment.class), "active: snapshot now, the barrier forwarded unaligned, the pending "
                        + "input's barrier pulled ahead of its record, which is persisted");
        assertFalse(count.isBlocked(0));
        assertTrue(channels.get(S2).peek() instanceof Barrier, "the pulled barrier heads its input");
        count.receiveBarrier(1);
        Acknowledgement ack = gateway.acks.get(0);
        assertEquals(Map.of(S2, List.of(new Record(id("s2#0", 0), 4, 1))), ack.inputChannelState());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> count.timeoutAlignment(1));
        assertTrue(e.getMessage().startsWith("task count#0: TimeoutAlignment(1) is not enabled, handler "), e.getMessage());
    }

    @Test
    void theOldestQueuedBarrierIsTheOneWhoseTimeoutIsDue() {
        OperatorTask count = count(BarrierHandlers.alternating(5));
        channels.get(S1).putBarrier(new Barrier(3));
        channels.get(S2).putBarrier(new Barrier(2));
        gateway.timedOut.addAll(List.of(2L, 3L));
        assertEquals(java.util.OptionalLong.of(2), count.alignmentTimeoutDue());
        assertTrue(count(BarrierHandlers.aligned()).alignmentTimeoutDue().isEmpty(), "no timeouts outside alternating mode");
    }
}
