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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Trace validation of the two-phase-commit sink in the build: a run of the {@code sink}
 * job in at-least-once mode (end of input, failures right after a completion, so notifications
 * are lost and restores re-commit) is accepted by the trace specs with the spec's {@code TransactionalSink}, every sink event's
 * committed output checked against the spec's {@code committed}; the broken sink that commits in
 * its snapshot is rejected at the sink's {@code ReceiveBarrier}, and the same run with the correct
 * sink is accepted.
 */
class SinkTraceTest {

    @TempDir
    Path dir;

    private final PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    private Path record(String name, BarrierMode mode, TraceTool.Settings s) {
        Path f = dir.resolve(name + ".ndjson");
        TraceTool.record(f, TraceJobs.build("sink", 5, 2, s.seed(), 0), "sink", mode, s, quiet);
        return f;
    }

    private static long count(Path trace, String text) throws Exception {
        return Files.readAllLines(trace).stream().filter(l -> l.contains(text)).count();
    }

    /**
     * At-least-once (its own trace spec); tests/trace-validation.sh validates the aligned,
     * unaligned and threaded sink traces (with the coverage of lost notifications and re-commits).
     */
    @ParameterizedTest(name = "{0}, seed {1}")
    @CsvSource({"at-least-once, 4"})
    void runsWithLostNotificationsAndRecommitsAreAccepted(String mode, long seed) throws Exception {
        Path trace = record("sink-" + mode + "-" + seed, BarrierHandlers.byName(mode),
                new TraceTool.Settings(false, seed, 6, 1, 3, 0.01, 0, true, true));
        assertTrue(count(trace, "\"event\":\"NotifyCheckpointComplete\"") > 0, "the trace has notifications");
        assertTrue(count(trace, "\"transactionalSink\":true") == 1, "the header says so");
        TraceValidator.Verdict v = Tlc.validator(dir.resolve("logs")).validate(trace);
        assertEquals(TraceValidator.Outcome.ACCEPTED, v.outcome(), v.report());
    }

    @Test
    void aSinkThatCommitsOnSnapshotIsRejectedAtItsSnapshot() throws Exception {
        BrokenTraces.Case c = BrokenTraces.COMMIT_ON_SNAPSHOT;
        Path trace = BrokenTraces.record(c, dir, quiet);
        TraceValidator.Verdict v = Tlc.validator(dir.resolve("logs")).validate(trace);
        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        List<String> lines = Files.readAllLines(trace);
        String line = lines.get((int) v.unexplainedEvent());
        assertTrue(line.contains(c.expectedEvent()) && line.contains("\"task\":\"sink#0\""), "first unexplained event: " + line);
        assertTrue(v.report().contains(c.expectedWhy()), v.report());

        Path fixed = record("sink-fixed", c.mode(), c.settings());
        TraceValidator.Verdict ok = Tlc.validator(dir.resolve("logs")).validate(fixed);
        assertEquals(TraceValidator.Outcome.ACCEPTED, ok.outcome(), ok.report());
    }
}
