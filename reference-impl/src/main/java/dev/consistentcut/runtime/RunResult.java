package dev.consistentcut.runtime;

import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.message.RecordId;
import java.util.List;
import java.util.Map;

/**
 * What a run did and whether the invariants held.
 *
 * @param mode the barrier mode's name
 * @param runtime {@code simulation} or {@code threads}
 * @param finished every source exhausted, every channel empty, no checkpoint in flight
 * @param checkpoints every checkpoint completed during the run, in completion order, as summaries
 *     (the checkpoints themselves, with their state, only as long as the store retains them)
 * @param abortedCheckpoints how many checkpoints were aborted (timeouts, random aborts, failures)
 * @param failures how many failures were injected (each followed by a restore)
 * @param steps steps performed (task steps and coordinator steps)
 * @param violations every invariant violation found; empty when all checked invariants hold
 * @param invariantsChecked false when ledgers were off, so nothing could be checked
 * @param finalLedgers per operator task instance: its final {@code processed[t]}
 * @param elapsed run time in the runtime's clock unit (steps or nanoseconds)
 * @param switchedCheckpoints alternating mode: the completed checkpoints some task switched to
 *     unaligned by a timeout (empty in the other modes)
 * @param savepoints the completed checkpoints that were savepoints (forced aligned)
 */
public record RunResult(
        String mode,
        String runtime,
        boolean finished,
        List<CheckpointSummary> checkpoints,
        int abortedCheckpoints,
        int failures,
        long steps,
        List<Violation> violations,
        boolean invariantsChecked,
        Map<String, Map<RecordId, Integer>> finalLedgers,
        long elapsed,
        java.util.Set<Long> switchedCheckpoints,
        java.util.Set<Long> savepoints) {

    /** A run without switches or savepoints. */
    public RunResult(String mode, String runtime, boolean finished, List<CheckpointSummary> checkpoints,
                     int abortedCheckpoints, int failures, long steps, List<Violation> violations,
                     boolean invariantsChecked, Map<String, Map<RecordId, Integer>> finalLedgers, long elapsed) {
        this(mode, runtime, finished, checkpoints, abortedCheckpoints, failures, steps, violations, invariantsChecked,
                finalLedgers, elapsed, java.util.Set.of(), java.util.Set.of());
    }

    public RunResult {
        switchedCheckpoints = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(switchedCheckpoints));
        savepoints = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(savepoints));
        checkpoints = List.copyOf(checkpoints);
        violations = List.copyOf(violations);
        finalLedgers = Map.copyOf(finalLedgers);
    }

    /** True when the run finished, its invariants were checked, and none was violated. */
    public boolean holds() {
        return finished && invariantsChecked && violations.isEmpty();
    }
}
