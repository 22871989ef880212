package dev.consistentcut.bench.sweep;

import dev.consistentcut.bench.Backpressure;
import dev.consistentcut.bench.BenchmarkMain;
import dev.consistentcut.bench.Calibration;
import dev.consistentcut.bench.CheckpointSample;
import dev.consistentcut.bench.JobParams;
import dev.consistentcut.bench.Machine;
import dev.consistentcut.bench.Mode;
import dev.consistentcut.bench.Progress;
import dev.consistentcut.bench.Report;
import dev.consistentcut.bench.Scenario;
import dev.consistentcut.bench.ScenarioRun;
import dev.consistentcut.bench.Stats;
import dev.consistentcut.bench.engine.ReferenceBenchmark;
import dev.consistentcut.bench.engine.ReferenceCalibration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./benchmark.sh --sweep}: the demo job on the reference engine (serializing) at each
 * point of {@link SweepPlan}, aligned and unaligned, with even sources; per run the model's
 * predictions ({@link CostModel}), printed before the run, against the medians measured. Under
 * heavy backpressure the window is three times as long (an aligned checkpoint takes seconds).
 * Writes sweep.csv, sweep.md and sweep.png ({@link SweepChart}). Exit 0 when every run completed
 * checkpoints, 1 when one did not, 2 for bad arguments, 3 when the results cannot be written.
 */
public final class SweepMain {

    static final List<Mode> MODES = List.of(Mode.ALIGNED, Mode.UNALIGNED);

    /** One run: the point, the mode, what the model said and what was measured. */
    record Row(SweepPlan.Point point, Mode mode, int checkpoints, double predictedMs, double measuredMs,
               double predictedPersisted, double measuredPersisted, double throughput) {

        String csv() {
            JobParams p = point.params();
            return String.join(",", point.name(), point.backpressure().label(), Integer.toString(p.parallelism()),
                    Integer.toString(p.capacity()), Integer.toString(p.effectiveBufferSize()), Integer.toString(p.keys()), mode.label(),
                    Integer.toString(checkpoints), raw(predictedMs), raw(measuredMs), raw(measuredMs / predictedMs),
                    raw(predictedPersisted), raw(measuredPersisted), raw(measuredPersisted / predictedPersisted), raw(throughput));
        }
    }

    static final String CSV_HEADER = "point,backpressure,parallelism,capacity,buffer_size,keys,mode,checkpoints,predicted_ms,measured_p50_ms,"
            + "measured_over_predicted,predicted_persisted_records,measured_persisted_records_p50,persisted_measured_over_predicted,throughput_rps";

