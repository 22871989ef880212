// Longer than 500 lines: the catalogue of the spec's invariants, one method each beside its TLA+ formula.
package dev.consistentcut.check;

import dev.consistentcut.barrier.DeliveryGuarantee;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.graph.KeyGroups;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.EndOfPartition;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.SplitListState;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;

/**
 * The one place where the Java states the specification's invariants, with the spec's names and
 * formulas ({@code spec/core/Dataflow.tla}, {@code docs/vocabulary.md}), over a physical graph and the
 * records of its source logs (the input universe).
 *
 * <p>Notation, as in the spec: {@code source(r)} is the source instance that read record {@code r};
 * {@code target(e)} the receiver of channel {@code e}; {@code paths(n, r, t)} is
 * {@link PhysicalGraph#paths}; {@code copies(r, s)} the number of times {@code r} occurs in the
 * sequence {@code s}.
 *
 * <p>Each check returns every violation it finds (empty when the invariant holds), each with a
 * message naming the checkpoint, operator, record, both sides and which way the count is off.
 * Immutable and thread-safe.
 */
public final class CutInvariants {

    public static final String CONSISTENT_CUT = "ConsistentCutInv";
    public static final String NO_DOUBLE_COUNT = "NoDoubleCountInv";
    public static final String NO_SKIP = "NoSkipInv";
    public static final String EXACTLY_ONCE = "ExactlyOnceInv";
    public static final String AT_LEAST_ONCE = "AtLeastOnceInv";
    public static final String ALIGNED_NO_CHANNEL_STATE = "AlignedNoChannelStateInv";
    public static final String UNALIGNED_NEVER_BLOCKS = "UnalignedNeverBlocksInv";
    public static final String UNALIGNED_CHANNEL_STATE_BOUND = "UnalignedChannelStateBoundInv";
    public static final String SAVEPOINT_NO_CHANNEL_STATE = "SavepointNoChannelStateInv";
    public static final String SWITCH_PROPAGATES = "SwitchPropagatesInv";
    public static final String FIFO_CHANNEL = "FifoChannelInv";
    public static final String FIFO_CHANNEL_STATE = "FifoChannelStateInv";
    public static final String RESTORE_POINT = "RestorePointInv";
    public static final String RESTORE_POINT_MONOTONE = "RestorePointMonotoneProp";
    public static final String CHECKPOINT_STATUS = "CheckpointStatusProp";
    public static final String FAILURE_ABORTS_PENDING = "FailureAbortsPendingInv";
    public static final String BARRIER_OVERTAKES = "BarrierOvertakesInv";
    public static final String END_OF_PARTITION_ONCE = "EndOfPartitionOnceInv";
    public static final String CANCEL_BARRIER_ONCE = "CancelBarrierOnceInv";
    public static final String NO_DUPLICATE_OUTPUT = "NoDuplicateOutputInv";
    public static final String OUTPUT_EXACTLY_ONCE = "OutputExactlyOnceInv";
    public static final String OUTPUT_AT_LEAST_ONCE = "OutputAtLeastOnceInv";

    private final PhysicalGraph graph;
    private final Universe universe;
    private final List<String> operators;
    /**
     * expected[i * operators.size() + k] = paths(source(universe[i]), universe[i], operators[k]):
     * one flat array, not an array per record.
     */
    private final int[] expected;
    /**
     * Memo of {@link #streamOn}: "H|sender|source|key" (a channel routed by key out of sender) or
     * "N|..." (one that is not) to the stream a record of that source and key is of on such a
     * channel ("" for several routes).
     */
    private final ConcurrentHashMap<String, String> routes = new ConcurrentHashMap<>();
    /** Memo of {@link #hash}: channel id to whether its edge is HASH. */
    private final ConcurrentHashMap<String, Boolean> hashChannels = new ConcurrentHashMap<>();
    private final CutRecheck recheck;
    /**
     * The operators whose state is a split list ({@link SplitListState}), each with the indices of
     * its tasks in {@link #operators}: which of its tasks holds a record's contribution is not
     * fixed by the record's route once a rescaled restore has split the list, so every count of
     * the checks is taken over its tasks together (spec/rescale's {@code ListStateExactlyOnceInv}).
     */
    private final Map<String, int[]> pools = new LinkedHashMap<>();
    /** pooled[k]: operators[k] is a task of an operator of {@link #pools} (one with two tasks or more). */
    private final boolean[] pooled;

    public CutInvariants(PhysicalGraph graph) {
        this.graph = graph;
        this.universe = new Universe(graph);
        this.recheck = new CutRecheck(universe);
        this.operators = graph.operatorTasks();
        this.expected = new int[Math.multiplyExact(universe.size(), operators.size())];
        for (int i = 0; i < universe.size(); i++) {
            Record r = universe.get(i);
            for (int k = 0; k < operators.size(); k++) {
                expected[i * operators.size() + k] = graph.paths(r.id().source(), r, operators.get(k));
            }
        }
        this.pooled = new boolean[operators.size()];
        Map<String, List<Integer>> byNode = new LinkedHashMap<>();
        Map<String, Boolean> lists = new HashMap<>();
        for (int k = 0; k < operators.size(); k++) {
            String node = operators.get(k).substring(0, operators.get(k).lastIndexOf('#'));
            if (lists.computeIfAbsent(node, n -> graph.job().node(n).operatorFactory().get() instanceof SplitListState)) {
                byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(k);
            }
        }
        byNode.forEach((node, tasks) -> {
            if (tasks.size() > 1) { // one task: the counts together are its own
                pools.put(node, tasks.stream().mapToInt(Integer::intValue).toArray());
                tasks.forEach(k -> pooled[k] = true);
            }
        });
    }

    /** The units the ledgers are checked by: each task alone, the tasks of an operator of {@link #pools} together. */
    private Map<String, int[]> units() {
        Map<String, int[]> out = new LinkedHashMap<>();
        for (int k = 0; k < operators.size(); k++) {
            if (!pooled[k]) {
                out.put(operators.get(k), new int[] {k});
            }
        }
        pools.forEach((node, tasks) -> out.put(node + "#*", tasks));
        return out;
    }

    /** {@code paths(source(universe[i]), universe[i], operators[k])}. */
    private int expected(int i, int k) {
        return expected[i * operators.size() + k];
    }

