package dev.consistentcut.task;

import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one step of an {@link OperatorTask} did to the checkpoint besides moving messages, as the
 * barrier handler's calls report it during the step: the step's {@link RunEvent} carries it (a
 * trace checks it against the spec's {@code snapProcessed} and {@code snapChan}). A new one per
 * step, so that an event never shares what a later step changes; its collections are made only
 * when the step fills them (most steps are records that fill none). Confined to the task's thread.
 */
final class StepEffects {

    /** The snapshot taken, or null. */
    TaskSnapshot snapshot;
    /** Per output channel, what an overtaking barrier persisted; null when none was forwarded so. */
    Map<String, List<Record>> overtaken;
    /** Whether the record taken was persisted as channel state. */
    boolean persisted;
    /** Alternating: per input channel, what a prioritized barrier (a timeout, a switch, PrioritizeBarrier) jumped over. */
    private Map<String, List<Record>> prioritized;
    /** The checkpoints abandoned (a cancellation barrier of each forwarded), in order. */
    private List<Long> abandoned;

    void prioritized(String channel, List<Record> persisted) {
        if (prioritized == null) {
            prioritized = new LinkedHashMap<>();
        }
        prioritized.put(channel, persisted);
    }

    void abandoned(long checkpointId) {
        if (abandoned == null) {
            abandoned = new ArrayList<>();
        }
        abandoned.add(checkpointId);
    }

    /** Per input channel, what prioritized barriers jumped over; empty when none did. */
    Map<String, List<Record>> prioritized() {
        return prioritized == null ? Map.of() : prioritized;
    }

    /** The checkpoints abandoned, in order. */
    List<Long> abandoned() {
        return abandoned == null ? List.of() : abandoned;
    }

    /** The snapshot's ledger, or null. */
    Map<RecordId, Integer> ledger() {
        return snapshot == null ? null : snapshot.processed();
    }
}
