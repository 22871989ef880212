package dev.consistentcut.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The checkpoint-overhead target measured by interleaved A/B rounds: for one cell
 * (skew, mode) the job runs without checkpoints (A) and with a checkpoint every 100 ms (B), A and
 * B alternating (A B, then B A, ...) so that the drift of a shared machine falls on both; each
 * pair gives one overhead {@code 1 - B/A}. The figure is the median of the per-pair overheads,
 * with a bootstrap 95% confidence interval of that median (pairs resampled with replacement,
 * percentile interval, seeded: the same pairs give the same interval).
 *
 * <p>The verdict for "at most 5%": <b>met</b> only if the interval's upper end is at most 5%,
 * <b>missed</b> only if its lower end is above 5%, and <b>undecided</b> otherwise: the run could
 * not tell.
 *
 * <p>Where the pairs carry the CPU time per record of each run, the cell is judged on that
 * instead, overhead {@code on/off - 1}: the CPU the job spends per record is what checkpointing
 * adds to, and unlike throughput it does not move when other work takes the machine's cores
 * away for a moment (a window's throughput does). The throughput overhead is still reported
 * beside it. Stateless.
 */
public final class OverheadAB {

    public static final double LIMIT = 0.05;
    public static final int RESAMPLES = 10_000;

    /**
     * One A/B pair: throughput without and with checkpoints (records/s), CPU microseconds per
     * record without and with them (NaN if not measured), and how many of those microseconds the
     * JIT compiler's threads took, which {@code cpuOff} and {@code cpuOn} then leave out (NaN if
     * not measured, and then included); {@code onFirst}: B ran first.
     */
    public record Pair(double off, double on, boolean onFirst, double cpuOff, double cpuOn, double compilerOff,
                       double compilerOn) {
        /** A pair without CPU figures. */
        public Pair(double off, double on, boolean onFirst) {
            this(off, on, onFirst, Double.NaN, Double.NaN);
        }

        /** A pair whose CPU figures include the JIT compiler's, or whose compiler's share is unknown. */
        public Pair(double off, double on, boolean onFirst, double cpuOff, double cpuOn) {
            this(off, on, onFirst, cpuOff, cpuOn, Double.NaN, Double.NaN);
        }

        /** The JIT compiler's share of the CPU without checkpoints: {@code compilerOff / (cpuOff + compilerOff)}. */
        public double compilerShareOff() {
            return compilerOff / (cpuOff + compilerOff);
        }

        /** As {@link #compilerShareOff}, with checkpoints. */
        public double compilerShareOn() {
            return compilerOn / (cpuOn + compilerOn);
        }

        /** Throughput lost to checkpoints: {@code 1 - on/off}. */
        public double overhead() {
            return 1 - on / off;
        }

        /** CPU per record added by checkpoints: {@code cpuOn/cpuOff - 1}; NaN without CPU figures. */
        public double cpuOverhead() {
            return cpuOn / cpuOff - 1;
        }

        /**
         * The cores the job kept busy without checkpoints (CPU seconds per second: records/s times
         * CPU seconds per record); NaN without CPU figures. {@code on/off = (coresOn/coresOff) /
         * (cpuOn/cpuOff)}: throughput falls by the CPU a record costs more and by the cores left idle.
         */
        public double coresOff() {
            return off * cpuOff / 1e6;
        }

        /** As {@link #coresOff}, with checkpoints. */
        public double coresOn() {
            return on * cpuOn / 1e6;
        }
    }

    /** A median overhead, its bootstrap 95% interval and the verdict against {@link #LIMIT}. */
    public record Interval(double median, double low, double high, String verdict) {
    }

    /**
     * The analysis of one cell: {@code median}, {@code low}, {@code high} of the throughput
     * overhead; {@code cpu} the same of the CPU overhead (null if the pairs have no CPU figures);
     * {@code verdict} the cell's: the CPU overhead's if there is one, else the throughput's.
     */
    public record Result(String cell, List<Pair> pairs, double median, double low, double high, Interval cpu,
                         String verdict, int forks) {
        /** The result of pairs from one JVM. */
        public Result(String cell, List<Pair> pairs, double median, double low, double high, Interval cpu, String verdict) {
            this(cell, pairs, median, low, high, cpu, verdict, 1);
        }

        public String describe() {
            String throughput = String.format(Locale.ROOT, "throughput median %+.1f%%, 95%% CI [%+.1f%%, %+.1f%%]",
                    median * 100, low * 100, high * 100);
            String cpuPart = cpu == null ? "" : String.format(Locale.ROOT, "; CPU per record median %+.1f%%, 95%% CI [%+.1f%%, %+.1f%%]",
                    cpu.median() * 100, cpu.low() * 100, cpu.high() * 100);
            return String.format(Locale.ROOT, "%s: %s%s over %d pairs%s: %s", cell, throughput, cpuPart, pairs.size(),
                    forks > 1 ? " from " + forks + " JVMs" : "", verdict);
        }
    }

    private OverheadAB() {
    }

    /** Median overhead, its bootstrap 95% interval, and the verdict against {@link #LIMIT}. */
    public static Result analyse(String cell, List<Pair> pairs, long seed) {
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException(cell + ": no A/B pair");
        }
        Interval throughput = interval(pairs.stream().mapToDouble(Pair::overhead).toArray(), seed);
        double[] cpuOverheads = pairs.stream().mapToDouble(Pair::cpuOverhead).toArray();
        Interval cpu = Arrays.stream(cpuOverheads).anyMatch(v -> Double.isNaN(v) || Double.isInfinite(v))
                ? null : interval(cpuOverheads, seed);
        return new Result(cell, List.copyOf(pairs), throughput.median(), throughput.low(), throughput.high(), cpu,
                cpu != null ? cpu.verdict() : throughput.verdict());
    }

    /**
     * As {@link #analyse}, for pairs measured in several JVMs, one list per JVM (a fork): the
     * median over every pair, and an interval that resamples the forks and then the pairs within
     * each (a two-stage, cluster bootstrap). A JVM's pairs share its compiled code, its heap
     * layout and its threads' placement on the cores; forks that differ by more than their pairs
     * vary widen the interval, which the pairs of one JVM could not show. One fork: {@link #analyse}.
     *
     * @throws IllegalArgumentException if there is no fork or a fork has no pair
     */
    public static Result analyseForks(String cell, List<List<Pair>> forks, long seed) {
        if (forks.isEmpty() || forks.stream().anyMatch(List::isEmpty)) {
            throw new IllegalArgumentException(cell + ": a fork without A/B pairs");
        }
        List<Pair> all = forks.stream().flatMap(List::stream).toList();
        if (forks.size() == 1) {
            return analyse(cell, all, seed);
        }
        Interval throughput = clusterInterval(forks.stream()
                .map(f -> f.stream().mapToDouble(Pair::overhead).toArray()).toList(), seed);
        List<double[]> cpuByFork = forks.stream().map(f -> f.stream().mapToDouble(Pair::cpuOverhead).toArray()).toList();
        Interval cpu = cpuByFork.stream().flatMapToDouble(Arrays::stream).anyMatch(v -> Double.isNaN(v) || Double.isInfinite(v))
                ? null : clusterInterval(cpuByFork, seed);
        return new Result(cell, all, throughput.median(), throughput.low(), throughput.high(), cpu,
                cpu != null ? cpu.verdict() : throughput.verdict(), forks.size());
    }

    /** The median over every fork's values, its two-stage bootstrap 95% interval (seeded) and the verdict. */
    static Interval clusterInterval(List<double[]> forks, long seed) {
        double median = median(forks.stream().flatMapToDouble(Arrays::stream).toArray());
        double[] medians = new double[RESAMPLES];
        SplittableRandom random = new SplittableRandom(seed);
        int total = forks.stream().mapToInt(f -> f.length).sum();
        double[] sample = new double[total];
        for (int b = 0; b < RESAMPLES; b++) {
            int n = 0;
            for (int k = 0; k < forks.size(); k++) {
                double[] fork = forks.get(random.nextInt(forks.size()));
                for (int i = 0; i < fork.length; i++) {
                    sample[n++] = fork[random.nextInt(fork.length)];
                }
            }
            medians[b] = median(Arrays.copyOf(sample, n));
        }
        return percentileInterval(median, medians);
    }

    /** The median of {@code x}, its bootstrap 95% interval (seeded) and the verdict. */
    static Interval interval(double[] x, long seed) {
        double median = median(x.clone());
        double[] medians = new double[RESAMPLES];
        SplittableRandom random = new SplittableRandom(seed);
        double[] sample = new double[x.length];
        for (int b = 0; b < RESAMPLES; b++) {
            for (int i = 0; i < x.length; i++) {
                sample[i] = x[random.nextInt(x.length)];
            }
            medians[b] = median(sample);
        }
        return percentileInterval(median, medians);
    }

    /** The 95% percentile interval of the resampled {@code medians} (sorts them) around {@code median}, and its verdict. */
    private static Interval percentileInterval(double median, double[] medians) {
        Arrays.sort(medians);
        double low = medians[(int) Math.floor(0.025 * (medians.length - 1))];
        double high = medians[(int) Math.ceil(0.975 * (medians.length - 1))];
        return new Interval(median, low, high, verdict(low, high));
    }

    /**
     * Whether the A/B of a cell should run another pair: always below {@code minPairs}; from there
     * on, while the cell is undecided, two more (one of each order) at a time, up to
     * {@code maxPairs}. Running until the interval falls on one side of the limit is optional
     * stopping: the interval's 95% is then nominal, slightly optimistic, which the report says.
     */
    public static boolean wantsAnotherPair(List<Pair> pairs, int minPairs, int maxPairs, long seed) {
        int n = pairs.size();
        if (n < minPairs) {
            return true;
        }
        if (n >= maxPairs || n == 0) {
            return false;
        }
        if (n % 2 == 1) {
            return true; // finish the AB / BA couple
        }
        return analyse("", pairs, seed).verdict().equals("undecided");
    }

    /** "met" only if {@code high <= 5%}, "missed" only if {@code low > 5%}, else "undecided". */
    public static String verdict(double low, double high) {
        if (high <= LIMIT) {
            return "met";
        }
        if (low > LIMIT) {
            return "missed";
        }
        return "undecided";
    }

    /** Median (sorts {@code x} in place). */
    static double median(double[] x) {
        Arrays.sort(x);
        int n = x.length;
        return n % 2 == 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
    }

    /** The overall verdict over cells: missed if any cell missed, met if every cell met, else undecided. */
    public static String overall(List<Result> results) {
        if (results.isEmpty()) {
            return "not measured";
        }
        if (results.stream().anyMatch(r -> r.verdict().equals("missed"))) {
            return "missed";
        }
        return results.stream().allMatch(r -> r.verdict().equals("met")) ? "met" : "undecided";
    }

    /**
     * CSV of every pair: cell, pair, order, off, on, overhead, the CPU per record off, on and its
     * overhead, and the JIT compiler's CPU per record off and on (left out of the CPU columns).
     */
    public static String csv(List<Result> results) {
        StringBuilder out = new StringBuilder(
                "cell,pair,order,off_rps,on_rps,overhead,cpu_off_us,cpu_on_us,cpu_overhead,compiler_off_us,compiler_on_us\n");
        for (Result r : results) {
            for (int i = 0; i < r.pairs().size(); i++) {
                Pair p = r.pairs().get(i);
                out.append(String.format(Locale.ROOT, "%s,%d,%s,%.1f,%.1f,%.5f,%.4f,%.4f,%.5f,%.4f,%.4f%n", r.cell(), i + 1,
                        p.onFirst() ? "on-off" : "off-on", p.off(), p.on(), p.overhead(), p.cpuOff(), p.cpuOn(),
                        p.cpuOverhead(), p.compilerOff(), p.compilerOn()));
            }
        }
        return out.toString();
    }

    /**
     * The pairs of one cell in a {@link #csv} text, in their order; a CSV of an older layout,
     * without the compiler columns, gives pairs without them.
     *
     * @throws IllegalArgumentException naming the line if a row is not of that layout
     */
    public static List<Pair> pairsOf(String csv, String cell) {
        List<Pair> out = new ArrayList<>();
        String[] lines = csv.split("\n");
        for (int n = 1; n < lines.length; n++) {
            if (lines[n].isBlank()) {
                continue;
            }
            String[] c = lines[n].split(",", -1);
            if (c.length != 9 && c.length != 11) {
                throw new IllegalArgumentException("line " + (n + 1) + ": " + c.length + " columns, expected 9 or 11: " + lines[n]);
            }
            if (!c[0].equals(cell)) {
                continue;
            }
            try {
                boolean onFirst = c[2].equals("on-off");
                double off = Double.parseDouble(c[3]);
                double on = Double.parseDouble(c[4]);
                double cpuOff = Double.parseDouble(c[6]);
                double cpuOn = Double.parseDouble(c[7]);
                out.add(c.length == 11
                        ? new Pair(off, on, onFirst, cpuOff, cpuOn, Double.parseDouble(c[9]), Double.parseDouble(c[10]))
                        : new Pair(off, on, onFirst, cpuOff, cpuOn));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("line " + (n + 1) + ": not a number: " + e.getMessage());
            }
        }
        return out;
    }

    /** The Markdown section: one row per cell, then the overall verdict. */
    public static String markdown(List<Result> results, int windowMillis) {
        List<String> lines = new ArrayList<>();
        lines.add("##### Checkpoint overhead, interleaved A/B rounds (reference engine, no backpressure)");
        lines.add("");
        lines.add("Each pair: the job without checkpoints and with one every 100 ms, " + windowMillis
                + " ms windows, the order alternating from pair to pair, after one warm-up pair that is not counted;"
                + " throughput overhead = 1 - with/without, CPU overhead = CPU per record with/without - 1. The CPU"
                + " per record is the JVM's without its JIT compiler's threads (the JIT share columns: their part of"
                + " the JVM's CPU in the windows without and with checkpoints): compiling is a one-time cost, which a"
                + " window of a few seconds charges to whichever side first ran the code, most often the side with"
                + " checkpoints, whose code paths run ten times a second and take longest to get hot. Median of the"
                + " pairs' overheads, bootstrap 95%"
                + " confidence interval of the median (" + RESAMPLES + " resamples). Target at most 5%, judged on"
                + " the CPU overhead where it was measured: met only if the interval's upper end is at most 5%,"
                + " missed only if its lower end is above 5%, else undecided. A cell still undecided after its first"
                + " pairs ran more, one pair of each order at a time, until decided or at the most pairs allowed (the"
                + " pairs column counts them all); after such stopping the interval's 95% is nominal. Cores busy:"
                + " CPU seconds per second of the window (records/s times CPU per record), median of the runs without"
                + " and with checkpoints: throughput falls by the CPU a record costs more and by the cores left idle."
                + (results.stream().anyMatch(r -> r.forks() > 1) ? " Where pairs came from several JVMs started one"
                        + " after another (forks, each with its own warm-up run and warm-up pair), the median is over"
                        + " every pair and the interval a two-stage bootstrap: the forks resampled, then the pairs within"
                        + " each, so that it also holds the differences from one JVM to the next; no cell then runs"
                        + " more pairs while undecided." : ""));
        lines.add("");
        lines.add("| cell | pairs | throughput overhead | 95% CI | pairs' range | CPU overhead | 95% CI | JIT share without / with | cores busy without / with | verdict |");
        lines.add("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
        for (Result r : results) {
            double min = r.pairs().stream().mapToDouble(Pair::overhead).min().orElse(0);
            double max = r.pairs().stream().mapToDouble(Pair::overhead).max().orElse(0);
            String cpu = r.cpu() == null ? "n/a | n/a" : String.format(Locale.ROOT, "%+.1f%% | [%+.1f%%, %+.1f%%]",
                    r.cpu().median() * 100, r.cpu().low() * 100, r.cpu().high() * 100);
            double jitOff = median(r.pairs().stream().mapToDouble(Pair::compilerShareOff).toArray());
            double jitOn = median(r.pairs().stream().mapToDouble(Pair::compilerShareOn).toArray());
            String jit = Double.isNaN(jitOff) || Double.isNaN(jitOn) ? "n/a"
                    : String.format(Locale.ROOT, "%.1f%% / %.1f%%", jitOff * 100, jitOn * 100);
            String cores = r.cpu() == null ? "n/a" : String.format(Locale.ROOT, "%.2f / %.2f",
                    median(r.pairs().stream().mapToDouble(Pair::coresOff).toArray()),
                    median(r.pairs().stream().mapToDouble(Pair::coresOn).toArray()));
            lines.add(String.format(Locale.ROOT, "| %s | %s | %+.1f%% | [%+.1f%%, %+.1f%%] | %+.1f%% to %+.1f%% | %s | %s | %s | %s |",
                    r.cell(), r.pairs().size() + (r.forks() > 1 ? " (" + r.forks() + " JVMs)" : ""), r.median() * 100, r.low() * 100, r.high() * 100, min * 100,
                    max * 100, cpu, jit, cores, r.verdict()));
        }
        lines.add("");
        lines.add("Overall: " + overall(results) + ".");
        return String.join("\n", lines) + "\n";
    }
}
