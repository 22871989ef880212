package dev.consistentcut.bench;

import java.util.List;

/**
 * What one engine did in one scenario's measurement window.
 *
 * @param engine "reference" or "flink"
 * @param scenario the grid cell
 * @param seconds the measurement window (after warm-up)
 * @param records records the sink received in the window
 * @param checkpoints the checkpoints triggered and completed inside the window (all of them:
 *     those not read in detail carry NaN start delay and alignment)
 * @param failedCheckpoints checkpoints triggered in the window that failed or were aborted
 */
public record ScenarioRun(
        String engine,
        Scenario scenario,
        double seconds,
        long records,
        List<CheckpointSample> checkpoints,
        int failedCheckpoints) {

    public static final String REFERENCE = "reference";
    public static final String FLINK = "flink";

    public ScenarioRun {
        checkpoints = List.copyOf(checkpoints);
    }

    /** Records per second through the sink. */
    public double throughput() {
        return seconds > 0 ? records / seconds : 0;
    }
}
