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
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.runtime.Rescaling;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.runtime.SimulationRuntime;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
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
 * parallelisms from 1 to 4, any crash point. The broken twins place odd keys one task further
 * than their key group's owner, or leave stored in-flight records on their old channel, and must
 * be caught.
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
                       List<Integer> steps, long seed, int maxFailures, int modeIndex) {

        /** The modes, by {@code modeIndex}; alternating with a 1-step aligned timeout, so that it goes unaligned. */
        static final List<String> MODES = List.of("aligned", "at-least-once", "unaligned", "alternating");

        boolean atLeastOnce() {
            return modeIndex == 1;
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

        BarrierMode mode() {
            return switch (modeIndex) {
                case 1 -> BarrierHandlers.atLeastOnce();
                case 2 -> BarrierHandlers.unaligned();
                case 3 -> BarrierHandlers.alternating(1);
                default -> BarrierHandlers.aligned();
            };
        }

        SimulationRuntime process(int k, InMemoryCheckpointStore store) {
            return new SimulationRuntime(job(parallelisms.get(k)), mode(), RunOptions.builder()
                    .seed(seed + k).triggerProbability(0.1).maxSteps(200_000)
                    .maxFailures(maxFailures).failureProbability(maxFailures > 0 ? 0.01 : 0)
                    .store(() -> store).build());
        }

        @Override
        public String toString() {
            return "job: s1 " + records1 + " records, s2 " + records2 + ", " + keys + " keys, log seed " + logSeed
                    + " -> count -> sink; parallelisms " + parallelisms + ", crashes after " + steps.subList(0, parallelisms.size() - 1)
                    + " steps; simulation seed " + seed + ", failures at random " + maxFailures
                    + "; " + MODES.get(modeIndex);
        }
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

    /** What the cases exercised: a pass is not vacuous only if checkpoints really were restored at another parallelism. */
    private static final class Coverage {
        int cases;
        int rescaledRestores;
        int scaledUp;
        int scaledDown;
        int withChannelState;

        void assertNotVacuous(boolean channelState) {
            if (rescaledRestores < cases / 4 || scaledUp == 0 || scaledDown == 0
                    || channelState && withChannelState < cases / 10) {
                throw new AssertionError("vacuous: " + this);
            }
        }

        @Override
        public String toString() {
            return cases + " cases, " + rescaledRestores + " restores of a checkpoint at another parallelism ("
                    + scaledUp + " up, " + scaledDown + " down, " + withChannelState + " with in-flight records)";
        }
    }

    /**
     * Runs the case's processes, each restoring what the one before left in the store (through
     * {@code restore}, which a correct run leaves alone), and checks every completed checkpoint's
     * cut and the last process's final state.
     */
    static void run(RescaleCase c, Coverage coverage, Placement restore) {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(3);
        int last = c.parallelisms().size() - 1;
        for (int k = 0; k <= last; k++) {
            Optional<CompletedCheckpoint> latest = store.latest();
            int p = c.parallelisms().get(k);
            if (latest.isPresent()) {
                int before = Rescaling.parallelismOf(latest.get(), c.job(1)).get("count");
                if (before != p && coverage != null) {
                    coverage.rescaledRestores++;
                    coverage.scaledUp += p > before ? 1 : 0;
                    coverage.scaledDown += p < before ? 1 : 0;
                    coverage.withChannelState += latest.get().persistedRecordCount() > 0 ? 1 : 0;
                }
                if (before != p) {
                    store = restore.into(latest.get(), c.job(p));
                }
            }
            SimulationRuntime process = c.process(k, store);
            String what = "process " + (k + 1) + " at parallelism " + p;
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

    @Test
    void restoresAtAnyParallelismKeepTheCutAndTheModesPromise(TestInfo test) {
        Coverage coverage = new Coverage();
        PropertyRunner.check(test, cases(), c -> run(c, coverage, AS_IS));
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
}
