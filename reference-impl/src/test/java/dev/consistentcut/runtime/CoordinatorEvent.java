package dev.consistentcut.runtime;

import dev.consistentcut.task.RunEvent;

/**
 * A run's event as the tests of the coordinator's events compare it: its name, the checkpoint a
 * coordinator event names (the restored one for {@code FailAndRestore}; 0 for a task's step) and
 * the savepoint flag of a trigger.
 */
record CoordinatorEvent(String action, long checkpoint, boolean savepoint) {

    static CoordinatorEvent of(RunEvent e) {
        if (e instanceof RunEvent.TriggerCheckpoint t) {
            return new CoordinatorEvent(e.name(), t.checkpoint(), t.savepoint());
        } else if (e instanceof RunEvent.CompleteCheckpoint c) {
            return new CoordinatorEvent(e.name(), c.checkpoint(), false);
        } else if (e instanceof RunEvent.AbortCheckpoint a) {
            return new CoordinatorEvent(e.name(), a.checkpoint(), false);
        } else if (e instanceof RunEvent.FailAndRestore f) {
            return new CoordinatorEvent(e.name(), f.restored(), false);
        }
        return new CoordinatorEvent(e.name(), 0, false);
    }
}
