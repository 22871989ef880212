package dev.consistentcut.conformance;

import dev.consistentcut.trace.TraceValidator;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Runs one spec on the harness, writes its trace, judges it from the Java side and by TLC, prints one line. */
final class Runner {

    private final TlcJudge tlc;
    private final boolean debug;
    private final PrintStream out;
    private final PrintStream err;

    Runner(Path specDir, boolean debug, PrintStream out, PrintStream err) {
        this.tlc = new TlcJudge(specDir, Path.of("target", "conformance", "tlc"));
        this.debug = debug;
        this.out = out;
        this.err = err;
    }

    /**
     * One run's verdict.
     *
     * @param violations the Java side's findings (empty: the cuts and the output hold)
     * @param tlc TLC's verdict, or null when no Flink trace module exists yet
     */
    record Judged(RunSpec spec, Path trace, boolean finished, List<String> violations, TraceValidator.Verdict tlc,
                  double seconds, double tlcSeconds) {
        boolean javaAccepts() {
            return finished && violations.isEmpty();
        }

        boolean tlcAccepts() {
            return tlc == null || tlc.outcome() == TraceValidator.Outcome.ACCEPTED;
        }

        boolean tlcRejects() {
            return tlc != null && tlc.outcome() == TraceValidator.Outcome.REJECTED;
        }

        boolean accepted() {
            return javaAccepts() && tlcAccepts();
        }
    }

    static Path defaultTrace(RunSpec s) {
        String twin = s.twin() == RunSpec.Twin.NONE ? "" : "-" + s.twin().name().toLowerCase(Locale.ROOT).replace('_', '-');
        String sink = s.transactionalSink() ? "-2pc" : "";
        String fault = s.fault() == RunSpec.Fault.THROW ? "" : "-" + s.fault().option()
                + (s.fault().failsCheckpoint() && s.tolerable() != s.failures() ? "-t" + s.tolerable() : "");
        String concurrent = (s.maxConcurrent() == 1 ? "" : "-c" + s.maxConcurrent()) + (s.savepoint() ? "-sp" : "")
                + (s.stopWithSavepoint() ? "-stop" : "");
        return Path.of("target", "conformance", s.mode() + "-" + s.job() + "-f" + s.failures() + "-s" + s.seed() + sink
                + fault + concurrent + twin + ".ndjson");
    }

    /** Runs {@code spec}, writes its trace to {@code trace}, judges it (TLC in this thread) and prints the verdict. */
    Judged runAndJudge(FlinkHarness harness, RunSpec spec, Path trace) throws Exception {
        return runThenJudge(harness, spec, trace, Runnable::run).get();
    }

    /**
     * Runs {@code spec} now and leaves TLC's judgement to {@code tlcExecutor}: the next Flink run,
     * mostly waiting on its throttled sources, goes on while TLC checks this one. The verdict is
     * printed when it is complete.
     */
    java.util.concurrent.CompletableFuture<Judged> runThenJudge(FlinkHarness harness, RunSpec spec, Path trace,
            java.util.concurrent.Executor tlcExecutor) throws Exception {
        return runThenJudge(harness, spec, trace, tlcExecutor, false);
    }

    /**
     * As {@link #runThenJudge(FlinkHarness, RunSpec, Path, java.util.concurrent.Executor)}; with
     * {@code readCheckpoints}, the run's checkpoints are retained under
     * {@code target/conformance/checkpoints/} and read back with the State Processor API
     * ({@link CheckpointReading}), whose findings join the Java side's.
     */
    java.util.concurrent.CompletableFuture<Judged> runThenJudge(FlinkHarness harness, RunSpec spec, Path trace,
            java.util.concurrent.Executor tlcExecutor, boolean readCheckpoints) throws Exception {
        return runThenJudge(harness, spec, trace, tlcExecutor, readCheckpoints, true);
    }