    /** Every record of every source log: the records the invariants quantify over (a read-only view of the logs). */
    public List<Record> universe() {
        return universe;
    }

    /**
     * {@code ConsistentCutInv == NoDoubleCountInv /\ NoSkipInv}: for every operator {@code t} and
     * record {@code r},
     * <pre>
     * c.taskSnapshots[t].timesProcessed(r) + Σ_e copies(r, c.channelState[e]) * paths(target(e), r, t)
     *   = IF r.offset < c.sourceOffsets[source(r)] THEN paths(source(r), r, t) ELSE 0
     * </pre>
     * Restoring {@code c} then makes every operator see every record of the cut exactly as often
     * as it has routes to it, and nothing after the cut.
     */
    public List<Violation> consistentCut(CompletedCheckpoint c) {
        return consistentCut(c, null);
    }

    /**
     * {@link #consistentCut(CompletedCheckpoint)}, knowing that every check held in {@code held}, an
     * earlier checkpoint of the same run (null: none known): only what changed since is looked at
     * again (see {@link CutRecheck}), for the same verdict.
     */
    public List<Violation> consistentCut(CompletedCheckpoint c, CompletedCheckpoint held) {
        List<Violation> out = new ArrayList<>();
        checkCut(c, true, true, out, held);
        return out;
    }

    /** {@code NoDoubleCountInv}: no operator would count a record more often than it has routes to it after a restore (the {@code <=} half). */
    public List<Violation> noDoubleCount(CompletedCheckpoint c) {
        List<Violation> out = new ArrayList<>();
        checkCut(c, true, false, out, null);
        return out;
    }

    /** {@code NoSkipInv}: no operator would miss a record of the cut after a restore (the {@code >=} half). */
    public List<Violation> noSkip(CompletedCheckpoint c) {
        return noSkip(c, null);
    }

    /** {@link #noSkip(CompletedCheckpoint)}, knowing that every check held in {@code held} (as {@link #consistentCut(CompletedCheckpoint, CompletedCheckpoint)}). */
    public List<Violation> noSkip(CompletedCheckpoint c, CompletedCheckpoint held) {
        List<Violation> out = new ArrayList<>();
        checkCut(c, false, true, out, held);
        return out;
    }

    private void checkCut(CompletedCheckpoint c, boolean over, boolean under, List<Violation> out,
                          CompletedCheckpoint held) {
        if (!structureComplete(c, out)) {
            return;
        }
        BitSet common = held == null ? null : recheck.common(c, held);
        // Where each record sits in the persisted channel state: the receivers of its copies.
        Map<RecordId, List<String>> persistedAt = new HashMap<>();
        for (Map.Entry<String, List<Record>> e : c.channelState().entrySet()) {
            String receiver = graph.channel(e.getKey()).receiver();
            for (Record r : e.getValue()) {
                if (!universe.has(r.id())) {
                    out.add(new Violation(CONSISTENT_CUT, c.id(), null, r.id(), 1, 0, "ConsistentCutInv violated in checkpoint "
                            + c.id() + ": channel " + e.getKey() + " holds record " + r.id() + ", which no source log has"));
                    continue;
                }
                persistedAt.computeIfAbsent(r.id(), k -> new ArrayList<>()).add(receiver);
            }
        }
        BitSet nonZero = null; // the cut and channel state of c, when some operator is checked whole
        for (int k = 0; k < operators.size(); k++) {
            if (pooled[k]) {
                continue;
            }
            String t = operators.get(k);
            TaskSnapshot snap = c.taskSnapshots().get(t);
            java.util.Set<RecordId> changed = common == null ? null : snap.changedSince(held.taskSnapshots().get(t));
            BitSet again;
            if (changed != null) {
                again = recheck.with(common, changed);
            } else {
                nonZero = nonZero != null ? nonZero : recheck.nonZero(c);
                again = recheck.with(nonZero, snap.processed().keySet());
            }
            for (RecordId id : changed == null ? snap.processed().keySet() : changed) {
                if (!universe.has(id)) {
                    out.add(new Violation(CONSISTENT_CUT, c.id(), t, id, 1, 0, "ConsistentCutInv violated in checkpoint "
                            + c.id() + ": operator " + t + " has processed record " + id + ", which no source log has"));
                }
            }
            for (int i = again.nextSetBit(0); i >= 0 && i < universe.size(); i = again.nextSetBit(i + 1)) {
                Record r = universe.get(i);
                long processed = snap.timesProcessed(r.id());
                long inChannels = 0;
                for (String receiver : persistedAt.getOrDefault(r.id(), List.of())) {
                    inChannels += graph.paths(receiver, r, t);
                }
                long lhs = processed + inChannels;
                long recorded = c.sourceOffsets().get(r.id().source());
                boolean inCut = r.id().offset() < recorded;
                long rhs = inCut ? expected(i, k) : 0;
                if ((over && lhs > rhs) || (under && lhs < rhs)) {
                    out.add(cutViolation(c, t, r, processed, inChannels, rhs));
                }
            }
        }
        for (Map.Entry<String, int[]> pool : pools.entrySet()) {
            nonZero = nonZero != null ? nonZero : recheck.nonZero(c);
            checkPooledCut(c, over, under, out, pool.getKey() + "#*", pool.getValue(), persistedAt, nonZero);
        }
    }

    /**
     * {@link #checkCut} for the tasks {@code tasks} of an operator with split list state, counted
     * together ({@link #pools}): every record of the cut, the channel state or a task's ledger.
     */
    private void checkPooledCut(CompletedCheckpoint c, boolean over, boolean under, List<Violation> out, String name,
                                int[] tasks, Map<RecordId, List<String>> persistedAt, BitSet nonZero) {
        BitSet again = nonZero;
        for (int k : tasks) {
            TaskSnapshot snap = c.taskSnapshots().get(operators.get(k));
            again = recheck.with(again, snap.processed().keySet());
            for (RecordId id : snap.processed().keySet()) {
                if (!universe.has(id)) {
                    out.add(new Violation(CONSISTENT_CUT, c.id(), name, id, 1, 0, "ConsistentCutInv violated in checkpoint "
                            + c.id() + ": operator " + operators.get(k) + " has processed record " + id
                            + ", which no source log has"));
                }
            }
        }
        for (int i = again.nextSetBit(0); i >= 0 && i < universe.size(); i = again.nextSetBit(i + 1)) {
            Record r = universe.get(i);
            long processed = 0;
            long inChannels = 0;
            long want = 0;
            for (int k : tasks) {
                processed += c.taskSnapshots().get(operators.get(k)).timesProcessed(r.id());
                for (String receiver : persistedAt.getOrDefault(r.id(), List.of())) {
                    inChannels += graph.paths(receiver, r, operators.get(k));
                }
                want += expected(i, k);
            }
            long lhs = processed + inChannels;
            long rhs = r.id().offset() < c.sourceOffsets().get(r.id().source()) ? want : 0;
            if ((over && lhs > rhs) || (under && lhs < rhs)) {
                out.add(cutViolation(c, name, r, processed, inChannels, rhs));
            }
        }
    }

