package dev.consistentcut.bench.scale;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * scale.png (JFreeChart, headless): time per record (wall, solid; CPU, dashed), the bytes a
 * checkpoint wrote (the last one, solid; the median of the retained ones, dashed) and the longest checkpoint against records per
 * source, every axis logarithmic with a tick per power of ten; a point is the median over the
 * repeats and its bar the range. Blue: without a sink delay; red: the default options' pair
 * 20k / 160k. Stateless.
 */
public final class ScaleChart {

    private static final Color NO_DELAY = new Color(0x1f77b4);
    private static final Color DEFAULT_DELAY = new Color(0xd62728);
    private static final BasicStroke SOLID = new BasicStroke(2f);
    private static final BasicStroke DASHED = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] {6f, 4f}, 0f);

    /** One line of a panel. */
    private record Line(String name, String series, Function<ScaleSummary.Group, Spread> value, boolean dashed) {
    }

    private ScaleChart() {
    }

    public static void write(ScaleSummary s, String subtitle, Path png) throws IOException {
        double[] records = s.groups().stream().mapToDouble(g -> g.point().records()).toArray();
        LogAxis x = decades("records per source", records);
        x.setRange(Arrays.stream(records).min().orElse(1) / 1.3, Arrays.stream(records).max().orElse(10) * 1.3);
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(x);
        plot.add(panel(s, "per record (us)", List.of(
                new Line("no sink delay: wall", Point.NO_DELAY, ScaleSummary.Group::timePerRecordUs, false),
                new Line("default options: wall", Point.DEFAULT_DELAY, ScaleSummary.Group::timePerRecordUs, false),
                new Line("no sink delay: CPU", Point.NO_DELAY, ScaleSummary.Group::cpuPerRecordUs, true),
                new Line("default options: CPU", Point.DEFAULT_DELAY, ScaleSummary.Group::cpuPerRecordUs, true))), 1);
        XYPlot bytes = panel(s, "checkpoint wrote (KB)", List.of(
                new Line("no sink delay: last checkpoint", Point.NO_DELAY, g -> kb(g.lastBytes()), false),
                new Line("default options: last checkpoint", Point.DEFAULT_DELAY, g -> kb(g.lastBytes()), false),
                new Line("no sink delay: retained, median", Point.NO_DELAY, g -> kb(g.retainedMedianBytes()), true),
                new Line("default options: retained, median", Point.DEFAULT_DELAY, g -> kb(g.retainedMedianBytes()), true)));
        plot.add(bytes, 1);
        plot.add(panel(s, "longest checkpoint (ms)", List.of(
                new Line("no sink delay", Point.NO_DELAY, ScaleSummary.Group::durationMaxMs, false),
                new Line("default options", Point.DEFAULT_DELAY, ScaleSummary.Group::durationMaxMs, false))), 1);
        plot.setGap(10);
        // One legend: colour is the series in every panel, a dashed line the second figure of a panel.
        LegendItemCollection legend = new LegendItemCollection();
        legend.add(legendItem("no sink delay", NO_DELAY, SOLID));
        legend.add(legendItem("default options (sink delay 50 us)", DEFAULT_DELAY, SOLID));
        legend.add(legendItem("dashed: CPU time per record / median of the retained checkpoints", Color.GRAY, DASHED));
        plot.setFixedLegendItems(legend);
        JFreeChart chart = new JFreeChart("Scale: cost per record and per checkpoint against records",
                new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
        chart.addSubtitle(new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 11)));
        chart.addSubtitle(new TextTitle("median over the repeats, bars: least to greatest repeat; every axis logarithmic;"
                + " solid: wall time per record, the last checkpoint",
                new Font(Font.SANS_SERIF, Font.PLAIN, 11)));
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 950);
    }

    private static XYPlot panel(ScaleSummary s, String label, List<Line> lines) {
        YIntervalSeriesCollection data = new YIntervalSeriesCollection();
        XYErrorRenderer r = new XYErrorRenderer();
        r.setDefaultLinesVisible(true);
        r.setDrawXError(false);
        r.setCapLength(6);
        r.setErrorPaint(Color.DARK_GRAY);
        r.setErrorStroke(new BasicStroke(1.2f));
        for (int i = 0; i < lines.size(); i++) {
            Line line = lines.get(i);
            data.addSeries(series(line.name(), s.series(line.series()), line.value()));
            r.setSeriesPaint(i, line.series().equals(Point.NO_DELAY) ? NO_DELAY : DEFAULT_DELAY);
            r.setSeriesStroke(i, line.dashed() ? DASHED : SOLID);
            r.setSeriesShape(i, new Ellipse2D.Double(-4, -4, 8, 8));
        }
        double[] values = lines.stream().flatMap(l -> s.series(l.series()).stream().map(l.value()))
                .flatMapToDouble(v -> java.util.stream.DoubleStream.of(v.min(), v.max())).toArray();
        XYPlot p = new XYPlot(data, null, decades(label, values), r);
        p.setBackgroundPaint(new Color(0xf4f4f4));
        return p;
    }

    private static LegendItem legendItem(String label, Color colour, BasicStroke stroke) {
        LegendItem item = new LegendItem(label, null, null, null, false, new Ellipse2D.Double(-4, -4, 8, 8), false, colour, false,
                colour, stroke, true, new Line2D.Double(-16, 0, 16, 0), stroke, colour);
        return item;
    }

    private static YIntervalSeries series(String name, List<ScaleSummary.Group> groups, Function<ScaleSummary.Group, Spread> f) {
        YIntervalSeries series = new YIntervalSeries(name);
        for (ScaleSummary.Group g : groups) {
            Spread v = f.apply(g);
            if (v.median() > 0 && v.min() > 0) { // a log axis has no place for zero or a value not measured
                series.add(g.point().records(), v.median(), v.min(), v.max());
            }
        }
        return series;
    }

    private static Spread kb(Spread bytes) {
        return new Spread(bytes.median() / 1024, bytes.min() / 1024, bytes.max() / 1024, bytes.n());
    }

    /**
     * A log axis from the power of ten below the least positive value to the one above the
     * greatest, a labelled tick at each: auto-ranged log axes label fractional powers (501.187).
     */
    static LogAxis decades(String label, double[] values) {
        double[] positive = java.util.Arrays.stream(values).filter(v -> v > 0 && Double.isFinite(v)).toArray();
        double low = positive.length == 0 ? 1 : Math.pow(10, Math.floor(Math.log10(java.util.Arrays.stream(positive).min().orElseThrow())));
        double high = positive.length == 0 ? 10 : Math.pow(10, Math.ceil(Math.log10(java.util.Arrays.stream(positive).max().orElseThrow())));
        LogAxis axis = new LogAxis(label + " (log scale)");
        axis.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        axis.setAutoRange(false);
        axis.setRange(low, high > low ? high : low * 10);
        axis.setTickUnit(new NumberTickUnit(1));
        axis.setNumberFormatOverride(new DecimalFormat("#,##0.###"));
        return axis;
    }
}
