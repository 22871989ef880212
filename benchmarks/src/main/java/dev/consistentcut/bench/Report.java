package dev.consistentcut.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Renders a run's figures as CSV (every field, machine-readable) and as the Markdown the README
 * shows (the same figures, rounded, with the machine, the calibration, the targets and the
 * reference/Flink ratios). Stateless apart from its inputs.
 */
public final class Report {

    /** Everything a report shows. {@code micro} may be empty (JMH skipped). */
    public record Inputs(
            String title,
            Machine machine,
            double loadAtStart,
            double loadAtEnd,
            Calibration calibration,
            List<Summary> rows,
            List<Targets.Verdict> verdicts,
            List<MicroResult> micro,
            String chartFile) {
    }

    /** One JMH result line. */
    public record MicroResult(String benchmark, String params, double score, double error, String unit) {
    }

    static final List<String> CSV_HEADER = List.of(
            "engine", "backpressure", "skew", "mode", "window_s", "throughput_rps", "checkpoints", "failed",
            "duration_p50_ms", "duration_p99_ms", "duration_max_ms", "start_delay_p50_ms", "alignment_p50_ms",
            "persisted_records_p50", "persisted_bytes_p50", "checkpoint_bytes_p50", "backlog_records_p50",
            "predicted_p50_ms", "measured_over_predicted", "prediction_basis",
            "rounds", "round_throughput_min_rps", "round_throughput_max_rps",
            "predicted_persisted_bytes_p50", "share_without_inflight_data", "cpu_per_record_us");

    private Report() {
    }

    public static String csv(List<Summary> rows) {
        StringBuilder out = new StringBuilder(String.join(",", CSV_HEADER)).append('\n');
        for (Summary s : rows) {
            ScenarioRun r = s.run();
            List<String> f = List.of(
                    r.engine(), s.scenario().backpressure().label(), s.scenario().skew() ? "on" : "off",
                    s.scenario().mode().label(), raw(r.seconds()), raw(r.throughput()),
                    Integer.toString(r.checkpoints().size()), Integer.toString(r.failedCheckpoints()),
                    raw(s.durationP50Ms()), raw(s.durationP99Ms()), raw(s.durationMaxMs()),
                    raw(s.startDelayP50Ms()), raw(s.alignmentP50Ms()),
                    raw(s.persistedRecordsP50()), raw(s.persistedBytesP50()), raw(s.sizeBytesP50()),
                    raw(s.backlogRecordsP50()), raw(s.predictedP50Ms()), raw(s.ratio()),
                    s.predictionBasis(), Integer.toString(r.roundThroughputs().size()),
                    raw(Collections.min(r.roundThroughputs())), raw(Collections.max(r.roundThroughputs())),
                    raw(s.predictedPersistedBytesP50()), raw(s.unpersistedShare()), raw(r.cpuMicrosPerRecord()));
            out.append(String.join(",", f)).append('\n');
        }
        return out.toString();
    }

