package dev.consistentcut.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.CheckpointStats;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.message.CancelBarrier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LifecycleChecks} step by step against a coordinator twin ({@link LifecycleChecks.Coordinator}):
 * each check must report a broken coordinator at the step that shows it, not at some later check
 * (the runtimes' runs call {@code checkAll} after every failure, which would catch most of these
 * later; a check that looked at too little would go unnoticed there). The twins: a decided
 * checkpoint whose status changes, a pending one that goes back to NONE, a restore point that moves
 * back or lags the newest completed checkpoint, a failure that keeps a checkpoint pending.
 */
@Timeout(10)
class LifecycleChecksStepByStepTest {

    /** A coordinator whose answers the test sets: correct or broken, step by step. */
    private static final class Twin implements LifecycleChecks.Coordinator {
        final Map<Long, CheckpointStatus> status = new HashMap<>();
        long latest;

        @Override
        public CheckpointStatus status(long id) {
            return status.getOrDefault(id, CheckpointStatus.NONE);
        }

        @Override
        public Optional<CompletedCheckpoint> latestCompleted() {
            return latest == 0 ? Optional.empty() : Optional.of(checkpoint(latest));
        }
    }

    /** A store that reports {@code damaged} as damaged (the rest of it is never read by the checks). */
    private static CheckpointStore damaging(Set<Long> damaged) {
        return new CheckpointStore() {
            @Override
            public void store(CompletedCheckpoint c) {
                throw new UnsupportedOperationException("the checks never store");
            }

            @Override
            public Optional<CompletedCheckpoint> latest() {
                return Optional.empty();
            }

            @Override
            public List<Long> retainedIds() {
                return List.of();
            }

            @Override
            public Set<Long> damagedIds() {
                return damaged;
            }
        };
    }

    private static CompletedCheckpoint checkpoint(long id) {
        return new CompletedCheckpoint(id, Map.of(), Map.of(), Map.of(), new CheckpointStats(0, 0, Map.of(), Map.of(), 0, 0, 0));
    }

    private final Twin twin = new Twin();
    private final Set<Long> damaged = new HashSet<>();
    private final List<Violation> found = new ArrayList<>();

    private LifecycleChecks checks() {
        return new LifecycleChecks(twin, damaging(damaged), new CutInvariants(OrderAndStatusInvariantsTest.CHAIN),
                false, found, List.of(), false);
    }

    private List<String> names() {
        return found.stream().map(Violation::invariant).toList();
    }

    /** Triggers {@code id} on the twin and tells the checks, as a runtime's TriggerCheckpoint does. */
    private void trigger(LifecycleChecks checks, long id) {
        twin.status.put(id, CheckpointStatus.PENDING);
        checks.triggered(id);
    }

    /** Completes {@code id} (the twin's restore point follows), as a runtime's CompleteCheckpoint does. */
    private void complete(LifecycleChecks checks, long id) {
        twin.status.put(id, CheckpointStatus.COMPLETED);
        twin.latest = id;
        checks.completed(id);
        checks.check(id);
    }

    @Test
    void aCompletedCheckpointThatAbortsIsCaughtByTheStepThatNamesIt() {
        LifecycleChecks checks = checks();
        trigger(checks, 1);
        complete(checks, 1);
        checks.check(0);
        assertEquals(List.of(), found);

        twin.status.put(1L, CheckpointStatus.ABORTED); // THE BUG: a decided checkpoint changes its status
        checks.check(0); // a step that names no checkpoint looks only at the pending ones
        assertEquals(List.of(), found);
        checks.check(1); // a step naming it (a late acknowledgement, a notification) sees it
        assertEquals(List.of(CutInvariants.CHECKPOINT_STATUS), names());
        assertEquals(1, found.get(0).checkpointId());
        checks.check(1);
        assertEquals(1, found.size(), "reported once");
    }

    @Test
    void aStepNamingACheckpointThisRuntimeNeverTriggeredLooksAtNothingMore() {
        LifecycleChecks checks = checks();
        twin.status.put(7L, CheckpointStatus.COMPLETED); // not triggered through the checks: not theirs
        checks.check(7);
        checks.checkAll();
        assertEquals(List.of(), found);
    }

    @Test
    void aPendingCheckpointIsLookedAtAfterEveryStepThatNamesAnother() {
        LifecycleChecks checks = checks();
        trigger(checks, 1);
        trigger(checks, 2);
        checks.check(0);
        assertEquals(List.of(), found);
        twin.status.put(2L, CheckpointStatus.NONE); // THE BUG: a pending checkpoint forgotten
        checks.check(1);
        assertEquals(List.of(CutInvariants.CHECKPOINT_STATUS), names());
        assertEquals(2, found.get(0).checkpointId());
    }

