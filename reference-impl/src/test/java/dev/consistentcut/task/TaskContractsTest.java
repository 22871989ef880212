package dev.consistentcut.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The task package's contracts at their edges: each step refuses an input number out of range by
 * name (not by an index error from deep inside), a step a task does not have, and a step that is
 * not enabled, each with a message that names task, step and why; what the gateway's defaults
 * promise (a runtime that forgets to implement declines or end of input fails loudly); how steps
 * and tasks describe themselves in error messages and progress lines.
 */
@Timeout(10)
class TaskContractsTest {

    private final TwoSourceCountJob job = new TwoSourceCountJob(4);
    private final PhysicalGraph graph = job.graph;
    private final Map<String, Channel> channels = job.channels;
    private final FakeGateway gateway = job.gateway;

    private OperatorTask operator(String id) {
        return new OperatorTask(id, graph, channels, BarrierHandlers.aligned(), gateway, RunObserver.NONE, true);
    }

    private SourceTask source(String id, boolean endOfInput) {
        return new SourceTask(id, graph, channels, BarrierHandlers.aligned(), gateway, RunObserver.NONE, endOfInput);
    }

    @Test
    void everyStepRefusesAnInputOutOfRangeByNameAndEveryQueryAnswersFalse() {
        OperatorTask count = operator("count#0");
        // something at the head of every input, so that only the range can make a step not enabled
        channels.get("s1#0->count#0").offerRecord(new Record(new RecordId("s1#0", 0), 1, 1));
        channels.get("s2#0->count#0").putBarrier(new Barrier(1));
        assertEquals(2, count.inputCount());
        List<IntPredicate> queries = List.of(count::canProcessRecord, count::canReceiveBarrier,
                count::canReceiveCancelBarrier, count::canReceiveEndOfPartition);
        for (IntPredicate q : queries) {
            assertFalse(q.test(-1));
            assertFalse(q.test(2), "input 2 of inputs 0..1");
        }
        Map<String, java.util.function.IntConsumer> steps = Map.of("ProcessRecord", count::processRecord,
                "ReceiveBarrier", count::receiveBarrier, "ReceiveCancelBarrier", count::receiveCancelBarrier,
                "ReceiveEndOfPartition", count::receiveEndOfPartition);
        steps.forEach((name, step) -> {
            for (int input : new int[] {-1, 2}) {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> step.accept(input));
                assertEquals("task count#0: " + name + " on input " + input + ", but it has inputs 0..1", e.getMessage());
            }
        });
        assertTrue(count.canProcessRecord(0));
        assertTrue(count.canReceiveBarrier(1));
        assertFalse(count.canReceiveBarrier(0), "a record heads input 0");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> count.receiveBarrier(0));
        assertEquals("task count#0: ReceiveBarrier(0) is not enabled: head " + channels.get("s1#0->count#0").peek()
                + ", handler " + count.handlerState(), e.getMessage());
    }

    @Test
    void aTaskRefusesAStepItDoesNotHave() {
        OperatorTask count = operator("count#0");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> count.perform(new Step(Action.EMIT_RECORD, "count#0", -1, 0)));
        assertEquals("task count#0: an operator has no step EmitRecord(count#0)", e.getMessage());
        SourceTask s1 = source("s1#0", false);
        e = assertThrows(IllegalStateException.class, () -> s1.perform(new Step(Action.PROCESS_RECORD, "s1#0", 0, 0)));
        assertEquals("task s1#0: a source has no step ProcessRecord(s1#0, input 0)", e.getMessage());
    }

    @Test
    void aSourceSaysWhyAStepIsNotEnabled() {
        SourceTask plain = source("s2#0", false);
        plain.emitRecord();
        IllegalStateException e = assertThrows(IllegalStateException.class, plain::sendEndOfPartition);
        assertEquals("task s2#0: SendEndOfPartition is not enabled (the job does not run to the end of its input)", e.getMessage());
        plain.emitRecord();
        assertFalse(plain.canSendEndOfPartition(), "read, but the job does not end");
        e = assertThrows(IllegalStateException.class, plain::emitRecord);
        assertEquals("task s2#0: EmitRecord is not enabled at offset 2 (log exhausted)", e.getMessage());

        SourceTask ending = source("s1#0", true);
        ending.emitRecord();
        e = assertThrows(IllegalStateException.class, ending::sendEndOfPartition);
        assertEquals("task s1#0: SendEndOfPartition is not enabled (offset 1 of 3 read)", e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> ending.injectBarrier(1));
        assertEquals("task s1#0: InjectBarrier(1) is not enabled; next barrier: none", e.getMessage());
        gateway.nextBarrier.put("s1#0", 2L);
        e = assertThrows(IllegalStateException.class, () -> ending.injectBarrier(1));
        assertEquals("task s1#0: InjectBarrier(1) is not enabled; next barrier: 2", e.getMessage());
        assertEquals("SourceTask[s1#0, offset 1/3]", ending.toString());
    }

    @Test
    void anEndedSourceInjectsNoBarrierAndARewindReopensIt() {
        SourceTask s2 = source("s2#0", true);
        s2.emitRecord();
        s2.emitRecord();
        s2.sendEndOfPartition();
        gateway.nextBarrier.put("s2#0", 1L);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> s2.injectBarrier(1));
        assertEquals("task s2#0: InjectBarrier(1) after end of partition", e.getMessage());
        s2.perform(new Step(Action.INJECT_BARRIER, "s2#0", -1, 1));
        assertEquals(List.of(), gateway.acks, "an ended source takes a chosen InjectBarrier as nothing to do");
        s2.rewind(2);
        assertFalse(s2.ended(), "a restore to the end of the log reopens the source");
        assertTrue(s2.canSendEndOfPartition());
        s2.rewind(0);
        assertFalse(s2.exhausted());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> s2.rewind(-1));
        assertEquals("task s2#0: cannot rewind to offset -1, the log has offsets 0..1", bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s2.rewind(3));
    }

    @Test
    void aChosenInjectBarrierInjectsTheOneDueNowOrNothing() {
        SourceTask s1 = source("s1#0", false);
        s1.perform(new Step(Action.INJECT_BARRIER, "s1#0", -1, 1));
        assertEquals(List.of(), gateway.acks, "nothing due (aborted since it was chosen): nothing injected");
        gateway.nextBarrier.put("s1#0", 2L);
        s1.perform(new Step(Action.INJECT_BARRIER, "s1#0", -1, 1));
        assertEquals(List.of(2L), gateway.acks.stream().map(Acknowledgement::checkpointId).toList(),
                "the barrier due now, not the one chosen");
        assertEquals(new Barrier(2), channels.get("s1#0->count#0").peek());
    }

    @Test
    void aMissingChannelObjectIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SourceTask("s1#0", graph, Map.of(), BarrierHandlers.aligned(), gateway, RunObserver.NONE));
        assertEquals("no channel object for channel s1#0->count#0", e.getMessage());
    }

    @Test
    void tasksAndStepsDescribeThemselves() {
        OperatorTask count = operator("count#0");
        assertEquals("OperatorTask[count#0, " + count.handlerState() + "]", count.toString());
        assertFalse(count.isSink());
        assertTrue(operator("sink#0").isSink());
        assertFalse(count.isTransactional());
        assertTrue(count.transactionsSettled(), "no transactional sink: always settled");
        assertEquals(Map.of(), count.committedOutput());
        assertEquals(List.of(), count.lastRecommitted());
        assertEquals("ProcessRecord(count#0, input 1)", new Step(Action.PROCESS_RECORD, "count#0", 1, 0).toString());
        assertEquals("InjectBarrier(s1#0, 3)", new Step(Action.INJECT_BARRIER, "s1#0", -1, 3).toString());
        assertEquals("TriggerCheckpoint()", new Step(Action.TRIGGER_CHECKPOINT, null, -1, 0).toString());
        assertEquals("CompleteCheckpoint(4)", new Step(Action.COMPLETE_CHECKPOINT, null, -1, 4).toString());
        assertEquals("ReceiveBarrier(count#0, input 0, 2)", new Step(Action.RECEIVE_BARRIER, "count#0", 0, 2).toString());
    }

    @Test
    void aTransactionalSinkIsUnsettledByARecordAndNotifiedOfCompletions() {
        PhysicalGraph job = PhysicalGraph.of(JobGraph.builder()
                .source("s", InMemorySourceLog.ofKeys(1, 2))
                .operator("out", 1, () -> new TransactionalFileSink(new MemorySinkDirectory()))
                .edge("s", "out", Partitioning.FORWARD, 4)
                .build());
        Map<String, Channel> ch = new LinkedHashMap<>();
        job.channels().forEach(c -> ch.put(c.id(), new Channel(c.id(), c.capacity())));
        OperatorTask out = new OperatorTask("out#0", job, ch, BarrierHandlers.aligned(), gateway, RunObserver.NONE, true);
        out.restore(null);
        assertTrue(out.isTransactional());
        assertTrue(out.transactionsSettled());
        ch.get("s#0->out#0").offerRecord(new Record(new RecordId("s#0", 0), 1, 1));
        out.processRecord(0);
        assertFalse(out.transactionsSettled(), "the open transaction holds a record");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> operator("count#0").notifyCheckpointComplete(1));
        assertEquals("task count#0: NotifyCheckpointComplete(1), but its operator is no transactional sink", e.getMessage());
    }

    /** A gateway with only what every runtime must implement: the defaults are the contract. */
    private static final class MinimalGateway implements CoordinatorGateway {
        long now;
        long triggered;

        @Override
        public OptionalLong nextBarrierFor(String sourceTask) {
            return OptionalLong.empty();
        }

        @Override
        public void acknowledge(Acknowledgement ack) {
        }

        @Override
        public long triggerTime(long checkpointId) {
            return triggered;
        }

        @Override
        public long now() {
            return now;
        }
    }

    @Test
    void theGatewaysDefaultsRefuseWhatARuntimeMustNotForgetAndOfferNothingElse() {
        MinimalGateway g = new MinimalGateway();
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> g.declineCheckpoint("a#0", 3));
        assertEquals("task a#0 declined checkpoint 3, but this gateway has no declines", e.getMessage());
        e = assertThrows(UnsupportedOperationException.class,
                () -> g.taskEnded(Acknowledgement.ofSource("s#0", 1, 0, Map.of(), 0)));
        assertEquals("task s#0 ended, but this gateway has no end of input", e.getMessage());
        assertEquals(OptionalLong.empty(), g.nextAbortNotificationFor("a#0"));
        assertEquals(OptionalLong.empty(), g.nextCompleteNotificationFor("a#0"));
        assertFalse(g.isSavepoint(1));
        assertFalse(g.declinesOnFirstBarrier("a#0", 1));
        // the default alignment timer reads now() in nanoseconds against milliseconds
        g.triggered = 1_000_000;
        g.now = 5_999_999;
        assertFalse(g.alignmentTimedOut(1, 5), "4.999999 ms after the trigger");
        g.now = 6_000_000;
        assertTrue(g.alignmentTimedOut(1, 5), "exactly 5 ms after the trigger");
    }

    @Test
    void enabledStepsListTheCoordinatorsNewsBeforeTheInputs() {
        OperatorTask count = operator("count#0");
        channels.get("s1#0->count#0").offerRecord(new Record(new RecordId("s1#0", 0), 1, 1));
        channels.get("s2#0->count#0").putBarrier(new Barrier(1));
        gateway.news.put("count#0", new java.util.TreeSet<>(List.of(5L)));
        List<Step> steps = new ArrayList<>();
        count.enabledSteps(steps);
        assertEquals(List.of(new Step(Action.NOTIFY_CHECKPOINT_ABORTED, "count#0", -1, 5),
                new Step(Action.PROCESS_RECORD, "count#0", 0, 0),
                new Step(Action.RECEIVE_BARRIER, "count#0", 1, 1)), steps);
    }
}
