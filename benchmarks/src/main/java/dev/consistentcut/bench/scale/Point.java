package dev.consistentcut.bench.scale;

/**
 * One point of the sweep: a series and its records per source. Immutable.
 *
 * @param series {@link #NO_DELAY} (the engine's own cost: {@code --sink-delay-us 0}) or
 *     {@link #DEFAULT_DELAY} (the CLI's default options, the slow sink included)
 * @param records records per source
 */
public record Point(String series, int records) {

    public static final String NO_DELAY = "no-sink-delay";
    public static final String DEFAULT_DELAY = "default-sink-delay";

    public Point {
        if (!series.equals(NO_DELAY) && !series.equals(DEFAULT_DELAY)) {
            throw new IllegalArgumentException("unknown series " + series);
        }
        if (records < 1) {
            throw new IllegalArgumentException("records must be positive, got " + records);
        }
    }

    /** The {@code run} arguments after the checkpoint directory. */
    java.util.List<String> runOptions() {
        return series.equals(NO_DELAY) ? java.util.List.of("--sink-delay-us", "0") : java.util.List.of();
    }

    public String label() {
        return series + " " + records;
    }
}
