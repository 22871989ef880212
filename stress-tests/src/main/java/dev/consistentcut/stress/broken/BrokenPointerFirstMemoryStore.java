package dev.consistentcut.stress.broken;

import dev.consistentcut.checkpoint.CheckpointCodec;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.CorruptCheckpointException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * DELIBERATELY BROKEN: an in-memory store that publishes the "latest" pointer before the
 * checkpoint it points to (it encodes a defensive copy, publishes the pointer, decodes the copy,
 * which takes a while, and only then files it). A reader in between finds the pointer but no checkpoint: the store claims a latest
 * checkpoint it cannot give. The same ordering bug as writing a directory store's {@code LATEST}
 * file before the checkpoint file. It exists only to show that {@code Store_01_...} (jcstress) and
 * the store's lincheck test catch it. Never use it otherwise.
 *
 * <p>Each step on its own is thread-safe (a volatile pointer, a map under its monitor), so what
 * the tests catch is the order of the two, not a torn data structure.
 */
public final class BrokenPointerFirstMemoryStore implements CheckpointStore {

    private final TreeMap<Long, CompletedCheckpoint> byId = new TreeMap<>(); // guarded by itself
    private final boolean defensiveCopy;
    private volatile long latestId;

    /**
     * @param defensiveCopy decode a copy between publishing the pointer and filing the checkpoint.
     *     Real threads (jcstress) need that wide window to meet the bug in a short run; the model
     *     checker (lincheck) needs no width, only the one switch point, and the copy would bury it
     *     among the codec's many memory accesses.
     */
    public BrokenPointerFirstMemoryStore(boolean defensiveCopy) {
        this.defensiveCopy = defensiveCopy;
    }

    @Override
    public void store(CompletedCheckpoint c) {
        byte[] bytes = defensiveCopy ? CheckpointCodec.encode(c) : null;
        if (c.id() > latestId) {
            latestId = c.id(); // THE BUG: published before the checkpoint is there
        }
        CompletedCheckpoint copy = c;
        if (defensiveCopy) {
            try {
                copy = CheckpointCodec.decode(bytes, "copy of checkpoint " + c.id());
            } catch (CorruptCheckpointException e) {
                throw new UncheckedIOException(e);
            }
        }
        synchronized (byId) {
            byId.put(c.id(), copy);
        }
    }

    @Override
    public Optional<CompletedCheckpoint> latest() {
        long id = latestId;
        synchronized (byId) {
            return id == 0 ? Optional.empty() : Optional.ofNullable(byId.get(id));
        }
    }

    @Override
    public List<Long> retainedIds() {
        synchronized (byId) {
            return new ArrayList<>(byId.keySet());
        }
    }
}
