package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BrokenHandlers;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.sink.BrokenSinks;
import dev.consistentcut.sink.MemorySinkDirectory;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The checks the simulation makes after a task's step (not at a completion or the end): the
 * alternating switch's propagation after every step of an operator, with a timeout of 0 too (the
 * smallest alternating timeout, which is still alternating), and the committed output's
 * duplicates after each commit. Each with a broken twin whose bug only that check names; a few
 * seeds each, the first seed that shows it.
 */
@Timeout(30)
class SimulationStepChecksTest {

    @Test
    void aSwitchNotPropagatedIsCaughtAtTheStepWithATimeoutOfZero() {
        for (long seed = 0; seed < 40; seed++) {
            Topologies.Topology topology = Topologies.MULTI_INPUT.get((int) (seed % Topologies.MULTI_INPUT.size()));
            RunResult r = new SimulationRuntime(topology.build().apply(seed), BrokenHandlers.alternatingNotPropagated(0),
                    SimulationRuntimeTest.withFailures(seed).maxFailures(0).build()).run();
            if (!r.violations().isEmpty()) {
                Set<String> names = r.violations().stream().map(Violation::invariant).collect(Collectors.toSet());
                assertTrue(names.contains(CutInvariants.SWITCH_PROPAGATES), "seed " + seed + ": " + names);
                return;
            }
        }
        fail("a switch that is not propagated was not caught with a timeout of 0");
    }

    /**
     * {@code BugCommitOnSnapshot}: a commit at the pre-commit; after the run's one failure (between
     * a snapshot and its checkpoint's completion) the replayed records are committed again by a
     * later snapshot, seen as a duplicate at the next commit; no later restore checks the output,
     * so without the commit's check only the end's {@code OutputExactlyOnceInv} would see it.
     */
    @Test
    void aDuplicateCommittedAfterTheFailureIsCaughtAtTheNextCommit() {
        for (long seed = 0; seed < 30; seed++) {
            RunOptions o = SimulationRuntimeTest.withFailures(seed).maxFailures(1).failureProbability(0.01)
                    .endOfInput(true).build();
            RunResult r = new SimulationRuntime(SinkSimulationTest.job(seed, new MemorySinkDirectory(), 1,
                    BrokenSinks.ALL.get("BugCommitOnSnapshot")), SinkSimulationTest.mode(seed), o).run();
            List<String> names = r.violations().stream().map(Violation::invariant).toList();
            if (names.contains(CutInvariants.NO_DUPLICATE_OUTPUT)) {
                return;
            }
        }
        fail("a duplicate committed after the failure was never reported as NoDuplicateOutputInv");
    }
}
