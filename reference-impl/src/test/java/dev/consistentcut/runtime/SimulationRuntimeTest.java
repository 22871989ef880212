package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.task.RunEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The simulation runtime's behaviour, run by run: reproduction from a seed, restores, the injected
 * failures, termination, aborts, and the broken handlers each caught. The 2,000 seeded runs are in
 * {@link SeededSimulationRunsTest} (a class of their own, so that mutation testing can leave them
 * out: docs/mutation-testing.md).
 */
class SimulationRuntimeTest {

    /** Options for seeded runs with failures, aborts and a few checkpoints. */
    static RunOptions.Builder withFailures(long seed) {
        return RunOptions.builder()
                .seed(seed)
                .maxSteps(200_000)
                .maxCheckpoints(6)
                .triggerProbability(0.08)
                .abortProbability(0.002)
                .maxConcurrentAligned(1 + (int) (seed % 2))
                .maxFailures(2)
                .failureProbability(0.005);
    }

    @Test
    void aRunIsReproducedExactlyFromItsSeed() {
        for (long seed : new long[] {3, 17, 42}) {
            JobGraph job = Topologies.diamond(seed);
            RunResult a = new SimulationRuntime(job, BarrierHandlers.unaligned(), withFailures(seed).build()).run();
            RunResult b = new SimulationRuntime(job, BarrierHandlers.unaligned(), withFailures(seed).build()).run();
            assertEquals(a, b);
        }
        JobGraph job = Topologies.demo(1);
        RunResult one = new SimulationRuntime(job, BarrierHandlers.aligned(), withFailures(1).build()).run();
        RunResult two = new SimulationRuntime(job, BarrierHandlers.aligned(), withFailures(2).build()).run();
        assertFalse(one.steps() == two.steps() && one.checkpoints().equals(two.checkpoints()), "another seed, another run");
    }

    /** Runs the broken mode over the multi-input topologies until a run reports a violation. */
    private static Violation firstViolation(BarrierMode broken) {
        for (long seed = 0; seed < 400; seed++) {
            Topologies.Topology topology = Topologies.MULTI_INPUT.get((int) (seed % Topologies.MULTI_INPUT.size()));
            // The first broken twins have one bug each and no lifecycle of their own (they
            // would take a late barrier of an aborted checkpoint for the next one's): run them
            // under the older abort model, in which no task learns of an abort.
            RunOptions options = withFailures(seed).maxFailures(0).abortsReachTasks(false).build();
            RunResult r = new SimulationRuntime(topology.build().apply(seed), broken, options).run();
            if (!r.violations().isEmpty()) {
                return r.violations().get(0);
            }
        }
        return fail(broken.name() + " was not caught in 400 runs");
    }

    @Test
    void anAlignedHandlerThatDoesNotBlockIsCaughtCountingTwice() {
        Violation v = firstViolation(dev.consistentcut.barrier.BrokenHandlers.alignedWithoutBlocking());
        assertEquals(CutInvariants.NO_DOUBLE_COUNT, v.invariant(), v.message());
        assertEquals("counted twice", v.direction());
        assertTrue(v.message().startsWith("ConsistentCutInv (NoDoubleCountInv) violated in checkpoint "), v.message());
    }

    @Test
    void anUnalignedHandlerThatForgetsInFlightRecordsIsCaughtSkipping() {
        Violation v = firstViolation(dev.consistentcut.barrier.BrokenHandlers.unalignedForgettingInFlight());
        assertEquals(CutInvariants.NO_SKIP, v.invariant(), v.message());
        assertEquals("skipped", v.direction());
        assertTrue(v.message().startsWith("ConsistentCutInv (NoSkipInv) violated in checkpoint "), v.message());
    }

    @Test
    void failureAfterACheckpointRestoresExactlyThatCheckpoint() {
        // Find a seed whose first unaligned checkpoint persisted channel state: the restore must put it back.
        for (long seed = 0; seed < 200; seed++) {
            JobGraph job = Topologies.demo(seed);
            SimulationRuntime sim = new SimulationRuntime(job, BarrierHandlers.unaligned(),
                    RunOptions.builder().seed(seed).triggerProbability(0.1).maxCheckpoints(1).build());
            while (sim.completedCheckpoints().isEmpty() && sim.step()) {
                // run until the first checkpoint completes
            }
            CompletedCheckpoint cp = sim.completedCheckpoints().get(0);
            if (cp.persistedRecordCount() == 0) {
                continue;
            }
            for (int i = 0; i < 10; i++) {
                sim.step(); // move on past the checkpoint
            }
            sim.failAndRestore();
            cp.sourceOffsets().forEach((s, off) -> assertEquals(off, sim.sourceTask(s).offset(), s));
            cp.taskSnapshots().forEach((t, snap) -> {
                assertEquals(snap.processed(), sim.operatorTask(t).processed(), t);
                assertTrue(Arrays.equals(snap.operatorState(), sim.operatorTask(t).operator().snapshotState()), t);
            });
            cp.channelState().forEach((ch, records) -> {
                List<Message> expected = new ArrayList<>(records);
                assertEquals(expected, sim.channel(ch).contents(), ch);
            });
            RunResult r = sim.run();
            assertTrue(r.holds(), r.violations().toString());
            assertEquals(1, r.failures());
            return;
        }
        fail("no seed in 200 gave a first checkpoint with channel state");
    }

