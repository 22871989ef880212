package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.sink.BrokenSinks;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * At-least-once mode with the two-phase-commit sink, on {@link SinkSimulationTest}'s seeded jobs
 * with failures: the committed output holds every record at least as often as its routes
 * ({@code OutputAtLeastOnceInv}, the spec's AtLeastOnceSinkJoin), and a sink that does not
 * re-commit the restored checkpoint's transactions loses output that no replay brings back (the
 * spec's AtLeastOnceBugNoRecommitOnRestore).
 */
@Timeout(120)
class AtLeastOnceOutputTest {

    private static final int RUNS = 20;

    /** Per invariant, in how many of the seeded runs it was violated; and how many runs had a failure. */
    private static Map<String, Integer> violatedIn(Function<SinkDirectory, TransactionalFileSink> sink, int[] failed) {
        Map<String, Integer> by = new TreeMap<>();
        for (long seed = 0; seed < RUNS; seed++) {
            RunOptions o = SinkSimulationTest.options(seed).endOfInput(true).build();
            RunResult r = new SimulationRuntime(SinkSimulationTest.job(seed, new MemorySinkDirectory(), 1, sink),
                    BarrierHandlers.atLeastOnce(), o).run();
            assertTrue(r.finished(), "seed " + seed + " finished: " + r.violations());
            failed[0] += r.failures() > 0 ? 1 : 0;
            r.violations().stream().map(Violation::invariant).distinct().forEach(n -> by.merge(n, 1, Integer::sum));
        }
        return by;
    }

    @Test
    void theCorrectSinkCommitsEveryRecordAtLeastOnceWhateverFailures() {
        int[] failed = {0};
        assertEquals(Map.of(), violatedIn(TransactionalFileSink::new, failed));
        assertTrue(failed[0] >= RUNS / 4, "runs with a failure: " + failed[0]);
    }

    @Test
    void aSinkThatDoesNotRecommitOnRestoreLosesOutputAndIsCaught() {
        Map<String, Integer> by = violatedIn(BrokenSinks.ALL.get("BugNoRecommitOnRestore"), new int[1]);
        assertTrue(by.getOrDefault(CutInvariants.OUTPUT_AT_LEAST_ONCE, 0) > 0, "caught by OutputAtLeastOnceInv: " + by);
        assertTrue(by.keySet().stream().allMatch(List.of(CutInvariants.OUTPUT_AT_LEAST_ONCE)::contains),
                "only the output's claim is broken: " + by);
    }
}
