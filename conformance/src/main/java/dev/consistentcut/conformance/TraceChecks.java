package dev.consistentcut.conformance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Java-side judgement of a Flink trace, from outside the spec:
 * <ul>
 *   <li>the cut of every completed checkpoint ({@code ConsistentCutInv}'s halves,
 *       {@code NoDoubleCountInv} and {@code NoSkipInv}, over what Flink lets a user function see):
 *       the sources' offsets against every operator's processed bag. The in-flight records an
 *       unaligned checkpoint stores are hidden from user functions, so in unaligned and
 *       alternating mode only the {@code <=} half is checked (a bag may lack a record whose copy
 *       is in channel state, never hold one past the cut); at least once checks the {@code >=}
 *       half; aligned both;
 *   <li>the output ({@code OutputExactlyOnceInv} / {@code OutputAtLeastOnceInv}): the sink's bag
 *       at the end of the last attempt, its restored bag plus what it processed after, holds each
 *       record of each source log once per path to the sink (at least once);
 *   <li>with the two-phase-commit sink ({@link TransactionalSink}), its committed output, which
 *       every sink snapshot, every commit and the run's end record ({@code output}): a commit
 *       only of a checkpoint that completed (some other task was notified of it or restored from
 *       it); the output changes only at a commit, or by the re-commit of a restore (before the
 *       first output of a newer attempt), and never shrinks; never a record more often than
 *       its paths to the sink ({@code NoDuplicateOutputInv}); at the end, each record exactly
 *       that often ({@code OutputExactlyOnceInv}; at least, at least once).
 * </ul>
 * Each check returns every violation it finds, each a sentence naming the checkpoint, task and
 * record; an empty list is a pass.
 */
public final class TraceChecks {

    private TraceChecks() {
    }

    /** Every violation in {@code events} of the run {@code spec}. */
    public static List<String> check(RunSpec spec, List<Map<String, Object>> events) {
        Topology topology = new Topology(spec);
        List<String> out = new ArrayList<>();
        out.addAll(cuts(spec, topology, events));
        out.addAll(output(spec, topology, events));
        if (spec.transactionalSink()) {
            out.addAll(transactions(spec, topology, events));
        }
        out.addAll(faults(spec, events));
        out.addAll(savepoints(spec, events));
        out.addAll(stopWithSavepoint(spec, events));
        return out;
    }

    /** The synchronous savepoints: the checkpoints whose SnapshotState events say {@code "stopWithSavepoint": true}. */
    static TreeSet<Long> stopSavepointIds(List<Map<String, Object>> events) {
        return checkpointsMarked(events, "stopWithSavepoint");
    }

    /** The checkpoints of the SnapshotState events whose field {@code mark} is {@code true}. */
    private static TreeSet<Long> checkpointsMarked(List<Map<String, Object>> events, String mark) {
        TreeSet<Long> ids = new TreeSet<>();
        for (Map<String, Object> e : events) {
            if (e.get("event").equals("SnapshotState") && Boolean.TRUE.equals(e.get(mark))) {
                ids.add(num(e.get("checkpoint")));
            }
        }
        return ids;
    }

