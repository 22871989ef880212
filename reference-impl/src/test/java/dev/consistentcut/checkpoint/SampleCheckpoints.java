package dev.consistentcut.checkpoint;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Checkpoints with every field populated (and distinct per id), for codec and store tests. */
final class SampleCheckpoints {

    private SampleCheckpoints() {
    }

    static CompletedCheckpoint sample(long id) {
        Record a = new Record(new RecordId("src-α", 3 + id), -7, Long.MIN_VALUE);
        Record b = new Record(new RecordId("src-β", 4), 42, Long.MAX_VALUE - id);
        TaskSnapshot count = new TaskSnapshot(
                ("count state " + id).getBytes(StandardCharsets.UTF_8),
                Map.of(new RecordId("src-α", 0), 1, new RecordId("src-β", 2), 2));
        TaskSnapshot sink = new TaskSnapshot(new byte[] {0, -1, 127, -128}, Map.of());
        Map<String, List<Record>> channels = Map.of(
                "src-α->count", List.of(a, b, a),
                "src-β->count", List.of(),
                "count->sink", List.of(b));
        CheckpointStats stats = new CheckpointStats(
                1_000 * id, 1_000 * id + 17,
                Map.of("src-α", 1L, "src-β", 2L, "count", 3L, "sink", 4L),
                Map.of("src-α", 0L, "src-β", 0L, "count", 9L, "sink", 0L),
                4, 123, 456);
        return new CompletedCheckpoint(id,
                Map.of("src-α", 10 + id, "src-β", 20L),
                Map.of("count", count, "sink", sink),
                channels, stats);
    }
}
