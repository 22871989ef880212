package dev.consistentcut.runtime;

import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An in-memory store whose write of the checkpoints named fails as a full disk would (issue 17):
 * {@code store} throws {@link UncheckedIOException} and keeps nothing of it.
 */
final class FailingStore implements CheckpointStore {

    private final InMemoryCheckpointStore inner = new InMemoryCheckpointStore(3);
    private final Set<Long> failing;

    FailingStore(Set<Long> failing) {
        this.failing = Set.copyOf(failing);
    }

    @Override
    public void store(CompletedCheckpoint c) {
        if (failing.contains(c.id())) {
            throw new UncheckedIOException("storing checkpoint " + c.id(), new IOException("disk full"));
        }
        inner.store(c);
    }

    @Override
    public Optional<CompletedCheckpoint> latest() {
        return inner.latest();
    }

    @Override
    public List<Long> retainedIds() {
        return inner.retainedIds();
    }
}
