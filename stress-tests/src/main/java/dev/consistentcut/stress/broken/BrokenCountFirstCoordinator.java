package dev.consistentcut.stress.broken;

import dev.consistentcut.checkpoint.AckResult;
import dev.consistentcut.checkpoint.CheckpointStats;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.stress.harness.AckContentScenario;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * DELIBERATELY BROKEN: a coordinator for checkpoint 1 of tasks {@code a}, {@code b} that counts an
 * acknowledgement before it records its content. Each field is thread-safe on its own (an atomic
 * counter, a concurrent map, a compare-and-set completion), so it completes exactly once; but the
 * acknowledgement that makes the count reach two can be told {@code ALL_ACKNOWLEDGED} while the
 * other one's content is not yet recorded, and the stored checkpoint then misses it. It exists only
 * to show that {@code Coordinator_04_EveryAckInTheStoredCheckpoint} catches this bug. Never use it
 * otherwise.
 */
public final class BrokenCountFirstCoordinator implements AckContentScenario.Coordinator {

    private final InMemoryCheckpointStore store = new InMemoryCheckpointStore(2);
    private final AtomicInteger acknowledged = new AtomicInteger();
    private final Map<String, Long> offsets = new ConcurrentHashMap<>();
    private final AtomicBoolean completed = new AtomicBoolean();

    @Override
    public AckResult acknowledge(String task, long offset) {
        int n = acknowledged.incrementAndGet(); // THE BUG: counted before its content is recorded
        offsets.put(task, offset);
        return n == 2 ? AckResult.ALL_ACKNOWLEDGED : AckResult.ACCEPTED;
    }

    @Override
    public boolean complete() {
        if (acknowledged.get() < 2 || !completed.compareAndSet(false, true)) {
            return false;
        }
        store.store(new CompletedCheckpoint(1, Map.copyOf(offsets), Map.of(), Map.of(),
                new CheckpointStats(0, 0, Map.of(), Map.of(), 0, 0, 0)));
        return true;
    }

    @Override
    public CheckpointStatus status() {
        return completed.get() ? CheckpointStatus.COMPLETED : CheckpointStatus.PENDING;
    }

    @Override
    public Optional<CompletedCheckpoint> stored() {
        return store.latest();
    }
}
