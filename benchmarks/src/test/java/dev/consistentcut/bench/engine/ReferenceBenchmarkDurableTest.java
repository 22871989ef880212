package dev.consistentcut.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.consistentcut.bench.CheckpointSample;
import dev.consistentcut.checkpoint.CheckpointStats;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The figures a reference run keeps of each completed checkpoint, in place of the checkpoint
 * itself: each sample field must come from the checkpoint's statistics as before.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ReferenceBenchmarkDurableTest {

    @Test
    void aSampleCarriesTheCheckpointsFiguresWithoutTheCheckpoint() {
        CheckpointStats stats = new CheckpointStats(1_000_000L, 9_000_000L,
                Map.of("count#0", 2_000_000L, "count#1", 3_000_000L), Map.of("count#0", 500_000L, "count#1", 1_500_000L),
                7, 224, 4_096);
        CompletedCheckpoint c = new CompletedCheckpoint(5, Map.of("s1#0", 10L), Map.of(),
                Map.of("ch", List.of(new Record(new RecordId("s1#0", 3), 1, 0))), stats);

        CheckpointSample s = ReferenceBenchmark.Durable.of(c, 11_000_000L).sample(42);

        assertEquals(new CheckpointSample(5, 10.0, 3.0, 1.5, 7, 224, 4_096 + 224, 42), s);
    }
}
