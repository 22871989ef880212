package dev.consistentcut.cli;

import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The CLI's view of its store: remembers the checkpoint the run started from (a resume's origin)
 * and every failed store write (a declined checkpoint), for the report. Delegates everything and
 * rethrows every failure, so the runtime decides what a failure means. Thread-safe.
 */
final class ObservedStore implements CheckpointStore {

    private final CheckpointStore store;
    private final List<String> failures = new ArrayList<>();
    private Optional<CompletedCheckpoint> first;

    ObservedStore(CheckpointStore store) {
        this.store = store;
    }

    @Override
    public void store(CompletedCheckpoint c) {
        try {
            store.store(c);
        } catch (RuntimeException e) {
            synchronized (this) {
                failures.add("checkpoint " + c.id() + ": " + e.getMessage());
            }
            throw e;
        }
    }

    @Override
    public synchronized Optional<CompletedCheckpoint> latest() {
        Optional<CompletedCheckpoint> l = store.latest();
        if (first == null) {
            first = l;
        }
        return l;
    }

    @Override
    public List<Long> retainedIds() {
        return store.retainedIds();
    }

    @Override
    public java.util.Set<Long> damagedIds() {
        return store.damagedIds();
    }

    /** The checkpoint the runtime restored when it started (the first {@link #latest()}), or empty. */
    @Override
    public dev.consistentcut.checkpoint.MaterialisedUploads materialisedUploads() {
        return store.materialisedUploads();
    }

    @Override
    public void endRun() {
        store.endRun();
    }

    synchronized Optional<CompletedCheckpoint> startedFrom() {
        return first == null ? Optional.empty() : first;
    }

    synchronized List<String> failures() {
        return List.copyOf(failures);
    }
}
