package dev.consistentcut.stress.properties;

import static dev.consistentcut.stress.properties.PropertyRunner.assertNone;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.invariants.CutInvariants;
import dev.consistentcut.invariants.Violation;
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
    static void consistentCutsAndExactlyOnce(SimulationCase c, BarrierMode mode) {
        SimulationCase.Outcome o = c.run(mode);
        RunResult r = o.result();
        CutInvariants invariants = new CutInvariants(o.runtime().graph());
        List<Violation> violations = new ArrayList<>();
        for (CompletedCheckpoint checkpoint : r.checkpoints()) {
            violations.addAll(invariants.consistentCut(checkpoint));
        }
        violations.addAll(invariants.exactlyOnce(r.finalLedgers()));
        assertNone(mode.name() + " run, " + r.checkpoints().size() + " checkpoint(s), " + r.failures() + " failure(s)", violations);
        assertNone(mode.name() + " run, the runtime's own checks", r.violations());
        if (!r.finished()) {
            throw new AssertionError(mode.name() + " run did not finish after " + r.steps() + " steps");
        }
    }

    @Test
    void everyCompletedCheckpointIsAConsistentCutAndEveryRunIsExactlyOnce(TestInfo test) {
        PropertyRunner.check(test, Generators.cases(), MODES, CutPropertiesTest::consistentCutsAndExactlyOnce);
    }

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