    /** The violation of {@code ConsistentCutInv}'s half that {@code processed + inChannels} against {@code rhs} breaks. */
    private static Violation cutViolation(CompletedCheckpoint c, String t, Record r, long processed, long inChannels,
                                          long rhs) {
        long lhs = processed + inChannels;
        long recorded = c.sourceOffsets().get(r.id().source());
        boolean inCut = r.id().offset() < recorded;
        String half = lhs > rhs ? NO_DOUBLE_COUNT : NO_SKIP;
        return new Violation(half, c.id(), t, r.id(), lhs, rhs, String.format(
                "ConsistentCutInv (%s) violated in checkpoint %d: operator %s, record %s: processed %d"
                        + " + persisted in channels %d = %d, expected %d (offset %d %s recorded offset %d of %s): %s",
                half, c.id(), t, r.id(), processed, inChannels, lhs, rhs, r.id().offset(),
                inCut ? "<" : ">=", recorded, r.id().source(), lhs > rhs ? "counted twice" : "skipped"));
    }

    /** A checkpoint must name every source, every operator and only known channels before it can be checked. */
    private boolean structureComplete(CompletedCheckpoint c, List<Violation> out) {
        int before = out.size();
        for (String s : graph.sourceTasks()) {
            if (!c.sourceOffsets().containsKey(s)) {
                out.add(new Violation(CONSISTENT_CUT, c.id(), null, null, 0, 1,
                        "ConsistentCutInv cannot hold in checkpoint " + c.id() + ": it records no offset for source " + s));
            }
        }
        for (String t : operators) {
            if (!c.taskSnapshots().containsKey(t)) {
                out.add(new Violation(CONSISTENT_CUT, c.id(), t, null, 0, 1,
                        "ConsistentCutInv cannot hold in checkpoint " + c.id() + ": it has no snapshot of operator " + t));
            }
        }
        for (String e : c.channelState().keySet()) {
            try {
                graph.channel(e);
            } catch (IllegalArgumentException unknown) {
                out.add(new Violation(CONSISTENT_CUT, c.id(), null, null, 1, 0,
                        "ConsistentCutInv cannot hold in checkpoint " + c.id() + ": it persists state for unknown channel " + e));
            }
        }
        return out.size() == before;
    }

    /**
     * {@code ExactlyOnceInv}: once every source is exhausted and every channel holds no record,
     * every operator {@code t} has processed every record {@code r} exactly
     * {@code paths(source(r), r, t)} times, whatever failures happened.
     *
     * @param processed per operator task instance: its final ledger {@code processed[t]}
     */
    public List<Violation> exactlyOnce(Map<String, ? extends Map<RecordId, Integer>> processed) {
        List<Violation> out = new ArrayList<>();
        for (Map.Entry<String, int[]> unit : units().entrySet()) {
            String t = unit.getKey();
            Map<RecordId, Integer> ledger = ledgerOf(unit.getValue(), processed);
            if (ledger == null) {
                out.add(new Violation(EXACTLY_ONCE, 0, t, null, 0, 1, "ExactlyOnceInv cannot be checked: no ledger of operator " + t));
                continue;
            }
            for (RecordId id : ledger.keySet()) {
                if (!universe.has(id)) {
                    out.add(new Violation(EXACTLY_ONCE, 0, t, id, ledger.get(id), 0, "ExactlyOnceInv violated: operator "
                            + t + " processed record " + id + ", which no source log has: counted twice"));
                }
            }
            for (int i = 0; i < universe.size(); i++) {
                RecordId id = universe.get(i).id();
                int actual = ledger.getOrDefault(id, 0);
                int want = expected(i, unit.getValue());
                if (actual != want) {
                    out.add(new Violation(EXACTLY_ONCE, 0, t, id, actual, want, String.format(
                            "ExactlyOnceInv violated: operator %s, record %s: processed %d times, expected %d: %s",
                            t, id, actual, want, actual > want ? "counted twice" : "skipped")));
                }
            }
        }
        return out;
    }

    /**
     * {@code NoDuplicateOutputInv} (spec/core/CutInvariants.tla): at every moment, no record
     * is in the committed output more often than its routes to the sinks:
     * {@code CopiesIn(r, committed) <= SinkRoutes(r)} with {@code committed} the bag sum of every
     * transactional sink's committed output and {@code SinkRoutes(r) = Σ_t paths(source(r), r, t)}
     * over the sinks. Committed output is never taken back, so a duplicate once committed stays
     * visible to readers.
     *
     * @param committed per transactional sink task instance: its committed output (record id to
     *     times); the keys are the sinks
     */
    public List<Violation> noDuplicateOutput(Map<String, ? extends Map<RecordId, Integer>> committed) {
        return checkOutput(committed, true, false, NO_DUPLICATE_OUTPUT);
    }

    /**
     * {@code OutputExactlyOnceInv}: when the run has ended and its final checkpoint has
     * completed and been committed, the committed output holds every record exactly as often as
     * its routes to the sinks ({@code CopiesIn(r, committed) = SinkRoutes(r)}), whatever failures
     * happened. The runtimes check it only then.
     *
     * @param committed per transactional sink task instance: its committed output (record id to times)
     */
    public List<Violation> outputExactlyOnce(Map<String, ? extends Map<RecordId, Integer>> committed) {
        return checkOutput(committed, true, true, OUTPUT_EXACTLY_ONCE);
    }

