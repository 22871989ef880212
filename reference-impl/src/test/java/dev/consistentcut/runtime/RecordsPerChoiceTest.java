package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.Operator;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.FakeGateway;
import dev.consistentcut.task.RunObserver;
import dev.consistentcut.task.Step;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The threaded runtime's hot path: a chosen {@code EmitRecord} or {@code ProcessRecord}
 * is repeated while it stays enabled, at most {@link ThreadedRuntime#RECORDS_PER_CHOICE} records
 * per choice, one per choice for an operator that costs time per record; and the run's step count
 * counts every record of such a run. No outcome of a run shows the bound (it only postpones other
 * steps), so it is tested on the two static parts the workers call.
 */
@Timeout(10)
class RecordsPerChoiceTest {

    /** One source of {@code records} records, forward into one {@code sink}; channels hold 1,000 records. */
    private static Deployment deployment(int records, Supplier<? extends Operator> sink) {
        JobGraph job = JobGraph.builder().defaultCapacity(1000)
                .source("s", InMemorySourceLog.randomKeys(records, 4, 1))
                .operator("sink", 1, sink)
                .edge("s", "sink", Partitioning.FORWARD)
                .build();
        return new Deployment(PhysicalGraph.of(job), BarrierHandlers.aligned(), new FakeGateway(), RunObserver.NONE,
                true, false, 1, dev.consistentcut.channel.BufferEncoding.REFERENCES, Runnable::run,
                dev.consistentcut.checkpoint.MaterialisedUploads.NONE, Runnable::run);
    }

    @Test
    void onlyAnOperatorThatCostsTimePerRecordTakesOneRecordPerChoice() {
        Deployment fast = deployment(1, () -> new RecordingSink(0));
        assertEquals(ThreadedRuntime.RECORDS_PER_CHOICE, ThreadedRuntime.recordsPerChoice(fast.tasks.get("s#0")), "a source");
        assertEquals(ThreadedRuntime.RECORDS_PER_CHOICE, ThreadedRuntime.recordsPerChoice(fast.tasks.get("sink#0")),
                "a sink without a cost per record");
        assertEquals(ThreadedRuntime.RECORDS_PER_CHOICE,
                ThreadedRuntime.recordsPerChoice(deployment(1, KeyedCount::new).tasks.get("sink#0")), "an operator");
        assertEquals(1, ThreadedRuntime.recordsPerChoice(deployment(1, () -> new RecordingSink(1)).tasks.get("sink#0")),
                "1 ns per record is a cost: its pause follows each record");
        assertEquals(128, ThreadedRuntime.RECORDS_PER_CHOICE);
    }

    @Test
    void aChosenRecordStepRepeatsUpToTheBoundWhileItStaysEnabled() {
        Deployment d = deployment(300, () -> new RecordingSink(0));
        var source = d.tasks.get("s#0");
        Step emit = new Step(Action.EMIT_RECORD, "s#0", -1, 0);
        assertEquals(128, ThreadedRuntime.performChosen(source, emit, 128), "the bound counts the chosen step");
        assertEquals(128, d.sources.get(0).offset());
        assertEquals(1, ThreadedRuntime.performChosen(source, emit, 1), "a bound of 1: the chosen step alone");
        assertEquals(5, ThreadedRuntime.performChosen(source, emit, 5));
        assertEquals(134, d.sources.get(0).offset());
        var sink = d.tasks.get("sink#0");
        Step process = new Step(Action.PROCESS_RECORD, "sink#0", 0, 0);
        assertEquals(128, ThreadedRuntime.performChosen(sink, process, 128));
        assertEquals(6, ThreadedRuntime.performChosen(sink, process, 128), "the run stops when the input is empty");
        assertEquals(134, ((RecordingSink) d.operators.get(0).operator()).received().size());
        assertEquals(166, ThreadedRuntime.performChosen(source, emit, 1000), "to the end of the log");
    }

    @Test
    void aThreadedRunCountsEveryRecordOfEveryRunAsAStep() {
        // No checkpoint (an hour between triggers), no failure: the task steps are the records'
        // steps alone, each told to the listener once; RunResult.steps counts the workers' steps.
        Map<String, Integer> events = new ConcurrentHashMap<>();
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(500, 0, 256), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(TimeUnit.HOURS.toNanos(1))
                        .stepOrdering(StepOrdering.oneAtATime()).observer(e -> events.merge(e.name(), 1, Integer::sum)).build());
        RunResult r = runtime.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(Map.of("EmitRecord", 1000, "ProcessRecord", 2000), events, "every record emitted, counted and sunk once");
        assertEquals(3000, r.steps(), "the steps of the runs of records count one by one");
        assertEquals(1000, ((RecordingSink) runtime.operatorTask("sink#0").operator()).received().size());
    }

    @Test
    void anUntracedRunCountsItsStepsTheSameWay() {
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(500, 0, 256), BarrierHandlers.unaligned(),
                RunOptions.builder().checkpointInterval(TimeUnit.HOURS.toNanos(1)).build());
        RunResult r = runtime.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(3000, r.steps());
    }
}
