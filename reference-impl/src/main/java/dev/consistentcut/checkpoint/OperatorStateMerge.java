package dev.consistentcut.checkpoint;

import dev.consistentcut.operator.ChangelogState;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link StateMerge} of a {@link ChangelogState} operator, named by the operator's class, so
 * that a stored changelog can be materialised in another process: {@link DirectoryCheckpointStore}
 * writes a state's segments once each and records this name beside them; reading them back,
 * {@link #named} finds the merge again ({@link ChangelogState#mergeState} is a pure function, so
 * any instance of the class merges alike). Immutable and thread-safe.
 *
 * @param operator an instance of the operator class whose merge this is
 */
public record OperatorStateMerge(ChangelogState operator) implements StateMerge {

    /** Merges of the classes named so far: one instance per class is enough (the merge is pure). */
    private static final Map<String, StateMerge> BY_NAME = new ConcurrentHashMap<>();

    public OperatorStateMerge {
        Objects.requireNonNull(operator, "operator");
    }

    @Override
    public byte[] merge(List<byte[]> segments) {
        return operator.mergeState(segments);
    }

    /** The name {@link #named} finds this merge by: the operator's class. */
    public String name() {
        return operator.getClass().getName();
    }

    /**
     * The merge of the operator class {@code name}, made from an instance of it (its no-argument
     * constructor).
     *
     * @throws IllegalArgumentException when {@code name} is no {@link ChangelogState} class with a
     *     no-argument constructor
     */
    static StateMerge named(String name) {
        StateMerge known = BY_NAME.get(name);
        if (known != null) {
            return known;
        }
        try {
            Class<?> type = Class.forName(name, false, OperatorStateMerge.class.getClassLoader());
            if (!ChangelogState.class.isAssignableFrom(type)) {
                throw new IllegalArgumentException("state merge " + name + " is no changelog operator class");
            }
            StateMerge merge = new OperatorStateMerge((ChangelogState) type.getDeclaredConstructor().newInstance());
            BY_NAME.putIfAbsent(name, merge);
            return merge;
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalArgumentException("state merge " + name + " cannot be made: " + e, e);
        }
    }
}
