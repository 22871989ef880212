package dev.consistentcut.bench.sweep;

import dev.consistentcut.bench.Mode;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * sweep.png (JFreeChart, headless): per point of the sweep, measured over predicted for the
 * aligned duration, the unaligned persisted records and the unaligned duration, as dots around a
 * line at 1 (the model exact). A point without a prediction (no backpressure) has no dots.
 * Stateless.
 */
public final class SweepChart {

    static final String ALIGNED_DURATION = "aligned duration";
    static final String UNALIGNED_PERSISTED = "unaligned persisted records";
    static final String UNALIGNED_DURATION = "unaligned duration";

    private SweepChart() {
    }

    /** The chart's figures: one series per measured-over-predicted ratio, one category per point. */
    static DefaultCategoryDataset dataset(List<SweepMain.Row> rows) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (String series : List.of(ALIGNED_DURATION, UNALIGNED_PERSISTED, UNALIGNED_DURATION)) {
            for (SweepMain.Row r : rows) {
                data.addValue(null, series, r.point().name()); // every point keeps its place on the axis
            }
        }
        for (SweepMain.Row r : rows) {
            String point = r.point().name();
            if (r.mode() == Mode.ALIGNED) {
                data.setValue(finiteOrNull(r.measuredMs() / r.predictedMs()), ALIGNED_DURATION, point);
            } else {
                data.setValue(finiteOrNull(r.measuredPersisted() / r.predictedPersisted()), UNALIGNED_PERSISTED, point);
                data.setValue(finiteOrNull(r.measuredMs() / r.predictedMs()), UNALIGNED_DURATION, point);
            }
        }
        return data;
    }

    public static void write(List<SweepMain.Row> rows, String subtitle, Path png) throws IOException {
        DefaultCategoryDataset data = dataset(rows);
        LineAndShapeRenderer dots = new LineAndShapeRenderer(false, true);
        Color[] colours = {new Color(0x1f77b4), new Color(0x2ca02c), new Color(0xd62728)};
        for (int i = 0; i < colours.length; i++) {
            dots.setSeriesPaint(i, colours[i]);
            dots.setSeriesShape(i, i == 1 ? new Rectangle2D.Double(-4, -4, 8, 8) : new Ellipse2D.Double(-4, -4, 8, 8));
        }
        CategoryAxis points = new CategoryAxis("point (p parallelism, c capacity, b buffer size, k keys; light backpressure unless named)");
        points.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        NumberAxis ratio = new NumberAxis("measured / predicted (median)");
        ratio.setAutoRangeIncludesZero(true);
        CategoryPlot plot = new CategoryPlot(data, points, ratio, dots);
        ValueMarker exact = new ValueMarker(1.0, Color.GRAY, new BasicStroke(1.5f));
        plot.addRangeMarker(exact);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        JFreeChart chart = new JFreeChart("The cost model against the scaling sweep (reference engine, records serialized)",
                new Font(Font.SANS_SERIF, Font.BOLD, 15), plot, true);
        chart.addSubtitle(new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 11)));
        chart.addSubtitle(new TextTitle("1 = the model exact; the model: 3P(C - B/2) records in flight, drained at the sink's rate",
                new Font(Font.SANS_SERIF, Font.PLAIN, 11)));
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 1000, 650);
    }

    private static Double finiteOrNull(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : v;
    }
}
