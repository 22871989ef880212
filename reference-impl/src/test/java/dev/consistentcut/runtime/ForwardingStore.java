package dev.consistentcut.runtime;

import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A checkpoint store that forwards every call to an in-memory store: a test's broken store
 * overrides only the call it breaks, so what it changes stands out. Single-threaded use, as the
 * in-memory store it wraps.
 */
class ForwardingStore implements CheckpointStore {
    final InMemoryCheckpointStore inner;

    ForwardingStore(int retain) {
        inner = new InMemoryCheckpointStore(retain);
    }

    @Override
    public void store(CompletedCheckpoint c) {
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

    @Override
    public Set<Long> damagedIds() {
        return inner.damagedIds();
    }

    @Override
    public dev.consistentcut.checkpoint.MaterialisedUploads materialisedUploads() {
        return inner.materialisedUploads();
    }

    @Override
    public void endRun() {
        inner.endRun();
    }
}
