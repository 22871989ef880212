package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.barrier.BrokenLifecycleHandlers;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The broken lifecycles of {@link BrokenLifecycleHandlers}, one per classic lifecycle bug, each
 * caught by the engine's own checks on seeded multi-input runs with aborts and end of input.
 */
@Timeout(120)
class BrokenLifecycleTest {

    private static RunOptions options(long seed) {
        return SimulationRuntimeTest.withFailures(seed).maxFailures(0)
                .maxConcurrentAligned(2).abortProbability(0.03).endOfInput(true).build();
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"aligned", "at-least-once"})
    void theCorrectHandlerPassesTheSameRuns(String modeName) {
        for (long seed = 0; seed < 400; seed++) {
            Topologies.Topology topology = Topologies.MULTI_INPUT.get((int) (seed % Topologies.MULTI_INPUT.size()));
            RunResult r = new SimulationRuntime(topology.build().apply(seed),
                    dev.consistentcut.barrier.BarrierHandlers.byName(modeName), options(seed)).run();
            if (!r.holds()) {
                fail(modeName + ", seed " + seed + ": " + r.violations().get(0).message());
            }
        }
    }

    private static Violation firstViolation(BarrierMode broken) {
        for (long seed = 0; seed < 400; seed++) {
            Topologies.Topology topology = Topologies.MULTI_INPUT.get((int) (seed % Topologies.MULTI_INPUT.size()));
            RunOptions options = options(seed);
            RunResult r;
            try {
                r = new SimulationRuntime(topology.build().apply(seed), broken, options).run();
            } catch (IllegalStateException e) {
                continue; // the engine refused a step the bug led to (e.g. a second barrier on an input)
            }
            if (!r.violations().isEmpty()) {
                return r.violations().get(0);
            }
        }
        return fail(broken.name() + " was not caught in 400 runs");
    }

    @Test
    void anAbortThatKeepsInputsBlockedStallsTheRun() {
        Violation v = firstViolation(BrokenLifecycleHandlers.abortKeepsInputsBlocked());
        assertEquals(SimulationRuntime.TERMINATION, v.invariant(), v.message());
    }

    @Test
    void anEndedInputNotCountedAsArrivedStallsTheRun() {
        Violation v = firstViolation(BrokenLifecycleHandlers.endedInputNotCountedAsArrived());
        assertEquals(SimulationRuntime.TERMINATION, v.invariant(), v.message());
    }

    @Test
    void aLateBarrierOfACancelledCheckpointTakenForTheNextOneSkipsRecords() {
        Violation v = firstViolation(BrokenLifecycleHandlers.lateBarrierOfCancelledCheckpoint());
        assertEquals(CutInvariants.NO_SKIP, v.invariant(), v.message());
    }

    @Test
    void theTrackerCountingAnOlderBarrierForTheNewestCheckpointSkipsRecords() {
        // BugOlderBarrierCountsForNewest (BrokenTrackerHandlers): at-least-once with two in flight
        // (the options' maxConcurrentAligned); the correct tracker passes the same runs
        // (LifecycleRuntimeTest runs it with aborts, failures and end of input).
        Violation v = firstViolation(dev.consistentcut.barrier.BrokenTrackerHandlers.olderBarrierCountsForNewest());
        assertEquals(CutInvariants.NO_SKIP, v.invariant(), v.message());
    }

    @Test
    void subsumptionKeepingArrivedInputsSkipsRecords() {
        Violation v = firstViolation(BrokenLifecycleHandlers.subsumptionKeepsArrivedInputs());
        assertEquals(CutInvariants.NO_SKIP, v.invariant(), v.message());
    }
}
