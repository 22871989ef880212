package dev.consistentcut.runtime;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.Step;

/**
 * Steps of the Join job (s1, s2 -> join -> sink) taken from outside, for the tests that drive a
 * {@link SimulationRuntime} step by step. Single-threaded, as the simulation.
 */
final class JoinSteps {
    private JoinSteps() {}

    /**
     * The spec's Join: s1, s2 -> join -> sink, broadcast, capacity 1, one record each, aligned;
     * aborts stay in flight and nothing triggers unless a test takes the step.
     */
    static SimulationRuntime join(RunOptions.Builder o) {
        JobGraph job = JobGraph.builder().defaultCapacity(1)
                .source("s1", InMemorySourceLog.ofKeys(0)).source("s2", InMemorySourceLog.ofKeys(0))
                .operator("join", 1, () -> new MapOperator(v -> v))
                .operator("sink", 1, () -> new MapOperator(v -> v))
                .edge("s1", "join", Partitioning.BROADCAST).edge("s2", "join", Partitioning.BROADCAST)
                .edge("join", "sink", Partitioning.BROADCAST)
                .build();
        return new SimulationRuntime(job, BarrierHandlers.aligned(), o.abortsReachTasks(false).triggerProbability(0).build());
    }

    static void take(SimulationRuntime rt, Action a, String task, int input, long c) {
        rt.takeStep(new Step(a, task, input, c));
    }

    /** Triggers checkpoint {@code c} and lets every task of Join acknowledge it (6 steps). */
    static void checkpointAllAcknowledged(SimulationRuntime rt, long c) {
        take(rt, Action.TRIGGER_CHECKPOINT, null, -1, 0);
        take(rt, Action.INJECT_BARRIER, "s1#0", -1, c);
        take(rt, Action.INJECT_BARRIER, "s2#0", -1, c);
        take(rt, Action.RECEIVE_BARRIER, "join#0", 0, c);
        take(rt, Action.RECEIVE_BARRIER, "join#0", 1, c);
        take(rt, Action.RECEIVE_BARRIER, "sink#0", 0, c);
    }
}
