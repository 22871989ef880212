package dev.consistentcut.bench.engine;

import dev.consistentcut.bench.JobShape;
import dev.consistentcut.checkpoint.CheckpointStats;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.KeyedCount;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A checkpoint of the demo job as an unaligned checkpoint under backpressure looks: every
 * channel full ({@link JobShape#CHANNEL_CAPACITY} records persisted each), the keyed counts
 * holding all keys. What the store-bandwidth calibration writes.
 */
final class SyntheticCheckpoint {

    private SyntheticCheckpoint() {
    }

    static CompletedCheckpoint of(long id) {
        PhysicalGraph graph = PhysicalGraph.of(DemoJob.graph(new BenchmarkSourceLog(0), new BenchmarkSourceLog(0), new CountingSink(0)));
        Map<String, Long> offsets = new LinkedHashMap<>();
        for (String s : graph.sourceTasks()) {
            offsets.put(s, 1_000_000L);
        }
        Map<String, TaskSnapshot> snapshots = new LinkedHashMap<>();
        for (String t : graph.operatorTasks()) {
            KeyedCount count = new KeyedCount();
            for (int k = 0; k < JobShape.KEYS / JobShape.COUNT_PARALLELISM; k++) {
                count.process(0, new Record(new RecordId("s1#0", k), k, 1));
            }
            snapshots.put(t, new TaskSnapshot(count.snapshotState(), Map.of()));
        }
        Map<String, List<Record>> channels = new LinkedHashMap<>();
        long offset = 0;
        for (PhysicalGraph.ChannelSpec c : graph.channels()) {
            List<Record> records = new ArrayList<>(JobShape.CHANNEL_CAPACITY);
            for (int i = 0; i < JobShape.CHANNEL_CAPACITY; i++, offset++) {
                records.add(new Record(new RecordId("s1#0", offset), JobShape.keyAt(offset), 1));
            }
            channels.put(c.id(), records);
        }
        CheckpointStats stats = new CheckpointStats(0, 0, Map.of(), Map.of(), offset, 0, 0);
        return new CompletedCheckpoint(id, offsets, snapshots, channels, stats);
    }
}
