package dev.consistentcut.operator;

import java.util.List;
import java.util.function.LongPredicate;

/**
 * An operator whose state is keyed, so that a rescaled restore can move it in key groups
 * (Flink's keyed state backends snapshot per key group for the same reason): the part of a state
 * holding some keys, and the state of several such parts together. {@code Rescaling} gives each
 * new task the part of every old task's state whose keys are in the new task's key groups and
 * merges those parts (the spec's {@code AssignKeyGroups}).
 *
 * <p>Both methods work on encoded states ({@link Operator#snapshotState}) and do not touch the
 * operator's own state.
 */
public interface KeyGroupedState {

    /** The part of {@code state} that holds the keys {@code keys} accepts, encoded as a whole state. */
    byte[] selectKeys(byte[] state, LongPredicate keys);

    /** One state holding every part; the parts hold disjoint keys. */
    byte[] mergeParts(List<byte[]> parts);
}
