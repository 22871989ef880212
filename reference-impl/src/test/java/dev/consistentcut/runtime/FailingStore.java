package dev.consistentcut.runtime;

import dev.consistentcut.checkpoint.CompletedCheckpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;

/**
 * An in-memory store whose write of the checkpoints named fails as a full disk would:
 * {@code store} throws {@link UncheckedIOException} and keeps nothing of it.
 */
final class FailingStore extends ForwardingStore {

    private final Set<Long> failing;

    FailingStore(Set<Long> failing) {
        super(3);
        this.failing = Set.copyOf(failing);
    }

    @Override
    public void store(CompletedCheckpoint c) {
        if (failing.contains(c.id())) {
            throw new UncheckedIOException("storing checkpoint " + c.id(), new IOException("disk full"));
        }
        inner.store(c);
    }
}
