package dev.consistentcut.task;

import dev.consistentcut.checkpoint.Changelog;
import dev.consistentcut.checkpoint.OperatorStateMerge;
import dev.consistentcut.checkpoint.StateMerge;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.ChangelogState;
import dev.consistentcut.operator.Operator;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * An operator task's state and ledger as changelogs (the spec's local files,
 * spec/incremental/IncrementalCheckpointStore.tla): each {@link #snapshot} seals what changed since
 * the previous one as a new segment ({@code WriteState}) and keeps the earlier segments, so its
 * cost is the changes, not everything the task ever processed; when a chain grows too long or its
 * changes outweigh its base, it is replaced by one whole segment ({@code CompactState}). An
 * operator that is no {@link ChangelogState} is snapshotted whole, a one-segment chain each time.
 * A new instance per operator instance (the task makes one on each restore).
 *
 * <p>Confined to the task's thread; the snapshots it makes are immutable.
 */
final class TaskChangelogs {

    /**
     * Segments a chain may have before it is compacted: what a restore replays and a lookup walks
     * at most. Not smaller: each compaction is a new whole copy, so compacting every few
     * snapshots would copy the whole ledger every few checkpoints (and the retained checkpoints
     * on either side of a compaction hold a copy each); the bytes rule of
     * {@link Changelog#compactionDue} bounds the restore's bytes anyway.
     */
    static final int MAX_SEGMENTS = 256;

    private final Operator operator;
    /** The operator's changes, or null if it can only be snapshotted whole. */
    private final ChangelogState changes;
    private final StateMerge merge;
    private Changelog<byte[]> state;
    private Changelog<Map<RecordId, Integer>> ledger;
    /** Records processed since the previous snapshot, with their counts now. */
    private HashMap<RecordId, Integer> changed = new HashMap<>();
    private long ledgerBytes;
    /** The last source seen and its bytes in a ledger entry: records of one source come in runs. */
    private String lastSource;
    private int lastEntryBytes;

    /** Changelogs of {@code operator}, continuing those of {@code restored} (if not null) whose state it holds. */
    TaskChangelogs(Operator operator, TaskSnapshot restored) {
        this.operator = operator;
        this.changes = operator instanceof ChangelogState c ? c : null;
        this.merge = changes == null ? StateMerge.WHOLE : new OperatorStateMerge(changes);
        if (restored != null) {
            state = restored.stateChangelog();
            ledger = restored.ledgerChangelog();
            ledgerBytes = restored.ledgerBytes();
        }
    }

    /** The task processed {@code id}, now {@code times} times in all. */
    void processed(RecordId id, int times) {
        changed.put(id, times);
        if (times == 1) {
            if (!id.source().equals(lastSource)) {
                lastSource = id.source();
                lastEntryBytes = TaskSnapshot.ledgerEntryBytes(id);
            }
            ledgerBytes += lastEntryBytes;
        }
    }

    /** A snapshot of the operator's state and of {@code processed}, the whole ledger the changes were reported into. */
    TaskSnapshot snapshot(Map<RecordId, Integer> processed) {
        long stateSize;
        if (changes == null) {
            byte[] whole = operator.snapshotState();
            state = Changelog.base(whole, whole.length);
            stateSize = whole.length;
        } else {
            byte[] delta = changes.snapshotChanges();
            if (state == null || state.compactionDue(delta.length, MAX_SEGMENTS)) {
                byte[] whole = operator.snapshotState(); // the chain and delta materialised
                state = Changelog.compactState(whole, whole.length);
            } else {
                state = state.writeState(delta, delta.length);
            }
            stateSize = changes.stateSize();
        }
        if (!changed.isEmpty() || ledger == null) {
            if (ledger == null || ledger.compactionDue(changed.size(), MAX_SEGMENTS)) {
                ledger = Changelog.compactState(TaskSnapshot.frozen(processed), processed.size());
            } else {
                ledger = ledger.writeState(Collections.unmodifiableMap(changed), changed.size());
            }
            changed = new HashMap<>();
        }
        return TaskSnapshot.ofChangelogs(state, merge, Math.toIntExact(stateSize), ledger, processed.size(),
                ledgerBytes);
    }
}
