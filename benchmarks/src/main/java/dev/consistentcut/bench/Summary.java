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
 *   <li>alternating: a checkpoint stays aligned if its aligned prediction (as above)
 *       is within the alignment timeout, and then costs that; otherwise it switches when the
 *       timeout passes and costs the timeout plus an unaligned checkpoint: the unaligned
 *       prediction of its own persisted bytes (reference), or the measured median of the same
 *       cell's unaligned run (Flink, whose unaligned costs the model cannot predict). Its
 *       predicted persisted size: nothing if it stays aligned, else what the unaligned run of
 *       the cell persisted (median).</li>
 * </ul>
 *
 * @param predictedP50Ms NaN where there is nothing to predict (no checkpoints) or no input for it
 * @param predictionBasis how {@code predictedP50Ms} was made, for the table's footnotes
 * @param predictedPersistedBytesP50 alternating: the predicted persisted in-flight bytes (median);
 *     NaN for the other modes
 * @param unpersistedShare the share of the window's checkpoints that persisted no in-flight data
 *     (records for the reference engine, bytes for Flink); NaN without checkpoints
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
        String predictionBasis,
        double predictedPersistedBytesP50,
        double unpersistedShare) {

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
        double predictedPersisted = Double.NaN;
        String basis = "";
        Mode mode = run.scenario().mode();
        boolean reference = run.engine().equals(ScenarioRun.REFERENCE);
        double unpersisted = c.isEmpty() ? Double.NaN
                : c.stream().filter(s -> reference ? s.persistedRecords() == 0 : s.persistedBytes() == 0).count() / (double) c.size();
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
        } else if (mode == Mode.ALTERNATING && !c.isEmpty() && run.throughput() > 0) {
            double timeout = JobShape.ALIGNED_TIMEOUT.toMillis();
            Optional<ScenarioRun> twin = unalignedTwin(run, all);
            double twinPersisted = twin.filter(t -> !t.checkpoints().isEmpty())
                    .map(t -> Stats.median(Stats.of(t.checkpoints(), CheckpointSample::persistedBytes))).orElse(Double.NaN);
            if (reference && !Double.isNaN(backlog)) {
                double bandwidth = calibration.storeBytesPerSecond();
                double travel = calibration.travelMs(run.scenario().backpressure());
                double throughput = run.throughput();
                predicted = Stats.median(Stats.of(c, s -> {
                    if (s.backlogRecords() < 0) {
                        return Double.NaN; // not sampled: no estimate, not a negative one
                    }
                    double aligned = s.backlogRecords() / throughput * 1000;
                    return aligned <= timeout ? aligned : timeout + s.persistedBytes() / bandwidth * 1000 + travel;
                }));
                double alignedP50 = backlog / throughput * 1000;
                predictedPersisted = alignedP50 <= timeout ? 0 : twinPersisted;
                basis = "aligned estimate if within the timeout; else timeout + persisted bytes / store bandwidth + barrier travel";
            } else if (!reference && twin.isPresent() && !twin.get().checkpoints().isEmpty()) {
                double twinBacklog = twinPersisted / FLINK_RECORD_BYTES;
                double aligned = twinBacklog / run.throughput() * 1000;
                double unalignedP50 = Stats.median(Stats.of(twin.get().checkpoints(), CheckpointSample::durationMs));
                predicted = aligned <= timeout ? aligned : timeout + unalignedP50;
                predictedPersisted = aligned <= timeout ? 0 : twinPersisted;
                basis = "aligned estimate if within the timeout; else timeout + the unaligned run's duration";
            }
        }
        return new Summary(run,
                Stats.median(durations), Stats.percentile(durations, 99), Stats.max(durations),
                Stats.median(Stats.of(c, CheckpointSample::startDelayMs)),
                Stats.median(Stats.of(c, CheckpointSample::alignmentMs)),
                persistedRecords, persistedBytes,
                Stats.median(Stats.of(c, CheckpointSample::sizeBytes)),
                backlog, predicted, basis, predictedPersisted, unpersisted);
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
