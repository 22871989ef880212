package dev.consistentcut.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Tasks of the job {@code s1, s2 -> count -> sink}, all FORWARD/HASH with parallelism 1, driven
 * step by step by hand.
 */
class TaskTest {

    private final TwoSourceCountJob job = new TwoSourceCountJob(2);
    private final PhysicalGraph graph = job.graph;
    private final Map<String, Channel> channels = job.channels;
    private final FakeGateway gateway = job.gateway;
    private final List<String> actions = new ArrayList<>();

    private SourceTask source(String id, BarrierMode mode) {
        return new SourceTask(id, graph, channels, mode, gateway, e -> actions.add(e.name() + " " + ((RunEvent.TaskEvent) e).task()));
    }

    private OperatorTask operator(String id, BarrierMode mode) {
        return new OperatorTask(id, graph, channels, mode, gateway, RunObserver.NONE, true);
    }

    private static RecordId s1(long offset) {
        return new RecordId("s1#0", offset);
    }

    private static List<Step> steps(Task t) {
        List<Step> out = new ArrayList<>();
        t.enabledSteps(out);
        return out;
    }

    @Test
    void sourceEmitsInOffsetOrderUntilTheChannelIsFull() {
        SourceTask s = source("s1#0", BarrierHandlers.aligned());
        assertEquals(List.of(new Step(Action.EMIT_RECORD, "s1#0", -1, 0)), steps(s));
        s.emitRecord();
        s.emitRecord();
        assertEquals(2, s.offset());
        assertFalse(s.canEmitRecord(), "capacity 2 reached: backpressure");
        assertEquals(List.of(), steps(s));
        IllegalStateException e = assertThrows(IllegalStateException.class, s::emitRecord);
        assertEquals("task s1#0: EmitRecord is not enabled at offset 2 (a channel on the route is full)", e.getMessage());
        assertEquals(new Record(s1(0), 1, 1), channels.get("s1#0->count#0").poll());
        s.emitRecord();
        assertTrue(s.exhausted());
        assertEquals(List.of("EmitRecord s1#0", "EmitRecord s1#0", "EmitRecord s1#0"), actions, "the observer saw each action once");
    }

    @Test
    void alignedSourceBarrierGoesBehindTheQueuedRecords() {
        SourceTask s = source("s1#0", BarrierHandlers.aligned());
        s.emitRecord();
        gateway.nextBarrier.put("s1#0", 1L);
        gateway.triggerTimes.put(1L, 10L);
        gateway.now = 15;
        assertTrue(steps(s).contains(new Step(Action.INJECT_BARRIER, "s1#0", -1, 1)));
        s.injectBarrier(1);
        Channel out = channels.get("s1#0->count#0");
        assertEquals(List.of(new Record(s1(0), 1, 1), new Barrier(1)), out.contents());
        Acknowledgement ack = gateway.acks.get(0);
        assertEquals(1, ack.sourceOffset());
        assertEquals(5, ack.startDelay());
        assertEquals(List.of(), ack.outputChannelState().values().stream().flatMap(List::stream).toList());
        assertThrows(IllegalStateException.class, () -> s.injectBarrier(1), "each barrier once");
    }

    @Test
    void unalignedSourceBarrierOvertakesAndHandsOverTheOvertakenRecords() {
        SourceTask s = source("s1#0", BarrierHandlers.unaligned());
        s.emitRecord();
        s.emitRecord();
        gateway.nextBarrier.put("s1#0", 3L);
        s.injectBarrier(3);
        Channel out = channels.get("s1#0->count#0");
        assertEquals(new Barrier(3), out.peek());
        Acknowledgement ack = gateway.acks.get(0);
        assertEquals(2, ack.sourceOffset());
        assertEquals(List.of(new Record(s1(0), 1, 1), new Record(s1(1), 2, 1)), ack.outputChannelState().get(out.id()));
    }