    /**
     * The stop-with-savepoint (docs/conformance.md, "Stop with savepoint"): a run asked for one has
     * exactly one {@code StopWithSavepoint} event, naming the checkpoint whose snapshots are
     * marked; Flink notifies every task of the first job's last attempt that snapshotted it of its
     * completion before the job ends (CheckpointCoordinator#cleanupAfterCompletedCheckpoint
     * notifies a savepoint if it is synchronous; StreamTask#runSynchronousSavepointMailboxLoop
     * keeps the task running until then), the two-phase-commit sink excepted (its notification is
     * a commit, written only if it has a transaction to commit); and every task of the second
     * job starts restored from it (SavepointRestoreSettings). Its cut is checked with the
     * completed checkpoints' ({@link #cuts}), the output of both jobs together by {@link #output}.
     */
    static List<String> stopWithSavepoint(RunSpec spec, List<Map<String, Object>> events) {
        List<String> out = new ArrayList<>();
        List<Map<String, Object>> stops = events.stream().filter(e -> e.get("event").equals("StopWithSavepoint")).toList();
        TreeSet<Long> marked = stopSavepointIds(events);
        if (!spec.stopWithSavepoint()) {
            if (!stops.isEmpty() || !marked.isEmpty()) {
                out.add("a stop-with-savepoint that was not asked for");
            }
            return out;
        }
        if (stops.size() != 1) {
            out.add("a stop-with-savepoint was asked for, the trace has " + stops.size() + " StopWithSavepoint event(s)");
            return out;
        }
        Map<String, Object> stop = stops.get(0);
        long sp = num(stop.get("checkpoint"));
        long stoppedAttempt = num(stop.get("attempt"));
        if (!marked.equals(new TreeSet<>(List.of(sp)))) {
            out.add("the stop names savepoint " + sp + ", the snapshots marked stopWithSavepoint are of " + marked);
        }
        int at = events.indexOf(stop);
        java.util.Set<String> snapshotted = new java.util.TreeSet<>();
        java.util.Set<String> notified = new java.util.TreeSet<>();
        for (Map<String, Object> e : events.subList(0, at)) {
            boolean ofIt = e.containsKey("checkpoint") && num(e.get("checkpoint")) == sp
                    && num(e.get("attempt")) == stoppedAttempt;
            if (ofIt && e.get("event").equals("SnapshotState")) {
                snapshotted.add((String) e.get("task"));
            } else if (ofIt && e.get("event").equals("NotifyCheckpointComplete")) {
                notified.add((String) e.get("task"));
            }
        }
        if (spec.transactionalSink()) {
            snapshotted.remove("sink#0");
        }
        for (String t : snapshotted) {
            if (!notified.contains(t)) {
                out.add("savepoint " + sp + " of the stop: " + t + " (attempt " + stoppedAttempt + ") snapshotted it and was"
                        + " not notified of its completion before the job ended");
            }
        }
        java.util.Set<String> started = new java.util.TreeSet<>();
        for (Map<String, Object> e : events.subList(at + 1, events.size())) {
            if (e.get("event").equals("InitializeState") && num(e.get("attempt")) == stoppedAttempt + 1) {
                started.add((String) e.get("task"));
                if (num(e.get("restored")) != sp) {
                    out.add("the job after the stop: " + e.get("task") + " (attempt " + e.get("attempt") + ") restored "
                            + e.get("restored") + ", not the savepoint " + sp);
                }
            } else if (num(e.get("attempt")) <= stoppedAttempt && !e.get("event").equals("RunEnded")) {
                out.add("an event of the stopped job after the stop: " + e.get("event") + " of " + e.get("task")
                        + " (attempt " + e.get("attempt") + ")");
            }
        }
        if (started.isEmpty()) {
            out.add("no task started again after the stop (attempt " + (stoppedAttempt + 1) + ")");
        }
        return out;
    }

    /** The savepoints: the checkpoints whose SnapshotState events say {@code "savepoint": true}. */
    static TreeSet<Long> savepointIds(List<Map<String, Object>> events) {
        return checkpointsMarked(events, "savepoint");
    }

    /**
     * The savepoint (docs/conformance.md, "Savepoints"): a run asked for one has it; Flink 2.3
     * notifies no task of a savepoint's completion and never restores one on failover
     * (CheckpointCoordinator#completePendingCheckpoint: a savepoint is not added to the
     * completed-checkpoint store, and cleanupAfterCompletedCheckpoint notifies checkpoints and
     * synchronous savepoints only). Its cut is checked with the completed checkpoints' ({@link #cuts}).
     */
    static List<String> savepoints(RunSpec spec, List<Map<String, Object>> events) {
        List<String> out = new ArrayList<>();
        TreeSet<Long> ids = savepointIds(events);
        if (spec.savepoint() && ids.isEmpty()) {
            out.add("a savepoint was asked for, none is in the trace (no snapshot says \"savepoint\": true)");
        }
        for (Map<String, Object> e : events) {
            if (e.get("event").equals("NotifyCheckpointComplete") && ids.contains(num(e.get("checkpoint")))) {
                out.add("savepoint " + e.get("checkpoint") + ": " + e.get("task") + " was notified of its completion");
            } else if (e.get("event").equals("InitializeState") && ids.contains(num(e.get("restored")))) {
                out.add("savepoint " + e.get("restored") + ": " + e.get("task") + " (attempt " + e.get("attempt")
                        + ") restored from it on failover");
            }
        }
        return out;
    }

