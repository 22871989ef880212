package dev.consistentcut.stress.properties;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.stress.broken.BrokenBarrierModes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Aligned and unaligned runs of the same job and input, each with its own simulation seed and the
 * same failure settings, end in the same final state: equal processed ledgers and equal operator
 * states in every operator task. (The generated operators' final states do not depend on arrival
 * order; see {@link Blueprint}.)
 */
class SameFinalStateTest {

    /** Message fragment of this property's own failure, which the negative twin expects. */
    static final String DIFFERS = "final state differs";

    static void sameFinalState(SimulationCase c, long unalignedSeed, BarrierMode aligned) {
        SimulationCase.Outcome a = c.run(aligned);
        SimulationCase.Outcome u = c.run(BarrierHandlers.unaligned(), unalignedSeed);
        for (SimulationCase.Outcome o : new SimulationCase.Outcome[] {a, u}) {
            if (!o.result().finished()) {
                throw new AssertionError(o.result().mode() + " run did not finish: " + o.result().violations());
            }
        }
        if (!a.result().finalLedgers().equals(u.result().finalLedgers())) {
            throw new AssertionError(DIFFERS + " (ledgers), unaligned seed " + unalignedSeed + ":\n  " + a.result().mode()
                    + ": " + a.result().finalLedgers() + "\n  unaligned: " + u.result().finalLedgers());
        }
        if (!a.finalStates().equals(u.finalStates())) {
            throw new AssertionError(DIFFERS + " (operator states), unaligned seed " + unalignedSeed + ":\n  "
                    + a.result().mode() + ": " + a.finalStates() + "\n  unaligned: " + u.finalStates());
        }
    }

    @Test
    void alignedAndUnalignedRunsEndInTheSameState(TestInfo test) {
        PropertyRunner.check(test, Generators.cases(), Generators.seeds(),
                (c, seed) -> sameFinalState(c, seed, BarrierHandlers.aligned()));
    }

    @Test
    void anAlignedHandlerThatDoesNotBlockEndsElsewhere(TestInfo test) {
        PropertyRunner.assertFalsified(test, DIFFERS, Generators.casesRestoringACheckpoint(), Generators.seeds(),
                (c, seed) -> sameFinalState(c, seed, BrokenBarrierModes.alignedWithoutBlocking()));
    }
}
