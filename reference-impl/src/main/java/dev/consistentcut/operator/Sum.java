package dev.consistentcut.operator;

import dev.consistentcut.message.Record;

/** Adds up the values of all records it receives and emits each record with the running sum as value. */
public final class Sum implements Operator {

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
}
