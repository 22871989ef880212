package dev.consistentcut.task;

import dev.consistentcut.checkpoint.Changelog;
import dev.consistentcut.checkpoint.MaterialisedUploads;
import dev.consistentcut.checkpoint.OperatorStateMerge;
import dev.consistentcut.checkpoint.StateMerge;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.message.RecordLedger;
import dev.consistentcut.operator.ChangelogState;
import dev.consistentcut.operator.Operator;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;

/**
 * An operator task's state and ledger as changelogs (the spec's local files,
 * spec/incremental/IncrementalCheckpointStore.tla): each {@link #snapshot} seals what changed since
 * the previous one as a new segment ({@code WriteState}) and keeps the earlier segments, so its
 * cost is the changes, not everything the task ever processed. An operator that is no {@link
 * ChangelogState} is snapshotted whole, a one-segment chain each time. A new instance per operator
 * instance (the task makes one on each restore).
 *
 * <p>When a chain grows too long or its changes outweigh its base, it is materialised in the
 * background, as Flink's changelog state backend does (FLIP-158: PeriodicMaterializationManager,
 * ChangelogKeyedStateBackend): the snapshot that finds it due hands its chains, immutable, to
 * the materialiser and returns at once; the materialiser merges each chain's segments into one
 * whole segment (the state with its {@link StateMerge}, the ledger's maps in order), touching
 * nothing of the task's; the first snapshot after it is done replaces the materialised prefix of
 * each chain by the merged segment, the segments written since following it
 * ({@code CompactState} of a prefix, {@link Changelog#compactState(Changelog, Object, long)}).
 * At most one materialisation is in flight (Flink's
 * {@code PeriodicMaterializationManager.MaterializationTarget}: no new one until the previous
 * one is confirmed or failed); a failed one is dropped and tried again when next
 * due; an instance replaced on a restore {@link #abandon}s its own. So no snapshot waits for a
 * materialisation, and its synchronous part is the changes since the previous snapshot (and, at
 * a rebase, the segments written since the materialised point).
 *
 * <p>The materialiser also writes the merged segments durably ({@link MaterialisedUploads}, the
 * store's) before the result is offered to the task, as Flink uploads the materialised state as
 * part of the materialisation: the checkpoint that first holds them then references them, and
 * no store call of the coordinator writes the whole state. A dropped materialisation (an
 * {@link #abandon}, a rebase that no longer applies) discards what it uploaded.
 *
 * <p>Threads: every method is called on the task's thread, which alone owns the operator, the
 * changes not yet sealed and the current chains. The materialiser (on {@code materialiser}) reads
 * only the sealed chains it was handed and the operator's pure {@code mergeState}; its result
 * reaches the task through a {@link Future}, polled without blocking. The snapshots made are
 * immutable.
 */
final class TaskChangelogs {

    /**
     * Segments a chain may have before it is materialised: what a restore replays and a lookup
     * walks at most, while no materialisation is in flight. Not smaller: each materialisation is
     * a new whole copy, so materialising every few snapshots would copy the whole ledger every
     * few checkpoints (and the retained checkpoints on either side of a materialisation hold a
     * copy each); the bytes rule of {@link Changelog#compactionDue} bounds the restore's bytes
     * anyway.
     */
    static final int MAX_SEGMENTS = 256;

    /**
     * Consecutive failed materialisations allowed; one more fails the snapshot (Flink's {@code
     * state.backend.changelog.max-failures-allowed}, 3: PeriodicMaterializationManager fails the
     * task at the next).
     */
    static final int MAX_FAILED_MATERIALISATIONS = 3;

