package dev.consistentcut.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.DeliveryGuarantee;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Trace validation catches a broken engine: each broken handler's trace is rejected, at the
 * event where the broken step shows, for the reason the bug gives; the same run with the correct
 * handler is accepted, so the rejection is the bug's and not the job's.
 */
class BrokenEngineTraceTest {

    static final List<BrokenTraces.Case> CASES = BrokenTraces.CASES;

    @TempDir
    Path dir;

    private final PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @ParameterizedTest
    @FieldSource("CASES")
    void theBrokenEnginesTraceIsRejectedNamingTheFirstUnexplainedEvent(BrokenTraces.Case c) throws Exception {
        Path trace = BrokenTraces.record(c, dir, quiet);
        TraceValidator.Verdict v = Tlc.validator(dir.resolve("logs")).validate(trace);

        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        String line = Files.readAllLines(trace).get((int) v.unexplainedEvent());
        assertTrue(line.contains(c.expectedEvent()), "first unexplained event: " + line);
        assertTrue(v.report().contains("event: " + line), v.report());
        assertTrue(v.report().contains(c.expectedWhy()), v.report());
    }

    @ParameterizedTest
    @FieldSource("CASES")
    void theSameRunWithTheCorrectHandlerIsAccepted(BrokenTraces.Case c) {
        BrokenTraces.Case correct = c.with(c.name() + "-fixed", c.mode().overtaking() ? BarrierHandlers.unaligned()
                : c.mode().deliveryGuarantee() == DeliveryGuarantee.AT_LEAST_ONCE ? BarrierHandlers.atLeastOnce() : BarrierHandlers.aligned());
        Path trace = BrokenTraces.record(correct, dir, quiet);
        TraceValidator.Verdict v = Tlc.validator(dir.resolve("logs")).validate(trace);

        assertEquals(TraceValidator.Outcome.ACCEPTED, v.outcome(), v.report());
    }
}
