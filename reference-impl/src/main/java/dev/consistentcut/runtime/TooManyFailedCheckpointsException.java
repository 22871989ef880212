package dev.consistentcut.runtime;

import java.io.UncheckedIOException;

/**
 * The job failed because more consecutive checkpoint store writes failed than
 * {@link CheckpointSettings#tolerableFailedCheckpoints()} allows. The message says which
 * checkpoint, how many failed in a row, and the last cause (the path and the I/O error).
 */
public final class TooManyFailedCheckpointsException extends RuntimeException {

    private final long checkpoint;

    TooManyFailedCheckpointsException(long checkpoint, int consecutive, int tolerable, String cause,
            UncheckedIOException e) {
        super(consecutive + " consecutive checkpoint(s) failed to be stored, " + tolerable
                + " tolerated (--tolerable-failed-checkpoints); the last, checkpoint " + checkpoint + ": " + cause, e);
        this.checkpoint = checkpoint;
    }

    /** The checkpoint whose failure was one too many. */
    public long checkpoint() {
        return checkpoint;
    }
}
