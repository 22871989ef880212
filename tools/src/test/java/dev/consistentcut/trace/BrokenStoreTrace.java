package dev.consistentcut.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A test aid: the store trace of a broken store, which trace validation must reject. The fault
 * acts in the store's observer (the store itself is the real one): when a subsumed checkpoint is
 * unregistered, it deletes the shared files of the traced task that the checkpoint referenced
 * and a checkpoint still in the store references too, as a registry whose counts drop to zero
 * too early would (the bug RetainedRestorableInv forbids: a restore could not read them). Each
 * delete is recorded as the store's {@code DeleteFile}. {@code main(DIR)} writes
 * {@code DIR/broken-store-deletes-referenced.ndjson} for tests/trace-validation.sh (test classes
 * on the class path); StoreTraceTest checks its shape.
 *
 * <p>Threading contract: as {@link StoreTraceRecorder}: called with the store's lock held.
 */
final class BrokenStoreTrace extends StoreTraceRecorder {

    /** The run: retain 2, a failure after checkpoint 3; checkpoint 2's shared file is reused by 3 and 4. */
    static final StoreTraces.Settings SETTINGS = new StoreTraces.Settings("unaligned", 20, 1, 8, 2, 3, "count#0", 0);
    static final String NAME = "broken-store-deletes-referenced";

    private final Path dir;
    /** The traced task's shared files each checkpoint references. */
    private final Map<Long, Set<String>> filesOf = new TreeMap<>();
    /** The checkpoints in the store. */
    private final Set<Long> store = new TreeSet<>();

    private BrokenStoreTrace(Path dir) {
        super(dir, SETTINGS.task(), SETTINGS.retain());
        this.dir = dir;
    }

    /** Records the broken store's run with {@code dir} as its (empty) directory; returns the trace file. */
    static Path record(Path out, Path dir) {
        Path file = out.resolve(NAME + ".ndjson");
        StoreTraces.record(file, dir, SETTINGS, new BrokenStoreTrace(dir));
        return file;
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        System.out.println("wrote " + record(out, Files.createTempDirectory(out, "store-")));
    }

    @Override
    public void triggerCheckpoint(long checkpoint, Map<String, List<Segment>> stateSegments) {
        Set<String> files = new TreeSet<>();
        stateSegments.getOrDefault(SETTINGS.task(), List.of()).forEach(s -> files.add(s.file()));
        filesOf.put(checkpoint, files);
        super.triggerCheckpoint(checkpoint, stateSegments);
    }

    @Override
    public void completeCheckpoint(long checkpoint) {
        store.add(checkpoint);
        super.completeCheckpoint(checkpoint);
    }

    @Override
    public void subsumeCheckpoint(long checkpoint) {
        store.remove(checkpoint);
        super.subsumeCheckpoint(checkpoint);
    }

    /** The bug: the checkpoint's files that the store still needs go too. */
    @Override
    public void unregisterCheckpoint(long checkpoint) {
        super.unregisterCheckpoint(checkpoint);
        Set<String> stillReferenced = new TreeSet<>();
        store.forEach(c -> stillReferenced.addAll(filesOf.getOrDefault(c, Set.of())));
        for (String f : filesOf.getOrDefault(checkpoint, Set.of())) {
            try {
                if (stillReferenced.contains(f) && Files.deleteIfExists(dir.resolve(f))) {
                    deleteFile(f);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
