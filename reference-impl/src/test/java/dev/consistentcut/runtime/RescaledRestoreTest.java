package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.KeyGroups;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.message.Record;
import dev.consistentcut.operator.Join;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.operator.Sum;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Restores with a new parallelism of the keyed count ({@link Rescaling}): a job runs part way at
 * parallelism 2, is restored at 3 and runs on, then is restored at 1 and runs to its end; the
 * engine's own checks (ConsistentCutInv on every checkpoint, ExactlyOnceInv at the end) give the
 * verdict. The scenario of Flink's {@code RescalingITCase} (keyed state, scale up then down),
 * with the cut checked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RescaledRestoreTest {

    private static final int RECORDS = 300;

    static JobGraph job(int parallelism) {
        return JobGraph.builder()
                .defaultCapacity(8)
                .source("s1", InMemorySourceLog.randomKeys(RECORDS, 40, 1))
                .source("s2", InMemorySourceLog.randomKeys(RECORDS, 40, 2))
                .operator("count", parallelism, KeyedCount::new)
                .operator("sink", 1, RecordingSink::new)
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "count", Partitioning.HASH)
                .edge("count", "sink", Partitioning.HASH)
                .build();
    }

    /**
     * The two sources into a non-keyed running {@link Sum} (its state a split list, one partial
     * sum per task), or into a {@link Join} (keyed state on both sides), then the sink.
     */
    static JobGraph sumJob(int parallelism) {
        return twoInputJob("sum", parallelism, Sum::new);
    }

    static JobGraph joinJob(int parallelism) {
        return twoInputJob("join", parallelism, Join::new);
    }

    private static JobGraph twoInputJob(String name, int parallelism,
                                        java.util.function.Supplier<dev.consistentcut.operator.Operator> operator) {
        return JobGraph.builder()
                .defaultCapacity(8)
                .source("s1", InMemorySourceLog.randomKeys(RECORDS, 40, 1))
                .source("s2", InMemorySourceLog.randomKeys(RECORDS, 40, 2))
                .operator(name, parallelism, operator)
                .operator("sink", 1, RecordingSink::new)
                .edge("s1", name, Partitioning.HASH)
                .edge("s2", name, Partitioning.HASH)
                .edge(name, "sink", Partitioning.HASH)
                .build();
    }

    /** The sources through a stateless map into the count, both behind keyed exchanges, both at {@code parallelism}. */
    static JobGraph mapJob(int parallelism) {
        return JobGraph.builder()
                .defaultCapacity(4)
                .source("s1", InMemorySourceLog.randomKeys(RECORDS, 40, 1))
                .source("s2", InMemorySourceLog.randomKeys(RECORDS, 40, 2))
                .operator("map", parallelism, () -> new MapOperator(v -> v))
                .operator("count", parallelism, KeyedCount::new)
                .operator("sink", 1, RecordingSink::new)
                .edge("s1", "map", Partitioning.HASH)
                .edge("s2", "map", Partitioning.HASH)
                .edge("map", "count", Partitioning.HASH)
                .edge("count", "sink", Partitioning.HASH)
                .build();
    }

    private static BarrierMode mode(String name) {
        return switch (name) {
            case "aligned" -> BarrierHandlers.aligned();
            case "unaligned" -> BarrierHandlers.unaligned();
            default -> BarrierHandlers.atLeastOnce();
        };
    }

    /** Runs the simulation {@code steps} steps at {@code parallelism}, leaving its checkpoints in {@code store}; then abandons it (a crash). */
    private static void partialRun(InMemoryCheckpointStore store, int parallelism, BarrierMode mode, long seed, int steps) {
        partialRun(RescaledRestoreTest::job, store, parallelism, mode, seed, steps);
    }

    private static void partialRun(Function<Integer, JobGraph> job, InMemoryCheckpointStore store, int parallelism,
                                   BarrierMode mode, long seed, int steps) {
        SimulationRuntime sim = new SimulationRuntime(job.apply(parallelism), mode,
                RunOptions.builder().seed(seed).triggerProbability(0.2).store(() -> store).build());
        for (int i = 0; i < steps && sim.step(); i++) {
            // a crash after some steps
        }
    }

    /** Runs the simulation (seed 1) of {@code job} from {@code restored}, a checkpoint as its tasks restore it. */
    private static RunResult runFrom(CompletedCheckpoint restored, JobGraph job, BarrierMode mode) {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        store.store(restored);
        return new SimulationRuntime(job, mode, RunOptions.builder().seed(1).store(() -> store).build()).run();
    }

    /** The invariants {@code r} reports violated. */
    private static Set<String> invariantsOf(RunResult r) {
        return r.violations().stream().map(Violation::invariant).collect(Collectors.toSet());
    }

    private static int parallelismOf(CompletedCheckpoint c) {
        return Rescaling.parallelismOf(c, job(1)).get("count");
    }

    @ParameterizedTest
    @ValueSource(strings = {"aligned", "at-least-once"})
    void theSimulationRestoresAtThreeThenOneExactlyOnce(String modeName) {
        for (long seed = 1; seed <= 3; seed++) {
            InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
            partialRun(store, 2, mode(modeName), seed, 1500);
            assertEquals(2, parallelismOf(store.latest().orElseThrow()), "seed " + seed);
            partialRun(store, 3, mode(modeName), seed, 1500);
            assertEquals(3, parallelismOf(store.latest().orElseThrow()), "a checkpoint at 3, seed " + seed);
            RunResult r = new SimulationRuntime(job(1), mode(modeName),
                    RunOptions.builder().seed(seed).store(() -> store).build()).run();
            assertTrue(r.holds(), "seed " + seed + ": " + r.violations());
        }
    }

    @Test
    void theThreadedRuntimeRestoresAtThreeThenOneExactlyOnce() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        partialRun(store, 2, BarrierHandlers.aligned(), 1, 1500);
        assertEquals(2, parallelismOf(store.latest().orElseThrow()));
        RunOptions threads = RunOptions.builder().seed(1).checkpointInterval(TimeUnit.MILLISECONDS.toNanos(1))
                .store(() -> store).build();
        RunResult up = new ThreadedRuntime(job(3), BarrierHandlers.aligned(), threads).run();
        assertTrue(up.holds(), up.violations().toString());
        // the run at 3 ended; its latest checkpoint (at 3, or still the one at 2) is restored at 1
        RunResult down = new ThreadedRuntime(job(1), BarrierHandlers.aligned(), threads).run();
        assertTrue(down.holds(), down.violations().toString());
    }

    /**
     * The broken twin: a restore that splits key groups across two new tasks (odd keys one task
     * further) puts records' ledger entries and counts on a task their key does not route to; the
     * engine's checks report it.
     */
    @Test
    void aRestoreThatSplitsAKeyGroupIsCaught() {
        Rescaling.Placement split = (key, p, m) -> (KeyGroups.ownerOfKey(key, p, m) + (int) (key & 1)) % p;
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        partialRun(store, 2, BarrierHandlers.aligned(), 1, 1500);
        CompletedCheckpoint old = store.latest().orElseThrow();
        RunResult r = runFrom(Rescaling.restoreRescaled(old, job(3), split), job(3), BarrierHandlers.aligned());
        Set<String> caught = invariantsOf(r);
        assertFalse(caught.isEmpty(), "the split was not caught");
        // the same checkpoint restored correctly holds
        assertTrue(runFrom(Rescaling.restoreRescaled(old, job(3)), job(3), BarrierHandlers.aligned()).holds());
    }

    @Test
    void eachNewTaskHoldsExactlyTheKeysOfItsKeyGroups() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        partialRun(store, 2, BarrierHandlers.aligned(), 2, 1500);
        CompletedCheckpoint old = store.latest().orElseThrow();
        CompletedCheckpoint now = Rescaling.restoreRescaled(old, job(3));
        long total = 0;
        for (int i = 0; i < 3; i++) {
            KeyedCount count = new KeyedCount();
            count.restoreState(now.taskSnapshots().get("count#" + i).operatorState());
            for (Map.Entry<Long, Long> e : count.counts().entrySet()) {
                assertTrue(KeyGroups.range(i, 3, KeyGroups.DEFAULT_MAX_PARALLELISM)
                        .contains(KeyGroups.keyGroupOf(e.getKey(), KeyGroups.DEFAULT_MAX_PARALLELISM)));
                total += e.getValue();
            }
        }
        long before = 0;
        for (int i = 0; i < 2; i++) {
            KeyedCount count = new KeyedCount();
            count.restoreState(old.taskSnapshots().get("count#" + i).operatorState());
            before += count.counts().values().stream().mapToLong(Long::longValue).sum();
        }
        assertEquals(before, total, "every count moved, none twice");
        assertEquals(Set.of("count#0", "count#1", "count#2", "sink#0"), now.taskSnapshots().keySet());
        assertEquals(old.sourceOffsets(), now.sourceOffsets());
        assertTrue(Rescaling.restoreRescaled(now, job(3)) == now, "same parallelism: the checkpoint itself");
    }

    /**
     * Unaligned and alternating (a 1-step aligned timeout, so most checkpoints go unaligned): the
     * checkpoint restored at 3 and the one restored at 1 hold in-flight records (asserted: the
     * seed is chosen so, the test cannot pass without redistributing channel state; alternating
     * seed 3 is a scale-down that merges one source's records of several key groups into one
     * channel; random seeds: the stress tests' RescalePropertiesTest), which
     * {@link Rescaling#redistributeChannelState} puts on the new channels; the engine's checks
     * (ConsistentCutInv, FifoChannelInv after each restore, ExactlyOnceInv at the end) hold.
     * Flink: {@code UnalignedCheckpointRescaleITCase} (rescale up and down with in-flight data).
     */
    @ParameterizedTest
    @ValueSource(strings = {"unaligned", "alternating"})
    void theSimulationRedistributesChannelStateAtThreeThenOneExactlyOnce(String modeName) {
        long[] seeds = modeName.equals("unaligned") ? new long[] {4} : new long[] {3};
        for (long seed : seeds) {
            BarrierMode mode = channelStateMode(modeName);
            InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
            partialRun(store, 2, mode, seed, 1500);
            CompletedCheckpoint atTwo = store.latest().orElseThrow();
            assertTrue(atTwo.persistedRecordCount() > 0, "seed " + seed + ": no in-flight records at 2");
            partialRun(store, 3, mode, seed, 1500);
            CompletedCheckpoint atThree = store.latest().orElseThrow();
            assertEquals(3, parallelismOf(atThree), "a checkpoint at 3, seed " + seed);
            assertTrue(atThree.persistedRecordCount() > 0, "seed " + seed + ": no in-flight records at 3");
            RunResult r = new SimulationRuntime(job(1), mode,
                    RunOptions.builder().seed(seed).store(() -> store).build()).run();
            assertTrue(r.holds(), "seed " + seed + ": " + r.violations());
        }
    }

    private static BarrierMode channelStateMode(String name) {
        return name.equals("unaligned") ? BarrierHandlers.unaligned() : BarrierHandlers.alternating(1);
    }

    /** The threaded runtime restores through the same {@link Rescaling#restoringInto}: an unaligned checkpoint with in-flight records at 2, restored at 3, then at 1. */
    @Test
    void theThreadedRuntimeRedistributesChannelStateAtThreeThenOne() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        partialRun(store, 2, BarrierHandlers.unaligned(), 4, 1500);
        assertTrue(store.latest().orElseThrow().persistedRecordCount() > 0);
        RunOptions threads = RunOptions.builder().seed(1).checkpointInterval(TimeUnit.MILLISECONDS.toNanos(1))
                .store(() -> store).build();
        RunResult up = new ThreadedRuntime(job(3), BarrierHandlers.unaligned(), threads).run();
        assertTrue(up.holds(), up.violations().toString());
        RunResult down = new ThreadedRuntime(job(1), BarrierHandlers.unaligned(), threads).run();
        assertTrue(down.holds(), down.violations().toString());
    }

    /**
     * Each stored record lands on the channel to the new task owning its key group, from the new
     * task of a rescaled sender owning it; each old channel's records keep their order.
     */
    @Test
    void eachStoredRecordGoesToTheChannelOfItsKeyGroupsNewOwnerInOrder() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        partialRun(store, 2, BarrierHandlers.unaligned(), 4, 1500);
        CompletedCheckpoint old = store.latest().orElseThrow();
        for (int p : new int[] {3, 1}) {
            CompletedCheckpoint now = Rescaling.restoreRescaled(old, job(p));
            assertEquals(old.persistedRecordCount(), now.persistedRecordCount(), "none lost, none copied at " + p);
            now.channelState().forEach((channel, records) -> {
                for (Record r : records) {
                    String owner = "count#" + KeyGroups.ownerOfKey(r.key(), p, KeyGroups.DEFAULT_MAX_PARALLELISM);
                    assertTrue(channel.endsWith("->" + owner) || channel.startsWith(owner + "->"), r + " on " + channel);
                }
            });
            old.channelState().forEach((channel, records) -> {
                for (List<Record> moved : now.channelState().values()) {
                    List<Record> fromHere = moved.stream().filter(records::contains).toList();
                    assertEquals(records.stream().filter(fromHere::contains).toList(), fromHere, channel + " reordered");
                }
            });
        }
    }

    /**
     * The broken twin (the spec's {@code BugChannelStateOnOldIndex}): each old channel's stored
     * records left on the channel of the same index after a scale-down, the channels of the tasks
     * that are gone lost with their records. The engine's checks report {@code NoSkipInv}; the
     * same checkpoint redistributed holds.
     */
    @Test
    void channelStateLeftOnItsOldIndexAfterAScaleDownIsCaught() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        partialRun(store, 3, BarrierHandlers.unaligned(), 4, 1500);
        CompletedCheckpoint old = store.latest().orElseThrow();
        assertTrue(old.channelState().entrySet().stream()
                .anyMatch(e -> !e.getValue().isEmpty() && !e.getKey().matches(".*count#0.*")),
                "records on a channel of count#1 or count#2: " + old.channelState());
        RunResult r = runFrom(Rescaling.restoreRescaled(old, job(1), Rescaling.KEY_GROUPS, BrokenRescaling.OLD_INDEX), job(1), BarrierHandlers.unaligned());
        Set<String> caught = invariantsOf(r);
        assertTrue(caught.contains(CutInvariants.NO_SKIP), "not caught as NoSkipInv: " + caught + " " + r.violations());
        RunResult ok = runFrom(Rescaling.restoreRescaled(old, job(1)), job(1), BarrierHandlers.unaligned());
        assertTrue(ok.holds(), ok.violations().toString());
    }

    /**
     * The broken twin of the spec's {@code BugKeyGroupSplit}: the stored records routed by key
     * group mod parallelism while the state moves by key-group ranges, so some key groups' in-flight
     * records reach a new task that holds neither their state nor their route. The engine's checks
     * report it; the same checkpoint redistributed holds.
     */
    @Test
    void channelStateRoutedByAnotherKeyGroupAssignmentIsCaught() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        partialRun(store, 2, BarrierHandlers.unaligned(), 4, 1500);
        CompletedCheckpoint old = store.latest().orElseThrow();
        assertTrue(old.persistedRecordCount() > 0);
        RunResult r = runFrom(Rescaling.restoreRescaled(old, job(3), Rescaling.KEY_GROUPS, BrokenRescaling.KEY_GROUP_MOD), job(3), BarrierHandlers.unaligned());
        assertFalse(r.violations().isEmpty(), "the split of key groups' in-flight records was not caught");
        RunResult ok = runFrom(Rescaling.restoreRescaled(old, job(3)), job(3), BarrierHandlers.unaligned());
        assertTrue(ok.holds(), ok.violations().toString());
    }

    /**
     * Two rescaled operators in a chain, the first stateless (FLINK-31963's shape, Flink's
     * UnalignedCheckpointRescaleITCase): both scaled down from 3 to 1 from an unaligned checkpoint
     * with records in flight into the map, exactly once.
     */
    @Test
    void aStatelessMapBetweenTwoKeyedExchangesIsRescaledWithItsChannelState() {
        CompletedCheckpoint old = mapCheckpointWithRecordsIntoTheGoneMapTasks();
        RunResult ok = runFrom(Rescaling.restoreRescaled(old, mapJob(1)), mapJob(1), BarrierHandlers.unaligned());
        assertTrue(ok.holds(), ok.violations().toString());
    }

    /**
     * The broken twin of the spec's {@code BugStatelessSkipsReassignment} (FLINK-31963): the
     * channel state into the stateless map is not reassigned, so after the scale-down the records
     * stored for the map tasks that are gone are lost. The engine's checks report {@code NoSkipInv}.
     */
    @Test
    void channelStateOfAStatelessOperatorNotReassignedIsCaught() {
        CompletedCheckpoint old = mapCheckpointWithRecordsIntoTheGoneMapTasks();
        RunResult r = runFrom(Rescaling.restoreRescaled(old, mapJob(1), Rescaling.KEY_GROUPS, BrokenRescaling.STATELESS_SKIPPED), mapJob(1), BarrierHandlers.unaligned());
        Set<String> caught = invariantsOf(r);
        assertTrue(caught.contains(CutInvariants.NO_SKIP), "not caught as NoSkipInv: " + caught + " " + r.violations());
    }

    /** An unaligned checkpoint of {@link #mapJob} at 3 holding records on a channel into map#1 or map#2. */
    private static CompletedCheckpoint mapCheckpointWithRecordsIntoTheGoneMapTasks() {
        for (long seed = 1; seed <= 20; seed++) {
            InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
            partialRun(RescaledRestoreTest::mapJob, store, 3, BarrierHandlers.unaligned(), seed, 1500);
            java.util.Optional<CompletedCheckpoint> c = store.latest();
            if (c.isPresent() && c.get().channelState().entrySet().stream()
                    .anyMatch(e -> !e.getValue().isEmpty() && e.getKey().matches(".*->map#[12]"))) {
                return c.get();
            }
        }
        throw new AssertionError("no seed in 1..20 left a checkpoint with records into map#1 or map#2");
    }

    @Test
    void anExchangeWhoseChannelStateCannotBeRedistributedIsRefused() {
        JobGraph forward = JobGraph.builder()
                .source("s", InMemorySourceLog.ofKeys(1, 2, 3))
                .operator("map", 1, () -> new MapOperator(v -> v))
                .operator("sink", 1, RecordingSink::new)
                .edge("s", "map", Partitioning.FORWARD)
                .edge("map", "sink", Partitioning.HASH)
                .build();
        assertEquals("cannot rescale 'map': its FORWARD edge s->map pins channel i to instance i, so its channel"
                + " state cannot be redistributed",
                assertThrows(Rescaling.Refused.class, () -> Rescaling.checkRescalable(forward, "map", 2, false)).getMessage());
        JobGraph broadcast = JobGraph.builder()
                .source("s", InMemorySourceLog.ofKeys(1, 2, 3))
                .operator("count", 2, KeyedCount::new)
                .edge("s", "count", Partitioning.BROADCAST)
                .build();
        assertTrue(assertThrows(Rescaling.Refused.class, () -> Rescaling.checkRescalable(broadcast, "count", 3, true))
                .getMessage().startsWith("cannot rescale 'count': its BROADCAST in-edge s->count"));
        assertThrows(Rescaling.Refused.class, () -> Rescaling.checkRescalable(job(2), "s1", 2, false));
        assertThrows(Rescaling.Refused.class, () -> Rescaling.checkRescalable(job(2), "count", 129, false));
    }

    /**
     * The non-keyed sum (the spec's {@code RescaleSumUp}, {@code RescaleSumDown}): restored at 3,
     * then at 1, each old task's partial sum and its ledger to exactly one new task; the engine's
     * checks (ConsistentCutInv and ExactlyOnceInv, counted over the sum's tasks together) hold in
     * the run at 3 and in the run at 1, aligned and unaligned. Unaligned seed 3 stores records in
     * flight out of the sum at 2 (asserted) that a checkpoint at 3 stores again: they must leave
     * from the new task holding their sender's element, which {@code UnalignedChannelStateBoundInv}
     * checks against its ledger. Flink: {@code RescalingITCase}'s non-partitioned state (list state
     * in SPLIT_DISTRIBUTE mode, rescaled up and down).
     */
    @ParameterizedTest
    @ValueSource(strings = {"aligned", "unaligned"})
    void theSimulationSplitsTheSumsListStateAtThreeThenOneExactlyOnce(String modeName) {
        BarrierMode mode = modeName.equals("aligned") ? BarrierHandlers.aligned() : BarrierHandlers.unaligned();
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        assertEquals(List.of(), checkedPartialRun(RescaledRestoreTest::sumJob, store, 2, mode, 3, 1500));
        CompletedCheckpoint atTwo = store.latest().orElseThrow();
        assertEquals(2, Rescaling.parallelismOf(atTwo, sumJob(1)).get("sum"));
        assertTrue(modeName.equals("aligned") || atTwo.channelState().entrySet().stream()
                .anyMatch(e -> e.getKey().startsWith("sum#") && !e.getValue().isEmpty()), "no record in flight out of the sum");
        assertEquals(List.of(), checkedPartialRun(RescaledRestoreTest::sumJob, store, 3, mode, 3, 1500));
        assertEquals(3, Rescaling.parallelismOf(store.latest().orElseThrow(), sumJob(1)).get("sum"));
        RunResult r = new SimulationRuntime(sumJob(1), mode, RunOptions.builder().seed(3).store(() -> store).build()).run();
        assertTrue(r.finished() && r.holds(), r.violations().toString());
    }

    /** {@link #partialRun}, returning what the engine's checks found on the way (the unfinished run's own report left out). */
    private static List<Violation> checkedPartialRun(Function<Integer, JobGraph> job, InMemoryCheckpointStore store,
                                                     int parallelism, BarrierMode mode, long seed, int steps) {
        SimulationRuntime sim = new SimulationRuntime(job.apply(parallelism), mode,
                RunOptions.builder().seed(seed).triggerProbability(0.2).store(() -> store).build());
        for (int i = 0; i < steps && sim.step(); i++) {
            // a crash after some steps
        }
        return sim.result().violations().stream().filter(v -> !v.invariant().equals(SimulationRuntime.TERMINATION)).toList();
    }

    @Test
    void theThreadedRuntimeSplitsTheSumsListStateAtThreeThenOne() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        partialRun(RescaledRestoreTest::sumJob, store, 2, BarrierHandlers.unaligned(), 4, 1500);
        RunOptions threads = RunOptions.builder().seed(1).checkpointInterval(TimeUnit.MILLISECONDS.toNanos(1))
                .store(() -> store).build();
        RunResult up = new ThreadedRuntime(sumJob(3), BarrierHandlers.unaligned(), threads).run();
        assertTrue(up.holds(), up.violations().toString());
        RunResult down = new ThreadedRuntime(sumJob(1), BarrierHandlers.unaligned(), threads).run();
        assertTrue(down.holds(), down.violations().toString());
    }

    /** Each old task's partial sum goes to exactly one new task, in contiguous runs (Flink's SPLIT_DISTRIBUTE). */
    @Test
    void eachPartialSumGoesToExactlyOneNewTask() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        partialRun(RescaledRestoreTest::sumJob, store, 3, BarrierHandlers.aligned(), 2, 1500);
        CompletedCheckpoint old = store.latest().orElseThrow();
        long[] partial = IntStream.range(0, 3).mapToLong(i -> sumOf(old, i)).toArray();
        assertTrue(partial[0] != 0 && partial[1] != 0 && partial[2] != 0, "every old task has summed some");
        CompletedCheckpoint two = Rescaling.restoreRescaled(old, sumJob(2));
        assertEquals(partial[0] + partial[1], sumOf(two, 0), "task 0 of 2: elements 0 and 1 (3 = 2 * 1 + 1)");
        assertEquals(partial[2], sumOf(two, 1));
        CompletedCheckpoint four = Rescaling.restoreRescaled(old, sumJob(4));
        assertEquals(List.of(partial[0], partial[1], partial[2], 0L),
                IntStream.range(0, 4).mapToObj(i -> sumOf(four, i)).toList(), "a new task may get none");
        assertEquals(old.taskSnapshots().get("sum#2").processed(), four.taskSnapshots().get("sum#2").processed(),
                "the ledger goes with its element");
    }

    private static long sumOf(CompletedCheckpoint c, int task) {
        Sum sum = new Sum();
        sum.restoreState(c.taskSnapshots().get("sum#" + task).operatorState());
        return sum.sum();
    }

    /**
     * The broken twin (the spec's {@code BugListStateAsUnion}): the sum's split list state
     * restored as union, every new task keeping every partial sum. The engine's checks report
     * {@code NoDoubleCountInv}; the same checkpoint split holds.
     */
    @Test
    void theSumsListStateRestoredAsUnionIsCaught() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        partialRun(RescaledRestoreTest::sumJob, store, 2, BarrierHandlers.aligned(), 1, 1500);
        CompletedCheckpoint old = store.latest().orElseThrow();
        ListStateSplit.Redistribution union = (task, n, p) -> IntStream.range(0, n).boxed().toList();
        RunResult r = runFrom(Rescaling.restoreRescaled(old, sumJob(3), Rescaling.KEY_GROUPS, Rescaling.KEY_GROUP_ROUTE, union), sumJob(3), BarrierHandlers.aligned());
        Set<String> caught = invariantsOf(r);
        assertTrue(caught.contains(CutInvariants.NO_DOUBLE_COUNT), "not caught as NoDoubleCountInv: " + caught);
        RunResult ok = runFrom(Rescaling.restoreRescaled(old, sumJob(3)), sumJob(3), BarrierHandlers.aligned());
        assertTrue(ok.holds(), ok.violations().toString());
    }

    /** Each new join task holds, on both sides, exactly the keys of its key groups, every latest value moved once. */
    @Test
    void eachNewJoinTaskHoldsTheKeysOfItsKeyGroupsOnBothSides() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        partialRun(RescaledRestoreTest::joinJob, store, 2, BarrierHandlers.aligned(), 2, 1500);
        CompletedCheckpoint old = store.latest().orElseThrow();
        CompletedCheckpoint now = Rescaling.restoreRescaled(old, joinJob(3));
        int m = KeyGroups.DEFAULT_MAX_PARALLELISM;
        for (int side = 0; side < 2; side++) {
            Map<Long, Long> before = new java.util.TreeMap<>();
            for (int i = 0; i < 2; i++) {
                before.putAll(latest(old, "join#" + i, side));
            }
            assertFalse(before.isEmpty(), "side " + side + " has seen keys");
            Map<Long, Long> after = new java.util.TreeMap<>();
            for (int i = 0; i < 3; i++) {
                for (Map.Entry<Long, Long> e : latest(now, "join#" + i, side).entrySet()) {
                    assertEquals(i, KeyGroups.ownerOfKey(e.getKey(), 3, m), "key " + e.getKey() + " on join#" + i);
                    assertEquals(null, after.put(e.getKey(), e.getValue()), "key " + e.getKey() + " on two tasks");
                }
            }
            assertEquals(before, after, "side " + side + ": every key's latest value moved, none lost");
        }
    }

    /** The latest values side {@code side} of join task {@code task} holds in {@code c}, by key. */
    private static Map<Long, Long> latest(CompletedCheckpoint c, String task, int side) {
        Join join = new Join();
        join.restoreState(c.taskSnapshots().get(task).operatorState());
        Map<Long, Long> out = new java.util.TreeMap<>();
        for (long key = 0; key < 40; key++) {
            if (join.latest(side, key) != 0) {
                out.put(key, join.latest(side, key));
            }
        }
        return out;
    }

    /** Join's state is per key on both sides: it rescales by key group like the count, aligned and unaligned. */
    @ParameterizedTest
    @ValueSource(strings = {"aligned", "unaligned"})
    void theSimulationRestoresTheJoinAtThreeThenOneExactlyOnce(String modeName) {
        BarrierMode mode = modeName.equals("aligned") ? BarrierHandlers.aligned() : BarrierHandlers.unaligned();
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        partialRun(RescaledRestoreTest::joinJob, store, 2, mode, 4, 1500);
        partialRun(RescaledRestoreTest::joinJob, store, 3, mode, 4, 1500);
        assertEquals(3, Rescaling.parallelismOf(store.latest().orElseThrow(), joinJob(1)).get("join"));
        RunResult r = new SimulationRuntime(joinJob(1), mode, RunOptions.builder().seed(4).store(() -> store).build()).run();
        assertTrue(r.finished() && r.holds(), r.violations().toString());
    }
}
