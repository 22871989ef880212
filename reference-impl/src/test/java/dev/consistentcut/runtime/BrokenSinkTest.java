package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.sink.BrokenSinks;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each broken sink of {@link BrokenSinks} (the spec's failing sink models) on the seeded runs that
 * the correct sink passes ({@link SinkSimulationTest}): each must be caught, by the invariant its
 * bug class violates, in some runs, and never pass them all.
 */
class BrokenSinkTest {

    static final int RUNS = 60;

    @ParameterizedTest(name = "{0} caught as {1}")
    @CsvSource({
        "BugCommitOnSnapshot, NoDuplicateOutputInv",
        "BugNoRecommitOnRestore, OutputExactlyOnceInv",
        "BugCommitNotIdempotent, NoDuplicateOutputInv",
        "BugNoFinalCheckpoint, OutputExactlyOnceInv",
    })
    void eachBrokenSinkIsCaught(String bug, String invariant) {
        Function<SinkDirectory, TransactionalFileSink> broken = BrokenSinks.ALL.get(bug);
        Map<String, Integer> caughtBy = new TreeMap<>();
        int caught = 0;
        for (long seed = 0; seed < RUNS; seed++) {
            RunOptions o = SinkSimulationTest.options(seed).endOfInput(true).build();
            RunResult r = new SimulationRuntime(SinkSimulationTest.job(seed, new MemorySinkDirectory(), 1, broken),
                    SinkSimulationTest.mode(seed), o).run();
            if (!r.violations().isEmpty()) {
                caught++;
                r.violations().stream().map(Violation::invariant).distinct().forEach(n -> caughtBy.merge(n, 1, Integer::sum));
            }
        }
        System.out.printf("%s: caught in %d of %d runs, by %s%n", bug, caught, RUNS, caughtBy);
        assertTrue(caughtBy.getOrDefault(invariant, 0) > 0, bug + " must be caught by " + invariant + ": " + caughtBy);
        assertTrue(caught >= RUNS / 10, bug + " caught in only " + caught + " runs");
    }

    @ParameterizedTest(name = "{0} passes a run without failures")
    @CsvSource({"BugCommitOnSnapshot", "BugNoRecommitOnRestore", "BugCommitNotIdempotent"})
    void theBugsNeedAFailureToShow(String bug) {
        RunResult r = new SimulationRuntime(SinkSimulationTest.job(7, new MemorySinkDirectory(), 1, BrokenSinks.ALL.get(bug)),
                SinkSimulationTest.mode(7), RunOptions.builder().seed(7).endOfInput(true).build()).run();
        assertEquals(0, r.failures());
        assertTrue(r.violations().stream().noneMatch(v -> v.invariant().equals(CutInvariants.NO_DUPLICATE_OUTPUT)
                || v.invariant().equals(CutInvariants.OUTPUT_EXACTLY_ONCE)), bug + ": " + r.violations());
    }
}
