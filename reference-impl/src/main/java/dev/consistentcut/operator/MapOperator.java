package dev.consistentcut.operator;

import dev.consistentcut.message.Record;
import java.util.Objects;
import java.util.function.LongUnaryOperator;

/** A stateless operator that replaces each record's value with {@code function(value)}. */
public final class MapOperator implements Operator, KeyGroupedState {

    private final LongUnaryOperator function;

    public MapOperator(LongUnaryOperator function) {
        this.function = Objects.requireNonNull(function, "function");
    }

    @Override
    public Record process(int input, Record record) {
        return record.withValue(function.applyAsLong(record.value()));
    }

    @Override
    public byte[] snapshotState() {
        return new byte[0];
    }

    @Override
    public void restoreState(byte[] state) {
        if (state.length != 0) {
            throw new IllegalArgumentException("MapOperator is stateless: expected 0 state bytes, got " + state.length);
        }
    }

    /** Stateless: every part is the empty state. */
    @Override
    public byte[] selectKeys(byte[] state, java.util.function.LongPredicate keys) {
        restoreState(state);
        return new byte[0];
    }

    @Override
    public byte[] mergeParts(java.util.List<byte[]> parts) {
        parts.forEach(this::restoreState);
        return new byte[0];
    }
}