    /**
     * As {@link #runThenJudge(FlinkHarness, RunSpec, Path, java.util.concurrent.Executor, boolean)};
     * without {@code byTlc} the run is judged by the Java side alone (TLC: not run).
     */
    java.util.concurrent.CompletableFuture<Judged> runThenJudge(FlinkHarness harness, RunSpec spec, Path trace,
            java.util.concurrent.Executor tlcExecutor, boolean readCheckpoints, boolean byTlc) throws Exception {
        Path dir = null;
        if (readCheckpoints) {
            String name = trace.getFileName().toString().replace(".ndjson", "");
            dir = Path.of("target", "conformance", "checkpoints", name).toAbsolutePath();
            deleteTree(dir);
        }
        FlinkHarness.Outcome o = harness.run(spec, dir);
        o.log().write(trace);
        List<Map<String, Object>> events = o.log().events();
        List<String> violations = new java.util.ArrayList<>(TraceChecks.check(spec, events));
        String read = "";
        if (readCheckpoints) {
            CheckpointReading.Result r = CheckpointReading.check(spec, o.checkpoints(), events);
            violations.addAll(r.violations());
            read = r.checkpoints() + " retained checkpoint(s) read back";
        }
        String readNote = read;
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            TraceValidator.Verdict verdict = null;
            double tlcSeconds = 0;
            if (byTlc && tlc.available(spec.mode())) {
                try {
                    verdict = tlc.validate(trace);
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
                tlcSeconds = verdict.seconds();
            }
            Judged j = new Judged(spec, trace, o.finished(), violations, verdict, o.seconds(), tlcSeconds);
            print(j, events, o, readNote);
            return j;
        }, tlcExecutor);
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        if (java.nio.file.Files.exists(dir)) {
            try (java.util.stream.Stream<Path> s = java.nio.file.Files.walk(dir)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    java.nio.file.Files.delete(p);
                }
            }
        }
    }

    private synchronized void print(Judged j, List<Map<String, Object>> events, FlinkHarness.Outcome o, String read) {
        RunSpec s = j.spec();
        long failures = events.stream().mapToLong(e -> TraceChecks.num(e.get("attempt"))).max().orElse(0);
        long aborted = events.stream().filter(e -> e.get("event").equals("NotifyCheckpointAborted"))
                .map(e -> TraceChecks.num(e.get("checkpoint"))).distinct().count();
        int completed = TraceChecks.completed(events).size();
        String twin = (s.fault() == RunSpec.Fault.THROW ? "" : " fault " + s.fault().option()
                + (s.fault().failsCheckpoint() ? " tolerable " + s.tolerable() : ""))
                + (s.maxConcurrent() == 1 ? "" : " max-concurrent " + s.maxConcurrent())
                + (s.savepoint() ? " savepoint" : "")
                + (s.stopWithSavepoint() ? " stop-with-savepoint" : "")
                + (s.transactionalSink() ? " 2pc sink" : "")
                + (s.twin() == RunSpec.Twin.NONE ? "" : " twin " + s.twin().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        StringBuilder b = new StringBuilder();
        java.util.Formatter f = new java.util.Formatter(b, Locale.ROOT);
        f.format("%s %s %s failures %d seed %d%s: %s in %.1f s (%d events, %d checkpoints completed, %d aborted,"
                + " %d restart(s))%n",
                j.accepted() ? "ACCEPTED" : "REJECTED", s.mode(), s.job(), s.failures(), s.seed(), twin,
                j.trace(), j.seconds(), events.size(), completed, aborted, failures);
        if (!j.finished()) {
            f.format("  the job did not finish%s%n", o.failure() == null ? "" : ": "
                    + (debug ? o.failure() : o.failure().lines().findFirst().orElse("")));
        }
        if (j.violations().isEmpty()) {
            f.format("  Java checks: the cut of every completed checkpoint and the output hold%s%n",
                    read.isEmpty() ? "" : "; " + read + ", as traced");
        } else {
            f.format("  Java checks: %d violation(s)%s, the first: %s%n", j.violations().size(),
                    read.isEmpty() ? "" : " (" + read + ")", j.violations().get(0));
            if (debug) {
                j.violations().stream().skip(1).forEach(v -> f.format("    %s%n", v));
            }
        }
        if (j.tlc() == null) {
            f.format("  TLC: not run%n");
        } else {
            f.format("  TLC: %s in %.1f s%s%n", Main.word(j.tlc()), j.tlcSeconds(),
                    j.tlc().outcome() == TraceValidator.Outcome.ACCEPTED ? ""
                            : "\n    " + j.tlc().report().replace("\n", "\n    "));
        }
        out.print(b);
        out.flush();
    }
}