    /**
     * {@code OutputAtLeastOnceInv}: when the run has ended and its final checkpoint has completed
     * and been committed, the committed output holds every record at least as often as its routes
     * to the sinks ({@code CopiesIn(r, committed) >= SinkRoutes(r)}): what at-least-once mode
     * promises of the output (a restore may commit a record again, never lose one). The runtimes
     * check it only then, in that mode.
     *
     * @param committed per transactional sink task instance: its committed output (record id to times)
     */
    public List<Violation> outputAtLeastOnce(Map<String, ? extends Map<RecordId, Integer>> committed) {
        return checkOutput(committed, false, true, OUTPUT_AT_LEAST_ONCE);
    }

    /** {@code tooMany}: a record committed more often than its routes is a violation; {@code tooFew}: less often. */
    private List<Violation> checkOutput(Map<String, ? extends Map<RecordId, Integer>> committed, boolean tooMany,
                                        boolean tooFew, String name) {
        List<Violation> out = new ArrayList<>();
        int[] sinks = new int[committed.size()];
        Map<RecordId, Integer> all = new HashMap<>();
        int n = 0;
        for (Map.Entry<String, ? extends Map<RecordId, Integer>> e : committed.entrySet()) {
            int k = operators.indexOf(e.getKey());
            if (k < 0) {
                throw new IllegalArgumentException(name + ": " + e.getKey() + " is no operator of the job; its operators are "
                        + operators);
            }
            sinks[n++] = k;
            e.getValue().forEach((id, times) -> all.merge(id, times, Integer::sum));
        }
        String where = committed.size() == 1 ? "sink " + committed.keySet().iterator().next() : "sinks " + committed.keySet();
        for (Map.Entry<RecordId, Integer> e : all.entrySet()) {
            if (tooMany && !universe.has(e.getKey())) {
                out.add(new Violation(name, 0, null, e.getKey(), e.getValue(), 0, name + " violated: " + where
                        + " committed record " + e.getKey() + ", which no source log has: duplicated"));
            }
        }
        for (int i = 0; i < universe.size(); i++) {
            RecordId id = universe.get(i).id();
            int actual = all.getOrDefault(id, 0);
            int want = 0;
            for (int k : sinks) {
                want += expected(i, k);
            }
            if ((tooMany && actual > want) || (tooFew && actual < want)) {
                out.add(new Violation(name, 0, null, id, actual, want, String.format(
                        "%s violated: %s, record %s: in the committed output %d time(s), its routes to the sinks %d: %s",
                        name, where, id, actual, want, actual > want ? "duplicated" : "missing")));
            }
        }
        return out;
    }

    /**
     * {@code AtLeastOnceInv} (spec/core/CutInvariants.tla): once every source is exhausted and no
     * channel holds a record, every operator {@code t} has processed every record {@code r} at
     * least {@code paths(source(r), r, t)} times: what at-least-once mode promises (it may count
     * a record more often after a restore).
     *
     * @param processed per operator task instance: its final ledger {@code processed[t]}
     */
    public List<Violation> atLeastOnce(Map<String, ? extends Map<RecordId, Integer>> processed) {
        List<Violation> out = new ArrayList<>();
        for (Map.Entry<String, int[]> unit : units().entrySet()) {
            String t = unit.getKey();
            Map<RecordId, Integer> ledger = ledgerOf(unit.getValue(), processed);
            if (ledger == null) {
                out.add(new Violation(AT_LEAST_ONCE, 0, t, null, 0, 1, "AtLeastOnceInv cannot be checked: no ledger of operator " + t));
                continue;
            }
            for (int i = 0; i < universe.size(); i++) {
                RecordId id = universe.get(i).id();
                int actual = ledger.getOrDefault(id, 0);
                int want = expected(i, unit.getValue());
                if (actual < want) {
                    out.add(new Violation(AT_LEAST_ONCE, 0, t, id, actual, want, String.format(
                            "AtLeastOnceInv violated: operator %s, record %s: processed %d times, expected at least %d: skipped",
                            t, id, actual, want)));
                }
            }
        }
        return out;
    }

    /** The ledger of the tasks {@code tasks} together (one task's own map); null if one has none. */
    private Map<RecordId, Integer> ledgerOf(int[] tasks, Map<String, ? extends Map<RecordId, Integer>> processed) {
        if (tasks.length == 1) {
            return processed.get(operators.get(tasks[0]));
        }
        Map<RecordId, Integer> out = new HashMap<>();
        for (int k : tasks) {
            Map<RecordId, Integer> ledger = processed.get(operators.get(k));
            if (ledger == null) {
                return null;
            }
            ledger.forEach((id, times) -> out.merge(id, times, Integer::sum));
        }
        return out;
    }

    /** The expected count of universe[i] over the tasks {@code tasks} together. */
    private int expected(int i, int[] tasks) {
        int sum = 0;
        for (int k : tasks) {
            sum += expected(i, k);
        }
        return sum;
    }

    /**
     * The invariants a run in {@code mode} is checked against: per completed checkpoint, then on
     * the final state. Aligned and unaligned promise exactly once; at-least-once only that no
     * record is skipped ({@code NoSkipInv}, {@code AtLeastOnceInv}): its snapshots may count a
     * record that followed an early barrier, so {@code NoDoubleCountInv}, {@code ConsistentCutInv}
     * and {@code ExactlyOnceInv} are not expected to hold.
     */
    public static List<String> applicable(String mode) {
        return switch (mode) {
            case "aligned" -> List.of(CONSISTENT_CUT, ALIGNED_NO_CHANNEL_STATE, EXACTLY_ONCE);
            case "unaligned" -> List.of(CONSISTENT_CUT, UNALIGNED_CHANNEL_STATE_BOUND, UNALIGNED_NEVER_BLOCKS, EXACTLY_ONCE);
            case "at-least-once" -> List.of(NO_SKIP, ALIGNED_NO_CHANNEL_STATE, AT_LEAST_ONCE);
            case "alternating" -> List.of(CONSISTENT_CUT, ALIGNED_NO_CHANNEL_STATE, SAVEPOINT_NO_CHANNEL_STATE,
                    UNALIGNED_CHANNEL_STATE_BOUND, SWITCH_PROPAGATES, EXACTLY_ONCE);
            default -> throw new IllegalArgumentException("unknown mode '" + mode + "'");
        };
    }

