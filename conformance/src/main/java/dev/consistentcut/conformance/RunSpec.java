package dev.consistentcut.conformance;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Everything that decides one conformance run, shipped to the functions inside the job graph.
 * A run is deterministic from it up to Flink's scheduling: record {@code off} of source {@code s}
 * has the key {@link #key(String, int)}; each source waits at every gate offset until a checkpoint
 * completes (so that checkpoints fall between records whatever the timing); seeded fault
 * {@code k < failures} falls at gate {@code k} ({@link Fault}: by default attempt {@code k} ends
 * with a throw in the keyed operator at the first record at or past gate {@code k}, so after a
 * completed checkpoint of that attempt).
 *
 * @param mode aligned | unaligned | at-least-once | alternating
 * @param job join | diamond
 * @param failures seeded faults (a throw or a TaskManager loss: a global failure and a restore by
 *     the restart strategy; a declined or expired checkpoint: an abort, a failure beyond {@code tolerable})
 * @param seed the run's seed
 * @param records records per source
 * @param emitMillis pause between two records of one source (a throttle, not a test condition)
 * @param checkpointMillis the periodic checkpoint interval; 0: only the checkpoints the harness
 *     triggers while a source waits at a gate (and at the end)
 * @param twin the deliberately wrong user code of a broken twin, or {@link Twin#NONE}
 * @param transactionalSink the sink is the two-phase-commit sink ({@link TransactionalSink}: a
 *     Sink V2 writer that pre-commits and a committer that commits on checkpoint completion),
 *     not the plain operator
 * @param fault the kind of the {@code failures} seeded faults ({@link Fault}; each at its gate)
 * @param tolerable Flink's {@code execution.checkpointing.tolerable-failed-checkpoints} for the
 *     faults that fail a checkpoint ({@link Fault#DECLINE}, {@link Fault#TIMEOUT}): how many
 *     failed checkpoints in a row {@code CheckpointFailureManager} lets pass before it fails the job
 * @param maxConcurrent Flink's {@code execution.checkpointing.max-concurrent-checkpoints}
 * @param savepoint the harness takes a savepoint at the first gate, after that gate's checkpoint
 *     completed and before the sources go on (so a failure after the gate finds the savepoint the
 *     newest completed snapshot)
 * @param stopWithSavepoint the harness stops the job with a savepoint ({@code MiniCluster#stopWithSavepoint},
 *     a synchronous savepoint, after which the job ends) at gate {@link #stopGate()}, once that
 *     gate's checkpoint completed, and then runs the job again restored from that savepoint
 *     ({@code SavepointRestoreSettings}): the second job's attempts follow the first's in the trace
 */
public record RunSpec(String mode, String job, int failures, long seed, int records, int emitMillis, int checkpointMillis,
                      Twin twin, boolean transactionalSink, Fault fault, int tolerable, int maxConcurrent,
                      boolean savepoint, boolean stopWithSavepoint)
        implements Serializable {

    /** A run without a savepoint. */
    public RunSpec(String mode, String job, int failures, long seed, int records, int emitMillis, int checkpointMillis,
            Twin twin, boolean transactionalSink, Fault fault, int tolerable, int maxConcurrent) {
        this(mode, job, failures, seed, records, emitMillis, checkpointMillis, twin, transactionalSink, fault, tolerable,
                maxConcurrent, false, false);
    }

    /** A run with a savepoint ({@code savepoint}) or none, and no stop-with-savepoint. */
    public RunSpec(String mode, String job, int failures, long seed, int records, int emitMillis, int checkpointMillis,
            Twin twin, boolean transactionalSink, Fault fault, int tolerable, int maxConcurrent, boolean savepoint) {
        this(mode, job, failures, seed, records, emitMillis, checkpointMillis, twin, transactionalSink, fault, tolerable,
                maxConcurrent, savepoint, false);
    }

    /**
     * The kinds of seeded fault (docs/conformance.md, "Faults"). Fault {@code k < failures} falls at
     * gate {@code k}: after that gate's checkpoint completed (throw, TaskManager loss), or on the
     * gate's checkpoint itself (decline, timeout).
     */
    public enum Fault {
        /** The keyed operator throws at its first record at or past the gate: a task failure, Flink restarts. */
        THROW,
        /**
         * The harness terminates the TaskManager that runs a keyed task once a source passed the
         * gate ({@code MiniCluster#terminateTaskManager}) and starts a fresh one: every task on it
         * fails, Flink restarts.
         */
        TM_LOSS,
        /**
         * The keyed operator throws in {@code snapshotState} of the gate's checkpoint: its task
         * declines it, the coordinator aborts it (and fails the job beyond {@code tolerable}).
         */
        DECLINE,
        /**
         * The keyed operator's {@code snapshotState} of the gate's checkpoint takes longer than the
         * checkpoint timeout: the coordinator expires it (and fails the job beyond {@code tolerable}).
         */
        TIMEOUT;

        /** The option's spelling: throw, tm-loss, decline, timeout. */
        public String option() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }

        /** A fault that fails a checkpoint rather than a task. */
        public boolean failsCheckpoint() {
            return this == DECLINE || this == TIMEOUT;
        }
    }

    /** The checkpoint timeout of runs with {@link Fault#TIMEOUT} (Flink's default, 10 min, otherwise). */
    public static final long TIMEOUT_MILLIS = 2000;
    /** How long the slow snapshot of a {@link Fault#TIMEOUT} takes: well past the timeout. */
    public static final long SLOW_SNAPSHOT_MILLIS = 2600;

    /** Keys of the records: few, so that both keyed tasks get records of both sources. */
    public static final int KEYS = 6;
    /** Records per source of the default run: enough for two gates and a failure, few enough for TLC. */
    public static final int DEFAULT_RECORDS = 12;
    /**
     * The default periodic checkpoint interval: none, only the gates' checkpoints and the final
     * one (two to four per run): each checkpoint multiplies the hidden interleavings TLC searches.
     */
    public static final int DEFAULT_CHECKPOINT_MILLIS = 0;
    /** The keyed operator's max parallelism (key groups), set on the job and used for the routes. */
    public static final int MAX_PARALLELISM = 128;
    /** The keyed operator's parallelism. */
    public static final int JOIN_PARALLELISM = 2;

    public static final List<String> MODES = List.of("aligned", "unaligned", "at-least-once", "alternating");
    public static final List<String> JOBS = List.of("join", "diamond");

    /** Broken twins (docs/conformance.md, "Broken twins"): user code that is wrong, each must be caught. */
    public enum Twin {
        NONE,
        /** The source records in snapshotState the offset one past the barrier's. */
        SOURCE_OFFSET_AHEAD,
        /** The keyed operator counts a record into its state only in notifyCheckpointComplete. */
        STATE_IN_NOTIFY,
        /** The sink drops its restored state (as if it had committed its output in snapshotState). */
        SINK_DROPS_ON_RESTORE,
        /** The source replays from offset 0 on restore while every operator keeps its restored state. */
        REPLAY_FROM_ZERO,
        /**
         * The two-phase-commit sink's writer commits its transaction in prepareCommit (the
         * checkpoint's snapshot) instead of leaving it to the committer (the spec's
         * BugCommitOnSnapshot): output becomes visible before its checkpoint completes.
         */
        COMMIT_ON_SNAPSHOT,
        /**
         * The two-phase-commit sink's committer appends a transaction's records to the output each
         * time it is asked, so the re-commit of the restored checkpoint's transactions after a
         * failure appends again (the spec's BugCommitNotIdempotent).
         */
        COMMIT_NOT_IDEMPOTENT;

        /** A twin of the two-phase-commit sink: its runs use that sink. */
        public boolean ofTransactionalSink() {
            return this == COMMIT_ON_SNAPSHOT || this == COMMIT_NOT_IDEMPOTENT;
        }
    }

    public RunSpec {
        if (!MODES.contains(mode)) {
            throw new IllegalArgumentException("mode " + mode + ": expected one of " + MODES);
        }
        if (!JOBS.contains(job)) {
            throw new IllegalArgumentException("job " + job + ": expected one of " + JOBS);
        }
        if (failures < 0 || failures > 5) {
            throw new IllegalArgumentException("failures " + failures + ": expected 0 to 5");
        }
        if (fault == null) {
            throw new IllegalArgumentException("fault: expected one of throw, tm-loss, decline, timeout");
        }
        if (tolerable < 0) {
            throw new IllegalArgumentException("tolerable " + tolerable + ": expected 0 or more");
        }
        if (maxConcurrent < 1 || maxConcurrent > 2) {
            throw new IllegalArgumentException("max-concurrent " + maxConcurrent + ": expected 1 or 2");
        }
        if (maxConcurrent > 1 && (mode.equals("unaligned") || mode.equals("alternating"))) {
            // Flink refuses the job graph: "maxConcurrentCheckpoints can't be > 1 if
            // UnalignedCheckpoints enabled" (its checkpoint config validation)
            throw new IllegalArgumentException("max-concurrent " + maxConcurrent + ": Flink takes unaligned checkpoints"
                    + " one at a time (mode " + mode + ")");
        }
        if (savepoint && stopWithSavepoint) {
            throw new IllegalArgumentException("savepoint and stop-with-savepoint: one savepoint a run");
        }
        if (stopWithSavepoint && fault != Fault.THROW) {
            // the stop falls at the gate after the last fault; the other kinds' gates are their own
            throw new IllegalArgumentException("stop-with-savepoint: with the default fault (throw) only");
        }
        if (stopWithSavepoint && twin != Twin.NONE) {
            throw new IllegalArgumentException("stop-with-savepoint: not with a broken twin");
        }
        if (maxConcurrent > 1 && checkpointMillis == 0) {
            throw new IllegalArgumentException("max-concurrent " + maxConcurrent + " needs periodic checkpoints (--interval):"
                    + " the gates' checkpoints are triggered one at a time");
        }
        if (records < 4 * (failures + 2)) {
            throw new IllegalArgumentException("records " + records + ": at least " + 4 * (failures + 2)
                    + " per source for " + failures + " failures");
        }
    }

    /** A run with seeded throws (today's fault), every failed checkpoint tolerated, one checkpoint at a time. */
    public RunSpec(String mode, String job, int failures, long seed, int records, int emitMillis, int checkpointMillis,
            Twin twin, boolean transactionalSink) {
        this(mode, job, failures, seed, records, emitMillis, checkpointMillis, twin, transactionalSink, Fault.THROW,
                failures, 1);
    }

    /** The default small run: a dozen records per source (more for more failures), throttled. */
    public static RunSpec of(String mode, String job, int failures, long seed) {
        return new RunSpec(mode, job, failures, seed, recordsFor(failures), 3, DEFAULT_CHECKPOINT_MILLIS, Twin.NONE,
                false);
    }

    /** The same run with faults of kind {@code f}, every failed checkpoint tolerated (the job goes on). */
    public RunSpec withFault(Fault f) {
        return new RunSpec(mode, job, failures, seed, records, emitMillis, checkpointMillis, twin, transactionalSink, f,
                failures, maxConcurrent, savepoint, stopWithSavepoint);
    }

    /** The same run with {@code k} tolerable failed checkpoints. */
    public RunSpec withTolerable(int k) {
        return new RunSpec(mode, job, failures, seed, records, emitMillis, checkpointMillis, twin, transactionalSink, fault,
                k, maxConcurrent, savepoint, stopWithSavepoint);
    }

    /** The default records per source for {@code failures} failures: four a failure plus eight, at least a dozen. */
    public static int recordsFor(int failures) {
        return Math.max(DEFAULT_RECORDS, 4 * (failures + 2));
    }

    /**
     * The same run with broken twin {@code t}, checkpointed only at the gates: then the first
     * completed checkpoint is the first gate's, whose cut holds records, and no earlier
     * notification reaches a task before it (what makes each twin's catch certain, not likely).
     * A twin of the two-phase-commit sink runs with that sink.
     */
    public RunSpec withTwin(Twin t) {
        return new RunSpec(mode, job, failures, seed, records, emitMillis, t == Twin.NONE ? checkpointMillis : 0, t,
                transactionalSink || t.ofTransactionalSink(), fault, tolerable, t == Twin.NONE ? maxConcurrent : 1,
                t == Twin.NONE && savepoint, t == Twin.NONE && stopWithSavepoint);
    }

    /** The same run with the two-phase-commit sink ({@code true}) or the plain one. */
    public RunSpec withTransactionalSink(boolean on) {
        return new RunSpec(mode, job, failures, seed, records, emitMillis, checkpointMillis, twin, on, fault, tolerable,
                maxConcurrent, savepoint, stopWithSavepoint);
    }

    /** The same run stopped with a savepoint and restored from it ({@code true}), or not. */
    public RunSpec withStopWithSavepoint(boolean on) {
        return new RunSpec(mode, job, failures, seed, records, emitMillis, checkpointMillis, twin, transactionalSink, fault,
                tolerable, maxConcurrent, savepoint, on);
    }

    /**
     * The gate index a stop-with-savepoint falls at: the one after the last seeded fault's gate
     * (gate {@code failures}; there are at least {@code failures + 1} gates), so the faults come
     * first, in the first job.
     */
    public int stopGate() {
        return failures;
    }

    /** The source tasks. */
    public List<String> sources() {
        return job.equals("join") ? List.of("left#0", "right#0") : List.of("src#0");
    }

    /** The key of record {@code off} of source {@code src}: a function of the seed alone. */
    public int key(String src, int off) {
        long h = seed * 0x9E3779B97F4A7C15L + src.hashCode() * 0xC2B2AE3D27D4EB4FL + off * 0x165667B19E3779F9L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 32;
        return (int) Math.floorMod(h, (long) KEYS);
    }

    /**
     * The gate offsets, in increasing order: one per failure plus one (at least two), spread over
     * the log with a seeded jitter, none at 0 or at the end.
     */
    public List<Integer> gates() {
        int n = Math.max(2, failures + 1);
        Random r = new Random(seed ^ 0x5DEECE66DL);
        List<Integer> g = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            int base = i * records / (n + 1);
            int jitter = r.nextInt(3) - 1;
            int v = Math.max(1, Math.min(records - 1, base + jitter));
            if (!g.isEmpty() && v <= g.get(g.size() - 1)) {
                v = g.get(g.size() - 1) + 1;
            }
            g.add(v);
        }
        return g;
    }

    /** Alternating mode's aligned-checkpoint-timeout: seeded, short enough that some alignments time out. */
    public long alignmentTimeoutMillis() {
        return new Random(seed * 31 + 7).nextInt(8);
    }
}
