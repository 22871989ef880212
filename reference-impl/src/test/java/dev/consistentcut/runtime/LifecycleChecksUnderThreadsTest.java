package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.LifecycleChecks;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointStore;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The step-by-step checks of {@link LifecycleChecks} in the threaded runtime: the broken stores of
 * {@link BrokenOrderAndRestoreTwins} (their only shared state is the coordinator's, so they work
 * on threads too), each caught by its invariant after the run's failure, while every counting
 * invariant holds ({@code OrderAndRestorePointChecksTest} runs them on the simulation). Outcomes
 * only: the run's timing decides which checkpoints complete, never whether the bug is caught.
 */
@Timeout(60)
class LifecycleChecksUnderThreadsTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** The invariants the first of {@code attempts} runs with a failure after the second checkpoint violates. */
    private static Set<String> caught(BarrierMode mode, Supplier<CheckpointStore> store, int attempts) {
        for (int i = 0; i < attempts; i++) {
            RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 20_000, 4), mode, RunOptions.builder()
                    .checkpointInterval(2 * MS).failAfterCheckpoint(2).store(store).build()).run();
            assertTrue(r.finished(), "the run did not finish: " + r.violations());
            if (!r.violations().isEmpty()) {
                return r.violations().stream().map(Violation::invariant).collect(Collectors.toSet());
            }
        }
        return fail(mode.name() + ": not caught in " + attempts + " threaded runs");
    }

    private static void assertNoCountingInvariantFailed(Set<String> names) {
        for (String counting : List.of(CutInvariants.NO_DOUBLE_COUNT, CutInvariants.NO_SKIP,
                CutInvariants.CONSISTENT_CUT, CutInvariants.EXACTLY_ONCE)) {
            assertTrue(!names.contains(counting), counting + " failed too: " + names);
        }
    }

    @Test
    void anOlderRestorePointIsCaughtOnThreads() {
        // the failure strikes after the second completion: the store keeps two, and restores the older
        Set<String> names = caught(BarrierHandlers.aligned(), BrokenOrderAndRestoreTwins::keepingAnOlderRestorePoint, 1);
        assertTrue(names.contains(CutInvariants.RESTORE_POINT), names.toString());
        assertTrue(names.contains(CutInvariants.RESTORE_POINT_MONOTONE), names.toString());
        assertNoCountingInvariantFailed(names);
    }

    @Test
    void channelStateRestoredReversedIsCaughtOnThreads() {
        Set<String> names = caught(BarrierHandlers.unaligned(),
                () -> BrokenOrderAndRestoreTwins.restoringChannelStateReversed(2), 5);
        assertTrue(names.contains(CutInvariants.FIFO_CHANNEL), names.toString());
        assertNoCountingInvariantFailed(names);
    }
}
