package dev.consistentcut.operator;

import dev.consistentcut.message.Record;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Counts records per key and emits each record with the new count of its key as value: the
 * operator whose state makes double counting and skipping visible.
 */
public final class KeyedCount implements Operator, ChangelogState, KeyGroupedState {

    private TreeMap<Long, Long> counts = new TreeMap<>();
    /** Keys counted since the previous {@link #snapshotChanges} (or restore). */
    private Set<Long> changed = new HashSet<>();

    @Override
    public Record process(int input, Record record) {
        long count = counts.merge(record.key(), 1L, Long::sum);
        changed.add(record.key());
        return record.withValue(count);
    }

    /** How many records with {@code key} this instance has counted. */
    public long count(long key) {
        return counts.getOrDefault(key, 0L);
    }

    /** All counts, by key (read-only view). */
    public Map<Long, Long> counts() {
        return Collections.unmodifiableMap(counts);
    }

    @Override
    public byte[] snapshotState() {
        return StateCodec.encode(out -> StateCodec.writeLongMap(out, counts));
    }

    @Override
    public void restoreState(byte[] state) {
        counts = StateCodec.decode("KeyedCount", state, StateCodec::readLongMap);
        changed = new HashSet<>();
    }

    /** The new counts of the keys counted since the previous call, encoded as a state of them alone. */
    @Override
    public byte[] snapshotChanges() {
        TreeMap<Long, Long> changes = new TreeMap<>();
        changed.forEach(k -> changes.put(k, counts.get(k)));
        changed = new HashSet<>();
        return StateCodec.encode(out -> StateCodec.writeLongMap(out, changes));
    }

    @Override
    public long stateSize() {
        return 4 + 16L * counts.size();
    }

    /** Later segments overwrite the counts of their keys. */
    @Override
    public byte[] mergeState(List<byte[]> segments) {
        TreeMap<Long, Long> merged = new TreeMap<>();
        segments.forEach(segment -> merged.putAll(StateCodec.decode("KeyedCount", segment, StateCodec::readLongMap)));
        return StateCodec.encode(out -> StateCodec.writeLongMap(out, merged));
    }

    /** The counts of the keys {@code keys} accepts. */
    @Override
    public byte[] selectKeys(byte[] state, java.util.function.LongPredicate keys) {
        TreeMap<Long, Long> part = new TreeMap<>(StateCodec.decode("KeyedCount", state, StateCodec::readLongMap));
        part.keySet().removeIf(k -> !keys.test(k));
        return StateCodec.encode(out -> StateCodec.writeLongMap(out, part));
    }

    /** The parts' counts together; a key in two parts is a broken split, refused. */
    @Override
    public byte[] mergeParts(List<byte[]> parts) {
        TreeMap<Long, Long> merged = new TreeMap<>();
        for (byte[] part : parts) {
            StateCodec.decode("KeyedCount", part, StateCodec::readLongMap).forEach((k, n) -> {
                if (merged.put(k, n) != null) {
                    throw new IllegalArgumentException("key " + k + " is in two parts of a KeyedCount state");
                }
            });
        }
        return StateCodec.encode(out -> StateCodec.writeLongMap(out, merged));
    }
}
