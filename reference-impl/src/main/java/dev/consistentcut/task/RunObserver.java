package dev.consistentcut.task;

import java.util.List;

/**
 * Observes every step of a run right after it happened: trace recording, the invariant checks,
 * a test's counters. The engine tells each action once, from the one method that performs it,
 * whoever observes; {@link #NONE} observes nothing.
 *
 * <p><b>Threading contract.</b> In the simulation every call comes from its one thread. In the
 * threaded runtime {@link #on} is called from every task thread and the coordinator thread
 * concurrently (the runtime serializes steps with their calls only while recording a trace), so
 * an observer must be thread-safe. What a thread did before a call happens-before the call.
 */
@FunctionalInterface
public interface RunObserver {

    /** The observer that does nothing. */
    RunObserver NONE = event -> { };

    /** {@code event} just happened. */
    void on(RunEvent event);

    /**
     * An observer telling each event to each of {@code observers}, in order. {@link #NONE} among
     * them is left out, and one observer left is returned itself: the engine tells an event per
     * record, and a call through a list of observers of several classes is a virtual call each
     * that the JIT cannot inline (nor then drop the event's allocation when nothing keeps it).
     */
    static RunObserver all(List<RunObserver> observers) {
        List<RunObserver> copy = observers.stream().filter(o -> o != NONE).toList();
        if (copy.isEmpty()) {
            return NONE;
        }
        if (copy.size() == 1) {
            return copy.get(0);
        }
        return event -> {
            for (RunObserver o : copy) {
                o.on(event);
            }
        };
    }
}
