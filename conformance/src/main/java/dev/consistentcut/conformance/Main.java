package dev.consistentcut.conformance;

import dev.consistentcut.trace.TraceValidator;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./conformance.sh}: runs Flink 2.3.0 jobs on a MiniCluster with traced user functions and
 * judges each run (docs/conformance.md). Exit codes: 0 every run accepted (and, for {@code quick},
 * every broken twin rejected), 1 a run rejected (or a twin accepted), 2 usage, 3 environment.
 */
public final class Main {

    static final String USAGE = """
            Usage: ./conformance.sh run --mode MODE --job JOB --failures N --seed S [--trace FILE]
                                        [--runs K] [--records R] [--interval MS] [--twin TWIN]
                                        [--sink plain|transactional]
                                        [--fault throw|tm-loss|decline|timeout] [--tolerable K]
                                        [--max-concurrent C] [--savepoint | --stop-with-savepoint]
                                        [--spec DIR] [--read-checkpoints] [--no-tlc] [--debug]
                   ./conformance.sh quick [--spec DIR] [--debug]
                   ./conformance.sh --help

              run      runs the job on real Flink 2.3.0 (a MiniCluster in this JVM: 2 TaskManagers of
                       2 slots, the keyed operator at parallelism 2), writes its trace and judges it:
                       the cut of every completed checkpoint and the output, from the Java side, and
                       the trace by TLC (spec/**/TraceFlink<Mode>.tla through the trace validator)
                       when that module exists.
              --mode   aligned | unaligned | at-least-once | alternating
              --job    join (sources left, right -> keyBy -> join x2 -> sink)
                       | diamond (src -> left, right maps -> keyBy -> join x2 -> sink)
              --failures N  seeded faults (0 to 5), fault k at gate k (of --fault's kind)
              --fault F throw (default): the keyed operator throws at its first record past gate k,
                       after the gate's checkpoint completed; Flink's fixed-delay restart strategy
                       restarts every task from the latest completed checkpoint
                       | tm-loss: once a source passed gate k, the harness terminates the TaskManager
                       that runs a keyed task (MiniCluster#terminateTaskManager) and starts a fresh
                       one; every task on it fails, Flink restarts as for a throw
                       | decline: the keyed operator throws in snapshotState of gate k's checkpoint:
                       its task declines it, the coordinator aborts it
                       | timeout: the keyed operator's snapshotState of gate k's checkpoint takes 2.6 s,
                       past the checkpoint timeout of 2 s: the coordinator expires it
              --tolerable K Flink's tolerable-failed-checkpoints for decline and timeout (default N:
                       the job goes on; 0: every declined or expired checkpoint fails the job, and
                       Flink restarts it)
              --max-concurrent C  checkpoints in flight at once, 1 (default) or 2; 2 needs --interval
                       and aligned or at-least-once mode (Flink refuses it with unaligned ones)
              --seed S the run's seed (keys, gates, where the throws fall)
              --trace FILE  where the trace goes (default target/conformance/<mode>-<job>-f<N>-s<S>.ndjson)
              --runs K K runs with seeds S, S+1, ...: one line per run, a summary at the end; TLC
                       judges each run while the next one runs
              --records R   records per source (default 12, or 4 per failure plus 8 if more)
              --interval MS periodic checkpoints every MS ms besides the gates' (default 0: only
                       a checkpoint at each gate, where a source waits for one, and the final one)
              --twin T a broken twin (deliberately wrong user code, must be rejected):
                       source-offset-ahead | state-in-notify | sink-drops-on-restore | replay-from-zero
                       | commit-on-snapshot | commit-not-idempotent (these two: of the
                       two-phase-commit sink, which they switch on)
              --sink S plain (default: the sink is an operator that keeps what it processed) |
                       transactional (a two-phase-commit sink on Flink's Sink V2 API: the writer
                       pre-commits a transaction file per checkpoint, the committer commits it when
                       the checkpoint completes; the committed files are the output:
                       target/conformance/sink/<trace name>/committed/)
              --spec DIR    the spec directory (default spec)
              --read-checkpoints  retain every completed checkpoint (target/conformance/checkpoints/)
                       and read it back with Flink's State Processor API: the operator state must be
                       the bags the trace reported, the keyed counts those of the bags' keys
              --savepoint  a savepoint (MiniCluster#triggerSavepoint) at the first gate, after its
                       checkpoint completed, before the sources go on; Flink 2.3 notifies no task of
                       its completion and never restores it on failover
              --stop-with-savepoint  stop the job with a savepoint (MiniCluster#stopWithSavepoint, a
                       synchronous savepoint that Flink notifies to the tasks; the job then ends) at
                       gate N, after the N faults and that gate's checkpoint, then run the job again
                       restored from it; both jobs' output together must be exactly once (at least
                       once). Not with --savepoint, --fault other than throw, --twin,
                       --read-checkpoints
              --no-tlc the Java side alone judges (TLC: not run)
              --debug  stack traces and Flink's failure causes
              quick    the test command's form: 5 seeded runs with a failure per mode (join and
                       diamond), one with the two-phase-commit sink, one aligned run per fault
                       kind besides the throw (tm-loss, decline, timeout) and one aligned run with a
                       stop-with-savepoint, then every broken twin;
                       exit 0 iff every run is accepted and every twin rejected. TLC judges two
                       runs at a time while the next runs go on.

            Exit codes: 0 accepted, 1 a run rejected (or a twin not caught), 2 usage, 3 environment.
            """;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> o = new LinkedHashMap<>();
        String command = null;
        boolean debug = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                out.print(USAGE);
                return 0;
            } else if (a.equals("--debug")) {
                debug = true;
            } else if (a.equals("--read-checkpoints") || a.equals("--no-tlc") || a.equals("--savepoint")
                    || a.equals("--stop-with-savepoint")) {
                o.put(a, "true");
            } else if (a.startsWith("--")) {
                if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
                    err.println("conformance: " + a + " needs a value (see --help)");
                    return 2;
                }
                o.put(a, args[++i]);
            } else if (command == null) {
                command = a;
            } else {
                err.println("conformance: unexpected argument '" + a + "' (see --help)");
                return 2;
            }
        }
        List<String> known = List.of("--mode", "--job", "--failures", "--seed", "--trace", "--runs", "--records",
                "--twin", "--spec", "--interval", "--read-checkpoints", "--sink", "--fault", "--tolerable",
                "--max-concurrent", "--no-tlc", "--savepoint", "--stop-with-savepoint");
        for (String k : o.keySet()) {
            if (!known.contains(k)) {
                err.println("conformance: unknown option " + k + " (see --help)");
                return 2;
            }
        }
        if (command == null) {
            err.println("conformance: a command is needed: run or quick (see --help)");
            return 2;
        }
        Path spec = Path.of(o.getOrDefault("--spec", "spec"));
        try {
            return switch (command) {
                case "run" -> runCommand(o, spec, debug, out, err);
                case "quick" -> {
                    if (o.keySet().stream().anyMatch(k -> !k.equals("--spec"))) {
                        err.println("conformance: quick takes only --spec and --debug (see --help)");
                        yield 2;
                    }
                    yield Quick.run(spec, debug, out, err);
                }
                default -> {
                    err.println("conformance: unknown command '" + command + "' (see --help)");
                    yield 2;
                }
            };
        } catch (UsageException e) {
            err.println("conformance: " + e.getMessage() + " (see --help)");
            return 2;
        } catch (Exception e) {
            err.println("conformance: environment: " + e);
            if (debug) {
                e.printStackTrace(err);
            } else {
                err.println("conformance: --debug shows the stack trace");
            }
            return 3;
        }
    }

    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String m) {
            super(m);
        }
    }

    private static String need(Map<String, String> o, String k) {
        String v = o.get(k);
        if (v == null) {
            throw new UsageException("run needs " + k);
        }
        return v;
    }

    private static int intOf(Map<String, String> o, String k, String dflt) {
        String v = o.containsKey(k) ? o.get(k) : dflt;
        if (v == null) {
            throw new UsageException("run needs " + k);
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageException(k + " needs a whole number, not '" + v + "'");
        }
    }

    private static int runCommand(Map<String, String> o, Path specDir, boolean debug, PrintStream out,
            PrintStream err) throws Exception {
        String mode = need(o, "--mode");
        String job = need(o, "--job");
        int failures = intOf(o, "--failures", null);
        long seed;
        try {
            seed = Long.parseLong(need(o, "--seed"));
        } catch (NumberFormatException e) {
            throw new UsageException("--seed needs a whole number");
        }
        int runs = intOf(o, "--runs", "1");
        int records = intOf(o, "--records", String.valueOf(RunSpec.recordsFor(failures)));
        int interval = intOf(o, "--interval", String.valueOf(RunSpec.DEFAULT_CHECKPOINT_MILLIS));
        if (interval < 0 || (interval > 0 && interval < 10)) {
            throw new UsageException("--interval needs 0 (none) or 10 ms or more");
        }
        RunSpec.Twin twin = RunSpec.Twin.NONE;
        if (o.containsKey("--twin")) {
            try {
                twin = RunSpec.Twin.valueOf(o.get("--twin").toUpperCase(Locale.ROOT).replace('-', '_'));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--twin " + o.get("--twin") + ": not a broken twin");
            }
        }
        String sink = o.getOrDefault("--sink", "plain");
        if (!sink.equals("plain") && !sink.equals("transactional")) {
            throw new UsageException("--sink " + sink + ": expected plain or transactional");
        }
        RunSpec.Fault fault = RunSpec.Fault.THROW;
        if (o.containsKey("--fault")) {
            String f = o.get("--fault");
            fault = java.util.Arrays.stream(RunSpec.Fault.values()).filter(v -> v.option().equals(f)).findFirst()
                    .orElseThrow(() -> new UsageException("--fault " + f + ": expected throw, tm-loss, decline or timeout"));
        }
        if (o.containsKey("--tolerable") && !fault.failsCheckpoint()) {
            throw new UsageException("--tolerable applies to --fault decline and timeout only");
        }
        if (fault == RunSpec.Fault.DECLINE && o.containsKey("--read-checkpoints")) {
            throw new UsageException("--read-checkpoints with --fault decline: the declining state's serializer is not"
                    + " the one the State Processor API reads with");
        }
        boolean stop = o.containsKey("--stop-with-savepoint");
        if (stop && o.containsKey("--read-checkpoints")) {
            throw new UsageException("--read-checkpoints with --stop-with-savepoint: the checkpoints are of two jobs"
                    + " and the savepoint is none of them");
        }
        if (stop && twin != RunSpec.Twin.NONE) {
            throw new UsageException("--twin with --stop-with-savepoint: a twin runs with the default failure only");
        }
        int tolerable = intOf(o, "--tolerable", String.valueOf(failures));
        int maxConcurrent = intOf(o, "--max-concurrent", "1");
        if (twin != RunSpec.Twin.NONE && (fault != RunSpec.Fault.THROW || maxConcurrent != 1)) {
            throw new UsageException("--twin runs with the default fault (throw) and one checkpoint at a time");
        }
        if (runs < 1 || (runs > 1 && o.containsKey("--trace"))) {
            throw new UsageException(runs < 1 ? "--runs needs 1 or more" : "--trace names one run's file: leave it out with --runs");
        }
        List<RunSpec> specs = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            try {
                RunSpec base = new RunSpec(mode, job, failures, seed + i, records, 3, interval, RunSpec.Twin.NONE,
                        sink.equals("transactional"), fault, tolerable, maxConcurrent, o.containsKey("--savepoint"), stop);
                specs.add(base.withTwin(twin));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        Runner runner = new Runner(specDir, debug, out, err);
        // With --runs, TLC judges each run on a thread of its own while the next Flink run goes on,
        // as the quick form does: a Flink run mostly waits at its gates, TLC keeps one core busy.
        java.util.concurrent.ExecutorService tlcThread = runs == 1 ? null
                : java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "conformance-tlc");
                    t.setDaemon(true);
                    return t;
                });
        java.util.concurrent.Executor judge = tlcThread == null ? Runnable::run : tlcThread;
        try (FlinkHarness harness = new FlinkHarness()) {
            long start = System.nanoTime();
            int[] judgedSoFar = {0, 0}; // runs judged, of them rejected (the progress line)
            List<java.util.concurrent.CompletableFuture<Runner.Judged>> judged = new ArrayList<>();
            for (RunSpec s : specs) {
                Path trace = o.containsKey("--trace") ? Path.of(o.get("--trace")) : Runner.defaultTrace(s);
                judged.add(runner.runThenJudge(harness, s, trace, judge,
                        o.containsKey("--read-checkpoints"), !o.containsKey("--no-tlc")).thenApply(j -> {
                            if (runs > 1) {
                                synchronized (judgedSoFar) {
                                    int n = ++judgedSoFar[0];
                                    judgedSoFar[1] += j.accepted() ? 0 : 1;
                                    double el = (System.nanoTime() - start) / 1e9;
                                    err.printf(Locale.ROOT, "conformance: %d/%d runs, %d rejected, %.0f s, about %.0f s left%n",
                                            n, runs, judgedSoFar[1], el, el / n * (runs - n));
                                }
                            }
                            return j;
                        }));
            }
            int rejected = 0;
            for (java.util.concurrent.CompletableFuture<Runner.Judged> f : judged) {
                rejected += f.get().accepted() ? 0 : 1;
            }
            if (runs > 1) {
                out.printf(Locale.ROOT, "summary: %d runs, %d accepted, %d rejected (%s %s, %d fault(s) %s, seeds %d..%d)%n",
                        runs, runs - rejected, rejected, mode, job, failures, fault.option(), seed, seed + runs - 1);
            }
            return rejected == 0 ? 0 : 1;
        } finally {
            if (tlcThread != null) {
                tlcThread.shutdownNow();
            }
        }
    }

    /** TLC's verdict as one word for the report. */
    static String word(TraceValidator.Verdict v) {
        return v.outcome().name().toLowerCase(Locale.ROOT);
    }
}
