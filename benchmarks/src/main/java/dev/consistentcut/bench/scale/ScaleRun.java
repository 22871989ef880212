package dev.consistentcut.bench.scale;

import dev.consistentcut.bench.Stats;
import java.util.List;
import java.util.Locale;

/**
 * One run of the sweep: a row of scale.csv. Immutable.
 *
 * @param point the series and records per source
 * @param repeat which repeat (from 1)
 * @param wallMs the child JVM's wall time, start to exit (the checks after the job included)
 * @param cpuMs the child JVM's CPU time, user + system (NaN where not known)
 * @param jobMs the job's elapsed time as the run printed it
 * @param checkpoints completed checkpoints
 * @param durationMedianMs median checkpoint duration (NaN without a checkpoint)
 * @param durationMaxMs longest checkpoint duration (NaN without a checkpoint)
 * @param lastId the newest retained checkpoint
 * @param lastBytes what it wrote: its private file plus the shared files it uploaded
 * @param lastPrivateBytes its private file alone
 * @param retained how many checkpoints the store retained
 * @param retainedMedianBytes the median of what the retained checkpoints wrote each
 * @param exitCode the run's exit code
 * @param verdict the run's verdict
 */
public record ScaleRun(Point point, int repeat, double wallMs, double cpuMs, double jobMs, int checkpoints, double durationMedianMs,
        double durationMaxMs, long lastId, long lastBytes, long lastPrivateBytes, int retained, double retainedMedianBytes, int exitCode,
        String verdict) {

    static final String CSV_HEADER = "series,records,repeat,wall_ms,time_per_record_us,cpu_ms,cpu_per_record_us,job_ms,checkpoints,"
            + "duration_median_ms,duration_max_ms,last_checkpoint,last_checkpoint_bytes,last_private_bytes,retained,retained_median_bytes,exit_code,verdict";

    /** The row of one run from what the run and inspect printed. */
    static ScaleRun of(Point point, int repeat, Launcher.Launched run, RunOutput output, InspectOutput inspect) {
        double[] durations = output.durationsMs().stream().mapToDouble(Double::doubleValue).toArray();
        InspectOutput.Written last = inspect.last();
        return new ScaleRun(point, repeat, run.wallNanos() / 1e6, run.cpuNanos() < 0 ? Double.NaN : run.cpuNanos() / 1e6,
                output.elapsedMs(), output.checkpointsCompleted(),
                Stats.median(durations), Stats.max(durations), last.id(), last.bytes(), last.privateBytes(),
                inspect.checkpoints().size(), inspect.medianBytes(), run.exitCode(), output.verdict());
    }

    /** Wall time per record of the job: two sources of {@code records} each. */
    public double timePerRecordUs() {
        return wallMs * 1000 / (2.0 * point.records());
    }

    /** CPU time per record, as {@link #timePerRecordUs} for wall time. */
    public double cpuPerRecordUs() {
        return cpuMs * 1000 / (2.0 * point.records());
    }

    String csvLine() {
        return String.format(Locale.ROOT, "%s,%d,%d,%.1f,%.3f,%.1f,%.3f,%.1f,%d,%.3f,%.3f,%d,%d,%d,%d,%.0f,%d,%s",
                point.series(), point.records(), repeat, wallMs, timePerRecordUs(), cpuMs, cpuPerRecordUs(), jobMs, checkpoints, durationMedianMs,
                durationMaxMs, lastId, lastBytes, lastPrivateBytes, retained, retainedMedianBytes, exitCode, verdict);
    }

    static String csv(List<ScaleRun> runs) {
        StringBuilder out = new StringBuilder(CSV_HEADER).append('\n');
        runs.forEach(r -> out.append(r.csvLine()).append('\n'));
        return out.toString();
    }
}