    /**
     * The faults (docs/conformance.md, "Faults"): a checkpoint is completed or aborted, never both
     * (no task is told of the abort of a checkpoint that some task was told completed or was
     * restored from); a declined or an expired checkpoint (of a {@code SnapshotState} with
     * {@code fault} {@code decline} or {@code timeout}) never completes; the
     * run shows the faults asked for, {@code failures} of them (seeded throws, attempts ended by
     * a TaskManager loss, declines, slow snapshots), and, for a throw or a TaskManager loss, as
     * many restarts.
     */
    static List<String> faults(RunSpec spec, List<Map<String, Object>> events) {
        List<String> out = new ArrayList<>();
        TreeSet<Long> completed = completed(events);
        for (Map<String, Object> e : events) {
            if (e.get("event").equals("NotifyCheckpointAborted") && completed.contains(num(e.get("checkpoint")))) {
                out.add("checkpoint " + e.get("checkpoint") + " completed (a task was notified of it or restored from it),"
                        + " yet " + e.get("task") + " (attempt " + e.get("attempt") + ") was told it was aborted");
            }
        }
        int faults = 0;
        TreeSet<Long> attemptsLost = new TreeSet<>();
        for (Map<String, Object> e : events) {
            Object cause = e.get("cause");
            if (e.get("event").equals("FailTask") && "tm-loss".equals(cause)) {
                attemptsLost.add(num(e.get("attempt")));
            }
            if (spec.fault() == RunSpec.Fault.THROW && e.get("event").equals("FailTask") && "seeded-throw".equals(cause)) {
                faults++;
            }
            if (e.get("event").equals("SnapshotState") && e.containsKey("fault")) {
                long failed = num(e.get("checkpoint"));
                faults += spec.fault().option().equals(e.get("fault")) ? 1 : 0;
                if (completed.contains(failed)) {
                    out.add("checkpoint " + failed + " completed, yet " + e.get("task") + " "
                            + ("decline".equals(e.get("fault")) ? "declined it" : "took " + e.get("slowMillis")
                                    + " ms over its snapshot, past the checkpoint timeout of " + RunSpec.TIMEOUT_MILLIS + " ms"));
                }
            }
        }
        if (spec.fault() == RunSpec.Fault.TM_LOSS) {
            faults = attemptsLost.size();
        }
        if (faults != spec.failures()) {
            out.add("the run shows " + faults + " fault(s) of kind " + spec.fault().option() + ", " + spec.failures()
                    + " were asked for");
        }
        long lastAttempt = events.isEmpty() ? 0 : num(events.get(events.size() - 1).get("attempt"));
        // a stop-with-savepoint and the job restored from it: one attempt more
        long restarts = lastAttempt - (spec.stopWithSavepoint() ? 1 : 0);
        if ((spec.fault() == RunSpec.Fault.THROW || spec.fault() == RunSpec.Fault.TM_LOSS) && restarts != spec.failures()) {
            out.add("the run ended in attempt " + lastAttempt + ": Flink restarted it " + restarts + " time(s)"
                    + (spec.stopWithSavepoint() ? " besides the stop-with-savepoint" : "") + ", "
                    + spec.failures() + " fault(s) of kind " + spec.fault().option() + " were asked for");
        }
        return out;
    }

    /** The sink's commits: the sink#0 NotifyCheckpointComplete events of a two-phase-commit sink's trace. */
    static boolean isCommit(Map<String, Object> e) {
        return e.get("event").equals("NotifyCheckpointComplete") && "sink#0".equals(e.get("task"));
    }