    @Test
    void failureBeforeAnyCheckpointRestartsFromTheInitialState() {
        SimulationRuntime sim = new SimulationRuntime(Topologies.join(5), BarrierHandlers.aligned(),
                RunOptions.builder().seed(5).triggerProbability(0).build());
        for (int i = 0; i < 40; i++) {
            sim.step();
        }
        sim.failAndRestore();
        assertEquals(0, sim.sourceTask("left#0").offset());
        assertEquals(Map.of(), sim.operatorTask("join#0").processed());
        assertTrue(sim.graph().channels().stream().allMatch(c -> sim.channel(c.id()).isEmpty()));
        RunResult r = sim.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(0, r.checkpoints().size());
    }

    @Test
    void theSinkReceivesEveryRecordExactlyOnceDespiteFailures() {
        JobGraph job = Topologies.demo(16); // a seed whose run fails at least once
        SimulationRuntime sim = new SimulationRuntime(job, BarrierHandlers.unaligned(),
                withFailures(16).maxFailures(3).failureProbability(0.01).build());
        RunResult r = sim.run();
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(r.failures() > 0);
        List<Record> received = ((RecordingSink) sim.operatorTask("sink#0").operator()).received();
        List<RecordId> ids = received.stream().map(Record::id).sorted().toList();
        List<RecordId> universe = new CutInvariants(sim.graph()).universe().stream().map(Record::id).sorted().toList();
        assertEquals(universe, ids);
    }

    @Test
    void failAfterCheckpointFailsRightAfterTheNthCheckpoint() {
        List<String> actions = new ArrayList<>();
        RunResult r = new SimulationRuntime(Topologies.chain(8), BarrierHandlers.aligned(), RunOptions.builder()
                .seed(8).triggerProbability(0.1).maxCheckpoints(4).failAfterCheckpoint(2)
                .observer(e -> {
                    if (e instanceof RunEvent.CompleteCheckpoint c) {
                        actions.add(e.name() + c.checkpoint());
                    } else if (e instanceof RunEvent.FailAndRestore f) {
                        actions.add(e.name() + f.restored());
                    } else if (!(e instanceof RunEvent.EmitRecord) && !(e instanceof RunEvent.ProcessRecord)) {
                        actions.add(e.name());
                    }
                })
                .build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
        int second = actions.indexOf("CompleteCheckpoint2");
        assertTrue(second >= 0, actions.toString());
        assertEquals("FailAndRestore2", actions.get(second + 1), actions.toString());
    }

    @Test
    void aRunThatCannotFinishIsReportedNotPassed() {
        RunResult r = new SimulationRuntime(Topologies.demo(1), BarrierHandlers.aligned(),
                RunOptions.builder().maxSteps(10).build()).run();
        assertFalse(r.finished());
        assertFalse(r.holds());
        assertEquals(SimulationRuntime.TERMINATION, r.violations().get(0).invariant());
        assertTrue(r.violations().get(0).message().startsWith("the run stopped after 10 steps before finishing: step limit reached"),
                r.violations().get(0).message());
    }

    @Test
    void withoutLedgersNothingIsCheckedAndTheResultSaysSo() {
        RunResult r = new SimulationRuntime(Topologies.demo(2), BarrierHandlers.aligned(),
                RunOptions.builder().seed(2).trackProcessed(false).build()).run();
        assertTrue(r.finished());
        assertFalse(r.invariantsChecked());
        assertFalse(r.holds(), "an unchecked run does not claim to hold");
    }

    @Test
    void badRunOptionsNameTheSetting() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RunOptions.builder().maxConcurrentAligned(0).build());
        assertEquals("maxConcurrentAligned must be >= 1, got 0", e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RunOptions.builder().failureProbability(1.5).build());
        assertEquals("failureProbability must be within [0, 1], got 1.5", e.getMessage());
    }

    @Test
    void abortedCheckpointsAreCountedAndLeaveTheRunExactlyOnce() {
        List<String> aborts = new ArrayList<>();
        RunResult r = new SimulationRuntime(Topologies.join(6), BarrierHandlers.unaligned(), RunOptions.builder()
                .seed(6).triggerProbability(0.2).maxCheckpoints(10).abortProbability(0.05)
                .observer(e -> {
                    if (e instanceof RunEvent.AbortCheckpoint) {
                        aborts.add(e.name());
                    }
                })
                .build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(r.abortedCheckpoints() > 0, "this seed aborts some checkpoints");
        // Every AbortCheckpoint step counts; a checkpoint subsumed by a newer completed one counts too.
        assertTrue(r.abortedCheckpoints() >= aborts.size(), r.abortedCheckpoints() + " < " + aborts.size());
    }
}
