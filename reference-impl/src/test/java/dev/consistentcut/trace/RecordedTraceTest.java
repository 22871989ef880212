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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs of both runtimes in both modes, recorded and validated by TLC: every one is a behaviour
 * of the specification. (tests/trace-validation.sh validates a larger set.)
 */
class RecordedTraceTest {

    @TempDir
    Path dir;

    private TraceValidator.Verdict recordAndValidate(String name, String job, BarrierMode mode, boolean threads,
                                                     int maxConcurrent, int failures, double abort) throws Exception {
        Path trace = dir.resolve(name + ".ndjson");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = TraceTool.record(trace, TraceJobs.build(job, 6, 2, 7, threads ? TimeUnit.MICROSECONDS.toNanos(200) : 0),
                mode, threads, 7, 4, maxConcurrent, failures, abort, job, new PrintStream(out, true, StandardCharsets.UTF_8));
        String summary = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, summary);
        assertTrue(summary.contains("the engine's own invariant checks: hold"), summary);
        List<String> lines = Files.readAllLines(trace);
        if (failures > 0) {
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("{\"event\":\"FailAndRestore\"")), "no failure in " + trace);
        }
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("{\"event\":\"CompleteCheckpoint\"")), "no checkpoint in " + trace);
        TraceValidator.Verdict v = Tlc.validator(dir.resolve("logs")).validate(trace);
        assertEquals(TraceValidator.Outcome.ACCEPTED, v.outcome(), v.report());
        assertEquals(lines.size() - 1, v.events());
        return v;
    }

    @Test
    void simulationAlignedWithTwoInFlightAbortsAndFailuresIsABehaviourOfTheSpec() throws Exception {
        recordAndValidate("sim-aligned", "demo", BarrierHandlers.aligned(), false, 2, 2, 0.02);
    }

    @Test
    void simulationUnalignedWithAbortsAndFailuresIsABehaviourOfTheSpec() throws Exception {
        recordAndValidate("sim-unaligned", "diamond", BarrierHandlers.unaligned(), false, 1, 2, 0.02);
    }

    @Test
    void threadedAlignedWithAFailureIsABehaviourOfTheSpec() throws Exception {
        recordAndValidate("threads-aligned", "join", BarrierHandlers.aligned(), true, 1, 1, 0);
    }

    @Test
    void threadedUnalignedWithAFailureIsABehaviourOfTheSpec() throws Exception {
        recordAndValidate("threads-unaligned", "demo", BarrierHandlers.unaligned(), true, 1, 1, 0);
    }
}
