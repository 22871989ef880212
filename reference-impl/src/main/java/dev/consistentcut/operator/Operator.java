package dev.consistentcut.operator;

import dev.consistentcut.message.Record;

/**
 * A user function run by an operator task, with state that can be snapshotted as bytes.
 *
 * <p>The one rule every operator keeps: {@link #process} returns exactly one record per record it
 * receives, with the same id and key (its value may change). The invariants count how often each
 * operator has seen each record along the routes of the graph; an operator that dropped, split or
 * re-keyed records would make that count meaningless. {@code OperatorTask} enforces the rule.
 *
 * <p>Not thread-safe: an operator is confined to the one thread that runs its task.
 */
public interface Operator {

    /**
     * Processes {@code record}, taken from logical input {@code input} (the index of the edge among
     * the operator's in-edges, in the order the job graph declares them), and returns the record
     * to send downstream.
     */
    Record process(int input, Record record);

    /** The whole user state, encoded; {@link #restoreState} of these bytes gives it back. */
    byte[] snapshotState();

    /**
     * Replaces the state with one that {@link #snapshotState} produced.
     *
     * @throws IllegalArgumentException if {@code state} is not a valid encoding for this operator
     */
    void restoreState(byte[] state);

    /** How many logical inputs this operator needs; 0 means any number (at least one). */
    default int inputArity() {
        return 0;
    }

    /**
     * Extra time the threaded runtime spends per processed record, to model a slow operator (the
     * demo's slow sink). The simulation runtime ignores it: its clock counts steps, not time.
     */
    default long delayNanosPerRecord() {
        return 0;
    }
}
