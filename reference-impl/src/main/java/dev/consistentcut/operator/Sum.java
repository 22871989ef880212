package dev.consistentcut.operator;

import dev.consistentcut.message.Record;
import java.util.List;

/**
 * Adds up the values of all records it receives and emits each record with the running sum as
 * value. Its state is not keyed: on a rescaled restore each old task's partial sum is one element
 * of a split list state, and a new task's sum is the sum of the elements it gets.
 */
public final class Sum implements Operator, SplitListState {

    private long sum;

    @Override
    public Record process(int input, Record record) {
        sum += record.value();
        return record.withValue(sum);
    }

    public long sum() {
        return sum;
    }

    @Override
    public byte[] snapshotState() {
        return StateCodec.encode(out -> out.writeLong(sum));
    }

    @Override
    public void restoreState(byte[] state) {
        sum = StateCodec.decode("Sum", state, in -> in.readLong());
    }

    /** The partial sums added up. */
    @Override
    public byte[] mergeElements(List<byte[]> elements) {
        long total = 0;
        for (byte[] element : elements) {
            total += StateCodec.decode("Sum", element, in -> in.readLong());
        }
        long merged = total;
        return StateCodec.encode(out -> out.writeLong(merged));
    }
}
