package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.sink.BrokenSinks;
import dev.consistentcut.sink.MemorySinkDirectory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a threaded run ends and what it says on the way: the output checks of a job with a
 * transactional sink, and the progress line's rate after a stalled coordinator.
 * Outcomes only, never timing.
 */
@Timeout(60)
class ThreadedLifecycleEndTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aSinkThatNeverCommitsItsLastTransactionIsCaughtAtTheEndOfAThreadedRun() {
        // DELIBERATELY BROKEN sink (spec twin BugNoFinalCheckpoint, BrokenSinks): at end of input
        // its open transaction is never pre-committed, so its records are never committed. Only
        // the end-of-run output checks see it (OutputExactlyOnceInv), which an exactly-once mode
        // with a transactional sink must run (SimulationFinalChecksTest shows it on the simulation).
        // No periodic checkpoint (interval 1 h): every record is in the one forgotten transaction.
        RunResult r = new ThreadedRuntime(SinkSimulationTest.job(11, new MemorySinkDirectory(), 1,
                BrokenSinks.ALL.get("BugNoFinalCheckpoint")), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(TimeUnit.HOURS.toNanos(1)).endOfInput(true).build()).run();
        Set<String> names = r.violations().stream().map(Violation::invariant).collect(Collectors.toSet());
        assertTrue(names.contains(CutInvariants.OUTPUT_EXACTLY_ONCE), r.violations().toString());
    }

    private static final Pattern LINE = Pattern.compile(
            "(\\d+[.,]\\d) s: sinks received (\\d+) records \\((\\d+) records/s\\)");

    @Test
    void theRateAfterAStalledCoordinatorIsOverTheWholeStall() {
        // The coordinator thread is held in the first progress line for 1.5 s (the sink works on,
        // at 1 ms a record); the next line, due a second after the first, comes at once after it:
        // its rate is the records since the first line over the 2.5 s or so since it, not over a
        // second (ThreadedRuntimeProgressTest checks lines a second apart, where x / 1 = x * 1).
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(1500, MS, 64), BarrierHandlers.aligned(),
                RunOptions.builder().checkpointInterval(TimeUnit.HOURS.toNanos(1)).progress(line -> {
                    lines.add(line);
                    if (lines.size() == 1) {
                        try {
                            Thread.sleep(1500);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }).build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(lines.size() >= 2, lines.toString());
        double[] seconds = new double[2];
        long[] records = new long[2];
        long rate = 0;
        for (int i = 0; i < 2; i++) {
            Matcher m = LINE.matcher(lines.get(i));
            assertTrue(m.matches(), "not a progress line: " + lines.get(i));
            seconds[i] = Double.parseDouble(m.group(1).replace(',', '.'));
            records[i] = Long.parseLong(m.group(2));
            rate = Long.parseLong(m.group(3));
        }
        long delta = records[1] - records[0];
        double interval = seconds[1] - seconds[0];
        assertTrue(interval >= 1.4 && delta >= 100, "the stall: " + lines);
        assertTrue(rate >= delta / (interval + 0.1) - 1 && rate <= delta / (interval - 0.1) + 1,
                "rate " + rate + " for " + delta + " records in about " + interval + " s: " + lines);
    }
}
