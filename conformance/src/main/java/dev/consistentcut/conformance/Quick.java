package dev.consistentcut.conformance;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The test command's form ({@code tests/conformance.sh --quick}): in one JVM on one MiniCluster,
 * five seeded runs with a failure per mode (three of the join job, two of the diamond), each of
 * which must be accepted, then every broken twin (aligned, join, one failure), each of which must
 * be rejected by the Java side and, when the Flink trace modules exist, by TLC.
 */
final class Quick {

    static final int SEEDS = 5;

    private Quick() {
    }

    static int run(Path specDir, boolean debug, PrintStream out, PrintStream err) throws Exception {
        Runner runner = new Runner(specDir, debug, out, err);
        List<String> problems = new ArrayList<>();
        long start = System.nanoTime();
        try (FlinkHarness harness = new FlinkHarness()) {
            for (String mode : RunSpec.MODES) {
                for (int seed = 1; seed <= SEEDS; seed++) {
                    RunSpec s = RunSpec.of(mode, seed <= 3 ? "join" : "diamond", 1, seed);
                    Runner.Judged j = runner.runAndJudge(harness, s, Runner.defaultTrace(s));
                    if (!j.accepted()) {
                        problems.add("rejected: " + j.trace());
                    }
                }
                err.printf(Locale.ROOT, "conformance quick: %s done, %.0f s%n", mode, (System.nanoTime() - start) / 1e9);
            }
            for (RunSpec.Twin t : RunSpec.Twin.values()) {
                if (t == RunSpec.Twin.NONE) {
                    continue;
                }
                RunSpec s = RunSpec.of("aligned", "join", 1, 1).withTwin(t);
                Runner.Judged j = runner.runAndJudge(harness, s, Runner.defaultTrace(s));
                boolean caughtByJava = !j.javaAccepts();
                boolean caughtByTlc = j.tlc() == null || j.tlcRejects();
                if (!caughtByJava || !caughtByTlc) {
                    problems.add("twin not caught (" + (caughtByJava ? "TLC" : "Java side") + "): " + j.trace());
                }
            }
        }
        out.printf(Locale.ROOT, "conformance quick: %d runs, %d twins, %.0f s: %s%n", RunSpec.MODES.size() * SEEDS,
                RunSpec.Twin.values().length - 1, (System.nanoTime() - start) / 1e9,
                problems.isEmpty() ? "every run accepted, every twin rejected" : String.join("; ", problems));
        return problems.isEmpty() ? 0 : 1;
    }
}
