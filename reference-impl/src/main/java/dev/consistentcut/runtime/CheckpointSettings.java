package dev.consistentcut.runtime;

import static dev.consistentcut.runtime.Settings.requireAtLeast;
import static dev.consistentcut.runtime.Settings.requireProbability;

import dev.consistentcut.checkpoint.CheckpointStore;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the coordinator side ({@link CheckpointDriver}) of either runtime reads: how checkpoints
 * are triggered, timed out, stored, declined and failed after. Time-valued settings are in the
 * runtime's clock unit: simulation steps in {@link SimulationRuntime}, nanoseconds in
 * {@link ThreadedRuntime}. Immutable; built by {@link RunOptions#builder()}, whose setters
 * document the defaults.
 *
 * @param checkpointInterval least time between two triggers (0: any time); the runtimes schedule triggers by it
 * @param checkpointTimeout a pending checkpoint older than this is aborted (0: never)
 * @param maxConcurrentAligned checkpoints in flight at once in aligned mode (unaligned: always 1)
 * @param failAfterCheckpoint one failure right after the {@code n}-th completed checkpoint (0: none)
 * @param storeFactory the checkpoint store (called once per runtime)
 * @param tolerableFailedCheckpoints consecutive checkpoints whose store write may fail (each
 *     is declined, i.e. aborted, and the job goes on) before the next failure fails the job with
 *     {@link TooManyFailedCheckpointsException} (Flink's tolerable-failed-checkpoints)
 * @param abortsReachTasks aborted checkpoints leave flight at once and tasks are notified (see the builder)
 * @param endOfInput sources end their partitions and the run goes to the end of its input (see the builder)
 * @param savepointEvery alternating mode: every {@code n}-th triggered checkpoint is a savepoint,
 *     forced aligned (0: none)
 * @param declineProbability chance that an operator task declines a checkpoint when its first
 *     barrier of it arrives ({@code DeclineCheckpoint}: the task cannot take part, the coordinator
 *     aborts it; see the builder)
 */
public record CheckpointSettings(
        long checkpointInterval,
        long checkpointTimeout,
        int maxConcurrentAligned,
        int failAfterCheckpoint,
        Supplier<CheckpointStore> storeFactory,
        int tolerableFailedCheckpoints,
        boolean abortsReachTasks,
        boolean endOfInput,
        int savepointEvery,
        double declineProbability) {

    public CheckpointSettings {
        Objects.requireNonNull(storeFactory, "storeFactory");
        requireProbability("declineProbability", declineProbability);
        requireAtLeast("checkpointInterval", checkpointInterval, 0);
        requireAtLeast("checkpointTimeout", checkpointTimeout, 0);
        requireAtLeast("maxConcurrentAligned", maxConcurrentAligned, 1);
        requireAtLeast("failAfterCheckpoint", failAfterCheckpoint, 0);
        requireAtLeast("tolerableFailedCheckpoints", tolerableFailedCheckpoints, 0);
        requireAtLeast("savepointEvery", savepointEvery, 0);
    }

    /** Whether the {@code n}-th triggered checkpoint (from 1) is a savepoint. */
    public boolean isSavepoint(long n) {
        return savepointEvery > 0 && n % savepointEvery == 0;
    }
}
