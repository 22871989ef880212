package dev.consistentcut.task;

import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.message.Record;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one step of an {@link OperatorTask} did to the checkpoint besides moving messages, as the
 * barrier handler's calls report it during the step: the step's {@link RunEvent} carries it (a
 * trace checks it against the spec's {@code snapProcessed} and {@code snapChan}). A new one per
 * step; confined to the task's thread.
 */
final class StepEffects {

    /** The snapshot taken, or null. */
    TaskSnapshot snapshot;
    /** Per output channel, what an overtaking barrier persisted; null when none was forwarded so. */
    Map<String, List<Record>> overtaken;
    /** Whether the record taken was persisted as channel state. */
    boolean persisted;
    /** Alternating: per input channel, what a prioritized barrier (a timeout, a switch, PrioritizeBarrier) jumped over and persisted. */
    final Map<String, List<Record>> prioritized = new LinkedHashMap<>();
    /** The checkpoints abandoned (a cancellation barrier of each forwarded), in order. */
    final List<Long> abandoned = new ArrayList<>();

    /** The snapshot's ledger, or null. */
    Map<dev.consistentcut.message.RecordId, Integer> ledger() {
        return snapshot == null ? null : snapshot.processed();
    }

    List<Long> abandonedIds() {
        return List.copyOf(abandoned);
    }
}
