package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The shared-state registry of a {@link DirectoryCheckpointStore} (the spec's {@code refCount},
 * spec/incremental/IncrementalCheckpointStore.tla; Flink's SharedStateRegistry): per shared file,
 * how many registered checkpoints reference it, and per segment a task's changelog holds, the
 * shared file it is in, so that a later checkpoint references it instead of writing it again.
 * Kept in memory only: it is derived from the retained checkpoints' private files, which list
 * the files they reference, and rebuilt from them when a directory is reopened.
 *
 * <p>Not thread-safe: confined to the store's lock.
 */
final class SharedStateRegistry {

    /** refCount: shared file name to the registered checkpoints referencing it (only counts above 0). */
    private final Map<String, Integer> counts = new TreeMap<>();
    /** The shared files of each registered checkpoint. */
    private final Map<Long, Set<String>> byCheckpoint = new TreeMap<>();
    /** A segment (by identity: segments are immutable and shared by the chains that hold them) to where it is. */
    private final Map<Object, IncrementalCodec.SegmentRef> located = new IdentityHashMap<>();
    /** The segments located in each shared file, to forget them when it is deleted. */
    private final Map<String, List<Object>> segmentsOf = new TreeMap<>();
    /** The highest id whose private file could not be read: shared files up to it are never deleted. */
    private long unreadableBelow;

    /**
     * The registry of the private files {@code ids} in {@code dir}: every one whose metadata
     * decodes is registered (the retained checkpoints, and any the next pruning subsumes); one
     * that does not decode is {@link #unreadable}.
     */
    static SharedStateRegistry rebuilt(Path dir, List<Long> ids) {
        SharedStateRegistry r = new SharedStateRegistry();
        for (long id : ids) {
            Path file = dir.resolve(DirectoryCheckpointStore.fileName(id));
            try {
                byte[] bytes = Files.readAllBytes(file);
                if (IncrementalCodec.isIncremental(bytes)) {
                    r.registerCheckpoint(id, IncrementalCodec.decodeMetadata(bytes, file.toString()).sharedFiles());
                } else {
                    CheckpointCodec.decodeWithJob(bytes, file.toString()); // a whole checkpoint: no shared file
                }
            } catch (IOException e) {
                r.unreadable(id);
            }
        }
        return r;
    }

    /** Checkpoint {@code id}'s private file cannot be read: what it references is unknown. */
    void unreadable(long id) {
        unreadableBelow = Math.max(unreadableBelow, id);
    }

    /**
     * Whether shared file {@code name} may be deleted once no registered checkpoint references it:
     * not if a checkpoint whose private file cannot be read might reference it (one uploaded at or
     * before it): bad input never loses data.
     */
    boolean mayDelete(String name) {
        return SharedSegmentFiles.uploader(name) > unreadableBelow;
    }

    /**
     * Action {@code RegisterSharedFile} for every shared file of checkpoint {@code id} (the
     * registry's part of {@code CompleteCheckpoint}): each count goes up by one.
     */
    void registerCheckpoint(long id, Set<String> sharedFiles) {
        if (byCheckpoint.putIfAbsent(id, new TreeSet<>(sharedFiles)) != null) {
            throw new IllegalStateException("checkpoint " + id + " is registered already");
        }
        sharedFiles.forEach(this::registerSharedFile);
    }

    /** Action {@code RegisterSharedFile}: one more registered checkpoint references {@code file}. */
    private void registerSharedFile(String file) {
        counts.merge(file, 1, Integer::sum);
    }

    /**
     * Action {@code UnregisterCheckpoint(id)}: the counts of the subsumed checkpoint's shared
     * files drop; returns the files no registered checkpoint references any more (to delete).
     */
    List<String> unregisterCheckpoint(long id) {
        Set<String> files = byCheckpoint.remove(id);
        List<String> unreferenced = new ArrayList<>();
        if (files == null) {
            return unreferenced;
        }
        for (String f : files) {
            if (counts.merge(f, -1, Integer::sum) == 0) {
                counts.remove(f);
                unreferenced.add(f);
            }
        }
        return unreferenced;
    }

    /** The registered checkpoints referencing {@code file}. */
    int count(String file) {
        return counts.getOrDefault(file, 0);
    }

    boolean isRegistered(long id) {
        return byCheckpoint.containsKey(id);
    }

    /** Reference counts of the shared files, by name (read-only). */
    Map<String, Integer> counts() {
        return Collections.unmodifiableMap(counts);
    }

    /** {@code segment} is segment {@code ref.index()} of shared file {@code ref.file()}. */
    void locate(Object segment, IncrementalCodec.SegmentRef ref) {
        if (!ref.equals(located.put(segment, ref))) {
            segmentsOf.computeIfAbsent(ref.file(), f -> new ArrayList<>()).add(segment);
        }
    }

    /** Where {@code segment} is stored, if in a shared file some registered checkpoint references; else null. */
    IncrementalCodec.SegmentRef reusable(Object segment) {
        IncrementalCodec.SegmentRef ref = located.get(segment);
        return ref != null && count(ref.file()) > 0 ? ref : null;
    }

    /** {@code file} is gone (deleted, or never completed): its segments are located nowhere. */
    void forget(String file) {
        List<Object> segments = segmentsOf.remove(file);
        if (segments != null) {
            for (Object s : segments) {
                IncrementalCodec.SegmentRef ref = located.get(s);
                if (ref != null && ref.file().equals(file)) { // not re-uploaded elsewhere since
                    located.remove(s);
                }
            }
        }
    }
}
