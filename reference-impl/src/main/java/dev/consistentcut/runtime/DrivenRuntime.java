package dev.consistentcut.runtime;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.SourceTask;

/**
 * What both runtimes show of their {@link CheckpointDriver}, for tests, the CLI and trace
 * recorders. The threaded runtime's tasks and channels are for inspection after {@code run()}
 * returned, or by a trace recorder inside a step.
 */
abstract sealed class DrivenRuntime implements JobRuntime permits SimulationRuntime, ThreadedRuntime {

    /** The runtime's coordinator side. */
    abstract CheckpointDriver driver();

    public CheckpointCoordinator coordinator() {
        return driver().coordinator;
    }

    public SourceTask sourceTask(String id) {
        return driver().sourceTask(id);
    }

    public OperatorTask operatorTask(String id) {
        return driver().operatorTask(id);
    }

    public Channel channel(String id) {
        return driver().channel(id);
    }

    /** Completion notifications lost to failures so far (see {@link CheckpointDriver}'s rules). */
    public int lostNotifications() {
        return driver().lostNotifications();
    }
}
