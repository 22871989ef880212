package dev.consistentcut.bench.sweep;

import dev.consistentcut.bench.JobParams;
import java.util.ArrayList;
import java.util.List;

/**
 * The scaling sweep's points: the demo job's sizes ({@link JobParams#DEMO}: parallelism 2,
 * channels of 1,000 records in buffers of 250, 1,000 keys) and, one size at a time, each varied
 * below and above it. One size at a time, so that a miss of the model points at the one term that
 * moved. Stateless.
 */
public final class SweepPlan {

    private SweepPlan() {
    }

    /** The points, the demo's sizes first. */
    public static List<JobParams> points() {
        JobParams d = JobParams.DEMO;
        List<JobParams> out = new ArrayList<>();
        out.add(d);
        for (int p : new int[] {1, 3, 4}) {
            out.add(new JobParams(p, d.capacity(), d.bufferSize(), d.keys()));
        }
        for (int c : new int[] {250, 2_000}) {
            out.add(new JobParams(d.parallelism(), c, d.bufferSize(), d.keys()));
        }
        for (int b : new int[] {10, 1_000}) {
            out.add(new JobParams(d.parallelism(), d.capacity(), b, d.keys()));
        }
        for (int k : new int[] {10, 100_000}) {
            out.add(new JobParams(d.parallelism(), d.capacity(), d.bufferSize(), k));
        }
        return List.copyOf(out);
    }
}
