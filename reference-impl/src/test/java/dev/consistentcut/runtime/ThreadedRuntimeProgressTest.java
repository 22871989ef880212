package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.message.Record;
import dev.consistentcut.operator.Operator;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The threaded runtime's once-a-second progress line ("T s: sinks received N records (R
 * records/s)"), its figures checked against each other and against what the sink did, never
 * against a clock: the sink stops at known records until the test has seen a line, so the count
 * a line reports is known exactly. A run of about three seconds (three lines).
 *
 * <p>Checkpoints run alongside (the sink's barriers pass between its stops); they add no record.
 */
@Timeout(30)
class ThreadedRuntimeProgressTest {

    private static final Pattern LINE = Pattern.compile(
            "(\\d+[.,]\\d) s: sinks received (\\d+) records \\((\\d+) records/s\\)");
    private static final int RECORDS = 1000;
    /** The sink stops inside its K-th record until released: the runtime has counted K - 1 then. */
    private static final int[] STOPS = {100, 300, 700};

    /**
     * A sink that costs 1 ns per record (so the worker takes one record per choice and counts each
     * at once) and stops inside record {@code STOPS[i]} until {@code release[i]}.
     */
    private static final class GatedSink implements Operator {
        final CountDownLatch[] reached = {new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1)};
        final CountDownLatch[] release = {new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1)};
        volatile int processed;

        @Override
        public Record process(int input, Record record) {
            int n = ++processed;
            for (int i = 0; i < STOPS.length; i++) {
                if (n == STOPS[i]) {
                    reached[i].countDown();
                    await(release[i]);
                }
            }
            return record;
        }

        @Override
        public long delayNanosPerRecord() {
            return 1;
        }

        @Override
        public byte[] snapshotState() {
            return new byte[0];
        }

        @Override
        public void restoreState(byte[] state) {
        }
    }

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private record Line(double seconds, long records, long rate) {
    }

    @Test
    void eachLineReportsTheSinksCountAndTheRateSinceTheLineBefore() {
        GatedSink sink = new GatedSink();
        JobGraph job = JobGraph.builder().defaultCapacity(64)
                .source("s", InMemorySourceLog.randomKeys(RECORDS, 8, 3))
                .operator("sink", 1, () -> sink)
                .edge("s", "sink", Partitioning.FORWARD)
                .build();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        // Called on the coordinator thread: line i releases the sink's stop i, then holds the
        // coordinator until the sink has reached its next stop, so line i + 1 (a second later at
        // the earliest) reports exactly STOPS[i + 1] - 1 records.
        RunOptions options = RunOptions.builder()
                // A checkpoint at most once a second, the progress line's own period: a trigger is
                // due no earlier than a line is (both at the start plus 1 s, then each 1 s after
                // the last), so there is a line in every period between two triggers and
                // checkpoints never outnumber lines, however the coordinator was held.
                .checkpointInterval(TimeUnit.SECONDS.toNanos(1))
                .progress(line -> {
                    int i = lines.size();
                    lines.add(line);
                    if (i < STOPS.length) {
                        await(sink.reached[i]);
                        sink.release[i].countDown();
                        if (i + 1 < STOPS.length) {
                            await(sink.reached[i + 1]);
                        }
                    }
                })
                .build();
        long before = System.nanoTime();
        RunResult r = new ThreadedRuntime(job, BarrierHandlers.aligned(), options).run();
        double wall = (System.nanoTime() - before) / 1e9;
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(RECORDS, sink.processed);

        assertTrue(lines.size() >= STOPS.length, "a line a second while the sink is held: " + lines);
        assertTrue(r.checkpoints().size() <= lines.size(), r.checkpoints().size() + " checkpoints, lines " + lines);
        List<Line> parsed = new ArrayList<>();
        for (String l : lines) {
            Matcher m = LINE.matcher(l);
            assertTrue(m.matches(), "not a progress line: " + l);
            parsed.add(new Line(Double.parseDouble(m.group(1).replace(',', '.')), Long.parseLong(m.group(2)),
                    Long.parseLong(m.group(3))));
        }
        assertEquals(STOPS[1] - 1, parsed.get(1).records(), "the sink stopped inside record " + STOPS[1] + ": " + lines);
        assertEquals(STOPS[2] - 1, parsed.get(2).records(), "the sink stopped inside record " + STOPS[2] + ": " + lines);
        Line previous = new Line(0, 0, 0);
        for (Line l : parsed) {
            // The first line a second after the start, each next one a second after the one before
            // (the figures are rounded to a tenth), and none after the run had returned.
            assertTrue(l.seconds() - previous.seconds() >= 0.95, "a second apart: " + lines);
            assertTrue(l.seconds() <= wall + 0.05, "within the run's " + wall + " s: " + lines);
            assertTrue(l.records() >= previous.records() && l.records() <= RECORDS, "the sink's count: " + lines);
            // The rate is the records since the line before over the time since it, which the
            // rounded elapsed figures give to within 0.1 s (and the rate is rounded to 1).
            long delta = l.records() - previous.records();
            double interval = l.seconds() - previous.seconds();
            assertTrue(l.rate() >= delta / (interval + 0.1) - 1 && l.rate() <= delta / (interval - 0.1) + 1,
                    "rate " + l.rate() + " for " + delta + " records in about " + interval + " s: " + lines);
            previous = l;
        }
    }
}