    public static String markdown(Inputs in) {
        StringBuilder md = new StringBuilder();
        md.append("### ").append(in.title()).append("\n\n");
        md.append("Machine: ").append(in.machine().describe()).append(". ");
        md.append(String.format(Locale.ROOT, "One-minute load average %s at the start and %s at the end of the run",
                formatNumber(in.loadAtStart()), formatNumber(in.loadAtEnd())));
        md.append(in.loadAtStart() > 1 || in.loadAtEnd() > 3
                ? " (the benchmark itself keeps about two to three threads busy; a higher figure means other work shared the machine).\n\n"
                : ".\n\n");
        if (in.chartFile() != null) {
            md.append("![Checkpoint duration and persisted bytes against backpressure](").append(in.chartFile()).append(")\n\n");
        }
        md.append("#### Targets (reference engine)\n\n| target | measured | verdict |\n| --- | --- | --- |\n");
        for (Targets.Verdict v : in.verdicts()) {
            md.append("| ").append(v.target()).append(" | ").append(v.measured()).append(" | ").append(v.status()).append(" |\n");
        }
        for (String engine : List.of(ScenarioRun.REFERENCE, ScenarioRun.REFERENCE_OBJECTS, ScenarioRun.FLINK, ScenarioRun.FLINK_REUSE)) {
            if (in.rows().stream().noneMatch(s -> s.engine().equals(engine))) {
                continue;
            }
            md.append("\n#### ").append(switch (engine) {
                case ScenarioRun.FLINK -> "Apache Flink 2.3.0 (MiniCluster)";
                case ScenarioRun.FLINK_REUSE -> "Apache Flink 2.3.0 (MiniCluster) with object reuse, no backpressure and no checkpoints only";
                case ScenarioRun.REFERENCE_OBJECTS -> "Reference engine handing record objects over (no serialization), no backpressure and no checkpoints only";
                default -> "Reference engine (threaded runtime, records serialized into its buffers)";
            }).append("\n\n");
            md.append("| backpressure | skew | mode | records/s (rounds' range) | CPU per record (us) | checkpoints | duration p50 / p99 / max (ms) | start delay p50 (ms) | alignment p50 (ms) | persisted records p50 | persisted bytes p50 | checkpoint size p50 | predicted p50 (ms) | measured / predicted |\n");
            md.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
            for (Summary s : in.rows()) {
                if (!s.engine().equals(engine)) {
                    continue;
                }
                boolean cp = s.scenario().mode().checkpoints();
                md.append("| ").append(s.scenario().backpressure().label())
                        .append(" | ").append(s.scenario().skew() ? "on" : "off")
                        .append(" | ").append(s.scenario().mode().label())
                        .append(" | ").append(throughput(s.run()))
                        .append(" | ").append(formatNumber(s.run().cpuMicrosPerRecord()))
                        .append(" | ").append(cp ? s.run().checkpoints().size() + failed(s) : "")
                        .append(" | ").append(cp ? formatNumber(s.durationP50Ms()) + " / " + formatNumber(s.durationP99Ms()) + " / " + formatNumber(s.durationMaxMs()) : "")
                        .append(" | ").append(cp ? formatNumber(s.startDelayP50Ms()) : "")
                        .append(" | ").append(cp ? formatNumber(s.alignmentP50Ms()) : "")
                        .append(" | ").append(cp ? formatNumber(s.persistedRecordsP50()) : "")
                        .append(" | ").append(cp ? formatBytes(s.persistedBytesP50()) : "")
                        .append(" | ").append(cp ? formatBytes(s.sizeBytesP50()) : "")
                        .append(" | ").append(cp ? formatNumber(s.predictedP50Ms()) : "")
                        .append(" | ").append(cp ? formatNumber(s.ratio()) : "")
                        .append(" |\n");
            }
        }
        md.append("\n#### Alternating (aligned, switching to unaligned after ").append(JobShape.ALIGNED_TIMEOUT.toMillis())
                .append(" ms)\n\n| engine | backpressure | skew | duration p50 (ms) | predicted p50 (ms) | measured / predicted | persisted bytes p50 | predicted persisted p50 | checkpoints without in-flight data |\n"
                        + "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Summary s : in.rows()) {
            if (s.scenario().mode() != Mode.ALTERNATING) {
                continue;
            }
            md.append("| ").append(s.engine())
                    .append(" | ").append(s.scenario().backpressure().label())
                    .append(" | ").append(s.scenario().skew() ? "on" : "off")
                    .append(" | ").append(formatNumber(s.durationP50Ms()))
                    .append(" | ").append(formatNumber(s.predictedP50Ms()))
                    .append(" | ").append(formatNumber(s.ratio()))
                    .append(" | ").append(formatBytes(s.persistedBytesP50()))
                    .append(" | ").append(formatBytes(s.predictedPersistedBytesP50()))
                    .append(" | ").append(Double.isNaN(s.unpersistedShare()) ? "n/a"
                            : String.format(Locale.ROOT, "%.0f%% of %d", s.unpersistedShare() * 100, s.run().checkpoints().size()))
                    .append(" |\n");
        }
        md.append("\n#### Reference engine / Flink\n\n| backpressure | skew | mode | throughput | CPU per record | checkpoint duration p50 | persisted bytes p50 | throughput / Flink with object reuse |\n| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
        for (Summary r : in.rows()) {
            if (!r.engine().equals(ScenarioRun.REFERENCE)) {
                continue;
            }
            Optional<Summary> f = in.rows().stream()
                    .filter(x -> x.engine().equals(ScenarioRun.FLINK) && x.scenario().equals(r.scenario())).findFirst();
            if (f.isEmpty()) {
                continue;
            }
            boolean cp = r.scenario().mode().checkpoints();
            boolean persists = r.scenario().mode() == Mode.UNALIGNED || r.scenario().mode() == Mode.ALTERNATING;
            md.append("| ").append(r.scenario().backpressure().label())
                    .append(" | ").append(r.scenario().skew() ? "on" : "off")
                    .append(" | ").append(r.scenario().mode().label())
                    .append(" | ").append(formatNumber(r.run().throughput() / f.get().run().throughput()))
                    .append(" | ").append(formatNumber(r.run().cpuMicrosPerRecord() / f.get().run().cpuMicrosPerRecord()))
                    .append(" | ").append(cp ? formatNumber(r.durationP50Ms() / f.get().durationP50Ms()) : "")
                    .append(" | ").append(persists ? formatNumber(r.persistedBytesP50() / f.get().persistedBytesP50()) : "")
                    .append(" | ").append(in.rows().stream()
                            .filter(x -> x.engine().equals(ScenarioRun.FLINK_REUSE) && x.scenario().equals(r.scenario()))
                            .findFirst().map(x -> formatNumber(r.run().throughput() / x.run().throughput())).orElse(""))
                    .append(" |\n");
        }
        Calibration c = in.calibration();
        md.append("\nCalibration of the reference engine, measured in the same run: its directory store writes ")
                .append(formatBytes(c.storeBytesPerSecond())).append("/s (a whole unaligned checkpoint under backpressure: encode, write, fsync, rename, pointer); "
                        + "an overtaking barrier crosses the three hops in ");
        List<String> travel = new ArrayList<>();
        for (Backpressure b : Backpressure.values()) {
            if (c.barrierTravelMs().containsKey(b)) {
                travel.add(formatNumber(c.travelMs(b)) + " ms (" + b.label() + " backpressure)");
            }
        }
        md.append(String.join(", ", travel)).append(".\n");
        md.append("Predictions: aligned = backlog ahead of the barrier / drain rate (reference engine: records queued in its channels at the trigger; "
                + "Flink: estimated from the records its unaligned run persisted, 32 bytes each); unaligned (reference engine only) = persisted bytes / store bandwidth + barrier travel.\n");
        if (!in.micro().isEmpty()) {
            md.append("\n#### Microbenchmarks (JMH 1.37)\n\n| benchmark | parameters | score | error (99.9%) | unit |\n| --- | --- | ---: | ---: | --- |\n");
            for (MicroResult m : in.micro()) {
                md.append("| ").append(m.benchmark()).append(" | ").append(m.params()).append(" | ")
                        .append(formatNumber(m.score())).append(" | ").append(formatNumber(m.error())).append(" | ")
                        .append(m.unit()).append(" |\n");
            }
        }
        md.append(limits(in.rows(), in.micro()));
        return md.toString();
    }

    /** The single-thread pipeline's score (records per microsecond), the operators alone. */
    static final String PIPELINE_LIMIT = "PipelineLimitBenchmark.singleThreadPipeline";
    /** The serializing engine's goal: at least the single-thread pipeline's throughput divided by this. */
    static final double PIPELINE_GOAL_FACTOR = 3;
    /** The bare ring's consumer side (records per microsecond), a hand-off per record. */
    static final String RAW_HAND_OFF = "RawHandOffBenchmark.rawHandOff:poll";

    /**
     * The reference engine's throughput without backpressure and without checkpoints over the
     * physical limits the microbenchmarks measured in the same run: the job's operators in one
     * thread, and a bare hand-off between two threads. Empty if the run has either side missing.
     */
    static String limits(List<Summary> rows, List<MicroResult> micro) {
        Optional<MicroResult> pipeline = micro.stream().filter(m -> m.benchmark().equals(PIPELINE_LIMIT)).findFirst();
        Optional<MicroResult> handOff = micro.stream()
                .filter(m -> m.benchmark().equals(RAW_HAND_OFF) && m.params().contains("capacity=" + JobShape.CHANNEL_CAPACITY))
                .findFirst();
        List<Summary> engine = rows.stream()
                .filter(s -> (s.engine().equals(ScenarioRun.REFERENCE) || s.engine().equals(ScenarioRun.REFERENCE_OBJECTS))
                        && s.scenario().backpressure() == Backpressure.NONE
                        && s.scenario().mode() == Mode.NONE)
                .toList();
        if (pipeline.isEmpty() || handOff.isEmpty() || engine.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("\n#### The reference engine against the physical limit\n\n"
                + "| engine | skew | engine records/s | single-thread pipeline records/s | engine / pipeline | raw hand-off records/s | engine / hand-off |\n"
                + "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
        double pipelineRate = pipeline.get().score() * 1e6;
        double handOffRate = handOff.get().score() * 1e6;
        for (Summary s : engine) {
            double rate = s.run().throughput();
            md.append("| ").append(s.engine())
                    .append(" | ").append(s.scenario().skew() ? "on" : "off")
                    .append(" | ").append(formatNumber(rate))
                    .append(" | ").append(formatNumber(pipelineRate))
                    .append(" | ").append(formatNumber(rate / pipelineRate))
                    .append(" | ").append(formatNumber(handOffRate))
                    .append(" | ").append(formatNumber(rate / handOffRate))
                    .append(" |\n");
        }
        engine.stream().filter(s -> s.engine().equals(ScenarioRun.REFERENCE)).forEach(s -> md.append(String.format(Locale.ROOT,
                "\nGoal, the engine within %.0fx of the single-thread pipeline (skew %s): %s.\n", PIPELINE_GOAL_FACTOR,
                s.scenario().skew() ? "on" : "off",
                s.run().throughput() * PIPELINE_GOAL_FACTOR >= pipelineRate ? "met" : "missed")));
        md.append("\nThe pipeline runs the job's operators in one thread with no channels (" + PIPELINE_LIMIT
                + "); the hand-off is a bare bounded ring between two threads, a fresh record per hand-off (" + RAW_HAND_OFF
                + ", capacity " + JobShape.CHANNEL_CAPACITY + "). Engine figures: no backpressure, no checkpoints, pooled rounds.\n");
        return md.toString();
    }

    /** Records per second; for a run of several rounds, the pooled figure and the rounds' range. */
    static String throughput(ScenarioRun r) {
        String pooled = formatNumber(r.throughput());
        if (r.roundThroughputs().size() < 2) {
            return pooled;
        }
        return pooled + " (" + formatNumber(Collections.min(r.roundThroughputs())) + " to "
                + formatNumber(Collections.max(r.roundThroughputs())) + ")";
    }

    private static String failed(Summary s) {
        return s.run().failedCheckpoints() > 0 ? " (+" + s.run().failedCheckpoints() + " failed)" : "";
    }

    /** A figure for people: thousands separated above 1,000, three significant digits below. */
    public static String formatNumber(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1 || a == 0) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    public static String formatBytes(double bytes) {
        if (Double.isNaN(bytes)) {
            return "n/a";
        }
        String[] units = {"B", "KB", "MB", "GB"};
        int u = 0;
        while (Math.abs(bytes) >= 1024 && u < units.length - 1) {
            bytes /= 1024;
            u++;
        }
        return (u == 0 ? String.format(Locale.ROOT, "%.0f", bytes) : formatNumber(bytes)) + " " + units[u];
    }

    private static String raw(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6g", v);
    }
}
