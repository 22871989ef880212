package dev.consistentcut.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs of both runtimes in both modes, recorded and validated by TLC: every one is a behaviour
 * of the specification. Tagged "long": tests/trace-validation.sh, a step of the test command,
 * validates a larger set of such runs (and checks that the failures, aborts and timeouts these
 * assert are in them), so the build leaves these out unless run with -Dtools.excludedGroups=none.
 */
@Tag("long")
class RecordedTraceTest {

    @TempDir
    Path dir;

    private List<String> recordAndValidate(String name, String job, BarrierMode mode, TraceTool.Settings settings)
            throws Exception {
        Path trace = dir.resolve(name + ".ndjson");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = TraceTool.record(trace, TraceJobs.build(job, 6, 2, 7, settings.threads() ? TimeUnit.MICROSECONDS.toNanos(200) : 0),
                job, mode, settings, new PrintStream(out, true, StandardCharsets.UTF_8));
        String summary = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, summary);
        assertTrue(summary.contains("the engine's own invariant checks: hold"), summary);
        List<String> lines = Files.readAllLines(trace);
        if (settings.failures() > 0) {
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("{\"event\":\"FailAndRestore\"")), "no failure in " + trace);
        }
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("{\"event\":\"CompleteCheckpoint\"")), "no checkpoint in " + trace);
        TraceValidator.Verdict v = Tlc.validator(dir.resolve("logs")).validate(trace);
        assertEquals(TraceValidator.Outcome.ACCEPTED, v.outcome(), v.report());
        assertEquals(lines.size() - 1, v.events());
        return lines;
    }

    @Test
    void simulationAlignedWithTwoInFlightAbortsAndFailuresIsABehaviourOfTheSpec() throws Exception {
        recordAndValidate("sim-aligned", "demo", BarrierHandlers.aligned(), new TraceTool.Settings(false, 7, 4, 2, 2, 0.02, 0));
    }

    @Test
    void simulationUnalignedWithAbortsAndFailuresIsABehaviourOfTheSpec() throws Exception {
        recordAndValidate("sim-unaligned", "diamond", BarrierHandlers.unaligned(), new TraceTool.Settings(false, 7, 4, 1, 2, 0.02, 0));
    }

    @Test
    void threadedAlignedWithAFailureIsABehaviourOfTheSpec() throws Exception {
        recordAndValidate("threads-aligned", "join", BarrierHandlers.aligned(), new TraceTool.Settings(true, 7, 4, 1, 1, 0, 0));
    }

    @Test
    void threadedUnalignedWithAFailureIsABehaviourOfTheSpec() throws Exception {
        recordAndValidate("threads-unaligned", "demo", BarrierHandlers.unaligned(), new TraceTool.Settings(true, 7, 4, 1, 1, 0, 0));
    }

    @Test
    void timedOutCheckpointsAreRecordedAsAbortCheckpointEventsAndValidate() throws Exception {
        // A pending checkpoint older than 12 steps is aborted by the coordinator's timeout.
        List<String> lines = recordAndValidate("sim-timeouts", "diamond", BarrierHandlers.unaligned(),
                new TraceTool.Settings(false, 7, 6, 1, 1, 0, 12));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("{\"event\":\"AbortCheckpoint\"")), "no timeout in the trace");
    }
}