    /**
     * The order, restore-point and status invariants, which every mode promises and the runtimes check step by step with the
     * ledgers on (runtime {@code LifecycleChecks}): order ({@code FifoChannelInv},
     * {@code FifoChannelStateInv}, and {@code BarrierOvertakesInv} for overtaking barriers), the
     * restore point ({@code RestorePointInv}, {@code RestorePointMonotoneProp}) and the statuses
     * ({@code CheckpointStatusProp}, {@code FailureAbortsPendingInv}).
     */
    public static List<String> lifecycle(boolean overtaking) {
        List<String> names = new ArrayList<>(List.of(FIFO_CHANNEL, FIFO_CHANNEL_STATE));
        if (overtaking) {
            names.add(BARRIER_OVERTAKES);
        }
        names.addAll(List.of(END_OF_PARTITION_ONCE, CANCEL_BARRIER_ONCE));
        names.addAll(List.of(RESTORE_POINT, RESTORE_POINT_MONOTONE, CHECKPOINT_STATUS, FAILURE_ABORTS_PENDING));
        return List.copyOf(names);
    }

    /** The final-state invariant of a mode that gives {@code guarantee}: {@code AtLeastOnceInv} or {@code ExactlyOnceInv}. */
    public List<Violation> finalState(DeliveryGuarantee guarantee, Map<String, ? extends Map<RecordId, Integer>> processed) {
        return guarantee == DeliveryGuarantee.AT_LEAST_ONCE ? atLeastOnce(processed) : exactlyOnce(processed);
    }

    /** {@link #finalState(DeliveryGuarantee, Map)} for a caller that holds the mode's name only (see {@code guaranteeOf}). */
    public List<Violation> finalState(String mode, Map<String, ? extends Map<RecordId, Integer>> processed) {
        return finalState(guaranteeOf(mode), processed);
    }

    /**
     * The guarantee of the mode called {@code mode}: at least once for {@code at-least-once} (the
     * shipped mode and its broken twins, which carry its name), else exactly once. Only for the
     * callers that pass a mode's name; a {@code BarrierMode} says it itself
     * ({@code deliveryGuarantee()}).
     */
    private static DeliveryGuarantee guaranteeOf(String mode) {
        return "at-least-once".equals(mode) ? DeliveryGuarantee.AT_LEAST_ONCE : DeliveryGuarantee.EXACTLY_ONCE;
    }

    /**
     * Per completed checkpoint of a job in {@code mode} (see {@link #applicable}); other modes
     * than at-least-once (e.g. the broken twins of the tests) by their overtaking flag.
     */
    public List<Violation> completedCheckpoint(CompletedCheckpoint c, String mode, boolean overtaking, boolean ledgers) {
        return completedCheckpoint(c, mode, overtaking, ledgers, null);
    }

    /** As {@link #completedCheckpoint(CompletedCheckpoint, String, boolean, boolean)}, knowing that every check held in {@code held} (null: none known). */
    List<Violation> completedCheckpoint(CompletedCheckpoint c, String mode, boolean overtaking, boolean ledgers,
                                        CompletedCheckpoint held) {
        return completedCheckpoint(c, guaranteeOf(mode), overtaking, ledgers, held);
    }

    /**
     * Per completed checkpoint of a job whose mode gives {@code guarantee}: at least once as
     * {@link #applicable} lists for at-least-once, exactly once by the overtaking flag.
     */
    public List<Violation> completedCheckpoint(CompletedCheckpoint c, DeliveryGuarantee guarantee, boolean overtaking,
                                               boolean ledgers) {
        return completedCheckpoint(c, guarantee, overtaking, ledgers, null);
    }

    private List<Violation> completedCheckpoint(CompletedCheckpoint c, DeliveryGuarantee guarantee, boolean overtaking,
                                                boolean ledgers, CompletedCheckpoint held) {
        if (guarantee != DeliveryGuarantee.AT_LEAST_ONCE) {
            return completedCheckpoint(c, overtaking, ledgers, held);
        }
        List<Violation> out = new ArrayList<>();
        if (ledgers) {
            out.addAll(noSkip(c, held));
        }
        out.addAll(alignedNoChannelState(c));
        out.addAll(fifoChannelState(c));
        return out;
    }

    /**
     * Per completed checkpoint of an alternating job (spec/alternating/AlternatingCheckpoint.tla):
     * {@code ConsistentCutInv} and {@code UnalignedChannelStateBoundInv} always (with ledgers);
     * {@code AlignedNoChannelStateInv} only if no task switched it ({@code switched} false);
     * {@code SavepointNoChannelStateInv} if it is a savepoint.
     */
    public List<Violation> completedAlternating(CompletedCheckpoint c, boolean switched, boolean savepoint, boolean ledgers) {
        return completedAlternating(c, switched, savepoint, ledgers, null);
    }

    /** As {@link #completedAlternating(CompletedCheckpoint, boolean, boolean, boolean)}, knowing that every check held in {@code held} (null: none known). */
    List<Violation> completedAlternating(CompletedCheckpoint c, boolean switched, boolean savepoint, boolean ledgers,
                                         CompletedCheckpoint held) {
        List<Violation> out = new ArrayList<>();
        if (ledgers) {
            out.addAll(consistentCut(c, held));
            out.addAll(unalignedChannelStateBound(c));
        }
        if (!switched) {
            out.addAll(alignedNoChannelState(c));
        }
        if (savepoint) {
            out.addAll(savepointNoChannelState(c));
        }
        return out;
    }

    /** {@code SavepointNoChannelStateInv}: a savepoint (forced aligned) persists no channel state. */
    public List<Violation> savepointNoChannelState(CompletedCheckpoint c) {
        List<Violation> out = new ArrayList<>();
        c.channelState().forEach((channel, records) -> {
            if (!records.isEmpty()) {
                out.add(new Violation(SAVEPOINT_NO_CHANNEL_STATE, c.id(), null, records.get(0).id(), records.size(), 0,
                        "SavepointNoChannelStateInv violated in savepoint " + c.id() + ": channel " + channel
                                + " persisted " + records.size() + " record(s), first " + records.get(0).id()));
            }
        });
        return out;
    }

    /** {@code AlignedNoChannelStateInv}: an aligned checkpoint persists no channel state. */
    public List<Violation> alignedNoChannelState(CompletedCheckpoint c) {
        List<Violation> out = new ArrayList<>();
        c.channelState().forEach((channel, records) -> {
            if (!records.isEmpty()) {
                out.add(new Violation(ALIGNED_NO_CHANNEL_STATE, c.id(), null, records.get(0).id(), records.size(), 0,
                        "AlignedNoChannelStateInv violated in checkpoint " + c.id() + ": channel " + channel
                                + " persisted " + records.size() + " record(s), first " + records.get(0).id()));
            }
        });
        return out;
    }

