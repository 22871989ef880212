package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.task.RunEvent;
import dev.consistentcut.task.RunObserver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * How many seeds of a seeded suite reach each branch of the checkpoint lifecycle, counted by an
 * observer of the run's events (the engine is not asked): a branch no seed reaches any more, after
 * a change of the seed generator or of the draws, is a failure that names it, instead of a
 * silently narrower suite. Each suite prints the counts and asserts the branches it is about.
 *
 * <p>Usage: {@code RunObserver o = branches.seed()} at the start of each seed's run (the previous
 * seed is then finished), {@link #assertEachReached} at the end. Not thread-safe: the simulation
 * tells every event from its one thread.
 */
final class LifecycleBranches {

    static final String COMPLETED = "checkpoint completed";
    static final String ABORTED = "checkpoint aborted by the coordinator";
    static final String DECLINED = "checkpoint declined by a task";
    static final String ABORT_REACHED_A_TASK = "abort notification made a task abandon a checkpoint";
    static final String ABORT_REMEMBERED = "abort remembered for a first barrier";
    static final String CANCELLATION_ABANDONED = "cancellation barrier made a task abandon a checkpoint";
    static final String SUBSUMED_AT_A_TASK = "newer barrier made a task abandon an older checkpoint";
    static final String SUBSUMED_AT_THE_COORDINATOR = "completion subsumed an older pending checkpoint";
    static final String RESTORED_A_CHECKPOINT = "failure restored a checkpoint";
    static final String RESTORED_THE_INITIAL_STATE = "failure restored the initial state";
    static final String NOTIFICATION_LOST = "completion notification lost to a failure";
    static final String RESTORE_WITH_PENDING_TRANSACTIONS = "restore re-committed pending transactions";
    static final String END_OF_INPUT = "end of input ended a task";
    static final String ACTIVE_TIMEOUT = "active alignment timeout";
    static final String PASSIVE_TIMEOUT = "passive alignment timeout";
    static final String PRIORITIZED = "barrier prioritized";

    private static final List<String> ALL = List.of(COMPLETED, ABORTED, DECLINED, ABORT_REACHED_A_TASK,
            ABORT_REMEMBERED, CANCELLATION_ABANDONED, SUBSUMED_AT_A_TASK, SUBSUMED_AT_THE_COORDINATOR,
            RESTORED_A_CHECKPOINT, RESTORED_THE_INITIAL_STATE, NOTIFICATION_LOST, RESTORE_WITH_PENDING_TRANSACTIONS,
            END_OF_INPUT, ACTIVE_TIMEOUT, PASSIVE_TIMEOUT, PRIORITIZED);

    /** The branches every suite with failures and aborts reaches, whatever its mode and topology. */
    static final List<String> ABORTS_AND_FAILURES = List.of(COMPLETED, ABORTED, ABORT_REACHED_A_TASK, ABORT_REMEMBERED,
            CANCELLATION_ABANDONED, SUBSUMED_AT_A_TASK, RESTORED_A_CHECKPOINT, RESTORED_THE_INITIAL_STATE);

    private final Map<String, Integer> seedsPerBranch = new LinkedHashMap<>();
    private int seeds;
    private Seed current;

    LifecycleBranches() {
        ALL.forEach(b -> seedsPerBranch.put(b, 0));
    }

    /** The observer of the next seed's run. */
    RunObserver seed() {
        finishSeed();
        seeds++;
        current = new Seed();
        return current::on;
    }

    /** The observer of the next seed's run, telling each event to {@code also} as well, after this one. */
    RunObserver seed(RunObserver also) {
        return RunObserver.all(List.of(seed(), also));
    }

    /** Prints the counts under {@code suite}, then asserts that at least one seed reached each of {@code branches}. */
    void assertEachReached(String suite, List<String> branches, String... more) {
        List<String> all = new ArrayList<>(branches);
        all.addAll(List.of(more));
        assertEachReached(suite, all.toArray(String[]::new));
    }

    /** Prints the counts under {@code suite}, then asserts that at least one seed reached each of {@code branches}. */
    void assertEachReached(String suite, String... branches) {
        finishSeed();
        StringBuilder out = new StringBuilder(suite + ": seeds (of " + seeds + ") reaching each lifecycle branch");
        seedsPerBranch.forEach((b, n) -> out.append(String.format("%n  %6d  %s", n, b)));
        System.out.println(out);
        for (String b : branches) {
            assertTrue(seedsPerBranch.getOrDefault(b, 0) > 0, suite + ": no seed reached '" + b + "': " + seedsPerBranch);
        }
    }

    private void finishSeed() {
        if (current != null) {
            current.finish().forEach(b -> seedsPerBranch.merge(b, 1, Integer::sum));
            current = null;
        }
    }

    /** One seed's run: the branches it reached, and what deciding a lost notification needs. */
    private static final class Seed {
        final Set<String> reached = new HashSet<>();
        /** Triggered and neither completed nor aborted yet. */
        final TreeSet<Long> inFlight = new TreeSet<>();
        long newestCompleted;
        /** Per task that heard of a completion: the newest checkpoint it heard of. */
        final Map<String, Long> notified = new HashMap<>();
        /** At each failure: the newest completed checkpoint and what each task had heard of by then. */
        final List<Map.Entry<Long, Map<String, Long>>> failures = new ArrayList<>();

        void on(RunEvent event) {
            if (event instanceof RunEvent.TriggerCheckpoint e) {
                inFlight.add(e.checkpoint());
            } else if (event instanceof RunEvent.CompleteCheckpoint e) {
                long c = e.completed().id();
                reached.add(COMPLETED);
                if (!inFlight.headSet(c, false).isEmpty()) {
                    reached.add(SUBSUMED_AT_THE_COORDINATOR);
                }
                inFlight.headSet(c, true).clear();
                newestCompleted = Math.max(newestCompleted, c);
            } else if (event instanceof RunEvent.AbortCheckpoint e) {
                reached.add(e.declinedBy() != null ? DECLINED : ABORTED);
                inFlight.remove(e.checkpoint());
            } else if (event instanceof RunEvent.FailAndRestore e) {
                reached.add(e.restored() > 0 ? RESTORED_A_CHECKPOINT : RESTORED_THE_INITIAL_STATE);
                if (e.recommitted().values().stream().anyMatch(ids -> !ids.isEmpty())) {
                    reached.add(RESTORE_WITH_PENDING_TRANSACTIONS);
                }
                failures.add(Map.entry(newestCompleted, Map.copyOf(notified)));
                inFlight.clear();
            } else if (event instanceof RunEvent.NotifyCheckpointAborted e) {
                reachedIf(!e.abandoned().isEmpty(), ABORT_REACHED_A_TASK);
                reachedIf(e.remembered(), ABORT_REMEMBERED);
            } else if (event instanceof RunEvent.ReceiveCancelBarrier e) {
                reachedIf(!e.abandoned().isEmpty(), CANCELLATION_ABANDONED);
            } else if (event instanceof RunEvent.ReceiveBarrier e) {
                reachedIf(!e.abandoned().isEmpty(), SUBSUMED_AT_A_TASK);
            } else if (event instanceof RunEvent.NotifyCheckpointComplete e) {
                notified.merge(e.task(), e.checkpoint(), Math::max);
            } else if (event instanceof RunEvent.ReceiveEndOfPartition e) {
                reachedIf(e.ended(), END_OF_INPUT);
            } else if (event instanceof RunEvent.TimeoutAlignment e) {
                reached.add(e.passive() ? PASSIVE_TIMEOUT : ACTIVE_TIMEOUT);
            } else if (event instanceof RunEvent.PrioritizeBarrier) {
                reached.add(PRIORITIZED);
            }
        }

        private void reachedIf(boolean condition, String branch) {
            if (condition) {
                reached.add(branch);
            }
        }

        /**
         * The branches reached. A notification was lost when, at a failure, a task that hears of
         * completions (one that heard of any in this run) had not heard of the newest completed one.
         */
        Set<String> finish() {
            for (Map.Entry<Long, Map<String, Long>> f : failures) {
                for (String listener : notified.keySet()) {
                    if (f.getKey() > 0 && f.getValue().getOrDefault(listener, 0L) < f.getKey()) {
                        reached.add(NOTIFICATION_LOST);
                    }
                }
            }
            return reached;
        }
    }
}
