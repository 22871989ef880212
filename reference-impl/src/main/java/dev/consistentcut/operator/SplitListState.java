package dev.consistentcut.operator;

import java.util.List;

/**
 * An operator whose state is not keyed but a list whose elements can be divided among the tasks
 * of a new parallelism (Flink's operator list state in {@code SPLIT_DISTRIBUTE} mode): each task's
 * snapshot is one element (its partial result, e.g. a partial sum), and a task restored with
 * several elements holds them together. {@code Rescaling} gives each element to exactly one new
 * task (the spec's {@code AssignKeyGroups} with {@code RestoredListState}, spec/rescale/).
 *
 * <p>Which task holds a record's contribution is then not fixed by the record's route, so the
 * engine's checks count such an operator's records over all its tasks together.
 */
public interface SplitListState {

    /**
     * The state ({@link Operator#snapshotState}) of a task that restores {@code elements}, each a
     * whole snapshot of one old task; none: the state of a task that has processed nothing. Does
     * not touch the operator's own state.
     */
    byte[] mergeElements(List<byte[]> elements);
}
