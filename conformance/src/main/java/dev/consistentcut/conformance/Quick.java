package dev.consistentcut.conformance;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The quick form ({@code tests/conformance.sh --quick}): in one JVM on one MiniCluster, five
 * seeded runs with a failure per mode (three of the join job, two of the diamond), an aligned
 * join run with the two-phase-commit sink, one aligned join run per fault kind besides the
 * throw (a TaskManager loss, a declined and an expired checkpoint) and one aligned join run
 * stopped with a savepoint and restored from it, each of which must be accepted, then every
 * broken twin (aligned, join, one failure), each of which must be
 * rejected by the Java side and by TLC. The first run of each mode and every twin also retain
 * their checkpoints and read them back (State Processor API).
 *
 * <p>TLC judges the runs of every mode. The unaligned and alternating trace modules run their
 * specs with Flink's barriers (a record already past the sender processed ahead of an overtaking
 * barrier, an ended source's final barrier: UnalignedCheckpoint.tla, AlternatingCheckpoint.tla),
 * so the verdict does not depend on which of those timings a run shows (a test's verdict must not
 * depend on timing). The long form runs every mode through TLC too (docs/conformance.md).
 */
final class Quick {

    static final int SEEDS = 5;
    /** The modes whose runs TLC judges in the quick form: every mode (the class comment says why it may). */
    static final java.util.Set<String> TLC_IN_QUICK_FORM = java.util.Set.of("aligned", "unaligned", "at-least-once", "alternating");

    private Quick() {
    }

    static int run(Path specDir, boolean debug, PrintStream out, PrintStream err) throws Exception {
        Runner runner = new Runner(specDir, debug, out, err);
        List<String> problems = new ArrayList<>();
        long start = System.nanoTime();
        // TLC judges runs, two at a time, while the next Flink runs go on.
        ExecutorService tlc = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "conformance-tlc");
            t.setDaemon(true);
            return t;
        });
        List<CompletableFuture<Runner.Judged>> good = new ArrayList<>();
        List<CompletableFuture<Runner.Judged>> twins = new ArrayList<>();
        try (FlinkHarness harness = new FlinkHarness()) {
            for (String mode : RunSpec.MODES) {
                for (int seed = 1; seed <= SEEDS; seed++) {
                    RunSpec s = RunSpec.of(mode, seed <= 3 ? "join" : "diamond", 1, seed);
                    // the first run of each mode is also read back with the State Processor API
                    good.add(runner.runThenJudge(harness, s, Runner.defaultTrace(s), tlc, seed == 1,
                            TLC_IN_QUICK_FORM.contains(mode)));
                }
                err.printf(Locale.ROOT, "conformance quick: %s run, %.0f s%n", mode, (System.nanoTime() - start) / 1e9);
            }
            // the two-phase-commit sink: one aligned join run with a failure, judged by TLC too
            RunSpec tx = RunSpec.of("aligned", "join", 1, 1).withTransactionalSink(true);
            good.add(runner.runThenJudge(harness, tx, Runner.defaultTrace(tx), tlc, false, true));
            // the faults besides the throw: one aligned join run each, judged by TLC too
            for (RunSpec.Fault f : List.of(RunSpec.Fault.TM_LOSS, RunSpec.Fault.DECLINE, RunSpec.Fault.TIMEOUT)) {
                RunSpec s = RunSpec.of("aligned", "join", 1, 1).withFault(f);
                good.add(runner.runThenJudge(harness, s, Runner.defaultTrace(s), tlc, false, true));
            }
            // stop-with-savepoint: an aligned join run with a throw, stopped with a savepoint at the
            // next gate and run again restored from it, judged by TLC too
            RunSpec stop = RunSpec.of("aligned", "join", 1, 1).withStopWithSavepoint(true);
            good.add(runner.runThenJudge(harness, stop, Runner.defaultTrace(stop), tlc, false, true));
            for (RunSpec.Twin t : RunSpec.Twin.values()) {
                if (t != RunSpec.Twin.NONE) {
                    RunSpec s = RunSpec.of("aligned", "join", 1, 1).withTwin(t);
                    twins.add(runner.runThenJudge(harness, s, Runner.defaultTrace(s), tlc, true));
                }
            }
        } finally {
            tlc.shutdown();
        }
        for (CompletableFuture<Runner.Judged> f : good) {
            Runner.Judged j = f.get();
            if (!j.accepted()) {
                problems.add("rejected: " + j.trace());
            }
        }
        for (CompletableFuture<Runner.Judged> f : twins) {
            Runner.Judged j = f.get();
            boolean caughtByJava = !j.javaAccepts();
            boolean caughtByTlc = j.tlc() == null || j.tlcRejects();
            if (!caughtByJava || !caughtByTlc) {
                problems.add("twin not caught (" + (caughtByJava ? "TLC" : "Java side") + "): " + j.trace());
            }
        }
        out.printf(Locale.ROOT, "conformance quick: %d runs, %d twins, %.0f s: %s%n", good.size(),
                RunSpec.Twin.values().length - 1, (System.nanoTime() - start) / 1e9,
                problems.isEmpty() ? "every run accepted, every twin rejected" : String.join("; ", problems));
        return problems.isEmpty() ? 0 : 1;
    }
}
