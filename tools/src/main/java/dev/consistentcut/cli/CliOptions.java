package dev.consistentcut.cli;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.graph.KeyGroups;
import dev.consistentcut.trace.TraceJobs;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Function;

/**
 * The parsed options of {@code run} (and of {@code resume}, which checks them against the job's
 * manifest). {@code given} holds the options the user wrote, so that {@code resume} can tell an
 * option that contradicts the manifest from a default.
 */
record CliOptions(
        BarrierMode mode,
        int records,
        long intervalMs,
        long sinkDelayMicros,
        int capacity,
        int failAfterCheckpoint,
        long seed,
        boolean simulation,
        Path checkpointDir,
        boolean json,
        int tolerableFailedCheckpoints,
        boolean force,
        Set<String> given,
        boolean endOfInput,
        int savepointEvery,
        java.util.List<Path> inputs,
        Path output,
        int bufferSize,
        int retain,
        int maxParallelism,
        int parallelism) {

    CliOptions {
        inputs = java.util.List.copyOf(inputs);
    }

    /** Whether the job reads input files and writes an output directory (--input/--output). */
    boolean fileJob() {
        return output != null;
    }

    /** Most records per source: one bound for run and trace record (the checks' ledgers, see there). */
    static final int MAX_RECORDS = TraceJobs.MAX_RECORDS;
    /** Longest checkpoint interval: 10 minutes. */
    static final long MAX_INTERVAL_MS = 600_000;
    /** Most sink time per record: 1 second. */
    static final long MAX_SINK_DELAY_US = 1_000_000;
    static final int MAX_CAPACITY = 1_000_000;
    /** Most records per network buffer: the most a channel holds; above --capacity it is capped. */
    static final int MAX_BUFFER_SIZE = MAX_CAPACITY;
    static final int MAX_FAIL_AFTER = 10_000;
    static final int MAX_TOLERABLE = 1_000_000;
    static final int MAX_SAVEPOINT_EVERY = 1_000_000;
    /** Completed checkpoints the store keeps unless --retain says otherwise. */
    static final int DEFAULT_RETAIN = 3;
    static final int MAX_RETAIN = 1_000;
    /** The keyed operator of both jobs: the one {@code --parallelism} sets. */
    static final String KEYED = "count";
    /** Its parallelism when {@code --parallelism} is not given. */
    static final int DEFAULT_PARALLELISM = 2;
    /** A run whose least duration exceeds this is refused up front (the estimate is printed). */
    static final long MAX_ESTIMATED_MS = 3_600_000;
    /** A run whose least duration exceeds this gets a warning up front. */
    static final long WARN_ESTIMATED_MS = 60_000;

    static final String JAR = "java -jar tools/target/tools.jar";

    static final String USAGE = String.join("\n",
            "Usage: " + JAR + " run --mode aligned|unaligned|at-least-once|alternating [options]",
            "       " + JAR + " run --mode MODE --input FILE... --output DIR [options]",
            "       " + JAR + " verify-output --input FILE... --output DIR [--json]",
            "       " + JAR + " resume DIR [options]",
            "       " + JAR + " inspect DIR [--json]",
            "       " + JAR + " trace record|to-tla|validate ... (trace --help)",
            "       " + JAR + " --help | --version",
            "",
            "Commands (each has --help):",
            "  run       run the demo job (two sources -> keyed count, parallelism 2 -> slow sink) with",
            "            checkpoints, checking every completed checkpoint and the final state against",
            "            the invariants",
            "  resume    continue a job started with run --checkpoint-dir DIR, in a new process, from",
            "            its latest valid checkpoint (after a crash or kill -9), and run it to the end",
            "  inspect   list the checkpoints in DIR and the one a resume would use",
            "  verify-output  check a job's output directory against its input files: every input",
            "            record committed exactly once",
            "  trace     record, convert and validate traces of the engine against the spec",
            "",
            "Exit codes: 0 ok; 1 an invariant violated; 2 bad usage; 3 an environment or I/O problem",
            "(one line naming the path and the cause). --debug (any command) adds stack traces.");

    static final String RUN_USAGE = String.join("\n",
            "Usage: " + JAR + " run --mode aligned|unaligned|at-least-once|alternating [options]",
            "",
            "Runs the demo job (two sources -> keyed count, parallelism 2 -> slow sink) with checkpoints,",
            "or with --input FILE... --output DIR the file job (one source per file -> keyed count x2 ->",
            "two-phase-commit file sink into DIR, run to the end of its input, its output file set",
            "reported and checked as verify-output does), checks every completed checkpoint and the",
            "final state against the invariants, and exits 0 if they hold, 1 if one is violated, 2 for",
            "bad arguments, 3 for an I/O problem.",
            "",
            "Options:",
            "  --mode aligned|unaligned|at-least-once|alternating",
            "                                 barrier mode (required); aligned, unaligned and alternating",
            "                                 promise exactly once (ConsistentCutInv, ExactlyOnceInv),",
            "                                 at-least-once only that nothing is skipped (NoSkipInv,",
            "                                 AtLeastOnceInv); alternating: aligned checkpoints that switch",
            "                                 to unaligned when their alignment times out (Flink's",
            "                                 aligned-checkpoint-timeout); the report counts the switches",
            "  --aligned-timeout-ms N         alternating only: a checkpoint still aligning N ms after its",
            "                                 trigger switches to unaligned, 0.." + BarrierHandlers.MAX_ALIGNED_TIMEOUT_MILLIS
                    + " (default " + BarrierHandlers.DEFAULT_ALIGNED_TIMEOUT_MILLIS + ");",
            "                                 the simulation reads it as N steps",
            "  --savepoint-every K            alternating only: every K-th checkpoint is a savepoint, forced",
            "                                 aligned (never switches, persists nothing in flight),",
            "                                 0.." + MAX_SAVEPOINT_EVERY + " (default 0: none)",
            "  --end-of-input                 sources end their partitions when their log is read and the",
            "                                 job runs until every task has ended (FLIP-147); reported",
            "  --input FILE                   (repeatable) a source reading FILE ('<key> <value>' per line,",
            "                                 '#' comments); one source per file, s1, s2, ... in order;",
            "                                 needs --output, replaces --records",
            "  --output DIR                   the job ends in the two-phase-commit file sink writing DIR",
            "                                 (new or empty): each checkpoint commits a part file there;",
            "                                 implies --end-of-input (a final checkpoint commits the rest);",
            "                                 check it with 'verify-output'",
            "  --records N                    records per source, 1.." + MAX_RECORDS + " (default 5000)",
            "  --interval-ms N                checkpoint interval, 0.." + MAX_INTERVAL_MS + " (default 50); the",
            "                                 simulation's clock counts steps and reads it as N*100 steps",
            "  --sink-delay-us N              sink time per record, threads only, 0.." + MAX_SINK_DELAY_US + " (default 50)",
            "  --capacity N                   channel capacity in records, 1.." + MAX_CAPACITY + " (default 64)",
            "  --buffer-size N                threads only: records per network buffer, 0.."
                    + MAX_BUFFER_SIZE + ";",
            "                                 0 (default): a quarter of --capacity (at least 1), so four",
            "                                 buffers per channel; 1: every record handed over on its own;",
            "                                 above --capacity it is capped at it (one buffer per channel).",
            "                                 Refused with --runtime simulation, which moves one record per",
            "                                 step (buffers of one record); kept by resume",
            "  --fail-after-checkpoint N      one failure right after the N-th completed checkpoint,",
            "                                 then recovery from the latest one, 0.." + MAX_FAIL_AFTER + " (default 0: none)",
            "  --seed N                       seed of the input keys and of the simulation (default 1)",
            "  --runtime simulation|threads   runtime (default threads)",
            "  --checkpoint-dir DIR           durable job: checkpoints and the job manifest in DIR, which",
            "                                 must be new or empty (default: in memory); a killed job",
            "                                 continues with 'resume DIR'",
            "  --max-parallelism N            the job's number of key groups, 1.." + KeyGroups.UPPER_BOUND_MAX_PARALLELISM
                    + " (default " + KeyGroups.DEFAULT_MAX_PARALLELISM + "):",
            "                                 a key's group is fixed for the job's life, so is this; the",
            "                                 keyed parallelism may not exceed it",
            "  --parallelism count=N          the keyed count's parallelism, 1..--max-parallelism (default "
                    + DEFAULT_PARALLELISM + ");",
            "                                 given to resume, the job is rescaled on restore",
            "  --tolerable-failed-checkpoints N  consecutive checkpoints whose store write may fail",
            "                                 (each is declined and the job goes on) before the job fails",
            "                                 with exit 3, 0.." + MAX_TOLERABLE + " (default 3)",
            "  --retain N                     completed checkpoints the store keeps, the newest N, 1.."
                    + MAX_RETAIN + " (default " + DEFAULT_RETAIN + "); an older one is subsumed: its files are",
            "                                 deleted, except shared files a kept checkpoint references",
            "  --force                        start a new job in a DIR that holds an old job's",
            "                                 checkpoints (they are deleted; nothing else is touched)",
            "  --json                         print the result as one JSON document on stdout",
            "  --debug                        stack traces with errors",
            "  --help                         this text",
            "",
            "A run whose least duration (records x 2 sources x sink delay, for --input its lines x sink",
            "delay, or failure point x interval) exceeds " + WARN_ESTIMATED_MS / 1000 + " s is announced on stderr; above " + MAX_ESTIMATED_MS / 1000
                    + " s it is refused.");

    /** Options a resume may set differently from the manifest: they do not change the job's result. */
    static final Set<String> PER_PROCESS = Set.of("--interval-ms", "--tolerable-failed-checkpoints", "--json",
            "--sink-delay-us", "--retain");

    /** Parses the arguments after {@code run} (or after {@code resume DIR}: then {@code --mode} is optional). */
    static CliOptions parse(String[] args, int from, Function<String, BarrierMode> modes, boolean modeRequired)
            throws UsageException {
        BarrierMode mode = null;
        int records = 5000;
        long intervalMs = 50;
        long sinkDelayMicros = 50;
        int capacity = 64;
        int bufferSize = 0;
        int failAfter = 0;
        long seed = 1;
        boolean simulation = false;
        Path dir = null;
        boolean json = false;
        int tolerable = 3;
        int retain = DEFAULT_RETAIN;
        boolean force = false;
        Set<String> given = new LinkedHashSet<>();
        boolean endOfInput = false;
        long alignedTimeout = -1;
        int savepointEvery = 0;
        java.util.List<Path> inputs = new java.util.ArrayList<>();
        Path output = null;
        int maxParallelism = KeyGroups.DEFAULT_MAX_PARALLELISM;
        int parallelism = DEFAULT_PARALLELISM;
        for (int i = from; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--") && !given.add(a) && !a.equals("--input")) {
                throw new UsageException(a + " given twice");
            }
            switch (a) {
                case "--json" -> json = true;
                case "--force" -> force = true;
                case "--end-of-input" -> endOfInput = true;
                case "--mode" -> {
                    String v = value(args, ++i, a);
                    try {
                        mode = modes.apply(v);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--mode must be aligned, unaligned, at-least-once or alternating, got '"
                                + v + "'");
                    }
                }
                case "--records" -> records = (int) number(args, ++i, a, 1, MAX_RECORDS);
                case "--interval-ms" -> intervalMs = number(args, ++i, a, 0, MAX_INTERVAL_MS);
                case "--sink-delay-us" -> sinkDelayMicros = number(args, ++i, a, 0, MAX_SINK_DELAY_US);
                case "--capacity" -> capacity = (int) number(args, ++i, a, 1, MAX_CAPACITY);
                case "--buffer-size" -> bufferSize = (int) number(args, ++i, a, 0, MAX_BUFFER_SIZE);
                case "--fail-after-checkpoint" -> failAfter = (int) number(args, ++i, a, 0, MAX_FAIL_AFTER);
                case "--retain" -> retain = (int) number(args, ++i, a, 1, MAX_RETAIN);
                case "--tolerable-failed-checkpoints" -> tolerable = (int) number(args, ++i, a, 0, MAX_TOLERABLE);
                case "--aligned-timeout-ms" -> alignedTimeout = number(args, ++i, a, 0, BarrierHandlers.MAX_ALIGNED_TIMEOUT_MILLIS);
                case "--savepoint-every" -> savepointEvery = (int) number(args, ++i, a, 0, MAX_SAVEPOINT_EVERY);
                case "--seed" -> seed = number(args, ++i, a, Long.MIN_VALUE, Long.MAX_VALUE);
                case "--runtime" -> {
                    String v = value(args, ++i, a);
                    simulation = switch (v) {
                        case "simulation" -> true;
                        case "threads" -> false;
                        default -> throw new UsageException("--runtime must be simulation or threads, got '" + v + "'");
                    };
                }
                case "--checkpoint-dir" -> dir = Path.of(value(args, ++i, a));
                case "--input" -> inputs.add(Path.of(value(args, ++i, a)));
                case "--output" -> output = Path.of(value(args, ++i, a));
                case "--max-parallelism" -> maxParallelism = (int) number(args, ++i, a, 1,
                        KeyGroups.UPPER_BOUND_MAX_PARALLELISM);
                case "--parallelism" -> parallelism = keyedParallelism(value(args, ++i, a));
                default -> throw new UsageException("unknown argument '" + a + "'");
            }
        }
        if (mode == null && modeRequired) {
            throw new UsageException("--mode is required (aligned, unaligned, at-least-once or alternating)");
        }
        boolean alternating = mode != null && "alternating".equals(mode.name());
        if (mode != null && !alternating && (alignedTimeout >= 0 || savepointEvery > 0)) {
            throw new UsageException((alignedTimeout >= 0 ? "--aligned-timeout-ms" : "--savepoint-every")
                    + " applies to --mode alternating only, not " + mode.name());
        }
        if (alternating && alignedTimeout >= 0) {
            mode = BarrierHandlers.alternating(alignedTimeout);
        }
        if (simulation && given.contains("--buffer-size")) {
            throw new UsageException("--buffer-size applies to --runtime threads only: the simulation moves one"
                    + " record per step (buffers of one record)");
        }
        if (force && dir == null) {
            throw new UsageException("--force applies to --checkpoint-dir only");
        }
        if (!inputs.isEmpty() && output == null) {
            throw new UsageException("--input needs --output DIR: the job's sink writes its output there");
        }
        if (output != null && inputs.isEmpty()) {
            throw new UsageException("--output needs at least one --input FILE to read");
        }
        if (output != null && given.contains("--records")) {
            throw new UsageException("--records does not apply with --input: the input files give the records");
        }
        if (output != null && dir != null) {
            JobOutput.requireApart(output, dir);
        }
        if (output != null) {
            endOfInput = true; // the final checkpoint commits the last transaction (FLIP-147)
            records = 0;
        }
        if (modeRequired && parallelism > maxParallelism) { // resume checks it against the job's
            throw new UsageException("--parallelism " + KEYED + "=" + parallelism + " exceeds the max parallelism "
                    + maxParallelism + ": every keyed task needs at least one key group");
        }
        return new CliOptions(mode, records, intervalMs, sinkDelayMicros, capacity, failAfter, seed, simulation, dir,
                json, tolerable, force, Set.copyOf(given), endOfInput, savepointEvery, inputs, output, bufferSize, retain,
                maxParallelism, parallelism);
    }

    /** {@code count=N}: the keyed operator's parallelism (the one operator of the jobs whose state is keyed). */
    private static int keyedParallelism(String v) throws UsageException {
        int eq = v.indexOf('=');
        String op = eq < 0 ? "" : v.substring(0, eq);
        if (!op.equals(KEYED)) {
            throw new UsageException("--parallelism expects " + KEYED + "=N (the keyed operator; the sources and the"
                    + " sink keep theirs), got '" + v + "'");
        }
        String n = v.substring(eq + 1);
        if (!n.matches("\\d{1,9}") || Integer.parseInt(n) < 1 || Integer.parseInt(n) > KeyGroups.UPPER_BOUND_MAX_PARALLELISM) {
            throw new UsageException("--parallelism " + KEYED + "=N expects N between 1 and "
                    + KeyGroups.UPPER_BOUND_MAX_PARALLELISM + ", got '" + n + "'");
        }
        return Integer.parseInt(n);
    }

    /**
     * The least time the run takes in milliseconds, from what cannot go faster: the sink's delay
     * per record (threads) for the {@code sinkRecords} the sink takes, and the checkpoints to
     * complete before the injected failure.
     */
    long estimatedMinimumMs(long sinkRecords) {
        long sink = simulation ? 0 : sinkRecords * sinkDelayMicros / 1000;
        long failure = simulation ? 0 : (long) failAfterCheckpoint * intervalMs;
        return Math.max(sink, failure);
    }

    /** {@link #checkFeasible(long)} for the demo job: its sink takes {@code --records} from each of two sources. */
    String checkFeasible() throws UsageException {
        return checkFeasible(2L * records);
    }

    /**
     * Refuses a run that cannot finish in reasonable time; returns a warning for a long one, or
     * null. {@code sinkRecords}: the records the sink takes (a file job: its inputs' lines).
     */
    String checkFeasible(long sinkRecords) throws UsageException {
        long ms = estimatedMinimumMs(sinkRecords);
        if (ms > MAX_ESTIMATED_MS) {
            throw new UsageException("this run would take at least " + ms / 1000 + " s (" + explainEstimate(sinkRecords)
                    + "), more than the " + MAX_ESTIMATED_MS / 1000 + " s allowed; lower "
                    + (fileJob() ? "the input's records" : "--records") + ", --sink-delay-us,"
                    + " --fail-after-checkpoint or --interval-ms");
        }
        return ms > WARN_ESTIMATED_MS ? "this run takes at least " + ms / 1000 + " s (" + explainEstimate(sinkRecords) + ")"
                : null;
    }

    private String explainEstimate(long sinkRecords) {
        return sinkRecords * sinkDelayMicros / 1000 >= (long) failAfterCheckpoint * intervalMs
                ? (fileJob() ? sinkRecords + " input records" : records + " records x 2 sources") + " x " + sinkDelayMicros
                        + " us at the sink"
                : "the failure comes after checkpoint " + failAfterCheckpoint + ", one every " + intervalMs + " ms";
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    private static long number(String[] args, int i, String option, long min, long max) throws UsageException {
        String v = value(args, i, option);
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " expects an integer between " + min + " and " + max + ", got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new UsageException(option + " must be between " + min + " and " + max + ", got " + n);
        }
        return n;
    }
}
