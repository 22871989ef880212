package dev.consistentcut.cli;

import dev.consistentcut.barrier.BarrierMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.stream.Stream;

/** The parsed command line of {@code run}. */
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
        boolean endOfInput) {

    static final String USAGE = String.join("\n",
            "Usage: java -jar reference-impl/target/reference-impl.jar run --mode aligned|unaligned|at-least-once [options]",
            "       java -jar reference-impl/target/reference-impl.jar trace record|to-tla|validate ... (trace --help)",
            "       java -jar reference-impl/target/reference-impl.jar --help",
            "",
            "Runs the demo job (two sources -> keyed count, parallelism 2 -> slow sink) with checkpoints,",
            "checks every completed checkpoint and the final state against the invariants, and exits",
            "0 if they hold, 1 if one is violated, 2 for bad arguments.",
            "",
            "Options:",
            "  --mode aligned|unaligned|at-least-once",
            "                                 barrier mode (required); aligned and unaligned promise",
            "                                 exactly once (ConsistentCutInv, ExactlyOnceInv), at-least-once",
            "                                 only that nothing is skipped (NoSkipInv, AtLeastOnceInv)",
            "  --end-of-input                 sources end their partitions when their log is read and the",
            "                                 job runs until every task has ended (FLIP-147); reported",
            "  --records N                    records per source (default 5000)",
            "  --interval-ms N                checkpoint interval (default 50); the simulation's clock",
            "                                 counts steps and reads it as N*100 steps",
            "  --sink-delay-us N              sink time per record, threads only (default 50)",
            "  --capacity N                   channel capacity in records (default 64)",
            "  --fail-after-checkpoint N      one failure right after the N-th completed checkpoint,",
            "                                 then recovery from the latest one (default 0: none)",
            "  --seed N                       seed of the input keys and of the simulation (default 1)",
            "  --runtime simulation|threads   runtime (default threads)",
            "  --checkpoint-dir DIR           durable checkpoint store in DIR, which must be empty or",
            "                                 new (default: in memory)",
            "  --json                         print the result as one JSON document on stdout",
            "  --help                         this text");

    /** Parses the arguments after {@code run}. */
    static CliOptions parse(String[] args, int from, Function<String, BarrierMode> modes) throws UsageException {
        BarrierMode mode = null;
        int records = 5000;
        long intervalMs = 50;
        long sinkDelayMicros = 50;
        int capacity = 64;
        int failAfter = 0;
        long seed = 1;
        boolean simulation = false;
        Path dir = null;
        boolean json = false;
        boolean endOfInput = false;
        for (int i = from; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--json" -> json = true;
                case "--end-of-input" -> endOfInput = true;
                case "--mode" -> {
                    String v = value(args, ++i, a);
                    try {
                        mode = modes.apply(v);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--mode must be aligned, unaligned or at-least-once, got '" + v + "'");
                    }
                }
                case "--records" -> records = (int) number(args, ++i, a, 1, Integer.MAX_VALUE);
                case "--interval-ms" -> intervalMs = number(args, ++i, a, 0, Long.MAX_VALUE / 1_000_000);
                case "--sink-delay-us" -> sinkDelayMicros = number(args, ++i, a, 0, Long.MAX_VALUE / 1000);
                case "--capacity" -> capacity = (int) number(args, ++i, a, 1, Integer.MAX_VALUE);
                case "--fail-after-checkpoint" -> failAfter = (int) number(args, ++i, a, 0, Integer.MAX_VALUE);
                case "--seed" -> seed = number(args, ++i, a, Long.MIN_VALUE, Long.MAX_VALUE);
                case "--runtime" -> {
                    String v = value(args, ++i, a);
                    simulation = switch (v) {
                        case "simulation" -> true;
                        case "threads" -> false;
                        default -> throw new UsageException("--runtime must be simulation or threads, got '" + v + "'");
                    };
                }
                case "--checkpoint-dir" -> dir = checkpointDir(value(args, ++i, a));
                default -> throw new UsageException("unknown argument '" + a + "'");
            }
        }
        if (mode == null) {
            throw new UsageException("--mode is required (aligned, unaligned or at-least-once)");
        }
        return new CliOptions(mode, records, intervalMs, sinkDelayMicros, capacity, failAfter, seed, simulation, dir, json,
                endOfInput);
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
            throw new UsageException(option + " expects an integer, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new UsageException(option + " must be " + (max == Long.MAX_VALUE || max == Integer.MAX_VALUE
                    ? "at least " + min : "between " + min + " and " + max) + ", got " + n);
        }
        return n;
    }

    /** A new or empty directory: a run never mixes its checkpoints with another job's. */
    private static Path checkpointDir(String v) throws UsageException {
        Path dir = Path.of(v);
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UsageException("--checkpoint-dir " + v + " is not a directory");
        }
        if (Files.isDirectory(dir)) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new UsageException("--checkpoint-dir " + v + " is not empty; give a new or empty directory");
                }
            } catch (IOException e) {
                throw new UsageException("--checkpoint-dir " + v + " cannot be read: " + e.getMessage());
            }
        }
        return dir;
    }
}
