package dev.consistentcut.stress.properties;

import static dev.consistentcut.stress.properties.PropertyRunner.assertNone;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.operator.Operator;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.runtime.SimulationRuntime;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.stress.broken.BrokenSinks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * End-to-end exactly-once on random jobs ending in the two-phase-commit sink (one or two instances), run to the
 * end of their input, with failures at random steps and failures injected between a checkpoint's
 * completion and its notification (the notification is lost): the committed output, read back
 * from the sink's directory and checked here with {@link CutInvariants}, holds every record
 * exactly as often as its routes to the sinks ({@code OutputExactlyOnceInv}), in both modes. The
 * broken twin (commit on snapshot) is falsified by {@code NoDuplicateOutputInv}.
 */
class SinkPropertiesTest {

    private static final Gen<BarrierMode> MODES = Generate.pick(List.of(BarrierHandlers.aligned(), BarrierHandlers.unaligned()));

    /** The run of case {@code c} with the sink {@code sink} and lost notifications; checks the output. */
    static int[] outputExactlyOnce(SimulationCase c, BarrierMode mode, Function<SinkDirectory, TransactionalFileSink> sink) {
        MemorySinkDirectory dir = new MemorySinkDirectory();
        int parallelism = 1 + (int) Math.floorMod(c.seed(), 2L);
        java.util.function.Supplier<Operator> factory = () -> sink.apply(dir);
        SimulationRuntime runtime = new SimulationRuntime(c.job().toJobWithSink(factory, parallelism), mode,
                RunOptions.builder().seed(c.seed()).maxSteps(SimulationCase.MAX_STEPS).triggerProbability(0.08)
                        .maxCheckpoints(8).abortProbability(c.abortProbability()).maxConcurrentAligned(c.maxConcurrentAligned())
                        .maxFailures(Math.max(1, c.maxFailures())).failureProbability(c.maxFailures() > 0 ? 0.02 : 0)
                        .failAtStep(c.failAtStep()).failAfterCheckpoint(c.failAfterCheckpoint())
                        .failureAfterCompletionProbability(0.4).endOfInput(true).build());
        RunResult r = runtime.run();
        Map<String, Map<dev.consistentcut.message.RecordId, Integer>> committed = new LinkedHashMap<>();
        for (String t : runtime.graph().operatorTasks()) {
            if (t.startsWith("sink#")) {
                committed.put(t, runtime.operatorTask(t).committedOutput());
            }
        }
        CutInvariants invariants = new CutInvariants(runtime.graph());
        List<Violation> violations = new ArrayList<>(invariants.noDuplicateOutput(committed));
        violations.addAll(invariants.outputExactlyOnce(committed));
        String what = mode.name() + " run into " + parallelism + " sink(s), " + r.checkpoints().size() + " checkpoint(s), "
                + r.failures() + " failure(s), " + runtime.lostNotifications() + " lost notification(s)";
        assertNone(what, violations);
        assertNone(what + ", the runtime's own checks", r.violations());
        if (!r.finished()) {
            throw new AssertionError(what + ": did not reach the end of its input after " + r.steps() + " steps");
        }
        return new int[] {r.failures(), runtime.lostNotifications()};
    }

    @Test
    void theCommittedOutputIsExactlyOnceDespiteLostNotifications(TestInfo test) {
        int[] totals = new int[3];
        PropertyRunner.check(test, Generators.cases(), MODES, (c, mode) -> {
            int[] r = outputExactlyOnce(c, mode, TransactionalFileSink::new);
            totals[0]++;
            totals[1] += r[0];
            totals[2] += r[1];
        });
        System.out.println("  " + totals[0] + " runs into the two-phase-commit sink: " + totals[1] + " failures, "
                + totals[2] + " notifications lost to a failure");
        if (totals[2] == 0) {
            throw new AssertionError("vacuous: no notification was lost to a failure");
        }
    }

    @Test
    void aSinkThatCommitsOnSnapshotIsCaught(TestInfo test) {
        PropertyRunner.assertFalsified(test, CutInvariants.NO_DUPLICATE_OUTPUT, Generators.casesRestoringACheckpoint(), MODES,
                (c, mode) -> outputExactlyOnce(c, mode, BrokenSinks::commitOnSnapshot));
    }
}