    @Test
    void aFailureThatKeepsACheckpointPendingIsCaughtByTheNextStepsCheck() {
        LifecycleChecks checks = checks();
        checks.failed(); // nothing triggered yet: nothing discarded
        checks.check(0);
        assertEquals(List.of(), found);
        trigger(checks, 1);
        checks.failed(); // THE BUG: the coordinator keeps checkpoint 1 pending
        checks.check(0); // not checkAll: the pending ones are looked at by every step's check
        assertEquals(List.of(CutInvariants.FAILURE_ABORTS_PENDING), names());
    }

    @Test
    void aFailureAbortingThePendingCheckpointIsQuietOneKeepingTheNextPendingIsNot() {
        LifecycleChecks checks = checks();
        trigger(checks, 1);
        twin.status.put(1L, CheckpointStatus.ABORTED);
        checks.failed();
        checks.checkAll();
        trigger(checks, 2);
        checks.check(0);
        assertEquals(List.of(), found);
        twin.status.put(2L, CheckpointStatus.PENDING);
        checks.failed();
        checks.check(2); // 2 triggered before the failure and still pending
        assertEquals(List.of(CutInvariants.FAILURE_ABORTS_PENDING), names());
    }

    @Test
    void aRestorePointThatMovesBackIsCaughtAtTheNextCheck() {
        LifecycleChecks checks = checks();
        trigger(checks, 1);
        complete(checks, 1);
        trigger(checks, 2);
        complete(checks, 2);
        assertEquals(List.of(), found);
        twin.latest = 1; // THE BUG: the restore point moves back; nothing completed meanwhile
        checks.check(0);
        assertEquals(List.of(CutInvariants.RESTORE_POINT_MONOTONE, CutInvariants.RESTORE_POINT), names());
        found.clear();
        checks.check(0); // nothing moved since: nothing new
        assertEquals(List.of(), found);
    }

    @Test
    void aRestorePointThatLagsTheNewestCompletedCheckpointIsCaught() {
        LifecycleChecks checks = checks();
        trigger(checks, 1);
        complete(checks, 1);
        trigger(checks, 2);
        twin.status.put(2L, CheckpointStatus.COMPLETED);
        checks.completed(2); // THE BUG: the coordinator's restore point stays at 1
        checks.check(2);
        assertEquals(List.of(CutInvariants.RESTORE_POINT), names());
        assertEquals(1, found.get(0).checkpointId());
    }

    @Test
    void aRestorePointThatMovesBackPastDamagedCheckpointsIsNoViolation() {
        LifecycleChecks checks = checks();
        trigger(checks, 1);
        complete(checks, 1);
        trigger(checks, 2);
        complete(checks, 2);
        damaged.add(2L); // the store found 2 damaged: the restore uses 1
        twin.latest = 1;
        checks.failed();
        checks.checkAll();
        assertEquals(List.of(), found);
        damaged.add(1L); // and then 1 too: the initial state
        twin.latest = 0;
        checks.failed();
        checks.checkAll();
        assertEquals(List.of(), found);
        trigger(checks, 3);
        complete(checks, 3);
        assertEquals(List.of(), found);
    }

    @Test
    void aResumedCheckpointCountsAsCompletedAndMayBeFoundDamaged() {
        twin.latest = 3; // an earlier process completed 3
        LifecycleChecks checks = checks();
        checks.checkAll();
        assertEquals(List.of(), found);
        damaged.add(3L);
        twin.latest = 0;
        checks.failed();
        checks.checkAll();
        assertEquals(List.of(), found, "the resumed checkpoint was damaged: the restore point may move back");
    }

    @Test
    void damageToACheckpointThisRunNeverCompletedDoesNotExcuseARestorePointMovingBack() {
        LifecycleChecks checks = checks();
        trigger(checks, 1);
        complete(checks, 1);
        damaged.add(9L);
        twin.latest = 0; // THE BUG: restored the initial state though 1 is intact
        checks.failed();
        checks.checkAll();
        assertEquals(List.of(CutInvariants.RESTORE_POINT_MONOTONE, CutInvariants.RESTORE_POINT), names());
    }

    @Test
    void aChannelEndedTwiceOrCancellingACheckpointTwiceIsCaughtOnceEach() {
        Channel ended = new Channel("s#0->count#0", 4);
        ended.putEndOfPartition();
        ended.putEndOfPartition(); // a sender that ends its output twice
        Channel cancelled = new Channel("count#0->sink#0", 4);
        cancelled.putCancelBarrier(new CancelBarrier(3), false);
        cancelled.putCancelBarrier(new CancelBarrier(3), false); // a task that abandons checkpoint 3 twice
        LifecycleChecks checks = checks();
        checks.channels(List.of(ended, cancelled));
        checks.channels(List.of(ended, cancelled));
        assertEquals(List.of(CutInvariants.END_OF_PARTITION_ONCE, CutInvariants.CANCEL_BARRIER_ONCE), names());
    }
}
