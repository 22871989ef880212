package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.LifecycleChecks;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.graph.PhysicalGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The order, restore-point and status invariants as the runtimes check them step by step ({@link LifecycleChecks}, the
 * formulas in {@link CutInvariants}): each one fails on its broken engine part
 * ({@link BrokenOrderAndRestoreTwins}, each a spec failing model's twin) while every counting
 * invariant still holds, which is the blind spot they close. The correct engine passes the same
 * runs in {@code SimulationRuntimeTest} and {@code LifecycleRuntimeTest}, which now check them too.
 */
@Timeout(60)
class OrderAndRestorePointChecksTest {

    private static final int SEEDS = 300;

    /** The distinct invariants of the first seeded run (of {@link #SEEDS}) that violates one, or fails. */
    private static Set<String> firstCaught(BarrierMode mode, Supplier<CheckpointStore> store, String expected) {
        for (long seed = 0; seed < SEEDS; seed++) {
            Topologies.Topology topology = Topologies.ALL.get((int) (seed % Topologies.ALL.size()));
            RunOptions options = SimulationRuntimeTest.withFailures(seed).maxFailures(3).failureProbability(0.01)
                    .store(store).build();
            RunResult r = new SimulationRuntime(topology.build().apply(seed), mode, options).run();
            if (!r.violations().isEmpty()) {
                Set<String> names = r.violations().stream().map(Violation::invariant).collect(Collectors.toSet());
                assertTrue(names.contains(expected), "seed " + seed + ", " + topology + ": expected " + expected
                        + ", got " + r.violations().stream().limit(3).map(Violation::message).toList());
                return names;
            }
        }
        return fail(mode.name() + " was not caught in " + SEEDS + " seeded runs");
    }

    private static void assertNoCountingInvariantFailed(Set<String> names) {
        for (String counting : List.of(CutInvariants.NO_DOUBLE_COUNT, CutInvariants.NO_SKIP,
                CutInvariants.CONSISTENT_CUT, CutInvariants.EXACTLY_ONCE, SimulationRuntime.TERMINATION)) {
            assertTrue(!names.contains(counting), counting + " failed too: " + names);
        }
    }

    @Test
    void channelStateRestoredReversedBreaksFifoChannelInvOnly() {
        Set<String> names = firstCaught(BarrierHandlers.unaligned(),
                () -> BrokenOrderAndRestoreTwins.restoringChannelStateReversed(2), CutInvariants.FIFO_CHANNEL);
        assertNoCountingInvariantFailed(names);
    }

    @Test
    void inFlightRecordsPersistedSwappedBreakFifoChannelStateInvOnly() {
        Set<String> names = firstCaught(BrokenOrderAndRestoreTwins.unalignedPersistingSwapped(),
                () -> new InMemoryCheckpointStore(2), CutInvariants.FIFO_CHANNEL_STATE);
        assertNoCountingInvariantFailed(names);
    }

    @Test
    void anOlderRestorePointBreaksRestorePointInvAndItsMonotoneProp() {
        Set<String> names = firstCaught(BarrierHandlers.aligned(),
                BrokenOrderAndRestoreTwins::keepingAnOlderRestorePoint, CutInvariants.RESTORE_POINT);
        assertTrue(names.contains(CutInvariants.RESTORE_POINT_MONOTONE), names.toString());
        assertNoCountingInvariantFailed(names);
    }

    @Test
    void classicChandyLamportPlacementBreaksBarrierOvertakesInvOnly() {
        Set<String> names = firstCaught(BrokenOrderAndRestoreTwins.unalignedForwardingInBand(),
                () -> new InMemoryCheckpointStore(2), CutInvariants.BARRIER_OVERTAKES);
        assertNoCountingInvariantFailed(names);
    }

    /**
     * {@code BugFailureKeepsPending}'s engine twin: a runtime whose failure restores the tasks but
     * skips the coordinator's share ({@code CheckpointCoordinator.failAndRestore}), so the
     * checkpoint in flight stays PENDING although its barriers are gone.
     */
    @Test
    void aFailureThatKeepsTheCheckpointPendingBreaksFailureAbortsPendingInv() {
        PhysicalGraph graph = PhysicalGraph.of(Topologies.demo(1));
        Set<String> tasks = graph.tasks().stream().map(PhysicalGraph.TaskSpec::id).collect(Collectors.toSet());
        Set<String> channels = graph.channels().stream().map(PhysicalGraph.ChannelSpec::id).collect(Collectors.toSet());
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(2);
        CheckpointCoordinator coordinator = CheckpointCoordinator.forAligned(tasks, channels, 1, store, () -> 0L);
        List<Violation> found = new ArrayList<>();
        LifecycleChecks checks = new LifecycleChecks(LifecycleChecks.Coordinator.of(coordinator), store, new CutInvariants(graph), false,
                found, List.of(), false);
        long c = coordinator.triggerCheckpoint().orElseThrow();
        checks.triggered(c);
        checks.checkAll();
        assertEquals(List.of(), found);

        checks.failed(); // THE BUG: coordinator.failAndRestore() not called
        checks.checkAll();
        assertEquals(List.of(CutInvariants.FAILURE_ABORTS_PENDING), found.stream().map(Violation::invariant).toList());

        found.clear(); // the correct failure aborts it
        LifecycleChecks correct = new LifecycleChecks(LifecycleChecks.Coordinator.of(coordinator), store, new CutInvariants(graph), false,
                found, List.of(), false);
        correct.triggered(c);
        coordinator.failAndRestore();
        correct.failed();
        correct.checkAll();
        assertEquals(List.of(), found);
    }
}
