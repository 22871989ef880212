package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One invocation of the runner, in the order the script always went: the manifest (or --list),
 * TLC, then the traces, the distributed model or the models, and the report. Runs on the calling
 * thread; with --jobs the {@link Scheduler} runs the models on its own threads first.
 */
final class Run {

    private final Options o;
    private final Setup setup;
    private final PrintStream out;
    private final PrintStream stdout;

    /**
     * @param out the human-readable output (stderr with --json)
     * @param stdout where the JSON document goes
     */
    Run(Options o, Setup setup, PrintStream out, PrintStream stdout) {
        this.o = o;
        this.setup = setup;
        this.out = out;
        this.stdout = stdout;
    }

    int call() throws IOException, InterruptedException {
        Map<String, Model> models = null;
        List<Model> selected = List.of();
        CoverageExemptions exemptions = null;
        if (!o.tracesMode()) { // --trace reads no manifest
            Manifest manifest = Manifest.read(setup);
            models = SharedPins.resolve(manifest, new StateSpace(setup.specDir()));
            if (o.list) {
                out.println(String.format("%-34s %-8s %-28s %s", "MODEL", "TIER", "EXPECT", "DESCRIPTION"));
                for (Model m : models.values()) {
                    out.println(String.format("%-34s %-8s %-28s %s", m.name(), m.tier(), m.expect(), m.description()));
                }
                return 0;
            }
            if (o.claims) {
                return Claims.print(models, setup, out);
            }
            selected = select(models);
            if (o.coverage) { // a row the check would refuse is refused before the models run
                exemptions = CoverageExemptions.read(setup);
            }
            if (o.coverage && o.defaultSet()) {
                o.coverageSet = CoverageSet.read(setup);
                if (o.coverageSet != null) {
                    out.println("Coverage: counted over the quick models of " + setup.shown(o.coverageSet.file()) + "; the other quick "
                            + "models run without TLC's -coverage");
                }
            }
        }
        String java = setup.java();
        Path jar = TlcJar.find(setup, out);
        TlcArchive.ensure(java, jar, out);
        if (o.tracesMode()) {
            out.flush();
            return Traces.validate(o, setup, java, jar, out, stdout);
        }
        Files.createDirectories(setup.outDir().resolve("logs"));
        Files.createDirectories(setup.outDir().resolve("meta"));
        Report report = new Report(setup, out);
        if (o.distributed) {
            return distributed(selected.get(0), java, jar, report);
        }
        Pictures pictures = Pictures.of(o, setup, java, jar, out);
        ModelRun runner = new ModelRun(o, setup, java, jar, out);
        out.println("TLC: " + jar + " (" + TlcJar.version(setup, java, jar) + ")");
        out.println("Models: " + selected.size() + " (" + o.tierSet.replace(' ', '+') + (o.models.isEmpty() ? "" : ", by name")
                + "), workers: " + o.exhaustiveWorkers() + " exhaustive, " + o.workers + " simulated, logs: "
                + setup.shown(setup.outDir()) + "/logs/");
        Map<String, Result> done = null;
        if (o.jobs > 1 && selected.size() > 1) {
            out.println("Running the models " + o.jobs + " at a time (one TLC worker each); results follow in order.");
            done = Scheduler.runAll(selected, o.jobs, runner, pictures, out);
        }
        Pins pins = new Pins(o, models);
        List<Model> ran = new ArrayList<>(); // --fail-fast may stop early: a log of a model not run is an older run's
        Map<String, Long> seconds = new java.util.LinkedHashMap<>();
        for (int i = 0; i < selected.size(); i++) {
            Model m = selected.get(i);
            out.println("[" + (i + 1) + "/" + selected.size() + "] " + m.name() + " (" + m.config() + ", expect " + m.expect() + ") ...");
            String[] note = new String[1];
            Result r;
            if (done != null) {
                r = pins.check(m, done.getOrDefault(m.name(), Result.none()), note);
            } else {
                r = pictures.draw(m, pins.check(m, runner.run(m), note));
            }
            report.model(m, r, note[0]);
            ran.add(m);
            seconds.put(m.name(), r.seconds());
            if (!r.ok() && !r.result().equals(m.expect())) {
                out.println("      --- TLC output of " + m.name() + " from its first error (full log: "
                        + setup.shown(runner.log(m)) + ") ---");
                TlcLog.fromFirstError(TlcLog.lines(runner.log(m))).forEach(l -> out.println("      | " + l));
                if (o.failFast) {
                    out.println("      (--fail-fast: the remaining models are not run)");
                    break;
                }
            }
        }
        report.table();
        if (o.coverage && !coverage(ran, runner, models, seconds, exemptions)) {
            report.failed.add("(--coverage)");
        }
        if (o.updateCounts && !pins.update(setup, out)) {
            report.failed.add("(--update-counts)");
        }
        if (o.json) {
            out.flush();
            stdout.println(report.jsonDocument(jar, o.workers, selected.size()));
            stdout.flush();
        }
        if (!report.failed.isEmpty()) {
            out.println("NOT AS EXPECTED: " + String.join(" ", report.failed));
            return 1;
        }
        out.println("All " + selected.size() + " models did what the manifest says.");
        return 0;
    }

