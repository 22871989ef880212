package dev.consistentcut.runtime;

import dev.consistentcut.task.Action;
import dev.consistentcut.task.Step;

/**
 * Steps of the Join job (s1, s2 -> join -> sink) taken from outside, for the tests that drive a
 * {@link SimulationRuntime} step by step. Single-threaded, as the simulation.
 */
final class JoinSteps {
    private JoinSteps() {}

    static void take(SimulationRuntime rt, Action a, String task, int input, long c) {
        rt.takeStep(new Step(a, task, input, c));
    }

    /** Triggers checkpoint {@code c} and lets every task of Join acknowledge it (6 steps). */
    static void checkpointAllAcknowledged(SimulationRuntime rt, long c) {
        take(rt, Action.TRIGGER_CHECKPOINT, null, -1, 0);
        take(rt, Action.INJECT_BARRIER, "s1#0", -1, c);
        take(rt, Action.INJECT_BARRIER, "s2#0", -1, c);
        take(rt, Action.RECEIVE_BARRIER, "join#0", 0, c);
        take(rt, Action.RECEIVE_BARRIER, "join#0", 1, c);
        take(rt, Action.RECEIVE_BARRIER, "sink#0", 0, c);
    }
}
