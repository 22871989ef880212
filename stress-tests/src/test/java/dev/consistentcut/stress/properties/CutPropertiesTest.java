package dev.consistentcut.stress.properties;

import static dev.consistentcut.stress.properties.PropertyRunner.assertNone;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.stress.broken.BrokenBarrierModes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * On random jobs, seeds and failures, in both modes: every completed checkpoint satisfies
 * {@code ConsistentCutInv}, and every run finishes and satisfies {@code ExactlyOnceInv}, with any
 * number of failures. Checked here with {@link CutInvariants} over what the run returns, not only
 * through the runtime's own checks.
 */
class CutPropertiesTest {

    private static final Gen<BarrierMode> MODES = Generate.pick(List.of(BarrierHandlers.aligned(), BarrierHandlers.unaligned()));

    /** The property, for any mode: the run finishes, each completed checkpoint is a consistent cut, the run is exactly-once. */
    static RunResult consistentCutsAndExactlyOnce(SimulationCase c, BarrierMode mode) {
        SimulationCase.Outcome o = c.run(mode);
        RunResult r = o.result();
        CutInvariants invariants = new CutInvariants(o.runtime().graph());
        List<Violation> violations = new ArrayList<>();
        for (CompletedCheckpoint checkpoint : o.runtime().completedCheckpoints()) {
            violations.addAll(invariants.consistentCut(checkpoint));
        }
        violations.addAll(invariants.exactlyOnce(r.finalLedgers()));
        assertNone(mode.name() + " run, " + r.checkpoints().size() + " checkpoint(s), " + r.failures() + " failure(s)", violations);
        assertNone(mode.name() + " run, the runtime's own checks", r.violations());
        if (!r.finished()) {
            throw new AssertionError(mode.name() + " run did not finish after " + r.steps() + " steps");
        }
        return r;
    }

    @Test
    void everyCompletedCheckpointIsAConsistentCutAndEveryRunIsExactlyOnce(TestInfo test) {
        Coverage coverage = new Coverage();
        PropertyRunner.check(test, Generators.cases(), MODES, (c, mode) -> {
            coverage.count(c, consistentCutsAndExactlyOnce(c, mode));
        });
        System.out.println("  " + coverage);
        coverage.assertNotVacuous();
    }

    /** What the generated cases exercised, so that a passing run is shown not to be vacuous. */
    private static final class Coverage {
        int cases;
        int fanIn;
        int fanOut;
        int broadcast;
        int parallel;
        int checkpoints;
        int restoredACheckpoint;
        int failures;

        void count(SimulationCase c, RunResult r) {
            Blueprint job = c.job();
            cases++;
            fanIn += job.operators().stream().anyMatch(o -> job.edges().stream().filter(e -> e.to().equals(o.name())).count() > 1) ? 1 : 0;
            fanOut += job.edges().stream().collect(java.util.stream.Collectors.groupingBy(Blueprint.EdgeSpec::from))
                    .values().stream().anyMatch(l -> l.size() > 1) ? 1 : 0;
            broadcast += job.edges().stream().anyMatch(e -> e.partitioning() == dev.consistentcut.graph.Partitioning.BROADCAST) ? 1 : 0;
            parallel += job.operators().stream().anyMatch(o -> o.parallelism() > 1) ? 1 : 0;
            checkpoints += r.checkpoints().size();
            failures += r.failures();
            restoredACheckpoint += r.failures() > 0 && !r.checkpoints().isEmpty() ? 1 : 0;
        }

        void assertNotVacuous() {
            if (fanIn == 0 || fanOut == 0 || broadcast == 0 || parallel == 0 || checkpoints == 0 || restoredACheckpoint == 0) {
                throw new AssertionError("vacuous: the cases did not exercise everything: " + this);
            }
        }

        @Override
        public String toString() {
            return cases + " runs: " + fanIn + " with fan-in, " + fanOut + " with fan-out, " + broadcast + " with a broadcast edge, "
                    + parallel + " with a parallel operator; " + checkpoints + " checkpoints completed and checked, "
                    + failures + " failures, " + restoredACheckpoint + " runs failed after completing a checkpoint";
        }
    }

    /**
     * The same on jobs whose sources end, with aborts, in the three modes: each mode's own
     * invariants (CutInvariants.applicable: exactly once for aligned and unaligned, NoSkipInv and
     * AtLeastOnceInv for at-least-once) hold, and every run ends with every task ended.
     */
    @Test
    void jobsWhoseSourcesEndWithAbortsKeepTheirModesInvariants(TestInfo test) {
        int[] ended = new int[1];
        PropertyRunner.check(test, Generators.cases(), LIFECYCLE_MODES, (c, mode) -> {
            SimulationCase.Outcome o = c.runToEndOfInput(mode);
            RunResult r = o.result();
            CutInvariants invariants = new CutInvariants(o.runtime().graph());
            boolean atLeastOnce = mode == BarrierHandlers.atLeastOnce();
            List<Violation> violations = new ArrayList<>();
            for (CompletedCheckpoint checkpoint : o.runtime().completedCheckpoints()) {
                violations.addAll(atLeastOnce ? invariants.noSkip(checkpoint) : invariants.consistentCut(checkpoint));
            }
            violations.addAll(invariants.finalState(mode.deliveryGuarantee(), r.finalLedgers()));
            assertNone(mode.name() + " run to the end of input, " + r.checkpoints().size() + " checkpoint(s), "
                    + r.failures() + " failure(s)", violations);
            assertNone(mode.name() + " run to the end of input, the runtime's own checks", r.violations());
            if (!r.finished()) {
                throw new AssertionError(mode.name() + " run did not reach the end of its input after " + r.steps() + " steps");
            }
            ended[0]++;
        });
        System.out.println("  " + ended[0] + " runs reached the end of their input with every task ended");
    }

    private static final Gen<BarrierMode> LIFECYCLE_MODES = Generate.pick(
            List.of(BarrierHandlers.aligned(), BarrierHandlers.unaligned(), BarrierHandlers.atLeastOnce()));

    @Test
    void anAlignedHandlerThatDoesNotBlockIsCaught(TestInfo test) {
        PropertyRunner.assertFalsified(test, CutInvariants.NO_DOUBLE_COUNT, Generators.casesOneCheckpointInFlight(),
                c -> consistentCutsAndExactlyOnce(c, BrokenBarrierModes.alignedWithoutBlocking()));
    }

    @Test
    void anUnalignedHandlerThatDoesNotPersistIsCaught(TestInfo test) {
        PropertyRunner.assertFalsified(test, CutInvariants.NO_SKIP, Generators.cases(),
                c -> consistentCutsAndExactlyOnce(c, BrokenBarrierModes.unalignedWithoutPersisting()));
    }
}
