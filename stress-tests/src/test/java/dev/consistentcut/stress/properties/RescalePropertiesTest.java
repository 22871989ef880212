package dev.consistentcut.stress.properties;

import static dev.consistentcut.stress.properties.PropertyRunner.assertNone;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.KeyGroups;
import dev.consistentcut.graph.NodeKind;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.runtime.ListStateSplit;
import dev.consistentcut.runtime.Rescaling;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.runtime.SimulationRuntime;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.quicktheories.core.Gen;

/**
 * On random jobs, seeds, crash points and parallelisms, in every mode (aligned and at-least-once
 * in one property, unaligned and alternating, whose cases cost more, in another): a job that
 * crashes part way and is restored, again and again, each time with its keyed count at another
 * parallelism ({@link Rescaling}, the spec's {@code AssignKeyGroups}, {@code RedistributeChannelState},
 * {@code RestoreRescaled}), keeps every completed checkpoint a consistent cut (all but
 * at-least-once) and finishes with its mode's promise (exactly-once, or at-least-once), also with
 * failures inside each run. Flink's {@code RescalingITCase} scales a keyed job up and down once
 * each, {@code UnalignedCheckpointRescaleITCase} with in-flight data; here any sequence of
 * parallelisms from 1 to 4, any crash point. On random jobs ({@link Blueprint}: counts, sums,
 * joins, maps), every mode, each restore puts every operator {@link Rescaling#checkRescalable}
 * accepts at a parallelism of its own: keyed state moves by key group, a sum's list state is split
 * (Flink's {@code RescalingITCase} non-partitioned state). The broken twins place odd keys one
 * task further than their key group's owner, leave stored in-flight records on their old channel,
 * or restore a sum's list state as union, and must be caught.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RescalePropertiesTest {

    /**
     * One case: the job (two sources of {@code records1} and {@code records2} records over
     * {@code keys} keys, a keyed count, a sink), the parallelism of each process of it and the
     * steps each but the last runs before it crashes (the last runs to the end), the simulation's
     * seed, failures at random inside each process, and the mode.
     */
    record RescaleCase(int records1, int records2, int keys, long logSeed, List<Integer> parallelisms,
                       List<Integer> steps, long seed, int maxFailures, int modeIndex) implements Restarts {

        @Override
        public int processes() {
            return parallelisms.size();
        }

        @Override
        public JobGraph jobOfProcess(int k) {
            return job(parallelisms.get(k));
        }

        @Override
        public String kindOf(String node) {
            return node;
        }

        JobGraph job(int parallelism) {
            return JobGraph.builder().defaultCapacity(4)
                    .source("s1", InMemorySourceLog.randomKeys(records1, keys, logSeed))
                    .source("s2", InMemorySourceLog.randomKeys(records2, keys, logSeed + 1))
                    .operator("count", parallelism, KeyedCount::new)
                    .operator("sink", 1, RecordingSink::new)
                    .edge("s1", "count", Partitioning.HASH)
                    .edge("s2", "count", Partitioning.HASH)
                    .edge("count", "sink", Partitioning.HASH)
                    .build();
        }

        @Override
        public String toString() {
            return "job: s1 " + records1 + " records, s2 " + records2 + ", " + keys + " keys, log seed " + logSeed
                    + " -> count -> sink; parallelisms " + parallelisms + ", crashes after " + steps.subList(0, parallelisms.size() - 1)
                    + " steps; simulation seed " + seed + ", failures at random " + maxFailures
                    + "; " + MODES.get(modeIndex);
        }
    }

    /**
     * What {@link #run} needs of a case: its processes, each with its job graph (the parallelism
     * it restores at), the steps each but the last runs before it crashes, the simulation's seed,
     * failures at random inside each process, and the mode.
     */
    interface Restarts {

        /** The modes, by {@code modeIndex}; alternating with a 1-step aligned timeout, so that it goes unaligned. */
        List<String> MODES = List.of("aligned", "at-least-once", "unaligned", "alternating");

        int processes();

        /** Process {@code k}'s job graph. Each call makes fresh, equal source logs. */
        JobGraph jobOfProcess(int k);

        List<Integer> steps();

        long seed();

        int maxFailures();

        int modeIndex();

        /** What {@code node} is, for the coverage: its operator's kind. */
        String kindOf(String node);

        default boolean atLeastOnce() {
            return modeIndex() == 1;
        }

        default BarrierMode mode() {
            return switch (modeIndex()) {
                case 1 -> BarrierHandlers.atLeastOnce();
                case 2 -> BarrierHandlers.unaligned();
                case 3 -> BarrierHandlers.alternating(1);
                default -> BarrierHandlers.aligned();
            };
        }

        default SimulationRuntime process(int k, InMemoryCheckpointStore store) {
            return new SimulationRuntime(jobOfProcess(k), mode(), RunOptions.builder()
                    .seed(seed() + k).triggerProbability(0.1).maxSteps(200_000)
                    .maxFailures(maxFailures()).failureProbability(maxFailures() > 0 ? 0.01 : 0)
                    .store(() -> store).build());
        }
    }

    /**
     * One case on a random job ({@link Generators#rescalableBlueprints}, with a sink of
     * parallelism 1 behind its last operators): for each process, a wished parallelism (1-3) per
     * operator slot (the blueprint's operators in order, then the sink), taken by every operator
     * that {@link Rescaling#checkRescalable} accepts at it (the others keep the blueprint's).
     */
    record JobCase(Blueprint blueprint, List<List<Integer>> wished, List<Integer> steps, long seed, int maxFailures,
                   int modeIndex) implements Restarts {

        @Override
        public int processes() {
            return wished.size();
        }

        @Override
        public JobGraph jobOfProcess(int k) {
            JobGraph job = blueprint.toJobWithSink(RecordingSink::new, 1);
            boolean overtaking = modeIndex >= 2;
            List<String> operators = operatorNodes(job);
            for (int slot = 0; slot < operators.size(); slot++) {
                String node = operators.get(slot);
                int p = wished.get(k).get(slot);
                try {
                    Rescaling.checkRescalable(job, node, p, overtaking);
                } catch (Rescaling.Refused refused) {
                    continue; // keeps the blueprint's parallelism
                }
                job = job.withParallelism(node, p);
            }
            return job;
        }

        @Override
        public String kindOf(String node) {
            return blueprint.operators().stream().filter(o -> o.name().equals(node))
                    .map(o -> o.kind().name().toLowerCase()).findFirst().orElse(node);
        }

        @Override
        public String toString() {
            List<Map<String, Integer>> p = new ArrayList<>();
            for (int k = 0; k < wished.size(); k++) {
                p.add(parallelisms(jobOfProcess(k)));
            }
            return "job: " + blueprint + " -> sink; parallelisms per process " + p + ", crashes after "
                    + steps.subList(0, wished.size() - 1) + " steps; simulation seed " + seed + ", failures at random "
                    + maxFailures + "; " + MODES.get(modeIndex);
        }
    }

    /** The operator nodes of {@code job}, in order. */
    static List<String> operatorNodes(JobGraph job) {
        return job.nodes().stream().filter(n -> n.kind() == NodeKind.OPERATOR).map(JobGraph.Node::name).toList();
    }

    /** Each operator node of {@code job} with its parallelism. */
    static Map<String, Integer> parallelisms(JobGraph job) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String node : operatorNodes(job)) {
            out.put(node, job.node(node).parallelism());
        }
        return out;
    }

    /** Cases on random jobs, in every mode, 2-{@code maxProcesses} processes. */
    static Gen<JobCase> jobCases(int maxProcesses) {
        Gen<List<List<Integer>>> wished = lists().of(lists().of(integers().between(1, 3)).ofSize(5))
                .ofSizeBetween(2, maxProcesses);
        Gen<List<Integer>> steps = lists().of(integers().between(20, 1500)).ofSize(3);
        Gen<int[]> run = integers().between(0, 1).zip(integers().between(0, 3), (f, mode) -> new int[] {f, mode});
        return Generators.rescalableBlueprints().zip(wished, steps, (b, w, s) -> new Object[] {b, w, s})
                .zip(longs().all(), run, (o, seed, r) -> {
                    @SuppressWarnings("unchecked") List<List<Integer>> w = (List<List<Integer>>) o[1];
                    @SuppressWarnings("unchecked") List<Integer> s = (List<Integer>) o[2];
                    return new JobCase((Blueprint) o[0], w, s, seed, r[0], r[1]);
                });
    }

    /** Cases in aligned and at-least-once mode. */
    static Gen<RescaleCase> cases() {
        return cases(0, 1);
    }

    /** Cases in the modes {@code RescaleCase.MODES[first..last]}. */
    static Gen<RescaleCase> cases(int first, int last) {
        Gen<int[]> job = integers().between(1, 120).zip(integers().between(1, 120), integers().between(1, 40),
                (a, b, k) -> new int[] {a, b, k});
        Gen<List<Integer>> parallelisms = lists().of(integers().between(1, 4)).ofSizeBetween(2, 4);
        Gen<List<Integer>> steps = lists().of(integers().between(20, 1500)).ofSize(3);
        Gen<int[]> run = integers().between(0, 1).zip(integers().between(first, last),
                (f, mode) -> new int[] {f, mode});
        return job.zip(longs().between(0, 1_000_000), parallelisms, steps, (j, logSeed, p, s) -> new Object[] {j, logSeed, p, s})
                .zip(longs().all(), run, (o, seed, r) -> {
                    int[] j = (int[]) o[0];
                    @SuppressWarnings("unchecked") List<Integer> p = (List<Integer>) o[2];
                    @SuppressWarnings("unchecked") List<Integer> s = (List<Integer>) o[3];
                    return new RescaleCase(j[0], j[1], j[2], (Long) o[1], p, s, seed, r[0], r[1]);
                });
    }

    /**
     * What the cases exercised: a pass is not vacuous only if checkpoints really were restored at
     * another parallelism, per kind of operator (node name for the fixed job, kind for a random
     * one) up and down.
     */
    private static final class Coverage {
        int cases;
        int rescaledRestores;
        int scaledUp;
        int scaledDown;
        int withChannelState;
        final Map<String, int[]> upDownByKind = new java.util.TreeMap<>();

        void restored(Restarts c, Map<String, Integer> before, JobGraph job, boolean channelState) {
            boolean rescaled = false;
            for (Map.Entry<String, Integer> e : before.entrySet()) {
                int now = job.node(e.getKey()).parallelism();
                if (now != e.getValue()) {
                    rescaled = true;
                    int[] upDown = upDownByKind.computeIfAbsent(c.kindOf(e.getKey()), k -> new int[2]);
                    upDown[now > e.getValue() ? 0 : 1]++;
                    scaledUp += now > e.getValue() ? 1 : 0;
                    scaledDown += now < e.getValue() ? 1 : 0;
                }
            }
            if (rescaled) {
                rescaledRestores++;
                withChannelState += channelState ? 1 : 0;
            }
        }

        void assertNotVacuous(boolean channelState) {
            if (rescaledRestores < cases / 4 || scaledUp == 0 || scaledDown == 0
                    || channelState && withChannelState < cases / 10) {
                throw new AssertionError("vacuous: " + this);
            }
        }

        /** Vacuous unless each of {@code kinds} was rescaled up and down in {@code atLeast} restores each. */
        void assertRescaled(List<String> kinds, int atLeast, int withChannelStateAtLeast) {
            assertNotVacuous(false);
            for (String kind : kinds) {
                int[] upDown = upDownByKind.getOrDefault(kind, new int[2]);
                if (upDown[0] < atLeast || upDown[1] < atLeast) {
                    throw new AssertionError("vacuous: " + kind + " rescaled up or down in fewer than " + atLeast
                            + " restores: " + this);
                }
            }
            if (withChannelState < withChannelStateAtLeast) {
                throw new AssertionError("vacuous: fewer than " + withChannelStateAtLeast
                        + " rescaled restores with in-flight records: " + this);
            }
        }

        @Override
        public String toString() {
            StringBuilder kinds = new StringBuilder();
            upDownByKind.forEach((kind, upDown) -> kinds.append(kinds.isEmpty() ? "" : ", ").append(kind).append(' ')
                    .append(upDown[0]).append(" up ").append(upDown[1]).append(" down"));
            return cases + " cases, " + rescaledRestores + " restores of a checkpoint at another parallelism ("
                    + scaledUp + " operators up, " + scaledDown + " down: " + kinds + "; " + withChannelState
                    + " with in-flight records)";
        }
    }

    /**
     * Runs the case's processes, each restoring what the one before left in the store (through
     * {@code restore}, which a correct run leaves alone), and checks every completed checkpoint's
     * cut and the last process's final state.
     */
    static void run(Restarts c, Coverage coverage, Placement restore) {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        int last = c.processes() - 1;
        for (int k = 0; k <= last; k++) {
            Optional<CompletedCheckpoint> latest = store.latest();
            JobGraph job = c.jobOfProcess(k);
            if (latest.isPresent()) {
                Map<String, Integer> before = Rescaling.parallelismOf(latest.get(), job);
                if (coverage != null) {
                    coverage.restored(c, before, job, latest.get().persistedRecordCount() > 0);
                }
                if (!before.equals(parallelisms(job))) {
                    store = restore.into(latest.get(), job);
                }
            }
            SimulationRuntime process = c.process(k, store);
            String what = "process " + (k + 1) + " at parallelism " + parallelisms(job);
            if (k < last) {
                for (int i = 0; i < c.steps().get(k) && process.step(); i++) {
                    // crashes after this many steps
                }
            } else {
                RunResult r = process.run();
                assertNone(what + ", the runtime's own checks", r.violations());
                if (!r.finished()) {
                    throw new AssertionError(what + " did not finish after " + r.steps() + " steps");
                }
                CutInvariants invariants = new CutInvariants(process.graph());
                assertNone(what + ", its final state", invariants.finalState(c.mode().deliveryGuarantee(), r.finalLedgers()));
            }
            if (!c.atLeastOnce()) { // an at-least-once checkpoint is not a cut: it may hold a record twice
                CutInvariants invariants = new CutInvariants(process.graph());
                List<Violation> cuts = new ArrayList<>();
                for (CompletedCheckpoint cp : process.completedCheckpoints()) {
                    cuts.addAll(invariants.consistentCut(cp));
                }
                assertNone(what + ", its completed checkpoints", cuts);
            }
        }
        if (coverage != null) {
            coverage.cases++;
        }
    }

    /** How a crashed job's latest checkpoint reaches the next process at another parallelism. */
    @FunctionalInterface
    interface Placement {
        InMemoryCheckpointStore into(CompletedCheckpoint latest, JobGraph job);
    }

    /** The engine's own way: the next process restores the checkpoint rescaled itself. */
    private static final Placement AS_IS = (latest, job) -> {
        InMemoryCheckpointStore s = new InMemoryCheckpointStore(3);
        s.store(latest);
        return s;
    };

    /** Broken twin: odd keys one task past their key group's owner (a key group split across two tasks). */
    private static final Placement SPLIT = (latest, job) -> {
        InMemoryCheckpointStore s = new InMemoryCheckpointStore(3);
        s.store(Rescaling.restoreRescaled(latest, job,
                (key, p, m) -> (KeyGroups.ownerOfKey(key, p, m) + (int) (key & 1)) % p));
        return s;
    };

    /** Broken twin (the spec's {@code BugChannelStateOnOldIndex}): stored in-flight records left on their old channel. */
    private static final Placement OLD_INDEX = (latest, job) -> {
        InMemoryCheckpointStore s = new InMemoryCheckpointStore(3);
        s.store(Rescaling.restoreRescaled(latest, job, Rescaling.KEY_GROUPS, (channel, r, rescaled, graph) -> channel));
        return s;
    };

    /**
     * Broken twin (the spec's {@code BugListStateAsUnion}): a sum's split list state restored as
     * union, every new task keeping every old task's partial sum and ledger.
     */
    private static final Placement UNION = (latest, job) -> {
        ListStateSplit.Redistribution union = (task, n, p) -> IntStream.range(0, n).boxed().toList();
        InMemoryCheckpointStore s = new InMemoryCheckpointStore(3);
        s.store(Rescaling.restoreRescaled(latest, job, Rescaling.KEY_GROUPS, Rescaling.KEY_GROUP_ROUTE, union));
        return s;
    };

    /**
     * Aligned and at-least-once. Half the other properties' cases in the quick run: the random-job
     * property below rescales the count too, in every mode.
     */
    @Test
    void restoresAtAnyParallelismKeepTheCutAndTheModesPromise(TestInfo test) {
        Coverage coverage = new Coverage();
        PropertyRunner.check(test, FIXED_JOB_EXAMPLES, cases(), c -> run(c, coverage, AS_IS));
        System.out.println("  " + coverage);
        coverage.assertNotVacuous(false);
    }

    /**
     * Unaligned and alternating: the checkpoints restored at another parallelism hold in-flight
     * records (a tenth of the cases at least, or the run is vacuous), which the restore
     * redistributes. Fewer cases in the quick run than the property above: each costs more.
     */
    @Test
    void restoresWithInFlightRecordsAtAnyParallelismKeepTheCutAndExactlyOnce(TestInfo test) {
        Coverage coverage = new Coverage();
        PropertyRunner.check(test, CHANNEL_STATE_EXAMPLES, cases(2, 3), c -> run(c, coverage, AS_IS));
        System.out.println("  " + coverage);
        coverage.assertNotVacuous(true);
    }

    /** The cases of the aligned and at-least-once property. */
    private static final int FIXED_JOB_EXAMPLES = Integer.getInteger("stress.examples",
            dev.consistentcut.stress.StressMode.pick(150, 20_000));

    /** The cases of the unaligned and alternating property: fewer than the others' in the quick run. */
    private static final int CHANNEL_STATE_EXAMPLES = Integer.getInteger("stress.examples",
            dev.consistentcut.stress.StressMode.pick(20, 20_000));

    @Test
    void aRestoreThatSplitsAKeyGroupIsCaught(TestInfo test) {
        PropertyRunner.assertFalsified(test, "Inv", cases(), c -> run(c, null, SPLIT));
    }

    /** Its cases cost more than the others': 20 shrinks at most, enough to report a caught case. */
    @Test
    void channelStateLeftOnItsOldChannelIsCaught(TestInfo test) {
        PropertyRunner.assertFalsified(test, "Inv", 20, cases(2, 3), c -> {
            try {
                run(c, null, OLD_INDEX);
            } catch (IllegalArgumentException brokeDown) {
                // a later rescale of the broken state (a key in two parts) is not the catch the twin is about
            }
        });
    }

    /**
     * Random jobs (counts, sums, joins, maps, fan-in and fan-out), every mode: each restore puts
     * every operator that can be rescaled at a parallelism of its own (1-3), so that counts and
     * joins move by key group and sums split their list state in one restore, with in-flight
     * records in and out of them. Vacuous unless the count, the sum and the join were each
     * rescaled up and down in 3 restores at least (of 100 cases, the join, the rarest, is rescaled
     * about 14 times each way), and a tenth of the cases restored in-flight records rescaled.
     */
    @Test
    void randomJobsRestoreEveryRescalableOperatorAtAnyParallelism(TestInfo test) {
        Coverage coverage = new Coverage();
        PropertyRunner.check(test, JOB_EXAMPLES, jobCases(4), c -> run(c, coverage, AS_IS));
        System.out.println("  " + coverage);
        coverage.assertRescaled(List.of("count", "sum", "join"), Math.max(3, JOB_EXAMPLES / 40), JOB_EXAMPLES / 10);
    }

    /** The cases of the random-job property in the quick run: each costs about two of the fixed job's. */
    private static final int JOB_EXAMPLES = Integer.getInteger("stress.examples",
            dev.consistentcut.stress.StressMode.pick(100, 20_000));

    /**
     * The union twin, caught by the random-job property: a record counted twice, at a checkpoint
     * ({@code NoDoubleCountInv}) or at the end ({@code ExactlyOnceInv}), whichever the shrunk case
     * meets first. Not shrunk: a broken run costs several correct ones; the first caught case will do.
     */
    @Test
    void aSumsListStateRestoredAsUnionIsCaught(TestInfo test) {
        PropertyRunner.assertFalsified(test, "counted twice", 0, jobCases(4), c -> run(c, null, UNION));
    }
}
