package dev.consistentcut.trace;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.barrier.BrokenHandlers;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * A test aid: traces of deliberately broken engines, which trace validation must reject. Each
 * broken barrier handler (dev.consistentcut.barrier.BrokenHandlers, test sources) differs from the
 * correct one in one place. {@code main(DIR)} writes them for tests/trace-validation.sh, run with
 * the test classes on the class path; BrokenEngineTraceTest validates them in the build.
 */
public final class BrokenTraces {

    /**
     * One broken run.
     *
     * @param expectedEvent the action of the first event the spec cannot explain
     * @param expectedWhy what the validator's reason must say
     */
    record Case(String name, BarrierMode mode, String job, long seed, String expectedEvent, String expectedWhy) {
        Path file(Path dir) {
            return dir.resolve(name + ".ndjson");
        }
    }

    static final List<Case> CASES = List.of(
            // Records behind an arrived barrier are processed before the snapshot: the spec's
            // aligned ProcessRecord is not enabled on a blocked input.
            new Case("broken-aligned-nonblocking", BrokenHandlers.alignedWithoutBlocking(), "demo", 1,
                    "\"event\":\"ProcessRecord\"", "is not enabled"),
            // Records taken after the snapshot, before their input's barrier, are not persisted:
            // the spec's unaligned ProcessRecord persists such a record, the engine says it did not.
            new Case("broken-unaligned-forgetful", BrokenHandlers.unalignedForgettingInFlight(), "demo", 3,
                    "\"event\":\"ProcessRecord\"", "persisted (whether the record was persisted"));

    private BrokenTraces() {
    }

    /** Records case {@code c} into {@code dir} (simulation, 8 records per source, 3 checkpoints, no failure). */
    static Path record(Case c, Path dir, PrintStream out) {
        Path f = c.file(dir);
        TraceTool.record(f, TraceJobs.build(c.job(), 8, 2, c.seed(), 0), c.job(), c.mode(), TraceTool.Settings.simulation(c.seed()), out);
        return f;
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: BrokenTraces DIR");
            System.exit(2);
        }
        for (Case c : CASES) {
            record(c, Path.of(args[0]), System.out);
        }
    }
}
