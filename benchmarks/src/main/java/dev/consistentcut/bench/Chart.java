package dev.consistentcut.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.awt.geom.Line2D;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.block.GridArrangement;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.HorizontalAlignment;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The PNG chart (JFreeChart, headless): checkpoint duration (log scale) and persisted in-flight
 * bytes against the backpressure level, aligned, unaligned and alternating (dotted), both engines,
 * for the scenarios with skewed sources (the cells both the quick and the full run have). Aligned
 * checkpoints persist nothing, so the lower panel shows the other two only.
 */
public final class Chart {

    private static final Color REFERENCE = new Color(0x1f77b4);
    private static final Color FLINK = new Color(0xd62728);

    private Chart() {
    }

    public static void write(List<Summary> rows, String subtitle, Path png) throws IOException {
        writeRows(rows.stream().map(ResultsCsv.Row::of).toList(), subtitle, png);
    }

    /** As {@link #write}, from figures read back from a results.csv ({@link ResultsCsv}). */
    public static void writeRows(List<ResultsCsv.Row> rows, String subtitle, Path png) throws IOException {
        DefaultCategoryDataset durations = new DefaultCategoryDataset();
        DefaultCategoryDataset persisted = new DefaultCategoryDataset();
        for (String engine : List.of(ScenarioRun.REFERENCE, ScenarioRun.FLINK)) {
            for (Mode mode : List.of(Mode.ALIGNED, Mode.UNALIGNED, Mode.ALTERNATING)) {
                String series = seriesName(engine, mode);
                for (Backpressure b : Backpressure.values()) {
                    Optional<ResultsCsv.Row> s = find(rows, engine, b, mode);
                    durations.addValue(positiveOrNull(s.map(ResultsCsv.Row::durationP50Ms)), series, b.label());
                    if (mode != Mode.ALIGNED) {
                        persisted.addValue(s.map(x -> x.persistedBytesP50() / 1024).filter(v -> !v.isNaN()).orElse(null), series, b.label());
                    }
                }
            }
        }
        Font label = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
        LogAxis durationAxis = new LogAxis("checkpoint duration p50 (ms, log scale)");
        durationAxis.setLabelFont(label);
        durationAxis.setSmallestValue(0.1);
        durationAxis.setTickUnit(new NumberTickUnit(1)); // one tick per power of ten
        durationAxis.setNumberFormatOverride(new java.text.DecimalFormat("#,##0.#"));
        LineAndShapeRenderer durationRenderer = renderer(durations);
        CategoryPlot top = new CategoryPlot(durations, null, durationAxis, durationRenderer);
        // Short enough for the lower panel's height (a longer label runs into the upper one's); what it
        // shows is said in the second subtitle.
        NumberAxis bytesAxis = new NumberAxis("persisted p50 (KB)");
        bytesAxis.setLabelFont(label);
        CategoryPlot bottom = new CategoryPlot(persisted, null, bytesAxis, renderer(persisted));
        CategoryAxis backpressure = new CategoryAxis("backpressure (sink cost: none, 100 µs, 1 ms per record)");
        backpressure.setLabelFont(label);
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(backpressure);
        plot.add(top, 3);
        plot.add(bottom, 2);
        plot.setGap(12);
        JFreeChart chart = new JFreeChart("Aligned, unaligned and alternating checkpoints under backpressure (skewed sources)",
                new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, false);
        chart.addSubtitle(new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 11)));
        chart.addSubtitle(new TextTitle("Lower panel: in-flight data persisted per checkpoint, unaligned and alternating only"
                + " (aligned checkpoints persist none)", new Font(Font.SANS_SERIF, Font.PLAIN, 11)));
        chart.addSubtitle(legend(durationRenderer));
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 700);
    }

    /**
     * The six series in a grid of two rows (reference, Flink) by three columns (aligned, unaligned,
     * alternating), so that it never wraps or runs off the image, with lines long enough to show
     * their dashes and dots.
     */
    private static LegendTitle legend(LineAndShapeRenderer renderer) {
        LegendItemCollection items = new LegendItemCollection();
        for (int i = 0; i < renderer.getPlot().getDataset().getRowCount(); i++) {
            LegendItem item = renderer.getLegendItem(0, i);
            item.setLine(new Line2D.Double(-18, 0, 18, 0));
            items.add(item);
        }
        LegendTitle legend = new LegendTitle(() -> items, new GridArrangement(2, 3), new GridArrangement(2, 3));
        legend.setItemFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        legend.setPosition(RectangleEdge.BOTTOM);
        legend.setHorizontalAlignment(HorizontalAlignment.CENTER);
        legend.setFrame(new BlockBorder(Color.LIGHT_GRAY));
        legend.setMargin(new RectangleInsets(8, 0, 6, 0));
        legend.setItemLabelPadding(new RectangleInsets(2, 4, 2, 16));
        return legend;
    }

    /** Colour by engine; dashes for aligned, a solid line for unaligned, dots for alternating; one marker for all. */
    private static LineAndShapeRenderer renderer(DefaultCategoryDataset data) {
        LineAndShapeRenderer r = new LineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getRowCount(); i++) {
            String series = (String) data.getRowKey(i);
            r.setSeriesShape(i, new java.awt.geom.Ellipse2D.Double(-4, -4, 8, 8));
            r.setSeriesPaint(i, series.startsWith("reference") ? REFERENCE : FLINK);
            r.setSeriesStroke(i, series.endsWith("unaligned")
                    ? new BasicStroke(2.5f)
                    : series.endsWith("alternating")
                            ? new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {2f, 4f}, 0f)
                            : new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 5f}, 0f));
        }
        return r;
    }

    static String seriesName(String engine, Mode mode) {
        return (engine.equals(ScenarioRun.FLINK) ? "Flink 2.3.0 " : "reference ") + mode.label();
    }

    private static Double positiveOrNull(Optional<Double> v) {
        return v.filter(x -> !x.isNaN() && x > 0).orElse(null);
    }

    private static Optional<ResultsCsv.Row> find(List<ResultsCsv.Row> rows, String engine, Backpressure b, Mode m) {
        Scenario s = new Scenario(b, true, m);
        return rows.stream().filter(r -> r.engine().equals(engine) && r.scenario().equals(s)).findFirst();
    }
}
