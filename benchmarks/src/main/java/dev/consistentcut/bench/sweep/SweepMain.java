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
 * point of {@link SweepPlan}, aligned and unaligned, under light backpressure with even sources;
 * per run the model's predictions ({@link CostModel}), printed before the run, against the
 * medians measured. Writes sweep.csv and sweep.md. Exit 0 when every run completed checkpoints,
 * 1 when one did not, 2 for bad arguments, 3 when the results cannot be written.
 */
public final class SweepMain {

    static final Backpressure BACKPRESSURE = Backpressure.LIGHT;
    static final List<Mode> MODES = List.of(Mode.ALIGNED, Mode.UNALIGNED);

    /** One run: the point, the mode, what the model said and what was measured. */
    record Row(JobParams point, Mode mode, int checkpoints, double predictedMs, double measuredMs,
               double predictedPersisted, double measuredPersisted, double throughput) {

        String csv() {
            return String.join(",", point.name(), Integer.toString(point.parallelism()), Integer.toString(point.capacity()),
                    Integer.toString(point.effectiveBufferSize()), Integer.toString(point.keys()), mode.label(),
                    Integer.toString(checkpoints), raw(predictedMs), raw(measuredMs), raw(measuredMs / predictedMs),
                    raw(predictedPersisted), raw(measuredPersisted), raw(measuredPersisted / predictedPersisted), raw(throughput));
        }
    }

    static final String CSV_HEADER = "point,parallelism,capacity,buffer_size,keys,mode,checkpoints,predicted_ms,measured_p50_ms,"
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
        List<JobParams> points = SweepPlan.points();
        Duration warmup = Duration.ofSeconds(1);
        Progress progress = new Progress(System.err, System.console() != null, 1 + points.size() * MODES.size(),
                warmup.plus(window).plusSeconds(2).multipliedBy((long) points.size() * MODES.size()).plusSeconds(10));
        Machine machine = Machine.current();
        double loadAtStart = Machine.loadAverage();
        Path tmp = Files.createTempDirectory("consistent-cut-sweep");
        progress.step("calibration");
        Calibration calibration = BenchmarkMain.calibrate(tmp, progress);
        ReferenceBenchmark engine = new ReferenceBenchmark(ReferenceCalibration.storeFactory(tmp.resolve("store")));
        List<Row> rows = new ArrayList<>();
        boolean everyRunCheckpointed = true;
        for (JobParams p : points) {
            for (Mode m : MODES) {
                Scenario s = new Scenario(BACKPRESSURE, false, m);
                double predictedMs = m == Mode.ALIGNED ? CostModel.alignedMs(p, BACKPRESSURE)
                        : CostModel.unalignedMs(p, BACKPRESSURE, calibration);
                double predictedPersisted = m == Mode.ALIGNED ? 0 : CostModel.unalignedPersistedRecords(p);
                progress.step(String.format(Locale.ROOT, "%s %s: predicted %s ms, %s persisted records", p.name(), m.label(),
                        Report.formatNumber(predictedMs), Report.formatNumber(predictedPersisted)));
                ScenarioRun r = engine.run(s, p, warmup, window, progress);
                double measuredMs = Stats.median(Stats.of(r.checkpoints(), CheckpointSample::durationMs));
                double persisted = Stats.median(Stats.of(r.checkpoints(), c -> c.persistedRecords() < 0 ? Double.NaN : c.persistedRecords()));
                Row row = new Row(p, m, r.checkpoints().size(), predictedMs, measuredMs, predictedPersisted, persisted, r.throughput());
                rows.add(row);
                everyRunCheckpointed &= !r.checkpoints().isEmpty();
                progress.note(String.format(Locale.ROOT, "%-22s %-9s measured %s ms (x%s of the prediction), %s persisted records",
                        p.name(), m.label(), Report.formatNumber(measuredMs), Report.formatNumber(measuredMs / predictedMs),
                        Report.formatNumber(persisted)));
            }
        }
        progress.done();
        Files.createDirectories(out);
        StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        rows.forEach(r -> csv.append(r.csv()).append('\n'));
        Files.writeString(out.resolve("sweep.csv"), csv);
        Files.writeString(out.resolve("sweep.md"), markdown(rows, machine, loadAtStart, Machine.loadAverage(), calibration));
        System.err.println("sweep: wrote " + out.resolve("sweep.csv") + " and " + out.resolve("sweep.md"));
        if (!everyRunCheckpointed) {
            System.err.println("sweep: a run completed no checkpoint in its window: its row has no measurement");
            return 1;
        }
        return 0;
    }

    static String markdown(List<Row> rows, Machine machine, double loadAtStart, double loadAtEnd, Calibration c) {
        StringBuilder md = new StringBuilder("### Scaling sweep, ").append(LocalDate.now()).append("\n\n");
        md.append("Machine: ").append(machine.describe()).append(String.format(Locale.ROOT,
                ". One-minute load average %s at the start and %s at the end.%n%n", Report.formatNumber(loadAtStart),
                Report.formatNumber(loadAtEnd)));
        md.append("Reference engine, records serialized, ").append(BACKPRESSURE.label())
                .append(" backpressure, even sources, a checkpoint every 100 ms. Store bandwidth ")
                .append(Report.formatBytes(c.storeBytesPerSecond())).append("/s, barrier travel ")
                .append(Report.formatNumber(c.travelMs(BACKPRESSURE))).append(" ms (calibrated before the sweep). ")
                .append("Predictions (CostModel): aligned 3PC / R, unaligned 3PC records persisted, their bytes over the ")
                .append("bandwidth plus the travel.\n\n");
        md.append("| point | mode | checkpoints | predicted (ms) | measured p50 (ms) | measured / predicted | predicted persisted | measured persisted p50 | measured / predicted |\n");
        md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            boolean aligned = r.mode() == Mode.ALIGNED;
            md.append("| ").append(r.point().name()).append(" | ").append(r.mode().label())
                    .append(" | ").append(r.checkpoints())
                    .append(" | ").append(Report.formatNumber(r.predictedMs()))
                    .append(" | ").append(Report.formatNumber(r.measuredMs()))
                    .append(" | ").append(Report.formatNumber(r.measuredMs() / r.predictedMs()))
                    .append(" | ").append(aligned ? "" : Report.formatNumber(r.predictedPersisted()))
                    .append(" | ").append(aligned ? "" : Report.formatNumber(r.measuredPersisted()))
                    .append(" | ").append(aligned ? "" : Report.formatNumber(r.measuredPersisted() / r.predictedPersisted()))
                    .append(" |\n");
        }
        return md.toString();
    }

    private static String raw(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
    }
}
