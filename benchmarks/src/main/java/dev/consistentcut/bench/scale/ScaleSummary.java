package dev.consistentcut.bench.scale;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The sweep's figures per point (median and range over the repeats) and the two ratios of the
 * pair 20,000 / 160,000 with the default options: wall time (bound 10) and bytes the last
 * checkpoint wrote (bound 2), and beside the latter the same for the median of the retained
 * checkpoints (a compaction makes one checkpoint write a whole chain), and beside the former the
 * same for CPU time, which a shared machine's other work moves less. Immutable.
 */
public record ScaleSummary(List<Group> groups, Optional<Spread> wallRatio, Optional<Spread> cpuRatio, Optional<Spread> bytesRatio,
        Optional<Spread> retainedBytesRatio) {

    public static final double WALL_RATIO_BOUND = 10;
    public static final double BYTES_RATIO_BOUND = 2;

    /**
     * One point's figures over its repeats.
     *
     * @param relativeTimePerRecord time per record over that of the series' smallest point (medians)
     */
    public record Group(Point point, Spread wallMs, Spread timePerRecordUs, double relativeTimePerRecord, Spread cpuMs,
            Spread cpuPerRecordUs, Spread checkpoints,
            Spread durationMedianMs, Spread durationMaxMs, Spread lastBytes, Spread retainedMedianBytes) {
    }

    public ScaleSummary {
        groups = List.copyOf(groups);
    }

    public static ScaleSummary of(List<ScaleRun> runs) {
        List<Point> points = runs.stream().map(ScaleRun::point).distinct()
                .sorted(Comparator.comparingInt((Point p) -> p.series().equals(Point.NO_DELAY) ? 0 : 1).thenComparingInt(Point::records))
                .toList();
        List<Group> groups = new ArrayList<>();
        for (Point p : points) {
            List<ScaleRun> of = runs.stream().filter(r -> r.point().equals(p)).toList();
            Spread tpr = spread(of, ScaleRun::timePerRecordUs);
            int base = points.stream().filter(q -> q.series().equals(p.series())).mapToInt(Point::records).min().orElseThrow();
            Spread baseTpr = spread(runs.stream().filter(r -> r.point().equals(new Point(p.series(), base))).toList(),
                    ScaleRun::timePerRecordUs);
            groups.add(new Group(p, spread(of, ScaleRun::wallMs), tpr, tpr.median() / baseTpr.median(), spread(of, ScaleRun::cpuMs),
                    spread(of, ScaleRun::cpuPerRecordUs),
                    spread(of, ScaleRun::checkpoints), spread(of, ScaleRun::durationMedianMs), spread(of, ScaleRun::durationMaxMs),
                    spread(of, r -> r.lastBytes()), spread(of, ScaleRun::retainedMedianBytes)));
        }
        Optional<Group> small = find(groups, new Point(Point.DEFAULT_DELAY, ScalePlan.SMALL));
        Optional<Group> large = find(groups, new Point(Point.DEFAULT_DELAY, ScalePlan.LARGE));
        Optional<Spread> wall = small.flatMap(s -> large.map(l -> Spread.ratio(l.wallMs(), s.wallMs())));
        Optional<Spread> bytes = small.flatMap(s -> large.map(l -> Spread.ratio(l.lastBytes(), s.lastBytes())));
        Optional<Spread> retained = small.flatMap(s -> large.map(l -> Spread.ratio(l.retainedMedianBytes(), s.retainedMedianBytes())));
        Optional<Spread> cpu = small.flatMap(s -> large.map(l -> Spread.ratio(l.cpuMs(), s.cpuMs())));
        return new ScaleSummary(groups, wall, cpu, bytes, retained);
    }

    /** The groups of one series, by records. */
    public List<Group> series(String series) {
        return groups.stream().filter(g -> g.point().series().equals(series)).toList();
    }

    private static Optional<Group> find(List<Group> groups, Point p) {
        return groups.stream().filter(g -> g.point().equals(p)).findFirst();
    }

    private static Spread spread(List<ScaleRun> runs, ToDoubleFunction<ScaleRun> f) {
        return Spread.of(runs.stream().mapToDouble(f).toArray());
    }
}
