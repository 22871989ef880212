package dev.consistentcut.operator;

import dev.consistentcut.message.Record;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.LongBinaryOperator;

/**
 * A two-input join-like operator: it keeps, per side, the latest value seen for each key, and
 * enriches every record with the other side's latest value for its key (0 if that side has not
 * seen the key yet). The emitted value is {@code combine(ownValue, otherSideLatest)}; the default
 * combination is their sum. Input 0 is the first in-edge the job graph declares, input 1 the second.
 */
public final class Join implements Operator {

    private final LongBinaryOperator combine;
    private TreeMap<Long, Long> latestLeft = new TreeMap<>();
    private TreeMap<Long, Long> latestRight = new TreeMap<>();

    public Join() {
        this(Long::sum);
    }

    public Join(LongBinaryOperator combine) {
        this.combine = Objects.requireNonNull(combine, "combine");
    }

    @Override
    public Record process(int input, Record record) {
        TreeMap<Long, Long> own = side(input);
        TreeMap<Long, Long> other = input == 0 ? latestRight : latestLeft;
        own.put(record.key(), record.value());
        return record.withValue(combine.applyAsLong(record.value(), other.getOrDefault(record.key(), 0L)));
    }

    /** The latest value input {@code input} has seen for {@code key}, or 0. */
    public long latest(int input, long key) {
        return side(input).getOrDefault(key, 0L);
    }

    private TreeMap<Long, Long> side(int input) {
        return switch (input) {
            case 0 -> latestLeft;
            case 1 -> latestRight;
            default -> throw new IllegalArgumentException("Join has inputs 0 and 1, got input " + input);
        };
    }

    @Override
    public int inputArity() {
        return 2;
    }

    @Override
    public byte[] snapshotState() {
        return StateCodec.encode(out -> {
            StateCodec.writeLongMap(out, latestLeft);
            StateCodec.writeLongMap(out, latestRight);
        });
    }

    @Override
    public void restoreState(byte[] state) {
        Sides sides = StateCodec.decode("Join", state,
                in -> new Sides(StateCodec.readLongMap(in), StateCodec.readLongMap(in)));
        latestLeft = sides.left();
        latestRight = sides.right();
    }

    private record Sides(TreeMap<Long, Long> left, TreeMap<Long, Long> right) {
    }
}