    /**
     * Every invariant a completed checkpoint must satisfy, as the runtimes check each one when it
     * completes: {@code ConsistentCutInv} and, for unaligned barriers, {@code
     * UnalignedChannelStateBoundInv} (both need the processed-record ledgers, so only with
     * {@code ledgers}); for aligned barriers, {@code AlignedNoChannelStateInv}.
     */
    public List<Violation> completedCheckpoint(CompletedCheckpoint c, boolean overtaking, boolean ledgers) {
        return completedCheckpoint(c, overtaking, ledgers, null);
    }

    private List<Violation> completedCheckpoint(CompletedCheckpoint c, boolean overtaking, boolean ledgers,
                                                CompletedCheckpoint held) {
        List<Violation> out = new ArrayList<>();
        if (ledgers) {
            out.addAll(consistentCut(c, held));
        }
        if (overtaking) {
            if (ledgers) {
                out.addAll(unalignedChannelStateBound(c));
            }
        } else {
            out.addAll(alignedNoChannelState(c));
        }
        out.addAll(fifoChannelState(c));
        return out;
    }

    /**
     * {@code UnalignedChannelStateBoundInv}: the channel state a checkpoint persists on a channel
     * holds only records its sender had sent on it before the sender's own snapshot, each at most
     * as often as it was sent. As in {@code spec/unaligned/UnalignedCheckpoint.tla}: for every channel
     * {@code e} with sender {@code v} and every record {@code r},
     * <pre>
     * copies(r, c.channelState[e]) <= SentBeforeSnapshot(c, e, r) ==
     *   IF e not in route(v, r) THEN 0
     *   ELSE IF v is a source THEN (IF r.offset < c.sourceOffsets[v] THEN 1 ELSE 0)
     *   ELSE c.taskSnapshots[v].timesProcessed(r)
     * </pre>
     * The spec explains why this, and not the channel capacity, is the tight bound: what a
     * receiver persists after its own snapshot grows with everything its sender sends before
     * that channel's barrier arrives.
     */
    public List<Violation> unalignedChannelStateBound(CompletedCheckpoint c) {
        List<Violation> out = new ArrayList<>();
        c.channelState().forEach((channel, records) -> {
            PhysicalGraph.ChannelSpec e = graph.channel(channel);
            String v = e.sender();
            int output = graph.outputs(v).indexOf(e);
            Map<RecordId, Integer> copies = new HashMap<>();
            for (Record r : records) {
                copies.merge(r.id(), 1, Integer::sum);
            }
            copies.forEach((id, n) -> {
                Record r = universe.byId(id);
                long sent = r == null ? 0 : sentBeforeSnapshot(c, v, output, r);
                if (n > sent) {
                    out.add(new Violation(UNALIGNED_CHANNEL_STATE_BOUND, c.id(), null, id, n, sent, String.format(
                            "UnalignedChannelStateBoundInv violated in checkpoint %d: channel %s persisted record %s"
                                    + " %d time(s), but its sender %s had sent it there %d time(s) before its snapshot",
                            c.id(), channel, id, n, v, sent)));
                }
            });
        });
        return out;
    }

    private long sentBeforeSnapshot(CompletedCheckpoint c, String sender, int output, Record r) {
        boolean routed = java.util.Arrays.stream(graph.route(sender, r.key())).anyMatch(o -> o == output);
        if (!routed) {
            return 0;
        }
        if (graph.sourceTasks().contains(sender)) {
            Long recorded = c.sourceOffsets().get(sender);
            return r.id().source().equals(sender) && recorded != null && r.id().offset() < recorded ? 1 : 0;
        }
        TaskSnapshot snap = c.taskSnapshots().get(sender);
        return snap == null ? 0 : snap.timesProcessed(r.id());
    }

    /**
     * {@code SwitchPropagatesInv} (spec/alternating/AlternatingCheckpoint.tla), for one task: while it aligns
     * checkpoint {@code c}, no input it blocks comes from a task that handled {@code c} unaligned
     * (that barrier overtook, so the receiver must handle {@code c} unaligned, not wait for the
     * alignment the switch was meant to skip).
     *
     * @param senders per physical input of the task, the sending task instance
     * @param switchedAt the tasks that handled {@code c} unaligned
     */
    public static List<Violation> switchPropagates(String task, long c, List<String> senders, IntPredicate isBlocked,
                                                   java.util.Set<String> switchedAt) {
        List<Violation> out = new ArrayList<>();
        if (c == 0) {
            return out;
        }
        for (int i = 0; i < senders.size(); i++) {
            if (isBlocked.test(i) && switchedAt.contains(senders.get(i))) {
                out.add(new Violation(SWITCH_PROPAGATES, c, task, null, 1, 0, "SwitchPropagatesInv violated: task " + task
                        + " blocks input " + i + " for checkpoint " + c + ", whose sender " + senders.get(i)
                        + " switched it to unaligned"));
            }
        }
        return out;
    }

