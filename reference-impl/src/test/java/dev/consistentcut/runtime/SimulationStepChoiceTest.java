package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.task.RunEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simulation's choice of the environment's steps, each against its setting: the trigger
 * interval, the failure budget, the failure at a given step, a failed store write (declined, or one
 * too many), and the hooks a caller passes in. The seeded runs go through all of them, but hold
 * just as well with an interval one step longer or one failure more; these runs count.
 */
@Timeout(10)
class SimulationStepChoiceTest {

    /** Every action in order; in these runs each step tells exactly one. */
    private final List<String> actions = new ArrayList<>();

    private RunOptions.Builder options(long seed) {
        return RunOptions.builder().seed(seed).maxSteps(20_000).observer(e -> actions.add(e.name()));
    }

    private static List<Integer> indicesOf(List<String> actions, String action) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < actions.size(); i++) {
            if (actions.get(i).equals(action)) {
                out.add(i);
            }
        }
        return out;
    }

    @Test
    void aTriggerComesNoSoonerThanTheIntervalAndAtItWhenTheCoordinatorAllows() {
        RunResult r = new SimulationRuntime(Topologies.demo(4), BarrierHandlers.aligned(), options(4)
                .triggerProbability(1).checkpointInterval(10).maxCheckpoints(5).maxConcurrentAligned(10).build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(r.steps(), actions.size(), "one action per step: indices are steps");
        List<Integer> triggers = indicesOf(actions, "TriggerCheckpoint");
        assertEquals(5, triggers.size(), actions.toString());
        assertEquals(0, triggers.get(0), "the first trigger is due at once");
        int closest = Integer.MAX_VALUE;
        for (int k = 1; k < triggers.size(); k++) {
            closest = Math.min(closest, triggers.get(k) - triggers.get(k - 1));
        }
        assertEquals(10, closest, "always taken once due (probability 1), never before: " + triggers);
    }

    @Test
    void theFailureBudgetIsSpentExactly() {
        RunResult r = new SimulationRuntime(Topologies.chain(2), BarrierHandlers.unaligned(), options(2)
                .maxFailures(2).failureProbability(1).build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(2, r.failures(), "probability 1: every failure the budget allows, and no more");
        assertEquals(List.of("FailAndRestore", "FailAndRestore"), actions.subList(0, 2));
        assertFalse(actions.subList(2, actions.size()).contains("FailAndRestore"));
    }

    @Test
    void aFailureAtAStepStrikesAtExactlyThatStep() {
        RunResult r = new SimulationRuntime(Topologies.join(3), BarrierHandlers.aligned(), options(3)
                .triggerProbability(0.1).failAtStep(30).build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
        assertEquals(List.of(30), indicesOf(actions, "FailAndRestore"));
    }

    @Test
    void aFailedStoreWriteDeclinesItsCheckpointAndTheRunGoesOn() {
        List<String> progress = new ArrayList<>();
        List<RunEvent.AbortCheckpoint> aborts = new ArrayList<>();
        RunResult r = new SimulationRuntime(Topologies.demo(5), BarrierHandlers.aligned(), RunOptions.builder().seed(5)
                .triggerProbability(0.1).maxCheckpoints(4).store(() -> new FailingStore(Set.of(2L)))
                .tolerableFailedCheckpoints(1).progress(progress::add)
                .observer(e -> {
                    if (e instanceof RunEvent.AbortCheckpoint a) {
                        aborts.add(a);
                    }
                }).build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(List.of(1L, 3L, 4L), r.checkpoints().stream().map(CheckpointSummary::id).toList());
        assertEquals(List.of(new RunEvent.AbortCheckpoint(2)), aborts, "the declined write is AbortCheckpoint(2)");
        assertTrue(progress.stream().anyMatch(l -> l.startsWith("checkpoint 2 declined")), progress.toString());
        assertEquals(1, r.abortedCheckpoints());
    }

    @Test
    void oneFailedStoreWriteTooManyFailsTheJobWithItsOwnException() {
        SimulationRuntime sim = new SimulationRuntime(Topologies.demo(5), BarrierHandlers.aligned(), RunOptions.builder()
                .seed(5).triggerProbability(0.1).maxCheckpoints(4).store(() -> new FailingStore(Set.of(2L))).build());
        // Not wrapped in the simulation's "failed at step" IllegalStateException: the job failed as
        // configured, and the caller (the CLI) reports it as such.
        TooManyFailedCheckpointsException e = assertThrows(TooManyFailedCheckpointsException.class, sim::run);
        assertEquals(2, e.checkpoint());
        assertEquals(List.of(1L), sim.completedCheckpoints().stream().map(CompletedCheckpoint::id).toList());
    }

    @Test
    void onCheckpointSeesEveryCompletedCheckpointInOrder() {
        List<CompletedCheckpoint> seen = new ArrayList<>();
        SimulationRuntime sim = new SimulationRuntime(Topologies.diamond(6), BarrierHandlers.unaligned(), options(6)
                .triggerProbability(0.1).maxCheckpoints(4).onCheckpoint(seen::add).build());
        RunResult r = sim.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(4, seen.size());
        assertEquals(sim.completedCheckpoints(), seen);
        assertEquals(r.checkpoints(), seen.stream().map(CheckpointSummary::of).toList());
    }

    @Test
    void anUnknownTaskOrChannelIsNamed() {
        SimulationRuntime sim = new SimulationRuntime(Topologies.demo(1), BarrierHandlers.aligned(), RunOptions.builder().build());
        assertEquals("unknown task instance 'nope#0'",
                assertThrows(IllegalArgumentException.class, () -> sim.operatorTask("nope#0")).getMessage());
        assertEquals("unknown channel 'a->b'", assertThrows(IllegalArgumentException.class, () -> sim.channel("a->b")).getMessage());
        assertEquals("s1#0", sim.sourceTask("s1#0").id());
        assertEquals(0, sim.lostNotifications());
    }
}
