package dev.consistentcut.operator;

import dev.consistentcut.message.Record;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts records per key and emits each record with the new count of its key as value: the
 * operator whose state makes double counting and skipping visible.
 */
public final class KeyedCount implements Operator {

    private TreeMap<Long, Long> counts = new TreeMap<>();

    @Override
    public Record process(int input, Record record) {
        long count = counts.merge(record.key(), 1L, Long::sum);
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
    }
}