    public static void main(String[] args) {
        Path out = Path.of("benchmarks/results/sweep");
        Duration window = Duration.ofSeconds(5);
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--out" -> out = Path.of(value(args, ++i));
                    case "--window-s" -> window = Duration.ofSeconds(Long.parseLong(value(args, ++i)));
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("sweep: " + e.getMessage());
            System.exit(2);
        }
        try {
            System.exit(run(out, window));
        } catch (IOException e) {
            System.err.println("sweep: cannot write the results: " + e.getMessage());
            System.exit(3);
        } catch (Exception e) {
            System.err.println("sweep: " + e.getMessage());
            System.exit(1);
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    static int run(Path out, Duration window) throws Exception {
        List<SweepPlan.Point> points = SweepPlan.points();
        Duration warmup = Duration.ofSeconds(1);
        Duration planned = Duration.ofSeconds(10);
        for (SweepPlan.Point p : points) {
            planned = planned.plus(warmup.plus(window(p, window)).plusSeconds(2).multipliedBy(MODES.size()));
        }
        Progress progress = new Progress(System.err, System.console() != null, 1 + points.size() * MODES.size(), planned);
        Machine machine = Machine.current();
        double loadAtStart = Machine.loadAverage();
        Path tmp = Files.createTempDirectory("consistent-cut-sweep");
        progress.step("calibration");
        Calibration calibration = BenchmarkMain.calibrate(tmp, progress);
        ReferenceBenchmark engine = new ReferenceBenchmark(ReferenceCalibration.storeFactory(tmp.resolve("store")));
        List<Row> rows = new ArrayList<>();
        boolean everyRunCheckpointed = true;
        for (SweepPlan.Point point : points) {
            JobParams p = point.params();
            Backpressure b = point.backpressure();
            boolean modelled = b != Backpressure.NONE;
            for (Mode m : MODES) {
                Scenario s = new Scenario(b, false, m);
                double predictedMs = !modelled ? Double.NaN : m == Mode.ALIGNED ? CostModel.alignedMs(p, b)
                        : CostModel.unalignedMs(p, b, calibration);
                double predictedPersisted = m == Mode.ALIGNED ? 0 : modelled ? CostModel.unalignedPersistedRecords(p) : Double.NaN;
                progress.step(modelled
                        ? String.format(Locale.ROOT, "%s %s: predicted %s ms, %s persisted records", point.name(), m.label(),
                                Report.formatNumber(predictedMs), Report.formatNumber(predictedPersisted))
                        : point.name() + " " + m.label() + ": no prediction (no backpressure)");
                ScenarioRun r = engine.run(s, p, warmup, window(point, window), progress);
                double measuredMs = Stats.median(Stats.of(r.checkpoints(), CheckpointSample::durationMs));
                double persisted = Stats.median(Stats.of(r.checkpoints(), c -> c.persistedRecords() < 0 ? Double.NaN : c.persistedRecords()));
                Row row = new Row(point, m, r.checkpoints().size(), predictedMs, measuredMs, predictedPersisted, persisted, r.throughput());
                rows.add(row);
                everyRunCheckpointed &= !r.checkpoints().isEmpty();
                progress.note(String.format(Locale.ROOT, "%-28s %-9s measured %s ms (x%s of the prediction), %s persisted records",
                        point.name(), m.label(), Report.formatNumber(measuredMs), Report.formatNumber(measuredMs / predictedMs),
                        Report.formatNumber(persisted)));
            }
        }
        progress.done();
        Files.createDirectories(out);
        StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        rows.forEach(r -> csv.append(r.csv()).append('\n'));
        Files.writeString(out.resolve("sweep.csv"), csv);
        Files.writeString(out.resolve("sweep.md"), markdown(rows, machine, loadAtStart, Machine.loadAverage(), calibration));
        SweepChart.write(rows, machine.describe(), out.resolve("sweep.png"));
        System.err.println("sweep: wrote " + out.resolve("sweep.csv") + ", " + out.resolve("sweep.md") + " and " + out.resolve("sweep.png"));
        if (!everyRunCheckpointed) {
            System.err.println("sweep: a run completed no checkpoint in its window: its row has no measurement");
            return 1;
        }
        return 0;
    }

    /** The measurement window of {@code p}: three times {@code window} under heavy backpressure. */
    static Duration window(SweepPlan.Point p, Duration window) {
        return p.backpressure() == Backpressure.HEAVY ? window.multipliedBy(3) : window;
    }

    static String markdown(List<Row> rows, Machine machine, double loadAtStart, double loadAtEnd, Calibration c) {
        StringBuilder md = new StringBuilder("### Scaling sweep, ").append(LocalDate.now()).append("\n\n");
        md.append("Machine: ").append(machine.describe()).append(String.format(Locale.ROOT,
                ". One-minute load average %s at the start and %s at the end.%n%n", Report.formatNumber(loadAtStart),
                Report.formatNumber(loadAtEnd)));
        md.append("Reference engine, records serialized, even sources, a checkpoint every 100 ms; light backpressure")
                .append(" unless the point's name says heavy or none. Store bandwidth ")
                .append(Report.formatBytes(c.storeBytesPerSecond())).append("/s, barrier travel ")
                .append(Report.formatNumber(c.travelMs(Backpressure.LIGHT))).append(" ms (light) and ")
                .append(Report.formatNumber(c.travelMs(Backpressure.HEAVY))).append(" ms (heavy), calibrated before the sweep. ")
                .append("Predictions (CostModel): 3P(C - B/2) records in flight; aligned: those over the sink's rate; unaligned:")
                .append(" those persisted, their bytes over the bandwidth plus the travel. No prediction without backpressure.\n\n");
        md.append("| point | mode | checkpoints | predicted (ms) | measured p50 (ms) | measured / predicted | predicted persisted | measured persisted p50 | measured / predicted |\n");
        md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            boolean aligned = r.mode() == Mode.ALIGNED;
            md.append("| ").append(r.point().name()).append(" | ").append(r.mode().label())
                    .append(" | ").append(r.checkpoints())
                    .append(" | ").append(number(r.predictedMs()))
                    .append(" | ").append(number(r.measuredMs()))
                    .append(" | ").append(number(r.measuredMs() / r.predictedMs()))
                    .append(" | ").append(aligned ? "" : number(r.predictedPersisted()))
                    .append(" | ").append(aligned ? "" : number(r.measuredPersisted()))
                    .append(" | ").append(aligned ? "" : number(r.measuredPersisted() / r.predictedPersisted()))
                    .append(" |\n");
        }
        return md.toString();
    }

    /** A figure of the table, or "-" where there is none (no prediction, no checkpoint). */
    private static String number(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : Report.formatNumber(v);
    }

    private static String raw(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
    }
}
