package dev.consistentcut.trace;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.causal.VectorClocks;
import dev.consistentcut.channel.ChannelClock;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.StepOrdering;
import dev.consistentcut.runtime.ThreadedRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Causal traces of the threaded runtime: a step's operations on its channels are one unit, as the
 * spec's step is. A step that operates on several channels (a source injecting a barrier on
 * three outputs, an operator taking a record and putting its result, a subsuming barrier's
 * cancellation and then its own barrier) published its event's number with the first operation
 * and merged clocks at later ones; when the other end of the first channel acted in between and
 * that news came back (through the join, the credits of a full channel), the clocks had a cycle
 * and the recording failed ("causal merge: no event can come next", 1 run in about 150 of the
 * diamond with channels of one record). Here every channel operation of a traced run pauses a
 * little after it (under the channel's lock, so the pause widens the gap between a step's
 * operations, not the operations), which made that interleaving likely: each run must still
 * merge into one trace.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CausalStepAtomicityTest {

    @TempDir
    Path dir;

    /** Delegates to the trace's channel clock, then pauses up to {@code maxMicros}. */
    private record Widening(ChannelClock inner, int maxMicros) implements ChannelClock {
        @Override
        public void put(boolean record, boolean overtaking) {
            inner.put(record, overtaking);
            pause();
        }

        @Override
        public void take(boolean record) {
            inner.take(record);
            pause();
        }

        @Override
        public void restored(int records) {
            inner.restored(records);
        }

        private void pause() {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(ThreadLocalRandom.current().nextInt(maxMicros)));
        }
    }

    /** One causal recording of the diamond (unaligned, channels of one record, a 1 ms timeout, a failure, end of input). */
    private long record(long seed) throws Exception {
        JobGraph job = TraceJobs.build("diamond", 6, 1, seed, TimeUnit.MICROSECONDS.toNanos(200));
        PhysicalGraph graph = PhysicalGraph.of(job);
        VectorClocks clocks = new VectorClocks(TraceTool.processes(job));
        Path file = dir.resolve("diamond-" + seed + ".ndjson");
        TraceRecorder recorder = TraceRecorder.open(file, job, BarrierHandlers.byName("unaligned"), "threads", 1,
                true, true, clocks, seed);
        try (recorder) {
            ThreadedRuntime rt = new ThreadedRuntime(job, BarrierHandlers.byName("unaligned"), RunOptions.builder()
                    .stepOrdering(StepOrdering.oneAtATime())
                    .observer(recorder)
                    .onCheckpoint(recorder::checkpointCompleted)
                    .seed(seed)
                    .failAfterCheckpoint(1)
                    .abortsReachTasks(true)
                    .endOfInput(true)
                    .checkpointInterval(TimeUnit.MILLISECONDS.toNanos(2))
                    .checkpointTimeout(TimeUnit.MILLISECONDS.toNanos(1))
                    .bufferTimeout(TimeUnit.MILLISECONDS.toNanos(1))
                    .build());
            recorder.attach(RuntimeViews.of(rt));
            // One channel, by the seed, is slow (its operations pause under its lock): a step that
            // operates on it and on other channels leaves a gap between those operations.
            String slow = graph.channels().get((int) (seed % graph.channels().size())).id();
            rt.recordCausally(clocks, (id, clock) -> id.equals(slow) ? new Widening(clock, 2000) : clock);
            if (rt.run().finished()) {
                recorder.runEnded(true);
            }
        } // close() merges the processes' logs: a cycle in the clocks throws here
        return Files.lines(file).count();
    }

    @Test
    void stepsWithSeveralChannelOperationsMergeIntoOneTrace() {
        for (long seed = 1; seed <= 140; seed++) {
            long s = seed;
            long lines = assertDoesNotThrow(() -> record(s), "seed " + s);
            assertTrue(lines > 10, "seed " + s + ": a trace of " + lines + " lines");
        }
    }
}