    /** The checks of the two-phase-commit sink's committed output (the class comment). */
    static List<String> transactions(RunSpec spec, Topology topology, List<Map<String, Object>> events) {
        List<String> out = new ArrayList<>();
        TreeSet<Long> completedElsewhere = new TreeSet<>();
        for (Map<String, Object> e : events) {
            if (e.get("event").equals("NotifyCheckpointComplete") && !isCommit(e)) {
                completedElsewhere.add(num(e.get("checkpoint")));
            } else if (e.get("event").equals("InitializeState") && num(e.get("restored")) > 0) {
                completedElsewhere.add(num(e.get("restored")));
            }
        }
        Map<String, Integer> before = new HashMap<>();
        long attempt = 0;
        boolean sawEnd = false;
        for (int k = 0; k < events.size(); k++) {
            Map<String, Object> e = events.get(k);
            if (!e.containsKey("output")) {
                continue;
            }
            String where = "event " + (k + 1) + " (" + e.get("event") + " of " + e.get("task")
                    + (e.containsKey("checkpoint") ? ", checkpoint " + e.get("checkpoint") : "") + ")";
            Map<String, Integer> now = bag(e.get("output"));
            boolean commit = isCommit(e);
            if (commit && !completedElsewhere.contains(num(e.get("checkpoint")))) {
                out.add("commit of a checkpoint that did not complete: " + where + ": no other task was notified of"
                        + " checkpoint " + e.get("checkpoint") + " nor restored from it");
            }
            boolean newAttempt = num(e.get("attempt")) > attempt;
            if (!commit && !newAttempt && !now.equals(before)) {
                out.add("the committed output changed outside a commit: at " + where + " it is " + new TreeMap<>(now)
                        + ", after the previous commit " + new TreeMap<>(before));
            }
            for (Map.Entry<String, Integer> b : before.entrySet()) {
                if (now.getOrDefault(b.getKey(), 0) < b.getValue()) {
                    out.add("the committed output lost " + b.getKey() + " at " + where);
                }
            }
            for (Map.Entry<String, Integer> r : now.entrySet()) {
                String[] p = r.getKey().split("/");
                int paths = topology.paths(p[0], Integer.parseInt(p[1]), "sink#0");
                if (r.getValue() > paths && !spec.mode().equals("at-least-once")) {
                    out.add("NoDuplicateOutputInv: at " + where + " the committed output holds " + r.getKey() + " "
                            + r.getValue() + " time(s), its paths to the sink allow " + paths);
                }
            }
            before = now;
            attempt = num(e.get("attempt"));
            if (e.get("event").equals("RunEnded")) {
                sawEnd = Boolean.TRUE.equals(e.get("finished"));
            }
        }
        if (sawEnd) {
            boolean exactlyOnce = !spec.mode().equals("at-least-once");
            for (String src : topology.sources) {
                for (int off = 0; off < spec.records(); off++) {
                    int want = topology.paths(src, off, "sink#0");
                    int have = before.getOrDefault(src + "/" + off, 0);
                    if (have < want || (exactlyOnce && have > want)) {
                        out.add((exactlyOnce ? "OutputExactlyOnceInv" : "OutputAtLeastOnceInv") + ": the committed output"
                                + " at the end holds " + src + "/" + off + " " + have + " time(s), expected "
                                + (exactlyOnce ? "" : "at least ") + want);
                    }
                }
            }
        }
        return out;
    }

    /** The checkpoints Flink completed: notified to some task, or restored from. */
    static TreeSet<Long> completed(List<Map<String, Object>> events) {
        TreeSet<Long> done = new TreeSet<>();
        for (Map<String, Object> e : events) {
            if (e.get("event").equals("NotifyCheckpointComplete")) {
                done.add(num(e.get("checkpoint")));
            } else if (e.get("event").equals("InitializeState") && num(e.get("restored")) > 0) {
                done.add(num(e.get("restored")));
            }
        }
        return done;
    }

    static List<String> cuts(RunSpec spec, Topology topology, List<Map<String, Object>> events) {
        TreeSet<Long> judged = completed(events);
        judged.addAll(savepointIds(events)); // completed, though no task is told (savepoints)
        return cutsAt(spec, topology, events, judged);
    }

