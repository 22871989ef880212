package dev.consistentcut.task;

import java.util.List;

/**
 * A task instance as a step machine: its logic advances only by discrete steps named after the
 * spec's actions, and it tells which steps are enabled right now. A step never blocks halfway:
 * it is enabled only if it can run to its end (for example, a record is taken from an input only
 * when every channel on its route has room).
 *
 * <p><b>Threading contract.</b> A task is confined to one thread at a time: the simulation's
 * single thread, or its own thread in the threaded runtime. The runtime hands a task from thread
 * to thread only across {@code Thread.start}/{@code Thread.join} (happens-before), as it does
 * around a restore.
 */
public sealed interface Task permits SourceTask, OperatorTask {

    /** The task instance id, e.g. {@code count#1}. */
    String id();

    /** Appends every step enabled now to {@code out}. */
    void enabledSteps(List<Step> out);

    /**
     * Performs {@code step}, which {@link #enabledSteps} reported.
     *
     * @throws IllegalStateException naming the task and the step if it is not enabled
     */
    void perform(Step step);

    /**
     * Performs {@code step}'s action again, at most {@code max} times in a row, as long as that
     * same step stays enabled and nothing else is waiting that must not wait: the threaded
     * runtime's hot path, which chooses a step once per run of records instead of once
     * per record. Each repetition is the spec's step on its own ({@code ProcessRecord} or
     * {@code EmitRecord} once per record, reported to the observer as such), so a run is a legal
     * sequence of steps; it only postpones other enabled steps (a notification, a timeout) by at
     * most {@code max} records, which fairness allows. Steps that are not records return 0.
     *
     * @param step a step just performed
     * @return how many more steps were performed (0 to {@code max})
     */
    default int performAgain(Step step, int max) {
        return 0;
    }

    /**
     * Hands the open buffer of every output channel over, part-full (the runtime's buffer
     * timeout, or a task with no step enabled). Not a step: it moves no record in the spec's
     * terms (a channel's contents include its open buffer). On the task's thread.
     *
     * @return whether any buffer was handed over
     */
    boolean flushOutputs();
}
