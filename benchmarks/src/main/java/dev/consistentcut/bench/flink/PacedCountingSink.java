package dev.consistentcut.bench.flink;

import dev.consistentcut.bench.Pacer;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.java.tuple.Tuple4;

/**
 * The slow sink: spends its per-record cost with the same {@link Pacer} as the reference engine's
 * sink, and counts what it received in a static counter that the benchmark reads for throughput.
 * The MiniCluster runs in the benchmark's JVM and the job ships no jars, so the job's classes are
 * the benchmark's classes and the counter is the one the benchmark reads.
 */
public final class PacedCountingSink implements Sink<Tuple4<Integer, Long, Long, Long>> {

    private static final long serialVersionUID = 1L;

    /** Records received by every instance since the last {@link #reset()}. */
    public static final AtomicLong RECEIVED = new AtomicLong();

    private final long nanosPerRecord;

    public PacedCountingSink(long nanosPerRecord) {
        this.nanosPerRecord = nanosPerRecord;
    }

    public static void reset() {
        RECEIVED.set(0);
    }

    @Override
    public SinkWriter<Tuple4<Integer, Long, Long, Long>> createWriter(WriterInitContext context) {
        Pacer pacer = new Pacer(nanosPerRecord);
        return new SinkWriter<>() {
            @Override
            public void write(Tuple4<Integer, Long, Long, Long> record, Context context) {
                pacer.await();
                RECEIVED.incrementAndGet();
            }

            @Override
            public void flush(boolean endOfInput) {
            }

            @Override
            public void close() {
            }
        };
    }
}
