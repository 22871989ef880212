package dev.consistentcut.runtime;

import dev.consistentcut.annotation.TestSeam;
import dev.consistentcut.task.RunEvent;
import dev.consistentcut.task.RunObserver;
import java.io.UncheckedIOException;
import java.util.function.Consumer;

/**
 * Checkpoints whose store write failed. The coordinator has already aborted such a
 * checkpoint ({@code completeCheckpoint} marks it ABORTED before rethrowing), so in the spec's
 * vocabulary a declined checkpoint is {@code AbortCheckpoint(c)}: it never became restorable, the
 * previous one stays the latest, and the job goes on, as Flink's
 * {@code CheckpointFailureManager} does, up to {@link CheckpointSettings#tolerableFailedCheckpoints()}
 * consecutive failures; one more fails the job with {@link TooManyFailedCheckpointsException}.
 * A completed checkpoint resets the count. Used by the coordinator thread only.
 */
final class DeclinedCheckpoints {

    private final int tolerable;
    private final Consumer<String> progress;
    private final RunObserver observer;
    private int consecutive;
    private int total;

    DeclinedCheckpoints(int tolerable, Consumer<String> progress, RunObserver observer) {
        this.tolerable = tolerable;
        this.progress = progress;
        this.observer = observer;
    }

    /** Checkpoint {@code c} was stored: the failures so far are no longer consecutive. */
    void completed() {
        consecutive = 0;
    }

    /**
     * Checkpoint {@code c}'s store write failed with {@code cause}: reports it, and fails the job
     * when this is one consecutive failure too many.
     */
    void declined(long c, UncheckedIOException cause) {
        consecutive++;
        total++;
        observer.on(new RunEvent.AbortCheckpoint(c));
        String why = cause.getMessage();
        if (consecutive > tolerable) {
            throw new TooManyFailedCheckpointsException(c, consecutive, tolerable, why, cause);
        }
        progress.accept("checkpoint " + c + " declined (aborted; the job goes on): " + why
                + " [" + consecutive + " consecutive failure(s), " + tolerable + " tolerated]");
    }

    @TestSeam
    int total() {
        return total;
    }
}
