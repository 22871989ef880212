package dev.consistentcut.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.trace.TraceValidator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real Flink runs on one MiniCluster: a run with a seeded failure in each mode is accepted, and
 * each broken twin is rejected by the Java side and, once the Flink trace modules are in the spec
 * directory, by TLC. No assertion depends on timing: every run has a completed checkpoint at each
 * gate (the sources wait for it) and the throw comes after one; a twin's catch rests on those
 * (RunSpec#withTwin). Tagged "flink": not in the default build (conformance/pom.xml says why);
 * {@code mvn -pl conformance -am verify -Dconformance.excludedGroups=none} runs it.
 */
@Tag("flink")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FlinkConformanceTest {

    private static FlinkHarness harness;
    private static final ByteArrayOutputStream OUT = new ByteArrayOutputStream();
    private static Runner runner;

    @TempDir
    static Path traces;

    @BeforeAll
    static void startCluster() throws Exception {
        harness = new FlinkHarness();
        PrintStream out = new PrintStream(OUT, true, StandardCharsets.UTF_8);
        runner = new Runner(Path.of("..", "spec"), false, out, out);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"aligned", "unaligned", "at-least-once", "alternating"})
    void aRunWithAFailureIsAccepted(String mode) throws Exception {
        RunSpec s = RunSpec.of(mode, mode.equals("unaligned") ? "diamond" : "join", 1, 11);
        Runner.Judged j = runner.runAndJudge(harness, s, traces.resolve(mode + ".ndjson"));
        assertTrue(j.finished(), OUT.toString(StandardCharsets.UTF_8));
        assertEquals(java.util.List.of(), j.violations());
        assertTrue(j.tlcAccepts(), () -> j.tlc().report());
    }

    @ParameterizedTest
    @ValueSource(strings = {"aligned", "unaligned"})
    void aStopWithSavepointAndTheJobRestoredFromItAreAccepted(String mode) throws Exception {
        RunSpec s = RunSpec.of(mode, "join", 1, 11).withStopWithSavepoint(true);
        Runner.Judged j = runner.runAndJudge(harness, s, traces.resolve(mode + "-stop.ndjson"));
        assertTrue(j.finished(), OUT.toString(StandardCharsets.UTF_8));
        assertEquals(java.util.List.of(), j.violations());
        assertTrue(j.tlcAccepts(), () -> j.tlc().report());
    }

    @ParameterizedTest
    @EnumSource(value = RunSpec.Twin.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void everyBrokenTwinIsRejected(RunSpec.Twin twin) throws Exception {
        RunSpec s = RunSpec.of("aligned", "join", 1, 11).withTwin(twin);
        Runner.Judged j = runner.runAndJudge(harness, s, traces.resolve(twin + ".ndjson"));
        assertFalse(j.violations().isEmpty(), twin + " passed the Java-side checks");
        if (j.tlc() != null) {
            assertEquals(TraceValidator.Outcome.REJECTED, j.tlc().outcome(), j.tlc().report());
        }
    }

    @Test
    void theSeededFailureHappensAndIsRestoredFromACompletedCheckpoint() throws Exception {
        RunSpec s = RunSpec.of("aligned", "join", 2, 12);
        FlinkHarness.Outcome o = harness.run(s);
        var events = o.log().events();
        assertTrue(o.finished());
        // attempt 0 always throws: its gate's record comes only after a checkpoint completed
        assertTrue(events.stream().anyMatch(e -> e.get("event").equals("FailTask") && e.get("attempt").equals(0)));
        assertTrue(events.stream().anyMatch(e -> e.get("event").equals("InitializeState")
                && ((Number) e.get("attempt")).intValue() == 1 && ((Number) e.get("restored")).longValue() > 0));
    }
}
