package dev.consistentcut.modelcheck;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The command line of ./model-check.sh, parsed and checked: a flag that does not apply to the run
 * is refused (exit 2), and every number is in its range. Immutable after {@link #parse}.
 */
final class Options {

    enum Pictures { AUTO, ON, OFF }

    static final String DEFAULT_TIERS = "quick full simulate";

    String tierSet = DEFAULT_TIERS;
    final List<String> models = new ArrayList<>();
    boolean simulate;
    int depth = 60;
    Long traces;
    int workers;
    boolean workersGiven;
    boolean updateCounts;
    boolean strictCounts;
    /** --ignore-counts: a model's verdict alone decides (the spec mutation harness: a kill is a violation, not a count). */
    boolean ignoreCounts;
    /** -seed of the ...Sample models: fixed, so that their sample is deterministic. */
    long sampleSeed = 1;
    boolean seedGiven;
    boolean distributed;
    String workerHosts = "127.0.0.1,127.0.0.1";
    String serverHost = "127.0.0.1";
    int rmiPort = 10997;
    boolean list;
    /** --claims: the invariants and properties the quick models check, from the configs (no TLC). */
    boolean claims;
    final List<String> traceFiles = new ArrayList<>();
    boolean expectReject;
    boolean requireEnd;
    /** --trace --coverage FILE: the trace coverage table's file. */
    String coverageFile;
    /** --coverage without --trace: the models run with TLC's -coverage, which the run then checks. */
    boolean coverage;
    /**
     * --coverage in the default set: the quick models that count (spec/coverage-set.txt), set by the
     * run before any model starts; null: every quick model.
     */
    CoverageSet coverageSet;
    int jobs = 1;
    boolean failFast;
    Pictures pictures = Pictures.AUTO;
    boolean json;
    boolean help;
    private final Set<String> given = new LinkedHashSet<>();

    private static final Pattern COUNT = Pattern.compile("[1-9][0-9]{0,8}");
    private static final Pattern SEED = Pattern.compile("-?[0-9]{1,18}");
    private static final Pattern HOSTS = Pattern.compile("[A-Za-z0-9._:-]+(,[A-Za-z0-9._:-]+)*");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._:-]+");

    private Options(int cores) {
        this.workers = cores;
    }

    /**
     * Parses {@code args} on a machine with {@code cores} cores.
     *
     * @throws UsageException bad usage
     */
    static Options parse(List<String> args, int cores) {
        Options o = new Options(cores);
        for (int k = 0; k < args.size(); k++) {
            String a = args.get(k);
            int eq = a.indexOf('=');
            o.given.add(eq < 0 ? a : a.substring(0, eq));
            String next = k + 1 < args.size() ? args.get(k + 1) : null;
            switch (a) {
                case "--quick" -> o.tierSet = "quick";
                case "--long" -> o.tierSet = "long";
                case "--simulate" -> {
                    o.simulate = true;
                    o.tierSet = "simulate";
                }
                case "--model" -> o.models.add(value(next, "--model needs a model name (see --list)"));
                case "--workers" -> {
                    o.workers = count("--workers", value(next, "--workers needs a number"), 256);
                    o.workersGiven = true;
                }
                case "--depth" -> o.depth = count("--depth", value(next, "--depth needs a number"), 100_000);
                case "--traces" -> o.traces = (long) count("--traces", value(next, "--traces needs a number"), 100_000_000);
                case "--update-counts" -> o.updateCounts = true;
                case "--strict-counts" -> o.strictCounts = true;
                case "--ignore-counts" -> o.ignoreCounts = true;
                case "--seed" -> {
                    if (next == null || !SEED.matcher(next).matches()) {
                        throw new UsageException("--seed needs a whole number (TLC's seed), got '" + (next == null ? "" : next) + "'");
                    }
                    o.sampleSeed = Long.parseLong(next);
                    o.seedGiven = true;
                }
                case "--distributed" -> o.distributed = true;
                case "--workers-hosts" -> o.workerHosts = matching(next, HOSTS, "--workers-hosts needs a comma-separated list of hosts");
                case "--server-host" -> o.serverHost = matching(next, HOST, "--server-host needs a host name or address");
                case "--port" -> {
                    if (next == null || !next.matches("[1-9][0-9]{0,4}") || Integer.parseInt(next) > 65535) {
                        throw new UsageException("--port needs a port number");
                    }
                    o.rmiPort = Integer.parseInt(next);
                }
                case "--list" -> o.list = true;
                case "--claims" -> o.claims = true;
                case "--trace" -> o.traceFiles.add(value(next, "--trace needs a trace file"));
                case "--expect-reject" -> o.expectReject = true;
                case "--require-end" -> o.requireEnd = true;
                case "--coverage" -> {
                    // A value only with --trace (its file); before another flag or last, the models' check.
                    if (next != null && !next.startsWith("-")) {
                        o.coverageFile = next;
                        k++;
                    } else {
                        o.coverage = true;
                    }
                }
                case "--jobs" -> o.jobs = count("--jobs", value(next, "--jobs needs a number"), 64);
                case "--fail-fast" -> o.failFast = true;
                case "--pictures" -> o.pictures = Pictures.ON;
                case "--no-pictures" -> o.pictures = Pictures.OFF;
                case "--json" -> o.json = true;
                case "-h", "--help" -> {
                    o.help = true;
                    return o;
                }
                default -> {
                    if (a.startsWith("--model=")) {
                        o.models.add(a.substring("--model=".length()));
                    } else if (a.startsWith("--trace=")) {
                        o.traceFiles.add(a.substring("--trace=".length()));
                    } else {
                        throw new UsageException("unknown option '" + a + "'", true);
                    }
                    continue;
                }
            }
            if (takesValue(a)) {
                k++;
            }
        }
        o.check(cores);
        return o;
    }

    private static boolean takesValue(String a) {
        return switch (a) {
            case "--model", "--workers", "--depth", "--traces", "--seed", "--workers-hosts", "--server-host", "--port",
                    "--trace", "--jobs" -> true;
            default -> false;
        };
    }

    private static String value(String next, String message) {
        if (next == null) {
            throw new UsageException(message);
        }
        return next;
    }

    private static String matching(String next, Pattern p, String message) {
        if (next == null || !p.matcher(next).matches()) {
            throw new UsageException(message);
        }
        return next;
    }

    /** A whole number from 1 to max, or a usage error saying the range. */
    private static int count(String name, String v, int max) {
        if (!COUNT.matcher(v).matches() || Long.parseLong(v) > max) {
            throw new UsageException(name + " must be a whole number from 1 to " + max + ", got '" + v + "'");
        }
        return Integer.parseInt(v);
    }

    boolean given(String flag) {
        return given.contains(flag);
    }

    boolean tracesMode() {
        return !traceFiles.isEmpty();
    }

    private void check(int cores) {
        if (ignoreCounts && (updateCounts || strictCounts)) {
            throw new UsageException("--ignore-counts contradicts " + (updateCounts ? "--update-counts" : "--strict-counts"));
        }
        if (expectReject && !tracesMode()) {
            throw new UsageException("--expect-reject goes with --trace");
        }
        if (requireEnd && !tracesMode()) {
            throw new UsageException("--require-end goes with --trace");
        }
        if (coverageFile != null && !tracesMode()) {
            throw new UsageException("--coverage FILE goes with --trace (without a file it checks the models' coverage)");
        }
        if (coverage && tracesMode()) {
            throw new UsageException("--coverage needs a file name");
        }
        if (coverage && distributed) {
            throw new UsageException("--coverage does not apply to --distributed");
        }
        if (tracesMode()) {
            for (String f : List.of("--quick", "--simulate", "--model", "--depth", "--traces", "--workers", "--list", "--seed",
                    "--claims")) {
                if (given(f)) {
                    throw new UsageException(f + " does not apply to --trace (trace validation reads no manifest and runs TLC with one worker)");
                }
            }
        }
        if (given("--jobs") && given("--fail-fast")) {
            throw new UsageException("--jobs and --fail-fast exclude each other (--fail-fast stops at the first model not as expected, in order)");
        }
        if (given("--jobs") && distributed) {
            throw new UsageException("--jobs does not apply to --distributed (one model, its own workers)");
        }
        for (String f : List.of("--quick", "--long", "--simulate")) {
            if (given("--model") && given(f)) {
                throw new UsageException("--model and " + f + " exclude each other (--model picks models of any tier)");
            }
        }
        if (tierSet.equals("quick")) {
            for (String f : List.of("--depth", "--traces")) {
                if (given(f)) {
                    throw new UsageException(f + " does not apply to --quick (no simulated model among the quick ones)");
                }
            }
        }
        // The quick and full models are small (a few hundred MB of heap at most; the largest full
        // ones about 1 GB): one TLC per core, at most 4, unless --jobs, --fail-fast, --model or
        // --long says otherwise. Each keeps one worker, so the counts still hold. The simulated
        // models of the default run then take one worker each too (a simulation's verdict does
        // not depend on it).
        if (!tierSet.equals("long") && !simulate && models.isEmpty() && !given("--jobs") && !given("--fail-fast")
                && !tracesMode() && !distributed) {
            jobs = Math.min(Math.max(cores, 1), 4);
            if (jobs != 1 && !given("--workers")) {
                workers = 1;
            }
        }
        if (distributed && models.size() != 1) {
            throw new UsageException("--distributed runs one model: give exactly one --model NAME");
        }
        // A night run (--simulate) samples many behaviours; the default run a quick sample of each.
        if (traces == null) {
            traces = simulate ? 20_000L : 1_000L;
        }
    }

    /**
     * --coverage: whether the model runs with TLC's -coverage and counts in the verdict. In the
     * default set only quick models do, and of them those of the coverage set when there is one
     * ({@link CoverageSet}): the verdict is about what the quick models reach, and the full and
     * simulated models run as without --coverage (no extra CPU there). With --quick, --long,
     * --simulate or --model NAME, every model run.
     */
    boolean covers(Model m) {
        if (!coverage) {
            return false;
        }
        if (!defaultSet()) {
            return true;
        }
        return m.tier().equals("quick") && (coverageSet == null || coverageSet.contains(m));
    }

    /** The default set of models: no tier option, no --model. */
    boolean defaultSet() {
        return tierSet.equals(DEFAULT_TIERS) && models.isEmpty();
    }

    /** The TLC workers of an exhaustive model: one, so that its counts are deterministic, unless --workers. */
    int exhaustiveWorkers() {
        return workersGiven ? workers : 1;
    }
}
