package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.SampleCheckpoints.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash ordering of {@link DirectoryCheckpointStore#store}: a write is stopped at each of its
 * file operations in turn (temp write, fsync, rename, directory fsync, pointer write, ..., pruning
 * deletes), and every directory state that crash may leave ({@link CrashSimulatingFiles}: the
 * process crash, and power losses losing unsynced contents and any suffix of the unsynced name
 * changes) is reopened. The claims, per state:
 * <ul>
 *   <li>the pointer names a complete, valid checkpoint: the reader needs no fallback (its only
 *       allowed warning is about a leftover temporary file);
 *   <li>that checkpoint is the previous one or the one being written;
 *   <li>once {@code store} has returned, it is the new one, whatever is lost after.
 * </ul>
 * A store that writes the pointer before the data ({@link BrokenPointerFirstDirectoryStore})
 * passes every test that only looks at what {@code latest()} returns (the fallback hides it); this
 * test catches it.
 */
class DirectoryCheckpointStoreCrashTest {

    interface StoreFactory {
        CheckpointStore open(Path dir, StoreFiles files);
    }

    @TempDir
    Path tmp;

    private int dirs;

    @Test
    void aCrashAtAnyOperationOfASecondCheckpointLeavesTheFirstOrTheSecond() throws IOException {
        Path initial = prepared(3, 1);
        List<String> violations = crashEverywhere(initial, (d, f) -> new DirectoryCheckpointStore(d, 3, w -> { }, f),
                sample(2), Optional.of(sample(1)), false);
        assertEquals(List.of(), violations);
    }

    @Test
    void aCrashWhilePruningLeavesTheNewCheckpoint() throws IOException {
        // retain 1: storing 3 deletes 2 (and the crash points include that delete).
        Path initial = prepared(1, 1, 2);
        List<String> violations = crashEverywhere(initial, (d, f) -> new DirectoryCheckpointStore(d, 1, w -> { }, f),
                sample(3), Optional.of(sample(2)), false);
        assertEquals(List.of(), violations);
    }

    @Test
    void aCrashDuringTheFirstCheckpointLeavesNoneOrTheFirst() throws IOException {
        Path initial = prepared(3);
        List<String> violations = crashEverywhere(initial, (d, f) -> new DirectoryCheckpointStore(d, 3, w -> { }, f),
                sample(1), Optional.empty(), true);
        assertEquals(List.of(), violations);
    }

    @Test
    void everyFileOperationOfAWriteIsACrashPoint() throws IOException {
        // The seam covers the whole write: temp write, fsync and rename of each task's shared
        // file, one directory fsync for all of them; temp write, fsync, rename, directory fsync
        // of the checkpoint's private file and of the pointer; then the pruning deletes (retain 1,
        // one older checkpoint: its private file first, then its shared files).
        Path initial = prepared(1, 1);
        Path work = copy(initial);
        CrashSimulatingFiles files = new CrashSimulatingFiles(work, -1);
        new DirectoryCheckpointStore(work, 1, w -> { }, files).store(sample(2));
        assertEquals(List.of(
                "write shared-2-count.seg.tmp", "fsync shared-2-count.seg.tmp",
                "rename shared-2-count.seg.tmp -> shared-2-count.seg",
                "write shared-2-sink.seg.tmp", "fsync shared-2-sink.seg.tmp",
                "rename shared-2-sink.seg.tmp -> shared-2-sink.seg", "fsync directory",
                "write chk-2.tmp", "fsync chk-2.tmp", "rename chk-2.tmp -> chk-2.ckpt", "fsync directory",
                "write LATEST.tmp", "fsync LATEST.tmp", "rename LATEST.tmp -> LATEST", "fsync directory",
                "delete chk-1.ckpt", "delete shared-1-count.seg", "delete shared-1-sink.seg"), files.log());
    }

    @Test
    void aStoreThatWritesThePointerFirstIsCaught() throws IOException {
        Path initial = prepared(3, 1);
        List<String> violations = crashEverywhere(initial, BrokenPointerFirstDirectoryStore::new,
                sample(2), Optional.of(sample(1)), false);
        assertTrue(violations.stream().anyMatch(v -> v.contains("CRASH before write chk-2.tmp")
                        && v.contains("chk-2.ckpt (named by LATEST): missing")),
                "the pointer-first store must be caught with its pointer naming a missing file: " + violations);
    }

    // ---------------------------------------------------------------- the harness

    /**
     * Crashes {@code store(next)} at operation 0, 1, 2, ... of a copy of {@code initial} until a
     * run completes, and checks every crash state. Returns one line per violation (empty: none).
     */
    private List<String> crashEverywhere(Path initial, StoreFactory factory, CompletedCheckpoint next,
            Optional<CompletedCheckpoint> previous, boolean firstCheckpoint) throws IOException {
        List<String> violations = new ArrayList<>();
        for (int k = 0; ; k++) {
            Path work = copy(initial);
            CrashSimulatingFiles files = new CrashSimulatingFiles(work, k);
            boolean completed;
            try {
                factory.open(work, files).store(next);
                completed = true;
            } catch (CrashSimulatingFiles.Crash expected) {
                completed = false;
            }
            List<Map<String, byte[]>> states = files.crashStates();
            for (int s = 0; s < states.size(); s++) {
                String where = (completed ? "after store returned" : "crash at operation " + k)
                        + ", " + (s == 0 ? "process crash" : "power loss #" + s) + ", operations " + files.log();
                check(materialize(states.get(s)), next, previous, completed, firstCheckpoint, where, violations);
            }
            if (completed) {
                assertTrue(k >= 8, "a write has at least 8 file operations; saw " + files.log());
                return violations;
            }
        }
    }

    private static void check(Path dir, CompletedCheckpoint next, Optional<CompletedCheckpoint> previous,
            boolean completed, boolean firstCheckpoint, String where, List<String> violations) {
        List<String> warnings = new ArrayList<>();
        Optional<CompletedCheckpoint> found = new DirectoryCheckpointStore(dir, 3, warnings::add).latest();
        for (String w : warnings) {
            boolean leftover = w.contains("leftover temporary file");
            // Before the very first pointer exists, a complete checkpoint file without one is fine.
            boolean noPointerYet = firstCheckpoint && (w.contains("LATEST: missing") || w.startsWith("using "));
            if (!leftover && !noPointerYet) {
                violations.add(where + ": the reader had to fall back: " + w);
            }
        }
        Set<Optional<CompletedCheckpoint>> allowed = completed ? Set.of(Optional.of(next)) : Set.of(previous, Optional.of(next));
        if (!allowed.contains(found)) {
            violations.add(where + ": latest() is " + found.map(c -> "checkpoint " + c.id()).orElse("empty")
                    + ", expected " + (completed ? "checkpoint " + next.id() : "the previous or checkpoint " + next.id()));
        }
    }

    /** A directory with the given checkpoints stored by the real store. */
    private Path prepared(int retain, long... ids) {
        Path d = tmp.resolve("initial-" + dirs++);
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(d, retain, w -> { });
        for (long id : ids) {
            s.store(sample(id));
        }
        return d;
    }

    private Path copy(Path from) throws IOException {
        Path to = Files.createDirectory(tmp.resolve("work-" + dirs++));
        try (Stream<Path> files = Files.list(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.copy(p, to.resolve(p.getFileName()));
            }
        }
        return to;
    }

    private Path materialize(Map<String, byte[]> state) throws IOException {
        Path d = Files.createDirectory(tmp.resolve("state-" + dirs++));
        for (Map.Entry<String, byte[]> e : state.entrySet()) {
            Files.write(d.resolve(e.getKey()), e.getValue());
        }
        return d;
    }
}
