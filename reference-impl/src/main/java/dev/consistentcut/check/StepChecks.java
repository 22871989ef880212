package dev.consistentcut.check;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.task.RunObserver;
import java.util.Collection;

/**
 * The checks a runtime runs after its steps, besides observing the run's events: the
 * checkpoints' statuses and the restore point ({@link #check}, {@link #checkAll}) and the order in
 * channels just appended to ({@link #channels}). {@link LifecycleChecks} checks; {@link #NONE}, for
 * a run without the processed ledgers (benchmarks), checks nothing. Threading as
 * {@link LifecycleChecks}: one thread, the simulation's or the threaded runtime's coordinator.
 */
public interface StepChecks extends RunObserver {

    /** No checks. */
    StepChecks NONE = new StepChecks() {
        @Override
        public void on(dev.consistentcut.task.RunEvent event) {
        }

        @Override
        public void check(long id) {
        }

        @Override
        public void checkAll() {
        }

        @Override
        public void channels(Collection<Channel> channels) {
        }
    };

    /** After a step that may have named checkpoint {@code id} (0: none): the pending ones, that one, the restore point. */
    void check(long id);

    /** After a step that may change any checkpoint's status: every status, and the restore point. */
    void checkAll();

    /** The order in each of {@code channels}, just appended to or restored. */
    void channels(Collection<Channel> channels);
}