    /** The cut check of {@link #cuts} at checkpoints {@code judged}, whatever the trace says of their completion. */
    static List<String> cutsAt(RunSpec spec, Topology topology, List<Map<String, Object>> events,
            java.util.Set<Long> judged) {
        List<String> out = new ArrayList<>();
        // checkpoint -> task -> the SnapshotState event (the last, if a task snapshotted twice)
        Map<Long, Map<String, Map<String, Object>>> snaps = new TreeMap<>();
        for (Map<String, Object> e : events) {
            if (e.get("event").equals("SnapshotState")) {
                snaps.computeIfAbsent(num(e.get("checkpoint")), k -> new HashMap<>()).put((String) e.get("task"), e);
            }
        }
        boolean exact = spec.mode().equals("aligned");
        boolean upper = !spec.mode().equals("at-least-once");
        boolean lower = spec.mode().equals("aligned") || spec.mode().equals("at-least-once");
        // A savepoint's barriers are aligned in every exactly-once mode (CheckpointOptions#forConfig:
        // alignedNoTimeout for a savepoint, even with unaligned checkpoints on; "Savepoints can not
        // be unaligned"): no channel state, so its bags hold every record of its cut there too.
        TreeSet<Long> aligned = savepointIds(events);
        aligned.addAll(stopSavepointIds(events));
        for (long c : new TreeSet<>(judged)) {
            boolean skipObservable = lower || exact || upper && aligned.contains(c);
            Map<String, Map<String, Object>> s = snaps.getOrDefault(c, Map.of());
            Map<String, Integer> offsets = new LinkedHashMap<>();
            boolean allSources = true;
            for (String src : topology.sources) {
                Map<String, Object> e = s.get(src);
                if (e == null) {
                    allSources = false; // a finished source takes no snapshot: its offset is its end
                    offsets.put(src, spec.records());
                    continue;
                }
                int o = (int) num(e.get("offset"));
                if (o > spec.records()) {
                    out.add("checkpoint " + c + ": source " + src + " recorded offset " + o + ", past the end of its log ("
                            + spec.records() + " records)");
                }
                offsets.put(src, Math.min(o, spec.records()));
            }
            for (String task : topology.operators) {
                Map<String, Object> e = s.get(task);
                if (e == null) {
                    continue; // a task that had finished: no snapshot to check
                }
                Map<String, Integer> bag = bag(e.get("snapshot"));
                for (String src : topology.sources) {
                    for (int off = 0; off < spec.records(); off++) {
                        int want = off < offsets.get(src) ? topology.paths(src, off, task) : 0;
                        int have = bag.getOrDefault(src + "/" + off, 0);
                        if (upper && have > want) {
                            out.add("NoDoubleCountInv: checkpoint " + c + ": " + task + " holds " + src + "/" + off + " "
                                    + have + " time(s), the cut (offset " + offsets.get(src) + ") allows " + want);
                        } else if (skipObservable && have < want && allSources) {
                            out.add("NoSkipInv: checkpoint " + c + ": " + task + " holds " + src + "/" + off + " " + have
                                    + " time(s), the cut (offset " + offsets.get(src) + ") needs " + want);
                        }
                    }
                }
            }
        }
        return out;
    }

    static List<String> output(RunSpec spec, Topology topology, List<Map<String, Object>> events) {
        List<String> out = new ArrayList<>();
        Map<String, Object> end = events.get(events.size() - 1);
        if (!end.get("event").equals("RunEnded") || !Boolean.TRUE.equals(end.get("finished"))) {
            out.add("the job did not finish: the output cannot be judged");
            return out;
        }
        long lastAttempt = num(end.get("attempt"));
        Map<String, Integer> sink = null;
        for (Map<String, Object> e : events) {
            if (!"sink#0".equals(e.get("task")) || num(e.get("attempt")) != lastAttempt) {
                continue;
            }
            if (e.get("event").equals("InitializeState")) {
                sink = bag(e.get("processed"));
            } else if (e.get("event").equals("ProcessRecord") && sink != null) {
                @SuppressWarnings("unchecked")
                Map<String, Object> r = (Map<String, Object>) e.get("record");
                sink.merge(r.get("src") + "/" + num(r.get("off")), 1, Integer::sum);
            }
        }
        if (sink == null) {
            out.add("the sink did not run in the last attempt (" + lastAttempt + "): no output to judge");
            return out;
        }
        boolean exactlyOnce = !spec.mode().equals("at-least-once");
        String name = exactlyOnce ? "OutputExactlyOnceInv" : "OutputAtLeastOnceInv";
        for (String src : topology.sources) {
            for (int off = 0; off < spec.records(); off++) {
                int want = topology.paths(src, off, "sink#0");
                int have = sink.getOrDefault(src + "/" + off, 0);
                if (have < want || (exactlyOnce && have > want)) {
                    out.add(name + ": the output holds " + src + "/" + off + " " + have + " time(s), expected "
                            + (exactlyOnce ? "" : "at least ") + want);
                }
            }
        }
        return out;
    }

    /** A trace bag {@code [[record, count], ...]} as {@code src/off -> count}. */
    static Map<String, Integer> bag(Object v) {
        Map<String, Integer> b = new HashMap<>();
        for (Object entry : (List<?>) v) {
            List<?> pair = (List<?>) entry;
            Map<?, ?> r = (Map<?, ?>) pair.get(0);
            b.merge(r.get("src") + "/" + num(r.get("off")), (int) num(pair.get(1)), Integer::sum);
        }
        return b;
    }

    static long num(Object o) {
        return ((Number) o).longValue();
    }
}
