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
        return Path.of("target", "conformance", s.mode() + "-" + s.job() + "-f" + s.failures() + "-s" + s.seed() + twin
                + ".ndjson");
    }

    Judged runAndJudge(FlinkHarness harness, RunSpec spec, Path trace) throws Exception {
        FlinkHarness.Outcome o = harness.run(spec);
        o.log().write(trace);
        List<Map<String, Object>> events = o.log().events();
        List<String> violations = TraceChecks.check(spec, events);
        TraceValidator.Verdict verdict = null;
        double tlcSeconds = 0;
        if (tlc.available(spec.mode())) {
            verdict = tlc.validate(trace);
            tlcSeconds = verdict.seconds();
        }
        Judged j = new Judged(spec, trace, o.finished(), violations, verdict, o.seconds(), tlcSeconds);
        print(j, events, o);
        return j;
    }

    private void print(Judged j, List<Map<String, Object>> events, FlinkHarness.Outcome o) {
        RunSpec s = j.spec();
        long failures = events.stream().filter(e -> e.get("event").equals("FailTask")).count();
        int completed = TraceChecks.completed(events).size();
        String twin = s.twin() == RunSpec.Twin.NONE ? "" : " twin " + s.twin().name().toLowerCase(Locale.ROOT).replace('_', '-');
        out.printf(Locale.ROOT, "%s %s %s failures %d seed %d%s: %s in %.1f s (%d events, %d checkpoints completed, %d failure(s))%n",
                j.accepted() ? "ACCEPTED" : "REJECTED", s.mode(), s.job(), s.failures(), s.seed(), twin,
                j.trace(), j.seconds(), events.size(), completed, failures);
        if (!j.finished()) {
            out.println("  the job did not finish" + (o.failure() == null ? "" : ": "
                    + (debug ? o.failure() : o.failure().lines().findFirst().orElse(""))));
        }
        if (j.violations().isEmpty()) {
            out.println("  Java checks: the cut of every completed checkpoint and the output hold");
        } else {
            out.println("  Java checks: " + j.violations().size() + " violation(s), the first: " + j.violations().get(0));
        }
        if (j.tlc() == null) {
            out.println("  TLC: not run (no " + TlcJudge.module(s.mode()) + ".tla under the spec directory yet)");
        } else {
            out.printf(Locale.ROOT, "  TLC: %s in %.1f s%s%n", Main.word(j.tlc()), j.tlcSeconds(),
                    j.tlc().outcome() == TraceValidator.Outcome.ACCEPTED ? ""
                            : "\n    " + j.tlc().report().replace("\n", "\n    "));
        }
    }
}
