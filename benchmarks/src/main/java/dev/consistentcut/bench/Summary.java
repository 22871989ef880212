package dev.consistentcut.bench;

import java.util.List;
import java.util.Optional;

/**
 * One row of the results: a scenario run reduced to its figures, with the prediction of its
 * checkpoint duration next to the measurement.
 *
 * <p>The predictions (medians over the window's checkpoints, in milliseconds):
 * <ul>
 *   <li>aligned: the backlog ahead of the barrier divided by the drain rate. The backlog is the
 *       number of records queued in the job's channels when the checkpoint was triggered (every
 *       one of them reaches the sink before the sink's barrier does); the drain rate is the
 *       scenario's measured sink throughput. Flink's queues cannot be read from outside, so its
 *       backlog is estimated from the same cell's unaligned run: the records an unaligned barrier
 *       overtook (its persisted bytes over 32 bytes per record) are the records an aligned
 *       barrier waits behind.</li>
 *   <li>unaligned: the persisted bytes divided by the store's write bandwidth, plus the
 *       barrier's travel time through the job's hops (both from {@link Calibration}). For the
 *       reference engine only: both constants are calibrated on its own store and channels, and
 *       Flink's unaligned checkpoints are dominated by fixed costs (RPCs, its metadata file, a
 *       start delay of several milliseconds) that this model has no term for.</li>
 * </ul>
 *
 * @param predictedP50Ms NaN where there is nothing to predict (no checkpoints) or no input for it
 * @param predictionBasis how {@code predictedP50Ms} was made, for the table's footnotes
 */
public record Summary(
        ScenarioRun run,
        double durationP50Ms,
        double durationP99Ms,
        double durationMaxMs,
        double startDelayP50Ms,
        double alignmentP50Ms,
        double persistedRecordsP50,
        double persistedBytesP50,
        double sizeBytesP50,
        double backlogRecordsP50,
        double predictedP50Ms,
        String predictionBasis) {

    /** Serialized bytes of one record on Flink's wire, for its backlog estimate. */
    static final int FLINK_RECORD_BYTES = 32;

    public Scenario scenario() {
        return run.scenario();
    }

    public String engine() {
        return run.engine();
    }

    /** Measured over predicted median duration; NaN where there is no prediction. */
    public double ratio() {
        return durationP50Ms / predictedP50Ms;
    }

    public static Summary of(ScenarioRun run, Calibration calibration, List<ScenarioRun> all) {
        List<CheckpointSample> c = run.checkpoints();
        double[] durations = Stats.of(c, CheckpointSample::durationMs);
        double persistedRecords = Stats.median(Stats.of(c, s -> s.persistedRecords() < 0 ? Double.NaN : s.persistedRecords()));
        double persistedBytes = Stats.median(Stats.of(c, CheckpointSample::persistedBytes));
        double backlog = Stats.median(Stats.of(c, s -> s.backlogRecords() < 0 ? Double.NaN : s.backlogRecords()));
        double predicted = Double.NaN;
        String basis = "";
        Mode mode = run.scenario().mode();
        if (mode == Mode.ALIGNED && !c.isEmpty() && run.throughput() > 0) {
            if (!Double.isNaN(backlog)) {
                predicted = backlog / run.throughput() * 1000;
                basis = "queued records at trigger / sink rate";
            } else {
                Optional<ScenarioRun> twin = unalignedTwin(run, all);
                if (twin.isPresent() && !twin.get().checkpoints().isEmpty()) {
                    backlog = Stats.median(Stats.of(twin.get().checkpoints(), CheckpointSample::persistedBytes)) / FLINK_RECORD_BYTES;
                    predicted = backlog / run.throughput() * 1000;
                    basis = "records the unaligned run persisted / sink rate";
                }
            }
        } else if (mode == Mode.UNALIGNED && !c.isEmpty() && run.engine().equals(ScenarioRun.REFERENCE)) {
            double bandwidth = calibration.storeBytesPerSecond();
            double travel = calibration.travelMs(run.scenario().backpressure());
            predicted = Stats.median(Stats.of(c, s -> s.persistedBytes() / bandwidth * 1000 + travel));
            basis = "persisted bytes / store bandwidth + barrier travel";
        }
        return new Summary(run,
                Stats.median(durations), Stats.percentile(durations, 99), Stats.max(durations),
                Stats.median(Stats.of(c, CheckpointSample::startDelayMs)),
                Stats.median(Stats.of(c, CheckpointSample::alignmentMs)),
                persistedRecords, persistedBytes,
                Stats.median(Stats.of(c, CheckpointSample::sizeBytes)),
                backlog, predicted, basis);
    }

    /** The unaligned run of the same engine, backpressure and skew. */
    private static Optional<ScenarioRun> unalignedTwin(ScenarioRun run, List<ScenarioRun> all) {
        Scenario s = run.scenario();
        return all.stream()
                .filter(r -> r.engine().equals(run.engine())
                        && r.scenario().equals(new Scenario(s.backpressure(), s.skew(), Mode.UNALIGNED)))
                .findFirst();
    }
}
