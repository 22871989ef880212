package dev.consistentcut.task;

import dev.consistentcut.checkpoint.Acknowledgement;
import java.util.OptionalLong;

/**
 * What a task needs from the checkpoint coordinator and the runtime's clock. Each runtime
 * implements it around its {@link dev.consistentcut.checkpoint.CheckpointCoordinator}: it passes
 * acknowledgements on and, when the coordinator answers {@code ALL_ACKNOWLEDGED}, makes
 * {@code CompleteCheckpoint} happen (the simulation as a step of its own). Implementations must be
 * thread-safe: every task thread of the threaded runtime calls them.
 */
public interface CoordinatorGateway {

    /** The next checkpoint whose barrier source task {@code sourceTask} must inject, if any. */
    OptionalLong nextBarrierFor(String sourceTask);

    /** Hands the coordinator a task's acknowledgement. */
    void acknowledge(Acknowledgement ack);

    /** When checkpoint {@code checkpointId} was triggered, in {@link #now()} units. */
    long triggerTime(long checkpointId);

    /** The runtime's clock: nanoseconds in the threaded runtime, steps in the simulation. */
    long now();
}
