package dev.consistentcut.bench.scale;

import java.util.ArrayList;
import java.util.List;

/**
 * Which runs the sweep makes and in what order: records per source from 10,000 to the maximum
 * without a sink delay, and the pair 20,000 / 160,000 with the CLI's default options (the pair
 * whose ratios the bounds are stated for), each {@code repeats} times. The repeats are the outer
 * loop, so that a drift of a shared machine falls on every point rather than on one. Immutable.
 */
public record ScalePlan(int maxRecords, int repeats) {

    /** The sweep's points, records per source. */
    public static final List<Integer> RECORDS = List.of(10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000);
    /** The pair the ratios compare. */
    public static final int SMALL = 20_000;
    public static final int LARGE = 160_000;

    public ScalePlan {
        if (maxRecords < RECORDS.get(0)) {
            throw new IllegalArgumentException("--max-records must be at least " + RECORDS.get(0) + ", got " + maxRecords);
        }
        if (repeats < 1) {
            throw new IllegalArgumentException("--repeats must be at least 1, got " + repeats);
        }
    }

    /** Every run, repeat by repeat. */
    public List<Point> points() {
        List<Point> round = new ArrayList<>();
        RECORDS.stream().filter(n -> n <= maxRecords).forEach(n -> round.add(new Point(Point.NO_DELAY, n)));
        round.add(new Point(Point.DEFAULT_DELAY, SMALL));
        round.add(new Point(Point.DEFAULT_DELAY, LARGE));
        List<Point> all = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            all.addAll(round);
        }
        return all;
    }
}