    @Test
    void rewindRereadsFromTheOffset() {
        SourceTask s = source("s1#0", BarrierHandlers.aligned());
        s.emitRecord();
        s.emitRecord();
        s.rewind(1);
        channels.get("s1#0->count#0").restore(List.of());
        s.emitRecord();
        assertEquals(new Record(s1(1), 2, 1), channels.get("s1#0->count#0").poll());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.rewind(4));
        assertEquals("task s1#0: cannot rewind to offset 4, the log has offsets 0..2", e.getMessage());
    }

    @Test
    void operatorProcessesCountsInItsLedgerAndForwards() {
        SourceTask s = source("s1#0", BarrierHandlers.aligned());
        OperatorTask count = operator("count#0", BarrierHandlers.aligned());
        s.emitRecord();
        assertEquals(List.of(new Step(Action.PROCESS_RECORD, "count#0", 0, 0)), steps(count));
        count.processRecord(0);
        assertEquals(Map.of(s1(0), 1), count.processed());
        assertEquals(new Record(s1(0), 1, 1), channels.get("count#0->sink#0").peek(), "count 1 for key 1");
        assertThrows(IllegalStateException.class, () -> count.processRecord(0), "input now empty");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> count.processRecord(5));
        assertEquals("task count#0: ProcessRecord on input 5, but it has inputs 0..1", e.getMessage());
    }

    @Test
    void operatorWaitsWhileItsOutputIsFull() {
        SourceTask s = source("s1#0", BarrierHandlers.aligned());
        OperatorTask count = operator("count#0", BarrierHandlers.aligned());
        s.emitRecord();
        s.emitRecord();
        count.processRecord(0);
        count.processRecord(0);
        s.emitRecord();
        // count -> sink (capacity 2) is full; one record waits in s1 -> count.
        assertEquals(2, channels.get("count#0->sink#0").recordCount());
        assertFalse(count.canProcessRecord(0));
        assertEquals(List.of(), steps(count));
    }

    @Test
    void alignedOperatorBlocksAnInputUntilTheLastBarrierThenSnapshotsForwardsAndAcks() {
        SourceTask s1 = source("s1#0", BarrierHandlers.aligned());
        SourceTask s2 = source("s2#0", BarrierHandlers.aligned());
        OperatorTask count = operator("count#0", BarrierHandlers.aligned());
        gateway.nextBarrier.put("s1#0", 1L);
        gateway.nextBarrier.put("s2#0", 1L);
        s1.emitRecord();
        s1.injectBarrier(1);
        s1.emitRecord();                 // after the barrier: must not be in the snapshot
        s2.emitRecord();
        count.processRecord(0);          // s1@0, before the barrier
        count.receiveBarrier(0);
        assertTrue(count.isBlocked(0));
        assertFalse(count.canProcessRecord(0), "s1@1 waits behind the blocked input");
        count.processRecord(1);          // s2@0 still flows
        s2.injectBarrier(1);
        count.receiveBarrier(1);         // last barrier: snapshot, forward, unblock, ack
        assertFalse(count.isBlocked(0));
        Acknowledgement ack = gateway.acks.get(2);
        assertEquals("count#0", ack.task());
        assertEquals(Map.of(s1(0), 1, new RecordId("s2#0", 0), 1), ack.snapshot().processed());
        assertTrue(ack.inputChannelState().isEmpty() && ack.outputChannelState().isEmpty(), "aligned persists nothing");
        assertInstanceOf(Barrier.class, channels.get("count#0->sink#0").contents().get(2), "barrier in-band after 2 records");
        channels.get("count#0->sink#0").poll(); // make room downstream
        count.processRecord(0);
        assertEquals(1, count.processed().get(s1(1)));
    }

    @Test
    void unalignedOperatorPersistsInFlightInputsAndOvertakenOutputs() {
        SourceTask s1 = source("s1#0", BarrierHandlers.unaligned());
        SourceTask s2 = source("s2#0", BarrierHandlers.unaligned());
        OperatorTask count = operator("count#0", BarrierHandlers.unaligned());
        gateway.nextBarrier.put("s1#0", 1L);
        gateway.nextBarrier.put("s2#0", 1L);
        s2.emitRecord();
        count.processRecord(1);          // s2@0 processed before the cut, now queued towards the sink
        s2.emitRecord();                 // s2@1 in flight
        s1.injectBarrier(1);
        count.receiveBarrier(0);         // first barrier: snapshot, overtake s2@0 on the output
        assertFalse(count.isBlocked(0) || count.isBlocked(1));
        count.processRecord(1);          // s2@1, taken before s2's barrier: persisted
        s2.injectBarrier(1);
        count.receiveBarrier(1);         // last barrier: ack
        Acknowledgement ack = gateway.acks.get(2);
        assertEquals(Map.of(new RecordId("s2#0", 0), 1), ack.snapshot().processed());
        assertEquals(List.of(new RecordId("s2#0", 1)),
                ack.inputChannelState().get("s2#0->count#0").stream().map(Record::id).toList());
        assertEquals(List.of(new RecordId("s2#0", 0)),
                ack.outputChannelState().get("count#0->sink#0").stream().map(Record::id).toList());
        assertEquals(new Barrier(1), channels.get("count#0->sink#0").peek(), "the barrier overtook");
    }

    @Test
    void newerBarrierWhileHandlingAnOlderOneSubsumesItAndDeclinesIt() {
        OperatorTask count = operator("count#0", BarrierHandlers.unaligned());
        channels.get("s1#0->count#0").putBarrier(new Barrier(1));
        channels.get("s2#0->count#0").putBarrier(new Barrier(2));
        count.receiveBarrier(0);
        count.receiveBarrier(1);
        assertEquals(List.of(1L), gateway.declined, "checkpoint 1 can no longer complete here");
        assertEquals(2, count.handlerState().checkpointId());
        assertEquals(List.of(new Barrier(1), new dev.consistentcut.message.CancelBarrier(1), new Barrier(2)),
                channels.get("count#0->sink#0").contents(), "barrier 1, its cancellation, then barrier 2, all overtaking");
    }

    @Test
    void operatorThatChangesTheKeyIsStopped() {
        PhysicalGraph rekey = PhysicalGraph.of(JobGraph.builder()
                .source("s", InMemorySourceLog.ofKeys(1))
                .operator("bad", 1, () -> new dev.consistentcut.operator.Operator() {
                    @Override
                    public Record process(int input, Record r) {
                        return new Record(r.id(), r.key() + 1, r.value());
                    }

                    @Override
                    public byte[] snapshotState() {
                        return new byte[0];
                    }

                    @Override
                    public void restoreState(byte[] state) {
                    }
                })
                .edge("s", "bad", Partitioning.FORWARD)
                .build());
        Map<String, Channel> ch = new LinkedHashMap<>();
        rekey.channels().forEach(c -> ch.put(c.id(), new Channel(c.id(), 4)));
        new SourceTask("s#0", rekey, ch, BarrierHandlers.aligned(), gateway, RunObserver.NONE).emitRecord();
        OperatorTask bad = new OperatorTask("bad#0", rekey, ch, BarrierHandlers.aligned(), gateway, RunObserver.NONE, true);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> bad.processRecord(0));
        assertTrue(e.getMessage().contains("it must keep the id and key"), e.getMessage());
    }

    @Test
    void restoreBringsBackStateAndLedgerAndResetsTheHandler() {
        SourceTask s1 = source("s1#0", BarrierHandlers.aligned());
        OperatorTask count = operator("count#0", BarrierHandlers.aligned());
        s1.emitRecord();
        count.processRecord(0);
        gateway.nextBarrier.put("s1#0", 1L);
        s1.injectBarrier(1);
        count.receiveBarrier(0);
        assertTrue(count.isBlocked(0));
        var snapshot = new dev.consistentcut.checkpoint.TaskSnapshot(count.operator().snapshotState(), count.processed());
        s1.emitRecord();
        count.restore(snapshot);
        assertFalse(count.isBlocked(0));
        assertEquals(Map.of(s1(0), 1), count.processed());
        assertEquals(1, ((KeyedCount) count.operator()).count(1));
        count.restore(null);
        assertEquals(Map.of(), count.processed());
        assertEquals(0, ((KeyedCount) count.operator()).count(1));
    }
}
