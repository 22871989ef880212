package dev.consistentcut.operator;

import dev.consistentcut.message.Record;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.LongBinaryOperator;
import java.util.function.LongPredicate;

/**
 * A two-input join-like operator: it keeps, per side, the latest value seen for each key, and
 * enriches every record with the other side's latest value for its key (0 if that side has not
 * seen the key yet). The emitted value is {@code combine(ownValue, otherSideLatest)}; the default
 * combination is their sum. Input 0 is the first in-edge the job graph declares, input 1 the second.
 * Its state is per key (both sides), so a rescaled restore moves it by key group.
 */
public final class Join implements Operator, KeyGroupedState {

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
        return encode(new Sides(latestLeft, latestRight));
    }

    @Override
    public void restoreState(byte[] state) {
        Sides sides = decode(state);
        latestLeft = sides.left();
        latestRight = sides.right();
    }

    private record Sides(TreeMap<Long, Long> left, TreeMap<Long, Long> right) {
    }

    /** Both sides' latest values of the keys {@code keys} accepts. */
    @Override
    public byte[] selectKeys(byte[] state, LongPredicate keys) {
        Sides whole = decode(state);
        TreeMap<Long, Long> left = new TreeMap<>(whole.left());
        TreeMap<Long, Long> right = new TreeMap<>(whole.right());
        left.keySet().removeIf(k -> !keys.test(k));
        right.keySet().removeIf(k -> !keys.test(k));
        return encode(new Sides(left, right));
    }

    /** The parts' sides together; a key in two parts is a broken split, refused. */
    @Override
    public byte[] mergeParts(List<byte[]> parts) {
        TreeMap<Long, Long> left = new TreeMap<>();
        TreeMap<Long, Long> right = new TreeMap<>();
        for (byte[] part : parts) {
            Sides sides = decode(part);
            putDisjoint(left, sides.left());
            putDisjoint(right, sides.right());
        }
        return encode(new Sides(left, right));
    }

    private static void putDisjoint(TreeMap<Long, Long> into, TreeMap<Long, Long> part) {
        part.forEach((k, v) -> {
            if (into.put(k, v) != null) {
                throw new IllegalArgumentException("key " + k + " is in two parts of a Join state");
            }
        });
    }

    private static byte[] encode(Sides sides) {
        return StateCodec.encode(out -> {
            StateCodec.writeLongMap(out, sides.left());
            StateCodec.writeLongMap(out, sides.right());
        });
    }

    private static Sides decode(byte[] state) {
        return StateCodec.decode("Join", state,
                in -> new Sides(StateCodec.readLongMap(in), StateCodec.readLongMap(in)));
    }
}
