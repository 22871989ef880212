// Longer than 500 lines: one lock guards the registry, the directory's writes and the staged uploads the orphan sweep must spare, so the store's actions stay together as one class of critical sections.
package dev.consistentcut.checkpoint;

import dev.consistentcut.annotation.TestSeam;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A durable {@link CheckpointStore} of incremental checkpoints: per checkpoint a private file,
 * shared segment files, and a pointer (spec/incremental/IncrementalCheckpointStore.tla).
 *
 * <p><b>Files.</b> A task snapshot is two changelogs ({@link TaskSnapshot}: state and ledger, each
 * a chain of immutable segments). Each segment is written once, in a shared file named by the
 * checkpoint that uploaded it and the task ({@code shared-<id>-<task>.seg}, action
 * {@code UploadFile}); a later checkpoint whose chains still hold it references it there. A
 * compaction ({@code CompactState}) is a new base segment, so it is written once too; the segments
 * a background materialisation merged are written by the materialiser beforehand, to a staged file
 * of their own ({@link #upload}), which the checkpoint that first holds them renames into its
 * shared file {@code shared-<id>-<task>~m<k>.seg} ({@code UploadFile} by a rename); so are the
 * changes since a task's previous snapshot, which the task writes before it acknowledges the
 * checkpoint ({@link #persist}, {@code changes-<k>-<task>.seg}), so that the coordinator's store
 * writes no segment of a task that wrote its own. The private
 * file {@code chk-<id>.ckpt} ({@link IncrementalCodec}) holds the source offsets, channel state and
 * statistics, and per task the references to its segments. Whole-checkpoint files of earlier
 * versions ({@link CheckpointCodec}) are still read.
 *
 * <p><b>Writing</b> ({@link #store}): first the new shared files (a staged file renamed, or one
 * the store writes to a temporary file, fsyncs and renames), then one fsync of the directory
 * (where the OS allows it); then the private file, written to a temporary file, fsynced,
 * atomically renamed and the directory fsynced; then the pointer {@code LATEST} the same way (via
 * {@code LATEST.tmp}): the pointer is the commit point. Once the private file is in place, its
 * shared files are registered in the {@link SharedStateRegistry} ({@code RegisterSharedFile}).
 * Finally checkpoints older than the newest {@code retain} restorable ones are subsumed: the
 * private file is deleted ({@code SubsumeCheckpoint}), the reference counts of its shared files
 * drop ({@code UnregisterCheckpoint}) and those no retained checkpoint references are deleted
 * ({@code DeleteFile}). A file that cannot be parsed is reported and left in place, so bad input
 * never loses data, and so are the shared files it may reference. A crash at any point leaves
 * either the old or the new pointer, each naming a complete checkpoint; shared files a crash
 * leaves unreferenced (an interrupted write, FLINK-30461, or an interrupted subsumption) are
 * deleted by the next {@link #store}. The registry is not a file: the next store rebuilds it
 * from the private files, which list what they reference.
 *
 * <p><b>Reading</b> ({@link #latest}): the checkpoint {@code LATEST} names, its private file and
 * every shared file it references decoded and checksum-verified. If the pointer is missing or
 * corrupt, or a file it needs is missing, truncated or corrupt, a warning says which file and what
 * is wrong, and the newest older checkpoint that reads is used instead (each one skipped is
 * reported too). The pointer holds no data of its own (it is derived from the directory), so a
 * corrupt pointer is replaced by the next {@link #store}.
 *
 * <p><b>Threading contract.</b> Thread-safe within one process: every method holds this store's
 * lock (but {@link #upload} and {@link #persist}, which write their file without it, so that a
 * materialisation's or a task's write never holds up a checkpoint's, and take the lock to pick,
 * reserve and register it), so a
 * {@link #latest()} racing with a {@link #store} sees the old or the new checkpoint,
 * never a partial one, and never a file that {@code store}'s pruning is about to delete. Only one
 * store instance (one process) may write a directory. Warnings are delivered on the calling
 * thread while the lock is held. Memory consistency: actions before {@code store(c)}
 * happen-before the actions after a {@code latest()} that returns a checkpoint equal to {@code c}.
 */
public final class DirectoryCheckpointStore implements CheckpointStore, MaterialisedUploads {

    static final String POINTER = "LATEST";
    private static final String POINTER_TEMP = "LATEST.tmp";
    static final Pattern CHECKPOINT_FILE = Pattern.compile("chk-(\\d{1,18})\\.ckpt");
    private static final Pattern TEMP_FILE = Pattern.compile(
            "chk-\\d{1,18}\\.tmp|LATEST\\.tmp|shared-\\d{1,18}-.+\\.seg\\.tmp|(?:materialised|changes)-\\d{1,18}-.+\\.seg\\.tmp");
    private static final Pattern LEFTOVER_CHECKPOINT_TEMP = Pattern.compile("chk-(\\d{1,18})\\.tmp");

    private final Path dir;
    private final int retain;
    private final Consumer<String> warnings;
    /** The job whose checkpoints this directory holds, written into each one; null: none (version-1 files). */
    private final String jobId;
    /** Every file operation of a write goes through here: the seam of the crash-ordering test. */
    private final StoreFiles files;
    /** Sees each window of a write: where the crash test injects its kills. */
    private final WriteObserver observer;
    /** Ids whose files failed to decode when pruning: reported once, never deleted; guarded by this. */
    private final Set<Long> undecodable = new HashSet<>();
    /** Reference counts of the shared files; built on first use ({@link #registry()}); guarded by this. */
    private SharedStateRegistry registry;
    /** Reads the checkpoint files of this directory and job. */
    private final CheckpointReader reader;
    /**
     * Per checkpoint id, its private file's bytes as last decoded by {@link #prune} and the shared
     * files they reference; guarded by this. A file whose bytes are still these is not decoded
     * again: every retained checkpoint is checked at every store, and decoding each one whole
     * (an unaligned one's channel state too) made each store's work grow with {@code retain}.
     */
    private final Map<Long, Decoded> decoded = new HashMap<>();

    /** A private file's bytes and the shared files they reference. */
    private record Decoded(byte[] bytes, Set<String> sharedFiles) {
    }

    /**
     * The materialisations' staged uploads of this process by file name (being written, or written
     * and not yet taken over by a checkpoint), and where each of their segments is; guarded by this.
     */
    private final Map<String, List<Object>> staged = new TreeMap<>();
    private final Map<Object, SharedSegmentFiles.Staged> stagedSegments = new java.util.IdentityHashMap<>();
    /**
     * The tasks' staged changes ({@link #persist}) by file name, to the checkpoint each was
     * written for: dropped once a checkpoint at or above it completes without taking it over;
     * guarded by this.
     */
    private final Map<String, Long> changesFor = new TreeMap<>();
    /** The number of the last staged upload; guarded by this. */
    private long materialisations;
    /** Goes up at each restore: an upload begun before it is of chains no task holds any more; guarded by this. */
    private long stagedGeneration;
    /** The run has ended ({@link #endRun}): nothing more is staged; guarded by this. */
    private boolean ended;

    /**
     * Opens (creating if needed) a checkpoint directory and reports leftover temporary files.
     *
     * @param retain how many valid checkpoints to keep, >= 1
     * @param warnings receives one human-readable line per problem found (corrupt files, leftovers)
     * @throws IllegalArgumentException naming the path when it is not a directory, or not
     *     readable and writable
     * @throws UncheckedIOException naming the path when it cannot be created or listed
     */
    public DirectoryCheckpointStore(Path dir, int retain, Consumer<String> warnings) {
        this(dir, retain, warnings, (String) null);
    }

    /**
     * As {@link #DirectoryCheckpointStore(Path, int, Consumer)}, for the checkpoints of job
     * {@code jobId}: each one is written with that identity (format version 2), and a file of
     * another job (or of none) is never restored: {@link #latest} reports it and falls back.
     */
    public DirectoryCheckpointStore(Path dir, int retain, Consumer<String> warnings, String jobId) {
        this(dir, retain, warnings, jobId, WriteObserver.NONE);
    }

    /**
     * As {@link #DirectoryCheckpointStore(Path, int, Consumer, String)}, with {@code observer}
     * called in each window of every write (the crash test's kill points; {@link WriteObserver#NONE}
     * in production).
     */
    public DirectoryCheckpointStore(Path dir, int retain, Consumer<String> warnings, String jobId, WriteObserver observer) {
        this(dir, retain, warnings, jobId, StoreFiles.REAL, observer);
    }

    /** As {@link #DirectoryCheckpointStore(Path, int, Consumer)}, with the file operations done by {@code files}. */
    @TestSeam
    DirectoryCheckpointStore(Path dir, int retain, Consumer<String> warnings, StoreFiles files) {
        this(dir, retain, warnings, null, files);
    }

    /**
     * As {@link #DirectoryCheckpointStore(Path, int, Consumer, String)}, with the file operations of
     * {@link #store} performed by {@code files}: tests stop a write at each of its operations to
     * check the crash ordering ({@code DirectoryCheckpointStoreCrashTest}).
     */
    @TestSeam
    DirectoryCheckpointStore(Path dir, int retain, Consumer<String> warnings, String jobId, StoreFiles files) {
        this(dir, retain, warnings, jobId, files, WriteObserver.NONE);
    }

    private DirectoryCheckpointStore(Path dir, int retain, Consumer<String> warnings, String jobId, StoreFiles files,
            WriteObserver observer) {
        this.jobId = jobId;
        this.reader = new CheckpointReader(dir, jobId);
        this.files = Objects.requireNonNull(files, "files");
        this.observer = Objects.requireNonNull(observer, "observer");
        this.dir = Objects.requireNonNull(dir, "dir");
        this.warnings = Objects.requireNonNull(warnings, "warnings");
        if (retain < 1) {
            throw new IllegalArgumentException("retain must be >= 1, got " + retain);
        }
        this.retain = retain;
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("checkpoint directory " + dir + " exists but is not a directory");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create checkpoint directory " + dir + ": " + e, e);
        }
        if (!Files.isReadable(dir) || !Files.isWritable(dir)) {
            throw new IllegalArgumentException("checkpoint directory " + dir + " is not readable and writable");
        }
        for (String name : list()) {
            if (TEMP_FILE.matcher(name).matches()) {
                warnings.accept(dir.resolve(name) + ": leftover temporary file of an interrupted write; ignored");
            }
        }
    }

    public Path directory() {
        return dir;
    }

    @Override
    public synchronized void store(CompletedCheckpoint c) {
        Objects.requireNonNull(c, "checkpoint");
        Path target = dir.resolve(fileName(c.id()));
        if (Files.exists(target)) {
            throw new IllegalArgumentException("checkpoint " + c.id() + " is already stored (" + target
                    + " exists); checkpoint ids are never reused, so it is not overwritten");
        }
        SharedStateRegistry registry;
        try {
            registry = registry();
            deleteOrphans(registry);
        } catch (UncheckedIOException e) { // the directory cannot be listed: this write fails like any other
            throw new UncheckedIOException("storing checkpoint " + c.id() + " in " + dir + " failed: " + e.getCause(),
                    e.getCause());
        }
        Map<String, SharedSegmentFiles.Upload> plans = triggerCheckpoint(c, registry);
        Map<String, IncrementalCodec.TaskRefs> tasks = new TreeMap<>();
        List<String> uploaded = new ArrayList<>();
        try {
            for (Map.Entry<String, SharedSegmentFiles.Upload> e : plans.entrySet()) {
                SharedSegmentFiles.Upload u = e.getValue();
                for (Map.Entry<String, String> t : u.takenOver().entrySet()) {
                    uploaded.add(t.getValue());
                    takeOver(c.id(), e.getKey(), t.getKey(), t.getValue());
                }
                if (!u.segments().isEmpty()) {
                    uploaded.add(u.file());
                    writeShared(c.id(), e.getKey(), u.file(), u.segments());
                }
                u.located().forEach(registry::locate);
                tasks.put(e.getKey(), u.refs());
            }
            // One directory fsync makes every shared file's name durable at once, before the
            // private file that references them is renamed into place: one per file would make a
            // checkpoint's fsyncs grow with its number of tasks.
            if (!uploaded.isEmpty()) {
                files.fsyncDirectory(dir);
            }
            byte[] bytes = IncrementalCodec.encodeMetadata(c, jobId, tasks);
            writeAtomically(bytes, dir.resolve("chk-" + c.id() + ".tmp"), target, "checkpoint");
            observer.acknowledgeCheckpoint(c.id());
        } catch (IOException e) {
            uploaded.forEach(registry::forget); // orphans now: deleted by the next store
            observer.abortCheckpoint(c.id());
            throw new UncheckedIOException("storing checkpoint " + c.id() + " in " + dir + " failed: " + e, e);
        }
        // The private file is in place: from now on it references its shared files, pointer or not.
        registry.registerCheckpoint(c.id(), new IncrementalCodec.Metadata(jobId, c.id(), Map.of(), tasks, Map.of(),
                c.stats()).sharedFiles());
        observer.completeCheckpoint(c.id());
        dropUnclaimedChanges(c.id());
        try {
            if (c.id() > pointedIdOrZero()) {
                writeAtomically(pointerBytes(c.id()), dir.resolve(POINTER_TEMP), dir.resolve(POINTER), "pointer");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("storing checkpoint " + c.id() + " in " + dir + " failed: " + e, e);
        }
        prune();
    }

    /**
     * Action {@code TriggerCheckpoint} as the store has it: the handle of {@code c} fixed, per task
     * (in task order) the segments it reuses from registered shared files and those it uploads.
     * Every task is planned before any upload: an upload's segments count for no later plan
     * until the checkpoint is registered, so the plans are those of the interleaved order.
     */
    private Map<String, SharedSegmentFiles.Upload> triggerCheckpoint(CompletedCheckpoint c, SharedStateRegistry registry) {
        Map<String, SharedSegmentFiles.Upload> plans = new TreeMap<>();
        Map<String, List<WriteObserver.Segment>> handle = new TreeMap<>();
        for (Map.Entry<String, TaskSnapshot> e : new TreeMap<>(c.taskSnapshots()).entrySet()) {
            SharedSegmentFiles.Upload u = SharedSegmentFiles.plan(c.id(), e.getKey(), e.getValue(), registry,
                    stagedSegments::get);
            plans.put(e.getKey(), u);
            handle.put(e.getKey(), u.refs().state().stream().map(r -> new WriteObserver.Segment(r.file(), r.index())).toList());
        }
        observer.triggerCheckpoint(c.id(), handle);
        return plans;
    }

    /**
     * Action {@code UploadFile}: the new segments of {@code task} in checkpoint {@code id} become
     * shared file {@code file}, its content synced; its name is made durable by the caller's
     * directory fsync, before the checkpoint's private file references it.
     */
    private void writeShared(long id, String task, String file, List<Object> segments) throws IOException {
        writeAndRename(IncrementalCodec.encodeShared(task, id, segments), dir.resolve(file + ".tmp"),
                dir.resolve(file), "shared");
        observer.uploadFile(id, task, file);
    }

    /**
     * Action {@code UploadFile} of a staged upload: the file {@code stagedFile} (written and synced
     * on a materialiser's or a task's thread: {@link #upload}, {@link #persist}) becomes shared
     * file {@code shared} of checkpoint {@code id} by a rename, made durable by the caller's
     * directory fsync before the checkpoint's private file references it.
     */
    private void takeOver(long id, String task, String stagedFile, String shared) throws IOException {
        files.rename(dir.resolve(stagedFile), dir.resolve(shared));
        List<Object> segments = staged.remove(stagedFile);
        if (segments != null) {
            segments.forEach(stagedSegments::remove);
        }
        changesFor.remove(stagedFile);
        observer.uploadFile(id, task, shared);
    }

    /**
     * Writes a materialisation's merged segments to a staged file of their own,
     * {@code materialised-<k>-<task>.seg} (written and fsynced: {@link #writeStaged}), on the
     * calling thread (the materialiser's) and without this store's lock, so that the coordinator
     * goes on storing meanwhile. The checkpoint that first holds them takes the file over (the
     * rename of {@code UploadFile}) instead of writing them. Until then it belongs to no
     * checkpoint: a restore or the run's end ({@link #endRun}) deletes it, a task that drops the
     * materialisation
     * {@link #discard}s it, and after a crash the next store deletes what a dead process staged
     * ({@link #deleteOrphans}).
     */
    @Override
    public boolean upload(String task, List<Object> segments) {
        return stage(task, segments, 0);
    }

    /**
     * Writes the segments of {@code snapshot}'s changelogs that no file of this store holds yet
     * (neither a registered checkpoint's shared file of {@code task}'s nor a staged upload) to a
     * staged file of their own, {@code changes-<k>-<task>.seg}, as {@link #upload} does: on the
     * calling thread (the task's, before it acknowledges {@code checkpoint}), without this
     * store's lock but to pick the segments and to reserve and register the file. The store of
     * the checkpoint then takes the file over by a rename, so that it writes only the private
     * file and the pointer. Staged changes no checkpoint took over are deleted when a
     * checkpoint at or above {@code checkpoint} completes ({@link #dropUnclaimedChanges}), at a
     * restore or the run's end, and after a crash by the next store's orphan sweep.
     */
    @Override
    public boolean persist(String task, long checkpoint, TaskSnapshot snapshot) {
        List<Object> fresh = new ArrayList<>();
        synchronized (this) {
            if (ended) {
                return false;
            }
            SharedStateRegistry registry;
            try {
                registry = registry();
            } catch (UncheckedIOException e) {
                return false; // the store writes them itself, and reports the directory then
            }
            Set<Object> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (Object segment : uploadable(snapshot)) {
                IncrementalCodec.SegmentRef ref = registry.reusable(segment);
                boolean held = ref != null && SharedSegmentFiles.isTasks(ref.file(), task)
                        || stagedSegments.containsKey(segment);
                if (!held && seen.add(segment)) {
                    fresh.add(segment);
                }
            }
        }
        return stage(task, fresh, checkpoint);
    }

    /**
     * The segments of {@code s} a checkpoint's plan ({@link SharedSegmentFiles#plan}) may take over
     * as they are: the ledger's, and the state's unless it is written whole (a chain of several
     * segments without a named merge).
     */
    private static List<Object> uploadable(TaskSnapshot s) {
        List<Object> segments = new ArrayList<>();
        Changelog<byte[]> state = s.stateChangelog();
        if (state.length() == 1 || s.stateMerge() instanceof OperatorStateMerge) {
            segments.addAll(state.segments());
        }
        segments.addAll(s.ledgerChangelog().segments());
        return segments;
    }

    /**
     * Writes {@code segments} of {@code task} to a staged file: a materialisation's
     * ({@code checkpoint} 0) or a task's changes for {@code checkpoint}; true if it is written
     * and registered, false (and no file left) if not.
     */
    private boolean stage(String task, List<Object> segments, long checkpoint) {
        String name;
        long number;
        long generation;
        boolean changes = checkpoint != 0;
        synchronized (this) {
            if (ended || segments.isEmpty()) {
                return false;
            }
            number = ++materialisations;
            name = changes ? SharedSegmentFiles.changesName(number, task) : SharedSegmentFiles.stagedName(number, task);
            generation = stagedGeneration;
            staged.put(name, List.copyOf(segments)); // reserved: no orphan sweep deletes it while it is written
            if (changes) {
                changesFor.put(name, checkpoint);
            }
        }
        boolean written;
        try {
            writeStaged(IncrementalCodec.encodeShared(task, 0, segments), dir.resolve(name),
                    changes ? "changes" : "materialised");
            written = true;
        } catch (IOException | UncheckedIOException e) {
            written = false; // the store of the checkpoint that first holds them writes them
        }
        synchronized (this) {
            if (written && generation == stagedGeneration && !ended && staged.containsKey(name)) {
                for (int i = 0; i < segments.size(); i++) {
                    stagedSegments.put(segments.get(i), new SharedSegmentFiles.Staged(name, number, i));
                }
                return true;
            }
            dropStaged(name);
            return false;
        }
    }

    /**
     * Writes and syncs a staged file under its own name, without a temporary file, a rename or a
     * directory fsync: nothing reads a staged file but the store that takes it over, and only once
     * this write returned; its content is durable here, and its name when the takeover's rename
     * is made durable by the store's directory fsync. A crash or power loss before that leaves a
     * file (partial, or its name undone) that no checkpoint references, which the orphan sweep
     * deletes. So a task's staged write costs one fsync, on its own thread.
     */
    private void writeStaged(byte[] bytes, Path file, String write) throws IOException {
        observedUnderLock.beforeTempWrite(write, file, bytes);
        files.write(file, bytes);
        files.fsync(file);
        observedUnderLock.tempSynced(write); // a failure before here: the caller drops the file
    }

    /**
     * The tasks' staged changes for checkpoints up to {@code completed} that its store did not
     * take over: no later checkpoint holds them (a task's later snapshot holds the segments of
     * its earlier ones until a materialisation replaces them), so they are deleted, not left
     * for the run's end (an aborted or declined checkpoint's, FLINK-30461's leak).
     */
    private void dropUnclaimedChanges(long completed) {
        for (Map.Entry<String, Long> e : new ArrayList<>(changesFor.entrySet())) {
            if (e.getValue() <= completed) {
                dropStaged(e.getKey());
            }
        }
    }

    @Override
    public synchronized void discard(List<Object> segments) {
        for (Object segment : segments) {
            SharedSegmentFiles.Staged s = stagedSegments.get(segment);
            if (s != null) {
                dropStaged(s.file());
            }
        }
    }

    @Override
    public MaterialisedUploads materialisedUploads() {
        return this;
    }

    /** Deletes every staged upload no checkpoint took over, and stages no more. */
    @Override
    public synchronized void endRun() {
        ended = true;
        dropAllStaged();
    }

    /** A staged upload's file and entries gone (an upload being written deletes its file when it ends). */
    private void dropStaged(String name) {
        List<Object> segments = staged.remove(name);
        if (segments != null) {
            segments.forEach(stagedSegments::remove);
        }
        changesFor.remove(name);
        deleteQuietly(name);
    }

    private void dropAllStaged() {
        stagedGeneration++;
        new ArrayList<>(staged.keySet()).forEach(this::dropStaged);
    }

    private void deleteQuietly(String name) {
        try {
            files.delete(dir.resolve(name));
        } catch (IOException e) {
            // left behind: the next store's sweep, or the next process's, deletes it
        }
    }

    /**
     * The observer's windows of a staged upload's write, each called with this store's lock held
     * (its threading contract) though the write itself runs without it.
     */
    private final WriteObserver observedUnderLock = new WriteObserver() {
        @Override
        public void beforeTempWrite(String write, Path temp, byte[] bytes) throws IOException {
            synchronized (DirectoryCheckpointStore.this) {
                observer.beforeTempWrite(write, temp, bytes);
            }
        }

        @Override
        public void tempSynced(String write) {
            synchronized (DirectoryCheckpointStore.this) {
                observer.tempSynced(write);
            }
        }
    };

    /** The registry, rebuilt on first use from the private files in the directory. */
    private SharedStateRegistry registry() {
        if (registry == null) {
            registry = SharedStateRegistry.rebuilt(dir, checkpointIdsDescending());
        }
        return registry;
    }

    /**
     * Deletes the shared files no registered checkpoint references, and their temporary files: a
     * crash between {@code UploadFile} and the private file's write leaves them, and no
     * checkpoint will ever reference them (FLINK-30461). Called under the lock before a write, so
     * no upload of this store is in progress.
     */
    private void deleteOrphans(SharedStateRegistry registry) {
        for (String name : list()) {
            Matcher st = SharedSegmentFiles.STAGED_FILE.matcher(name);
            if (st.matches()) { // no private file references a staged file: a dead process's, or ours dropped
                String upload = st.group(3) == null ? name : name.substring(0, name.length() - ".tmp".length());
                if (!staged.containsKey(upload) && deleteQuietlyReported(name)) {
                    warnings.accept(dir.resolve(name) + ": staged upload of a materialisation no checkpoint took over deleted");
                }
                continue;
            }
            boolean temp = SharedSegmentFiles.SHARED_TEMP.matcher(name).matches();
            boolean orphan = SharedSegmentFiles.SHARED_FILE.matcher(name).matches() && registry.count(name) == 0;
            if ((temp || orphan) && registry.mayDelete(name) && deleteFile(name)) {
                warnings.accept(dir.resolve(name) + (temp ? ": leftover of an interrupted write removed"
                        : ": shared file no checkpoint references (its checkpoint's write was interrupted) deleted"));
            }
        }
    }

    /**
     * Action {@code DeleteFile}: shared file {@code name}, which no retained checkpoint
     * references, is deleted; false (reported) if it could not be.
     */
    private boolean deleteFile(String name) {
        try {
            files.delete(dir.resolve(name));
            registry.forget(name);
            observer.deleteFile(name);
            return true;
        } catch (IOException e) {
            warnings.accept(dir.resolve(name) + ": could not delete an unreferenced shared file: " + e);
            return false;
        }
    }

    private boolean deleteQuietlyReported(String name) {
        try {
            files.delete(dir.resolve(name));
            return true;
        } catch (IOException e) {
            warnings.accept(dir.resolve(name) + ": could not delete a staged upload no checkpoint took over: " + e);
            return false;
        }
    }

    /** Ids the last {@link #latest()} fell back past (guarded by this). */
    private final java.util.Set<Long> damaged = new java.util.TreeSet<>();

    @Override
    public synchronized java.util.Set<Long> damagedIds() {
        return java.util.Set.copyOf(damaged);
    }

    /** Action {@code RestoreCheckpoint}: the job reads back the newest restorable checkpoint. */
    @Override
    public synchronized Optional<CompletedCheckpoint> latest() {
        damaged.clear();
        dropAllStaged(); // the tasks restart from what this returns: no chain holds a staged segment any more
        Optional<CompletedCheckpoint> restored = LatestCheckpoint.find(dir, checkpointIdsDescending(), this::read,
                warnings, damaged);
        observer.restoreCheckpoint(restored.map(CompletedCheckpoint::id).orElse(0L));
        return restored;
    }

    /**
     * Ids named by checkpoint files in the directory, ascending, whether or not they decode (so a
     * coordinator starting above them never reuses one).
     */
    @Override
    public synchronized List<Long> retainedIds() {
        List<Long> ids = checkpointIdsDescending();
        java.util.Collections.reverse(ids);
        return ids;
    }

    // ---------------------------------------------------------------- internals

    static String fileName(long id) {
        return "chk-" + id + ".ckpt";
    }

    static byte[] pointerBytes(long id) {
        return PointerFile.bytes(id);
    }

    /** The id in a pointer file; a CorruptCheckpointException names the defect. */
    private long parsePointer(byte[] bytes) throws CorruptCheckpointException {
        return PointerFile.parse(bytes, dir.resolve(POINTER));
    }

    /** The id LATEST names, or 0 when it is missing or corrupt (then any new checkpoint replaces it). */
    private long pointedIdOrZero() {
        try {
            return parsePointer(Files.readAllBytes(dir.resolve(POINTER)));
        } catch (IOException e) {
            return 0;
        }
    }

    private CompletedCheckpoint read(Path file, long expectedId) throws IOException {
        return reader.read(file, expectedId, registry());
    }

    /**
     * Keeps the newest {@code retain} checkpoints that are restorable ({@link #verify}) and
     * subsumes older ones that are. Files that are not are never deleted and do not count as
     * retained. Every candidate is checked afresh (a few small files per store): the retention
     * rule is then exact, not a guess.
     */
    private void prune() {
        List<String> names = list(); // one listing for both: each one is a cost paid at every checkpoint
        List<Long> ids = checkpointIdsDescending(names);
        removeFinishedLeftovers(names, ids);
        int kept = 0;
        List<Long> expired = new ArrayList<>();
        for (long id : ids) {
            Path file = dir.resolve(fileName(id));
            boolean valid;
            if (undecodable.contains(id)) {
                valid = false; // reported already
            } else {
                try {
                    verify(file, id);
                    valid = true;
                } catch (IOException e) {
                    warnings.accept(LatestCheckpoint.describe(file, e) + "; not deleted, and not counted as retained");
                    undecodable.add(id);
                    if (!registry.isRegistered(id)) {
                        registry.unreadable(id); // what it references is unknown
                    }
                    valid = false;
                }
            }
            if (!valid) {
                continue;
            }
            if (kept < retain) {
                kept++;
            } else {
                expired.add(0, id);
            }
        }
        // Oldest first, as SubsumeCheckpoint takes them: several expire at once when a resume
        // keeps fewer than the run before it.
        expired.forEach(this::subsumeCheckpoint);
    }

    /**
     * Whether checkpoint {@code id}'s file is restorable, without reading its state: it decodes as
     * a checkpoint of this job and id, and every shared file it references exists (their checksums
     * are verified when it is restored). The file is read each time; it is decoded only if its
     * bytes differ from those decoded last time, which decode as they did then.
     *
     * @throws IOException the file cannot be read; a {@link CorruptCheckpointException} naming the
     *     file and why it is not restorable
     */
    private void verify(Path file, long id) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        Decoded d = decoded.get(id);
        if (d == null || !Arrays.equals(d.bytes(), bytes)) {
            decoded.remove(id); // first: a file that no longer decodes keeps no entry (it is never subsumed)
            d = new Decoded(bytes, reader.decodedSharedFiles(file, id, bytes));
            decoded.put(id, d);
        }
        reader.requireSharedFiles(file, d.sharedFiles());
    }

    /**
     * Action {@code SubsumeCheckpoint(id)}, then {@code UnregisterCheckpoint(id)} and
     * {@code DeleteFile} of each shared file no registered checkpoint references any more. Only
     * called once a newer checkpoint's private file and the pointer are durable
     * (SubsumedByDurableInv); the private file goes first, so a crash in between leaves
     * unreferenced shared files (deleted by the next store), never a checkpoint missing a file
     * (RetainedRestorableInv).
     */
    private void subsumeCheckpoint(long id) {
        Path file = dir.resolve(fileName(id));
        try {
            files.delete(file);
        } catch (IOException e) {
            warnings.accept(file + ": could not delete an expired checkpoint: " + e);
            return;
        }
        decoded.remove(id);
        observer.subsumeCheckpoint(id);
        List<String> unreferenced = registry.unregisterCheckpoint(id);
        observer.unregisterCheckpoint(id);
        for (String shared : unreferenced) {
            if (registry.mayDelete(shared)) {
                deleteFile(shared);
            }
        }
    }

    /**
     * Deletes {@code chk-<id>.tmp} files left by an interrupted write (a killed process) whose id
     * is at or below the newest checkpoint file: ids only count up, so no writer will ever finish
     * them, and without this every crash inside a write would leave one behind for good.
     */
    private void removeFinishedLeftovers(List<String> names, List<Long> ids) {
        long newest = ids.isEmpty() ? 0 : ids.get(0);
        for (String name : names) {
            Matcher m = LEFTOVER_CHECKPOINT_TEMP.matcher(name);
            if (m.matches() && Long.parseLong(m.group(1)) <= newest) {
                try {
                    files.delete(dir.resolve(name)); // a file operation of the store like any other: recorded too
                    warnings.accept(dir.resolve(name) + ": leftover of an interrupted write removed");
                } catch (IOException e) {
                    warnings.accept(dir.resolve(name) + ": could not remove a leftover temporary file: " + e);
                }
            }
        }
    }

    /**
     * Temp write, fsync, atomic rename, directory fsync: the order a crash at any point survives.
     * {@code write} names the write for the {@link WriteObserver}: {@code checkpoint} or {@code pointer}.
     */
    private void writeAtomically(byte[] bytes, Path temp, Path target, String write) throws IOException {
        writeAndRename(bytes, temp, target, write);
        files.fsyncDirectory(dir);
    }

    /**
     * Temp write, fsync, atomic rename, each window seen by the observer: the file's content is
     * durable, its name only after a directory fsync.
     */
    private void writeAndRename(byte[] bytes, Path temp, Path target, String write) throws IOException {
        try {
            observer.beforeTempWrite(write, temp, bytes);
            files.write(temp, bytes);
            files.fsync(temp);
            observer.tempSynced(write);
            files.rename(temp, target);
            observer.renamed(write);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temp); // our own partial write, never anyone's data
            } catch (IOException ignored) {
                // the temp file stays; it is reported as a leftover when the directory is next opened
            }
            throw e;
        }
    }

    private List<String> list() {
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = new ArrayList<>();
            files.forEach(p -> names.add(p.getFileName().toString()));
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list checkpoint directory " + dir + ": " + e, e);
        }
    }

    private List<Long> checkpointIdsDescending() {
        return checkpointIdsDescending(list());
    }

    /** The checkpoint ids {@code names} name, newest first. */
    private static List<Long> checkpointIdsDescending(List<String> names) {
        List<Long> ids = new ArrayList<>();
        for (String name : names) {
            Matcher m = CHECKPOINT_FILE.matcher(name);
            if (m.matches()) {
                ids.add(Long.parseLong(m.group(1)));
            }
        }
        ids.sort(java.util.Comparator.reverseOrder());
        return ids;
    }
}