    /** {@code UnalignedNeverBlocksInv}: an unaligned task never blocks an input. */
    public static List<Violation> unalignedNeverBlocks(String task, int inputCount, IntPredicate isBlocked) {
        List<Violation> out = new ArrayList<>();
        for (int i = 0; i < inputCount; i++) {
            if (isBlocked.test(i)) {
                out.add(new Violation(UNALIGNED_NEVER_BLOCKS, 0, task, null, 1, 0,
                        "UnalignedNeverBlocksInv violated: task " + task + " blocks input " + i));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ Order, restore point, status

    /**
     * The spec's {@code InOrder(q)} (spec/rescale/RescaleRestore.tla) over the records of one
     * channel's queue (or persisted state) {@code q}: the records of one stream appear in strictly
     * increasing offset order, where two records are of one stream ({@code SameStream}) when they
     * have the same source and, if they were routed by key on their way (a HASH edge on their
     * route or into the channel), the same key group. That is what FIFO channels promise across a
     * rescaled restore, which merges old channels into one new channel: the records of one key
     * group come from one old channel, in order, the order across key groups is not kept. At a
     * fixed parallelism it is the core spec's {@code InSourceOrder} compared per key group, and per
     * source where nothing is routed by key (broadcast, forward). Records of one source reaching
     * the channel's sender along different routes (re-keyed by a HASH edge upstream: several
     * upstream instances) are compared per route, and a record with several routes to the sender
     * (a diamond before it: its copies interleave) is not compared at all, since FIFO along each
     * route is all a channel can promise then.
     *
     * @return the first record out of order (with the earlier record of its stream it follows), or null
     */
    private RecordId[] firstOutOfStreamOrder(List<?> q, PhysicalGraph.ChannelSpec channel) {
        Map<String, RecordId> last = new HashMap<>();
        for (Object m : q) {
            if (m instanceof Record r) {
                String stream = streamOn(channel, r);
                if (stream.isEmpty()) {
                    continue;
                }
                RecordId before = last.put(stream, r.id());
                if (before != null && before.offset() >= r.id().offset()) {
                    return new RecordId[] {before, r.id()};
                }
            }
        }
        return null;
    }

    /**
     * The stream record {@code r} is of on {@code channel} ({@code SameStream}): its one route from
     * its source to the channel's sender as "source>task>...", followed by "|kg" and its key group
     * when that route or the channel's own edge is HASH; "" if not exactly one route.
     */
    private String streamOn(PhysicalGraph.ChannelSpec channel, Record r) {
        String sender = channel.sender();
        String source = r.id().source();
        boolean intoByKey = hash(channel);
        return routes.computeIfAbsent((intoByKey ? "H|" : "N|") + sender + "|" + source + "|" + r.key(), k -> {
            if (!graph.sourceTasks().contains(source) || graph.paths(source, r.key(), sender) != 1) {
                return "";
            }
            StringBuilder route = new StringBuilder(source);
            boolean byKey = intoByKey;
            String at = source;
            while (!at.equals(sender)) {
                PhysicalGraph.ChannelSpec next = null;
                List<PhysicalGraph.ChannelSpec> out = graph.outputs(at);
                for (int o : graph.route(at, r.key())) {
                    if (graph.paths(out.get(o).receiver(), r.key(), sender) == 1) {
                        next = out.get(o);
                        break;
                    }
                }
                byKey |= hash(next);
                at = next.receiver();
                route.append('>').append(at);
            }
            if (byKey) {
                route.append("|kg").append(KeyGroups.keyGroupOf(r.key(), graph.job().maxParallelism()));
            }
            return route.toString();
        });
    }

    /** " of the same source", and " and key group" if the stream of {@code id}'s record in {@code q} is keyed. */
    private String sameStream(PhysicalGraph.ChannelSpec channel, List<?> q, RecordId id) {
        for (Object m : q) {
            if (m instanceof Record r && r.id().equals(id)) {
                return " of the same source" + (streamOn(channel, r).contains("|kg") ? " and key group" : "");
            }
        }
        return " of the same source";
    }

    /** Whether {@code channel}'s edge routes records by key (memoised per channel). */
    private boolean hash(PhysicalGraph.ChannelSpec channel) {
        return hashChannels.computeIfAbsent(channel.id(), id -> graph.job().inEdges(graph.task(channel.receiver()).node())
                .get(channel.logicalInput()).partitioning() == Partitioning.HASH);
    }

    /**
     * {@code FifoChannelInv}, stated as the rescale spec's channel conjunct of
     * {@code FifoPerChannelInv == \A ch \in Channels : InOrder(chan[ch])}
     * (spec/rescale/RescaleRestore.tla; spec/core/CutInvariants.tla's {@code InSourceOrder} per key
     * group), for one channel whose queued elements, in delivery order, are {@code contents}: the
     * records of each source and key group in strictly increasing offset order, at every moment
     * and across restores, rescaled ones too (see {@code firstOutOfStreamOrder}).
     */
    public List<Violation> fifoChannel(String channel, List<?> contents) {
        PhysicalGraph.ChannelSpec spec = graph.channel(channel);
        RecordId[] bad = firstOutOfStreamOrder(contents, spec);
        if (bad == null) {
            return List.of();
        }
        return List.of(new Violation(FIFO_CHANNEL, 0, null, bad[1], bad[1].offset(), bad[0].offset() + 1,
                "FifoChannelInv violated: channel " + channel + " holds record " + bad[1] + " behind " + bad[0]
                        + sameStream(spec, contents, bad[1]) + ": out of source order"));
    }

    /**
     * {@code FifoChannelStateInv == \A c \in CheckpointIds, e \in Edges : InSourceOrder(snapChan[c][e])}
     * (spec/core/CutInvariants.tla), for checkpoint {@code c} (the engine assembles a checkpoint's
     * channel state only when it completes, so completed checkpoints are the ones it checks): the
     * channel state of every channel, receiver-side part then sender-side part, is in the order
     * its records were sent, per source and key group (per stream, as {@link #fifoChannel}).
     */
    public List<Violation> fifoChannelState(CompletedCheckpoint c) {
        List<Violation> out = new ArrayList<>();
        c.channelState().forEach((channel, records) -> {
            if (records.size() < 2) {
                return;
            }
            PhysicalGraph.ChannelSpec spec;
            try {
                spec = graph.channel(channel);
            } catch (IllegalArgumentException unknown) {
                return; // reported by ConsistentCutInv's structure check
            }
            RecordId[] bad = firstOutOfStreamOrder(records, spec);
            if (bad != null) {
                out.add(new Violation(FIFO_CHANNEL_STATE, c.id(), null, bad[1], bad[1].offset(), bad[0].offset() + 1,
                        "FifoChannelStateInv violated in checkpoint " + c.id() + ": the channel state of " + channel
                                + " has record " + bad[1] + " after " + bad[0] + sameStream(spec, records, bad[1]) + ": out of source order"));
            }
        });
        return out;
    }

    /**
     * {@code BarrierOvertakesInv} (spec/core/CutInvariants.tla), unaligned only, for one channel whose
     * queued elements in delivery order are {@code contents}:
     * {@code \A i \in 1..Len(chan[e]) : IsBarrier(chan[e][i]) => \A j \in 1..(i - 1) : ~IsRecord(chan[e][j])}:
     * no checkpoint barrier waits behind a record (classic Chandy-Lamport placement fails it).
     */
    public static List<Violation> barrierOvertakes(String channel, List<?> contents) {
        Record firstRecord = null;
        for (Object m : contents) {
            if (m instanceof Record r && firstRecord == null) {
                firstRecord = r;
            } else if (m instanceof Barrier b && firstRecord != null) {
                return List.of(new Violation(BARRIER_OVERTAKES, b.checkpointId(), null, firstRecord.id(), 1, 0,
                        "BarrierOvertakesInv violated: channel " + channel + " holds barrier " + b.checkpointId()
                                + " behind record " + firstRecord.id() + ": an unaligned barrier must overtake"));
            }
        }
        return List.of();
    }

    /**
     * {@code EndOfPartitionOnceInv == \A e \in Edges : Len(SelectSeq(chan[e], IsEndOfPartition)) <= 1}
     * (spec/core/DataflowEndOfInput.tla), for one channel whose queued elements are
     * {@code contents}: a task ends each output once (a channel is emptied only by a failure, after
     * which no input has ended).
     */
    public static List<Violation> endOfPartitionOnce(String channel, List<?> contents) {
        int ends = 0;
        for (Object m : contents) {
            if (m instanceof EndOfPartition) {
                ends++;
            }
        }
        if (ends <= 1) {
            return List.of();
        }
        return List.of(new Violation(END_OF_PARTITION_ONCE, 0, null, null, ends, 1,
                "EndOfPartitionOnceInv violated: channel " + channel + " holds " + ends
                        + " ends of partition: its sender ended it more than once"));
    }

    /**
     * {@code CancelBarrierOnceInv == \A e \in Edges, c \in CheckpointIds :
     * Len(SelectSeq(chan[e], LAMBDA m : IsCancelBarrier(m) /\ m.cancel = c)) <= 1}
     * (spec/core/DataflowChannels.tla), for one channel whose queued elements are {@code contents}:
     * a task abandons a checkpoint once, so it forwards at most one cancellation barrier of it.
     */
    public static List<Violation> cancelBarrierOnce(String channel, List<?> contents) {
        Map<Long, Integer> cancels = new TreeMap<>();
        for (Object m : contents) {
            if (m instanceof CancelBarrier cb) {
                cancels.merge(cb.checkpointId(), 1, Integer::sum);
            }
        }
        List<Violation> out = new ArrayList<>();
        cancels.forEach((c, n) -> {
            if (n > 1) {
                out.add(new Violation(CANCEL_BARRIER_ONCE, c, null, null, n, 1,
                        "CancelBarrierOnceInv violated: channel " + channel + " holds " + n
                                + " cancellation barriers of checkpoint " + c + ": its sender abandoned it more than once"));
            }
        });
        return out;
    }

    /**
     * {@code RestorePointInv == latest = NewestCompleted} (spec/core/CutInvariants.tla): the checkpoint a
     * restore would use ({@code latest}, 0 for the initial state) is the newest completed one (the
     * largest id of {@code completed}, 0 if none).
     */
    public static List<Violation> restorePoint(long latest, Collection<Long> completed) {
        long newest = 0;
        for (long c : completed) {
            newest = Math.max(newest, c);
        }
        if (latest == newest) {
            return List.of();
        }
        return List.of(new Violation(RESTORE_POINT, latest, null, null, latest, newest,
                "RestorePointInv violated: the restore point is " + describe(latest)
                        + ", but the newest completed checkpoint is " + describe(newest)));
    }

    /**
     * {@code RestorePointMonotoneProp == [][latest' >= latest]_latest} (spec/core/CutInvariants.tla),
     * for one step that moved the restore point from {@code before} to {@code after} (0: the
     * initial state).
     */
    public static List<Violation> restorePointMonotone(long before, long after) {
        if (after >= before) {
            return List.of();
        }
        return List.of(new Violation(RESTORE_POINT_MONOTONE, after, null, null, after, before,
                "RestorePointMonotoneProp violated: the restore point moved backwards from " + describe(before)
                        + " to " + describe(after)));
    }

    /**
     * {@code CheckpointStatusProp} (spec/core/CutInvariants.tla), for checkpoint {@code id} in one step:
     * its status stays, or moves {@code NONE -> PENDING}, {@code PENDING -> COMPLETED} or
     * {@code PENDING -> ABORTED} (the spec's "none", "pending", "completed", "aborted"). So an
     * aborted checkpoint never completes and a completed one never aborts.
     */
    public static List<Violation> checkpointStatus(long id, CheckpointStatus before,
                                                   CheckpointStatus after) {
        if (before == after || (before == CheckpointStatus.NONE
                && after == CheckpointStatus.PENDING)
                || (before == CheckpointStatus.PENDING
                && (after == CheckpointStatus.COMPLETED
                    || after == CheckpointStatus.ABORTED))) {
            return List.of();
        }
        return List.of(new Violation(CHECKPOINT_STATUS, id, null, null, 0, 0,
                "CheckpointStatusProp violated: checkpoint " + id + " went from " + before + " to " + after
                        + "; a status only moves NONE -> PENDING -> COMPLETED or ABORTED"));
    }

    /**
     * {@code FailureAbortsPendingInv == \A c \in CheckpointIds : ckpt[c] = "pending" => c > discardedUpTo}
     * (spec/core/CutInvariants.tla): a failure aborts every pending checkpoint, so no checkpoint
     * triggered before the last failure (ids up to {@code discardedUpTo}, the highest id triggered
     * before it; 0 before any failure) is still PENDING.
     *
     * @param statuses checkpoint id to its status now
     */
    public static List<Violation> failureAbortsPending(Map<Long, CheckpointStatus> statuses,
                                                       long discardedUpTo) {
        List<Violation> out = new ArrayList<>();
        statuses.forEach((id, status) -> {
            if (status == CheckpointStatus.PENDING && id <= discardedUpTo) {
                out.add(new Violation(FAILURE_ABORTS_PENDING, id, null, null, id, discardedUpTo + 1,
                        "FailureAbortsPendingInv violated: checkpoint " + id + " is still PENDING after a failure"
                                + " destroyed the barriers of every checkpoint up to " + discardedUpTo));
            }
        });
        return out;
    }

    private static String describe(long checkpoint) {
        return checkpoint == 0 ? "the initial state (0)" : "checkpoint " + checkpoint;
    }
}
