package dev.consistentcut.bench.scale;

import dev.consistentcut.bench.Stats;
import java.util.Arrays;
import java.util.Locale;

/**
 * A median with the smallest and largest sample beside it: with three repeats the range is the
 * honest spread (a bootstrap interval of three values says little more). Immutable.
 */
public record Spread(double median, double min, double max, int n) {

    public static Spread of(double[] values) {
        double[] measured = Arrays.stream(values).filter(v -> !Double.isNaN(v)).toArray();
        return new Spread(Stats.median(measured), Arrays.stream(measured).min().orElse(Double.NaN), Stats.max(measured),
                measured.length);
    }

    /**
     * The ratio {@code top / bottom} of two groups: the ratio of the medians, and as its spread the
     * least and greatest ratio any pair of samples could give (smallest top over largest bottom,
     * and the other way round).
     */
    public static Spread ratio(Spread top, Spread bottom) {
        return new Spread(top.median / bottom.median, top.min / bottom.max, top.max / bottom.min, Math.min(top.n, bottom.n));
    }

    /** {@code median (min-max)} with {@code format} for each number; the median alone for one sample. */
    public String format(String format) {
        String m = String.format(Locale.ROOT, format, median);
        return n <= 1 ? m : m + " (" + String.format(Locale.ROOT, format, min) + "-" + String.format(Locale.ROOT, format, max) + ")";
    }
}
