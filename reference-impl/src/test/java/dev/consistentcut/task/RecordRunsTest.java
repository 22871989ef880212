package dev.consistentcut.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.message.Barrier;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs of records (the hot path of buffered channels, {@link Task#performAgain}): a task repeats a chosen
 * {@code EmitRecord} or {@code ProcessRecord} only while that step stays enabled and nothing that
 * must not wait is there, and each repetition is the spec's step, told to the observer once per
 * record. Each test stops a run at one of the places where a run must stop.
 */
@Timeout(10)
class RecordRunsTest {

    private final TwoSourceCountJob job = new TwoSourceCountJob(4);

    private SourceTask source(String id) {
        return new SourceTask(id, job.graph, job.channels, BarrierHandlers.aligned(), job.gateway, job.observer, true);
    }

    private OperatorTask count(BarrierMode mode) {
        return new OperatorTask("count#0", job.graph, job.channels, mode, job.gateway, job.observer, true);
    }

    private long events(String action) {
        return job.events.stream().filter(e -> e.name().equals(action)).count();
    }

    @Test
    void aSourceRunStopsAtTheEndOfItsLogAndTellsEachRecord() {
        SourceTask s1 = source("s1#0"); // keys 1, 2, 3
        assertEquals(3, s1.emitRecords(10));
        assertEquals(3, s1.offset());
        assertEquals(3, events("EmitRecord"));
        assertEquals(0, s1.emitRecords(10), "nothing left to emit");
    }

    @Test
    void aSourceRunStopsAtItsBoundAndAtAFullChannel() {
        SourceTask s1 = source("s1#0");
        assertEquals(1, s1.emitRecords(1));
        TwoSourceCountJob small = new TwoSourceCountJob(2);
        SourceTask t = new SourceTask("s1#0", small.graph, small.channels, BarrierHandlers.aligned(), small.gateway,
                small.observer, true);
        assertEquals(2, t.emitRecords(10), "the channel holds two records");
        assertEquals(2, t.offset());
    }

    @Test
    void aSourceRunStopsBeforeADueBarrier() {
        SourceTask s1 = source("s1#0");
        job.gateway.nextBarrier.put("s1#0", 1L);
        job.gateway.triggerTimes.put(1L, 0L);
        assertEquals(0, s1.emitRecords(10), "the barrier is injected before the next record");
        assertEquals(0, s1.offset());
        assertEquals(Action.INJECT_BARRIER, firstEnabled(s1));
    }

    @Test
    void anOperatorRunStopsAtABarrierAtTheHead() {
        source("s1#0").emitRecords(2);
        Channel in = job.channels.get(TwoSourceCountJob.S1);
        in.putBarrier(new Barrier(1, true, false));
        OperatorTask count = count(BarrierHandlers.aligned());
        assertEquals(2, count.processRecords(0, 10));
        assertEquals(2, events("ProcessRecord"));
        assertTrue(in.peek() instanceof Barrier, "the barrier is the next step's");
        assertEquals(0, count.processRecords(0, 10));
    }

    @Test
    void anOperatorRunStopsAtItsBoundAndAtABlockedInput() {
        source("s1#0").emitRecords(3);
        OperatorTask count = count(BarrierHandlers.aligned());
        assertEquals(1, count.processRecords(0, 1));
        // Aligned: a barrier on input 1 blocks it; records behind it wait for the alignment.
        Channel s2 = job.channels.get(TwoSourceCountJob.S2);
        s2.putBarrier(new Barrier(1, true, false));
        job.gateway.triggerTimes.put(1L, 0L);
        source("s2#0").emitRecords(2);
        count.receiveBarrier(1);
        assertTrue(count.isBlocked(1));
        assertEquals(0, count.processRecords(1, 10), "a blocked input takes no run");
        assertEquals(2, count.processRecords(0, 10), "the other input runs to its end");
    }

    @Test
    void anOperatorRunStopsAtAFullChannelOnTheRoute() {
        TwoSourceCountJob small = new TwoSourceCountJob(2);
        new SourceTask("s1#0", small.graph, small.channels, BarrierHandlers.aligned(), small.gateway,
                small.observer, true).emitRecords(2);
        new SourceTask("s2#0", small.graph, small.channels, BarrierHandlers.aligned(), small.gateway,
                small.observer, true).emitRecords(2);
        OperatorTask count = new OperatorTask("count#0", small.graph, small.channels, BarrierHandlers.aligned(),
                small.gateway, small.observer, true);
        assertEquals(2, count.processRecords(0, 10));
        assertEquals(0, count.processRecords(1, 10), "count -> sink holds two records");
        assertEquals(2, small.channels.get(TwoSourceCountJob.OUT).recordCount());
    }

    @Test
    void anUnalignedRunStopsWhereABarrierOvertakes() {
        source("s1#0").emitRecords(3);
        Channel in = job.channels.get(TwoSourceCountJob.S1);
        OperatorTask count = count(BarrierHandlers.unaligned());
        assertEquals(1, count.processRecords(0, 1));
        List<?> overtaken = in.putBarrierOvertaking(new Barrier(1, true, false));
        assertEquals(2, overtaken.size());
        assertEquals(0, count.processRecords(0, 10), "the overtaking barrier is at the head: the next choice's");
    }

    @Test
    void performAgainRepeatsOnlyRecordSteps() {
        SourceTask s1 = source("s1#0");
        OperatorTask count = count(BarrierHandlers.aligned());
        assertEquals(0, s1.performAgain(new Step(Action.INJECT_BARRIER, "s1#0", -1, 1), 10));
        assertEquals(2, s1.performAgain(new Step(Action.EMIT_RECORD, "s1#0", -1, 0), 2));
        assertEquals(0, count.performAgain(new Step(Action.RECEIVE_BARRIER, "count#0", 0, 1), 10));
        assertEquals(2, count.performAgain(new Step(Action.PROCESS_RECORD, "count#0", 0, 0), 10));
    }

    private static Action firstEnabled(Task t) {
        List<Step> steps = new java.util.ArrayList<>();
        t.enabledSteps(steps);
        return steps.get(0).action();
    }
}