    /** The materialiser of every task that is given none: {@link OperatorTask#BACKGROUND_MATERIALISER}. */
    static final ExecutorService SHARED_MATERIALISER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "changelog-materialiser");
        t.setDaemon(true);
        return t;
    });

    /**
     * What a materialisation merged: the chains as of the snapshot that started it ({@code
     * statePoint}, {@code ledgerPoint}) and each merged into one whole segment.
     */
    private record Materialised(Changelog<byte[]> statePoint, byte[] state,
                                Changelog<Map<RecordId, Integer>> ledgerPoint, Map<RecordId, Integer> ledger,
                                List<Object> uploaded) {
    }

    private final Operator operator;
    /** The operator's changes, or null if it can only be snapshotted whole. */
    private final ChangelogState changes;
    private final StateMerge merge;
    private final Executor materialiser;
    private final MaterialisedUploads uploads;
    /** The task's name: whose files the uploads are. */
    private final String task;
    /** Guards {@link #abandoned} and {@link #unclaimedUpload}, shared with the materialiser's thread. */
    private final Object uploadLock = new Object();
    /** Set by {@link #abandon}: a materialisation that ends later discards its upload itself. */
    private boolean abandoned;
    /** What the materialisation uploaded, until a rebase uses it or {@link #abandon} discards it. */
    private List<Object> unclaimedUpload = List.of();
    private Changelog<byte[]> state;
    private Changelog<Map<RecordId, Integer>> ledger;
    /** The materialisation in flight or done and not yet used, or null. */
    private Future<Materialised> materialising;
    private int failedMaterialisations;
    /** Records processed since the previous snapshot, with their counts now. */
    private RecordLedger changed = new RecordLedger();
    private long ledgerBytes;
    /** The last source seen and its bytes in a ledger entry: records of one source come in runs. */
    private String lastSource;
    private int lastEntryBytes;

    /** Changelogs of {@code operator}, continuing those of {@code restored} (if not null) whose state it holds. */
    TaskChangelogs(Operator operator, TaskSnapshot restored) {
        this(operator, restored, SHARED_MATERIALISER);
    }

    /** As {@link #TaskChangelogs(Operator, TaskSnapshot)}, materialising on {@code materialiser}. */
    TaskChangelogs(Operator operator, TaskSnapshot restored, Executor materialiser) {
        this(operator, restored, materialiser, MaterialisedUploads.NONE, "");
    }

    /**
     * As {@link #TaskChangelogs(Operator, TaskSnapshot, Executor)}, the materialiser writing what it
     * merged to {@code uploads} as the files of task {@code task}.
     */
    TaskChangelogs(Operator operator, TaskSnapshot restored, Executor materialiser, MaterialisedUploads uploads,
                   String task) {
        this.uploads = uploads;
        this.task = task;
        this.operator = operator;
        this.changes = operator instanceof ChangelogState c ? c : null;
        this.merge = changes == null ? StateMerge.WHOLE : new OperatorStateMerge(changes);
        this.materialiser = materialiser;
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

    /**
     * A snapshot of the operator's state and of {@code processed}, the whole ledger the changes
     * were reported into. Never waits for the materialiser: it uses a materialisation only if it
     * is done, and starts one only if none is in flight.
     */
    TaskSnapshot snapshot(Map<RecordId, Integer> processed) {
        rebaseIfMaterialised();
        long stateSize;
        if (changes == null) {
            byte[] whole = operator.snapshotState();
            state = Changelog.base(whole, whole.length);
            stateSize = whole.length;
        } else {
            if (state == null) {
                byte[] whole = operator.snapshotState(); // the first snapshot: everything is a change
                changes.snapshotChanges();
                state = Changelog.base(whole, whole.length);
            } else {
                byte[] delta = changes.snapshotChanges();
                state = state.writeState(delta, delta.length);
            }
            stateSize = changes.stateSize();
        }
        if (!changed.isEmpty() || ledger == null) {
            if (ledger == null) {
                ledger = Changelog.base(TaskSnapshot.frozen(processed), processed.size());
            } else {
                ledger = ledger.writeState(changed.readOnly(), changed.size());
            }
            changed = new RecordLedger();
        }
        if (materialising == null && (state.compactionDue(0, MAX_SEGMENTS) || ledger.compactionDue(0, MAX_SEGMENTS))) {
            materialising = materialise(state, merge, ledger);
        }
        return TaskSnapshot.ofChangelogs(state, merge, Math.toIntExact(stateSize), ledger, processed.size(),
                ledgerBytes);
    }

    /**
     * Writes what {@code snapshot} (this instance's, for {@code checkpoint}) changed since what the
     * store already holds, durably, before the task acknowledges it ({@link
     * MaterialisedUploads#persist}): the write is the task's, not the coordinator's.
     */
    void persist(long checkpoint, TaskSnapshot snapshot) {
        uploads.persist(task, checkpoint, snapshot);
    }

    /**
     * Drops the materialisation in flight, if any (this instance is replaced: a restore, the task
     * ends): it is cancelled if it has not started, and its result, if it comes, is never used.
     */
    void abandon() {
        List<Object> unclaimed;
        synchronized (uploadLock) {
            abandoned = true;
            unclaimed = unclaimedUpload;
            unclaimedUpload = List.of();
        }
        uploads.discard(unclaimed);
        if (materialising != null) {
            materialising.cancel(false);
            materialising = null;
        }
    }

    /** Whether a materialisation is in flight or done and not yet used. */
    boolean materialising() {
        return materialising != null;
    }

    /** Hands {@code state} and {@code ledger}, as they are now, to the materialiser. */
    private Future<Materialised> materialise(Changelog<byte[]> state, StateMerge merge,
                                             Changelog<Map<RecordId, Integer>> ledger) {
        FutureTask<Materialised> task = new FutureTask<>(() -> {
            byte[] s = state.length() == 1 ? state.latest() : merge.merge(state.segments());
            Map<RecordId, Integer> l = ledger.length() == 1 ? ledger.latest() : mergedLedger(ledger);
            List<Object> merged = new java.util.ArrayList<>(2); // what is new: a one-segment chain merged nothing
            if (state.length() > 1) {
                merged.add(s);
            }
            if (ledger.length() > 1) {
                merged.add(l);
            }
            List<Object> uploaded = uploads.upload(this.task, merged) ? merged : List.of();
            boolean drop;
            synchronized (uploadLock) {
                drop = abandoned; // abandon() came while this ran: nobody will rebase on it
                unclaimedUpload = drop ? List.of() : uploaded;
            }
            if (drop) {
                uploads.discard(uploaded);
            }
            return new Materialised(state, s, ledger, l, drop ? List.of() : uploaded);
        });
        try {
            materialiser.execute(task);
        } catch (RejectedExecutionException e) {
            return null; // no materialiser: the chains grow until one takes it
        }
        return task;
    }

    /** The ledger's segments merged in order: per record, its count in the newest segment that has it. */
    private static Map<RecordId, Integer> mergedLedger(Changelog<Map<RecordId, Integer>> ledger) {
        RecordLedger whole = new RecordLedger();
        for (Map<RecordId, Integer> segment : ledger.segments()) {
            whole.putAll(segment);
        }
        return whole.readOnly();
    }

    /** If the materialisation is done, rebases the chains on it (or drops it if it failed). */
    private void rebaseIfMaterialised() {
        if (materialising == null || !materialising.isDone()) {
            return;
        }
        Materialised m;
        try {
            m = materialising.get();
        } catch (ExecutionException | CancellationException | InterruptedException e) {
            materialising = null;
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            if (++failedMaterialisations > MAX_FAILED_MATERIALISATIONS) {
                throw new IllegalStateException(failedMaterialisations + " materialisations failed in a row",
                        e.getCause() != null ? e.getCause() : e);
            }
            return;
        }
        materialising = null;
        failedMaterialisations = 0;
        synchronized (uploadLock) {
            unclaimedUpload = List.of(); // the chains hold it now: the store takes it over, or a restore drops it
        }
        // a one-segment point merged nothing; a null rebase: the chain no longer extends the point
        Changelog<byte[]> s = m.statePoint().length() == 1 ? null
                : state.compactState(m.statePoint(), m.state(), m.state().length);
        Changelog<Map<RecordId, Integer>> l = m.ledgerPoint().length() == 1 ? null
                : ledger.compactState(m.ledgerPoint(), m.ledger(), m.ledger().size());
        if (s != null) {
            state = s;
        }
        if (l != null) {
            ledger = l;
        }
        if ((s == null || l == null) && !m.uploaded().isEmpty()) {
            List<Object> unused = new java.util.ArrayList<>(); // a rebase that did not apply: its upload is of no use
            if (s == null && m.statePoint().length() > 1) {
                unused.add(m.state());
            }
            if (l == null && m.ledgerPoint().length() > 1) {
                unused.add(m.ledger());
            }
            uploads.discard(unused);
        }
    }
}
