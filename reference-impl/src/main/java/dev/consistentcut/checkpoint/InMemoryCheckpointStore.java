package dev.consistentcut.checkpoint;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A {@link CheckpointStore} on the heap, keeping the {@code retain} checkpoints with the highest
 * ids. Nothing survives the process: for the simulation and for tests.
 *
 * <p>Thread-safe: every method holds the store's lock, so a {@link #latest()} racing with a
 * {@link #store} sees the checkpoint either entirely or not at all ({@link CompletedCheckpoint} is
 * immutable). Memory consistency: actions before {@code store(c)} happen-before the actions after
 * a {@code latest()} that returns {@code c}.
 */
public final class InMemoryCheckpointStore implements CheckpointStore {

    private final int retain;
    private final TreeMap<Long, CompletedCheckpoint> kept = new TreeMap<>(); // guarded by this

    /** @throws IllegalArgumentException when {@code retain < 1} */
    public InMemoryCheckpointStore(int retain) {
        if (retain < 1) {
            throw new IllegalArgumentException("retain must be >= 1, got " + retain);
        }
        this.retain = retain;
    }

    @Override
    public synchronized void store(CompletedCheckpoint c) {
        Objects.requireNonNull(c, "checkpoint");
        if (kept.containsKey(c.id())) {
            throw new IllegalArgumentException(
                    "checkpoint " + c.id() + " is already stored; checkpoint ids are never reused");
        }
        kept.put(c.id(), c);
        while (kept.size() > retain) {
            kept.pollFirstEntry();
        }
    }

    @Override
    public synchronized Optional<CompletedCheckpoint> latest() {
        return kept.isEmpty() ? Optional.empty() : Optional.of(kept.lastEntry().getValue());
    }

    @Override
    public synchronized List<Long> retainedIds() {
        return new ArrayList<>(kept.keySet());
    }
}
