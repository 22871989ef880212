package dev.consistentcut.stress.properties;

import static dev.consistentcut.stress.properties.PropertyRunner.assertNone;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.stress.broken.BrokenBarrierModes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What checkpoints cost in channel state: aligned checkpoints persist none
 * ({@code AlignedNoChannelStateInv}); unaligned ones persist on each channel only records its
 * sender had sent there before its own snapshot, each at most as often as sent
 * ({@code UnalignedChannelStateBoundInv}, spec/unaligned/UnalignedCheckpoint.tla; the spec explains why the
 * channel capacity is not a bound). Each property also shows it is not vacuous: the runs did
 * complete checkpoints, and the unaligned ones did persist records.
 */
class ChannelStatePropertiesTest {

    static void alignedPersistsNothing(SimulationCase c, BarrierMode mode, AtomicLong checkpoints) {
        SimulationCase.Outcome o = c.run(mode);
        CutInvariants invariants = new CutInvariants(o.runtime().graph());
        List<Violation> violations = new ArrayList<>();
        for (CompletedCheckpoint checkpoint : o.runtime().completedCheckpoints()) {
            violations.addAll(invariants.alignedNoChannelState(checkpoint));
            checkpoints.incrementAndGet();
        }
        assertNone(mode.name() + " run, " + o.result().checkpoints().size() + " checkpoint(s)", violations);
    }

    static void unalignedWithinBound(SimulationCase c, BarrierMode mode, AtomicLong persisted) {
        SimulationCase.Outcome o = c.run(mode);
        CutInvariants invariants = new CutInvariants(o.runtime().graph());
        List<Violation> violations = new ArrayList<>();
        for (CompletedCheckpoint checkpoint : o.runtime().completedCheckpoints()) {
            violations.addAll(invariants.unalignedChannelStateBound(checkpoint));
            persisted.addAndGet(checkpoint.persistedRecordCount());
        }
        assertNone(mode.name() + " run, " + o.result().checkpoints().size() + " checkpoint(s)", violations);
    }

    @Test
    void alignedCheckpointsPersistNoChannelState(TestInfo test) {
        AtomicLong checkpoints = new AtomicLong();
        PropertyRunner.check(test, Generators.cases(), c -> alignedPersistsNothing(c, BarrierHandlers.aligned(), checkpoints));
        assertTrue(checkpoints.get() > 0, "vacuous: no aligned run completed a checkpoint");
        System.out.println("  aligned checkpoints checked: " + checkpoints.get());
    }

    @Test
    void unalignedCheckpointsPersistNoMoreThanTheSpecBound(TestInfo test) {
        AtomicLong persisted = new AtomicLong();
        PropertyRunner.check(test, Generators.cases(), c -> unalignedWithinBound(c, BarrierHandlers.unaligned(), persisted));
        assertTrue(persisted.get() > 0, "vacuous: no unaligned checkpoint persisted any record");
        System.out.println("  records persisted by unaligned checkpoints: " + persisted.get());
    }

    @Test
    void anAlignedHandlerThatPersistsIsCaught(TestInfo test) {
        PropertyRunner.assertFalsified(test, CutInvariants.ALIGNED_NO_CHANNEL_STATE, Generators.cases(),
                c -> alignedPersistsNothing(c, BrokenBarrierModes.alignedPersistingInFlight(), new AtomicLong()));
    }

    @Test
    void anUnalignedHandlerPersistingTheWrongInputsIsCaught(TestInfo test) {
        PropertyRunner.assertFalsified(test, CutInvariants.UNALIGNED_CHANNEL_STATE_BOUND, Generators.cases(),
                c -> unalignedWithinBound(c, BrokenBarrierModes.unalignedPersistingArrivedInputs(), new AtomicLong()));
    }
}
