package dev.consistentcut.bench.engine;

import dev.consistentcut.bench.Pacer;
import dev.consistentcut.message.Record;
import dev.consistentcut.operator.Operator;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The slow sink of the reference engine's demo job: spends its per-record cost with the same
 * {@link Pacer} as the Flink job's sink, and counts records for the throughput figure.
 *
 * <p>The cost is paid inside {@link #process}, not through {@link Operator#delayNanosPerRecord()}:
 * the threaded runtime parks a fixed time per record there, and a park overshoots by tens of
 * microseconds on Linux, which would make the reference sink slower than Flink's at the same
 * setting (6,000 instead of 10,000 records/s at 100 µs). Both engines' sinks are now paced on
 * the same grid. {@link #stopPacing()} lets the run drain at full speed once measuring is over.
 *
 * <p>Confined to the sink's task thread, except {@link #received()} and {@link #stopPacing()},
 * which any thread may call (atomic and volatile).
 */
public final class CountingSink implements Operator {

    private final Pacer pacer;
    private final AtomicLong received = new AtomicLong();
    private volatile boolean pacing = true;

    public CountingSink(long nanosPerRecord) {
        this.pacer = new Pacer(nanosPerRecord);
    }

    @Override
    public Record process(int input, Record record) {
        if (pacing) {
            pacer.await();
        }
        received.incrementAndGet();
        return record;
    }

    public long received() {
        return received.get();
    }

    public void stopPacing() {
        pacing = false;
    }

    @Override
    public byte[] snapshotState() {
        return java.nio.ByteBuffer.allocate(Long.BYTES).putLong(received.get()).array();
    }

    @Override
    public void restoreState(byte[] state) {
        if (state.length != Long.BYTES) {
            throw new IllegalArgumentException("CountingSink state must be " + Long.BYTES + " bytes, got " + state.length);
        }
        received.set(java.nio.ByteBuffer.wrap(state).getLong());
    }
}
