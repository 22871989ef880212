package dev.consistentcut.bench;

import java.util.Arrays;
import java.util.function.ToDoubleFunction;
import java.util.List;

/** Order statistics over samples, ignoring NaN (a value not measured). Stateless. */
public final class Stats {

    private Stats() {
    }

    /**
     * The nearest-rank percentile {@code p} (0 < p <= 100) of the non-NaN values; NaN if there
     * are none. With few samples p99 is the maximum: no interpolation invents a value that no
     * checkpoint had.
     */
    public static double percentile(double[] values, double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
        }
        double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100 * v.length);
        return v[Math.max(0, rank - 1)];
    }

    public static double median(double[] values) {
        return percentile(values, 50);
    }

    public static double max(double[] values) {
        return percentile(values, 100);
    }

    /** {@code f} of every element, for the functions above. */
    public static <T> double[] of(List<T> items, ToDoubleFunction<T> f) {
        return items.stream().mapToDouble(f).toArray();
    }
}