    /**
     * --coverage: the coverage of the models that ran with -coverage ({@link Options#covers})
     * added up and checked; false when a branch lacks a model, an exemption is stale or
     * ambiguous, or the coverage set names a model that is not a quick one. A run that counted
     * every quick model also proposes a coverage set for the default run
     * ({@link CoverageSet#propose}).
     */
    private boolean coverage(List<Model> ran, ModelRun runner, Map<String, Model> models, Map<String, Long> seconds,
            CoverageExemptions exemptions) throws IOException {
        CoverageTally tally = new CoverageTally(SpecSources.of(setup.specDir()));
        Map<String, Long> counted = new java.util.TreeMap<>();
        for (Model m : ran) {
            if (!o.covers(m)) {
                continue;
            }
            tally.add(m.name(), TlcCoverage.parse(TlcLog.lines(runner.log(m))));
            counted.put(m.name(), seconds.getOrDefault(m.name(), 0L));
        }
        boolean ok = new CoverageCheck(tally, exemptions).report(out, setup.outDir().resolve("coverage.tsv"), setup);
        if (o.coverageSet != null) {
            List<String> wrong = o.coverageSet.notQuickModels(models);
            wrong.forEach(w -> out.println("COVERAGE SET " + setup.shown(o.coverageSet.file()) + " names " + w));
            if (!ok) {
                out.println("The default run counts only the coverage set's models: `./model-check.sh --quick --coverage` counts "
                        + "every quick model, says which reach a branch, and proposes a new set.");
            }
            ok &= wrong.isEmpty();
        }
        boolean everyQuick = models.values().stream().filter(m -> m.tier().equals("quick")).allMatch(m -> counted.containsKey(m.name()));
        if (everyQuick && !counted.isEmpty()) {
            List<String> set = CoverageSet.propose(tally.branches().stream().map(CoverageTally.Branch::models).toList(), counted);
            Path file = setup.outDir().resolve(CoverageSet.FILE_NAME);
            Files.writeString(file, CoverageSet.fileText(set));
            long all = counted.values().stream().mapToLong(Long::longValue).sum();
            long of = set.stream().mapToLong(counted::get).sum();
            out.println("A coverage set for the default run: " + set.size() + " of " + counted.size() + " quick models, " + of + " of their "
                    + all + " s here, reach every branch these reached: " + setup.shown(file) + " (spec/" + CoverageSet.FILE_NAME
                    + " is the one in use)");
        }
        return ok;
    }

    private List<Model> select(Map<String, Model> models) {
        List<Model> selected = new ArrayList<>();
        if (!o.models.isEmpty()) {
            for (String name : o.models) {
                Model m = models.get(name);
                if (m == null) {
                    throw new UsageException("unknown model '" + name + "'; known models: " + String.join(" ", models.keySet()));
                }
                selected.add(m);
            }
        } else {
            List<String> tiers = List.of(o.tierSet.split(" "));
            models.values().stream().filter(m -> tiers.contains(m.tier())).forEach(selected::add);
        }
        if (selected.isEmpty()) {
            throw new UsageException("no model of tier '" + o.tierSet + "' in the manifest");
        }
        return selected;
    }

    private int distributed(Model m, String java, Path jar, Report report) throws IOException, InterruptedException {
        if (m.simulated()) {
            throw new UsageException("--distributed checks exhaustively: '" + m.name() + "' is a simulate-tier model");
        }
        out.println("Distributed TLC: " + m.name() + " (" + m.config() + ", expect " + m.expect() + ")");
        Result r = Distributed.run(m, o, setup, java, jar, out);
        out.println("      -> " + r.result() + ", " + r.states() + " states, depth " + r.depth() + ", " + r.seconds() + "s: "
                + Report.verdict(r));
        report.csvRow(m, r);
        if (!r.ok()) {
            TlcLog.tail(TlcLog.lines(setup.outDir().resolve("logs/" + m.name() + ".log")), 40)
                    .forEach(l -> out.println("      | " + l));
            return 1;
        }
        return 0;
    }
}
