package dev.consistentcut.task;

/**
 * One enabled step: an action and its parameters. Task steps carry the task instance id, the
 * physical input ({@code -1} where none) and the checkpoint id ({@code 0} where none); runtime
 * steps (trigger, complete, abort, fail) carry {@code task = null}. Immutable.
 */
public record Step(Action action, String task, int input, long checkpointId) {

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(action.specName()).append('(');
        if (task != null) {
            s.append(task);
        }
        if (input >= 0) {
            s.append(", input ").append(input);
        }
        if (checkpointId > 0) {
            s.append(task != null ? ", " : "").append(checkpointId);
        }
        return s.append(')').toString();
    }
}
