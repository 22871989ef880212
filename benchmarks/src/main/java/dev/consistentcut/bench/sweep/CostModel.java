package dev.consistentcut.bench.sweep;

import dev.consistentcut.bench.Backpressure;
import dev.consistentcut.bench.Calibration;
import dev.consistentcut.bench.JobParams;
import dev.consistentcut.checkpoint.CheckpointCodec;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.List;
import java.util.Map;

/**
 * What a checkpoint of the demo job should cost, from its configuration alone, stated before the
 * sweep measures it. The job under backpressure with even sources: two unthrottled sources fill
 * their {@code 2P} channels into the count's {@code P} instances, the counts fill their {@code P}
 * channels into the sink, and the sink drains {@code R} records a second.
 * <ul>
 *   <li><b>Records in a channel</b> {@code C - B/2} ({@code C} the capacity in whole buffers of
 *       {@code B} records): a channel's credit is freed only when its receiver has read a whole
 *       buffer, and a fast sender fills the freed buffer at once; so the channel holds its full
 *       buffers and the unread part of the one being read, on average half of it. A channel of one
 *       buffer holds {@code C/2} on average; a channel of records one by one is full. So {@code
 *       3P(C - B/2)} records are in flight.</li>
 *   <li><b>Aligned duration</b> {@code 3P(C - B/2) / R}: a count instance reads its two inputs in
 *       turn at {@code R/P}, so both barriers reach it after the records ahead of them in both,
 *       and its barrier then waits behind those of its output channel, drained at {@code R/P}.</li>
 *   <li><b>Unaligned persisted records</b> {@code 3P(C - B/2)}: every record in flight is
 *       overtaken once, and stored as its channel's state.</li>
 *   <li><b>Unaligned duration</b>: those records' bytes (the store's channel-state encoding) over
 *       the store's bandwidth, plus the barrier's travel over the job's hops (both calibrated on
 *       this machine before the sweep).</li>
 * </ul>
 * The number of keys has no term: the model says it does not move these figures, and the sweep
 * varies it to check that. Without backpressure the channels' fill follows the tasks' relative
 * speeds, which the configuration does not give: the model makes no prediction there. Stateless.
 */
public final class CostModel {

    /** Bytes one of this job's records takes in a checkpoint's channel state: the codec's own answer. */
    static final long PERSISTED_BYTES_PER_RECORD = persistedBytesPerRecord();

    private CostModel() {
    }

    /** Records a channel holds on average under backpressure: {@code C - B/2}, {@code C} in whole buffers. */
    public static double recordsPerChannel(JobParams p) {
        int b = p.effectiveBufferSize();
        long capacity = (long) (p.capacity() / b) * b;
        return capacity - b / 2.0;
    }

    /** Records in flight under backpressure: {@code 3P} channels of {@link #recordsPerChannel} each. */
    public static double inFlightRecords(JobParams p) {
        return 3.0 * p.parallelism() * recordsPerChannel(p);
    }

    /** The sink's rate under {@code b}, records a second. */
    public static double sinkRate(Backpressure b) {
        if (b.sinkNanosPerRecord() <= 0) {
            throw new IllegalArgumentException("the model needs backpressure: full channels and a paced sink");
        }
        return 1e9 / b.sinkNanosPerRecord();
    }

    /** The predicted median duration of an aligned checkpoint, in milliseconds. */
    public static double alignedMs(JobParams p, Backpressure b) {
        return inFlightRecords(p) / sinkRate(b) * 1000;
    }

    /** The predicted median records an unaligned checkpoint persists. */
    public static double unalignedPersistedRecords(JobParams p) {
        return inFlightRecords(p);
    }

    /** The predicted median duration of an unaligned checkpoint, in milliseconds. */
    public static double unalignedMs(JobParams p, Backpressure b, Calibration c) {
        return unalignedPersistedRecords(p) * PERSISTED_BYTES_PER_RECORD / c.storeBytesPerSecond() * 1000 + c.travelMs(b);
    }

    private static long persistedBytesPerRecord() {
        Record r = new Record(new RecordId("s1#0", 123_456), 42, 1);
        long one = CheckpointCodec.channelStateSize(Map.of("s1#0->count#0", List.of(r)));
        long two = CheckpointCodec.channelStateSize(Map.of("s1#0->count#0", List.of(r, r)));
        return two - one;
    }
}
