package dev.consistentcut.bench.sweep;

import dev.consistentcut.bench.Backpressure;
import dev.consistentcut.bench.JobParams;
import java.util.ArrayList;
import java.util.List;

/**
 * The scaling sweep's points: the demo job's sizes ({@link JobParams#DEMO}: parallelism 2,
 * channels of 1,000 records in buffers of 250, 1,000 keys) under light backpressure and, one size
 * at a time, each varied below and above it; then the demo's sizes under heavy and under no
 * backpressure. One size at a time, so that a miss of the model points at the one term that moved.
 * Stateless.
 */
public final class SweepPlan {

    /** One point: the job's sizes and the backpressure it runs under. */
    public record Point(JobParams params, Backpressure backpressure) {

        /** The sizes' name, with the backpressure level when it is not the sweep's usual light. */
        public String name() {
            return params.name() + (backpressure == Backpressure.LIGHT ? "" : "-" + backpressure.label());
        }
    }

    private SweepPlan() {
    }

    /** The points, the demo's sizes first. */
    public static List<Point> points() {
        JobParams d = JobParams.DEMO;
        List<JobParams> sizes = new ArrayList<>();
        sizes.add(d);
        for (int p : new int[] {1, 3, 4}) {
            sizes.add(new JobParams(p, d.capacity(), d.bufferSize(), d.keys()));
        }
        for (int c : new int[] {250, 2_000}) {
            sizes.add(new JobParams(d.parallelism(), c, d.bufferSize(), d.keys()));
        }
        for (int b : new int[] {10, 1_000}) {
            sizes.add(new JobParams(d.parallelism(), d.capacity(), b, d.keys()));
        }
        for (int k : new int[] {10, 100_000, 1_000_000}) {
            sizes.add(new JobParams(d.parallelism(), d.capacity(), d.bufferSize(), k));
        }
        List<Point> out = new ArrayList<>();
        sizes.forEach(s -> out.add(new Point(s, Backpressure.LIGHT)));
        out.add(new Point(d, Backpressure.HEAVY));
        out.add(new Point(d, Backpressure.NONE));
        return List.copyOf(out);
    }
}
