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
 * not tell. Stateless.
 */
public final class OverheadAB {

    public static final double LIMIT = 0.05;
    public static final int RESAMPLES = 10_000;

    /** One A/B pair: throughput without and with checkpoints (records/s); {@code onFirst}: B ran first. */
    public record Pair(double off, double on, boolean onFirst) {
        public double overhead() {
            return 1 - on / off;
        }
    }

    /** The analysis of one cell. */
    public record Result(String cell, List<Pair> pairs, double median, double low, double high, String verdict) {
        public String describe() {
            return String.format(Locale.ROOT, "%s: median %+.1f%%, 95%% CI [%+.1f%%, %+.1f%%] over %d pairs: %s",
                    cell, median * 100, low * 100, high * 100, pairs.size(), verdict);
        }
    }

    private OverheadAB() {
    }

    /** Median overhead, its bootstrap 95% interval, and the verdict against {@link #LIMIT}. */
    public static Result analyse(String cell, List<Pair> pairs, long seed) {
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException(cell + ": no A/B pair");
        }
        double[] x = pairs.stream().mapToDouble(Pair::overhead).toArray();
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
        Arrays.sort(medians);
        double low = medians[(int) Math.floor(0.025 * (RESAMPLES - 1))];
        double high = medians[(int) Math.ceil(0.975 * (RESAMPLES - 1))];
        return new Result(cell, List.copyOf(pairs), median, low, high, verdict(low, high));
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

    /** CSV of every pair: cell, pair, order, off, on, overhead. */
    public static String csv(List<Result> results) {
        StringBuilder out = new StringBuilder("cell,pair,order,off_rps,on_rps,overhead\n");
        for (Result r : results) {
            for (int i = 0; i < r.pairs().size(); i++) {
                Pair p = r.pairs().get(i);
                out.append(String.format(Locale.ROOT, "%s,%d,%s,%.1f,%.1f,%.5f%n", r.cell(), i + 1,
                        p.onFirst() ? "on-off" : "off-on", p.off(), p.on(), p.overhead()));
            }
        }
        return out.toString();
    }

    /** The Markdown section: one row per cell, then the overall verdict. */
    public static String markdown(List<Result> results, int windowMillis) {
        List<String> lines = new ArrayList<>();
        lines.add("##### Checkpoint overhead, interleaved A/B rounds (reference engine, no backpressure)");
        lines.add("");
        lines.add("Each pair: the job without checkpoints and with one every 100 ms, " + windowMillis
                + " ms windows, the order alternating from pair to pair; overhead = 1 - with/without. Median of the"
                + " pairs' overheads, bootstrap 95% confidence interval of the median (" + RESAMPLES
                + " resamples). Target at most 5%: met only if the interval's upper end is at most 5%, missed only"
                + " if its lower end is above 5%, else undecided.");
        lines.add("");
        lines.add("| cell | pairs | median overhead | 95% CI | pairs' range | verdict |");
        lines.add("| --- | ---: | ---: | ---: | ---: | --- |");
        for (Result r : results) {
            double min = r.pairs().stream().mapToDouble(Pair::overhead).min().orElse(0);
            double max = r.pairs().stream().mapToDouble(Pair::overhead).max().orElse(0);
            lines.add(String.format(Locale.ROOT, "| %s | %d | %+.1f%% | [%+.1f%%, %+.1f%%] | %+.1f%% to %+.1f%% | %s |",
                    r.cell(), r.pairs().size(), r.median() * 100, r.low() * 100, r.high() * 100, min * 100,
                    max * 100, r.verdict()));
        }
        lines.add("");
        lines.add("Overall: " + overall(results) + ".");
        return String.join("\n", lines) + "\n";
    }
}
