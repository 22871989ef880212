package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.SampleCheckpoints.sample;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryCheckpointStoreTest {

    @TempDir
    Path dir;

    final List<String> warnings = Collections.synchronizedList(new ArrayList<>());

    DirectoryCheckpointStore open(int retain) {
        return new DirectoryCheckpointStore(dir, retain, warnings::add);
    }

    DirectoryCheckpointStore storeAll(int retain, long... ids) {
        DirectoryCheckpointStore s = open(retain);
        for (long id : ids) {
            s.store(sample(id));
        }
        return s;
    }

    Set<String> files() throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    Path file(long id) {
        return dir.resolve("chk-" + id + ".ckpt");
    }

    void assertWarned(String... parts) {
        for (String w : warnings) {
            if (Arrays.stream(parts).allMatch(w::contains)) {
                return;
            }
        }
        throw new AssertionError("no warning containing " + Arrays.toString(parts) + " in " + warnings);
    }

    // ---------------------------------------------------------------- the happy path

    @Test
    void roundTripThroughTheDirectorySurvivesReopening() throws IOException {
        storeAll(3, 1);
        assertEquals(Set.of("LATEST", "chk-1.ckpt", "shared-1-count.seg", "shared-1-sink.seg"), files());
        assertEquals(Optional.of(sample(1)), open(3).latest());
        // The private file references each task's segments in the shared file of its task.
        assertEquals(Set.of("shared-1-count.seg", "shared-1-sink.seg"),
                IncrementalCodec.decodeMetadata(Files.readAllBytes(file(1)), "chk-1.ckpt").sharedFiles());
        assertEquals(List.of(), warnings);
    }

    @Test
    void anEmptyDirectoryHasNoLatestAndNoWarnings() {
        assertEquals(Optional.empty(), open(1).latest());
        assertEquals(List.of(), open(1).retainedIds());
        assertEquals(List.of(), warnings);
    }

    @Test
    void latestIsTheHighestIdEvenIfAnOlderOneIsStoredLater() {
        DirectoryCheckpointStore s = storeAll(3, 1, 3);
        s.store(sample(2));
        assertEquals(Optional.of(sample(3)), s.latest());
        assertEquals(List.of(1L, 2L, 3L), s.retainedIds());
    }

    @Test
    void keepsTheLastRetainCheckpoints() throws IOException {
        DirectoryCheckpointStore s = storeAll(2, 1, 2, 3, 4, 5);
        assertEquals(List.of(4L, 5L), s.retainedIds());
        assertEquals(Set.of("LATEST", "chk-4.ckpt", "chk-5.ckpt", "shared-4-count.seg", "shared-4-sink.seg",
                "shared-5-count.seg", "shared-5-sink.seg"), files());
        assertEquals(Optional.of(sample(5)), s.latest());
    }

    @Test
    void refusesToOverwriteAStoredIdAndLeavesItIntact() throws IOException {
        DirectoryCheckpointStore s = storeAll(3, 1);
        byte[] before = Files.readAllBytes(file(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.store(sample(1)));
        assertTrue(e.getMessage().contains("chk-1.ckpt"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file(1)));
    }

    // ---------------------------------------------------------------- damaged checkpoint files

    @Test
    void aTruncatedLatestIsReportedAndThePreviousOneUsed() throws IOException {
        storeAll(3, 1, 2);
        byte[] full = Files.readAllBytes(file(2));
        Files.write(file(2), Arrays.copyOf(full, full.length / 2));
        assertEquals(Optional.of(sample(1)), open(3).latest());
        assertWarned("chk-2.ckpt", "truncated: expected " + full.length + " bytes, found " + full.length / 2);
        assertWarned("using", "chk-1.ckpt");
        assertTrue(Files.exists(file(2)), "the damaged file must stay for inspection");
    }

    @Test
    void aBitFlippedLatestIsReportedAndThePreviousOneUsed() throws IOException {
        storeAll(3, 1, 2);
        byte[] bytes = Files.readAllBytes(file(2));
        bytes[bytes.length - 5] ^= 0x10;
        Files.write(file(2), bytes);
        assertEquals(Optional.of(sample(1)), open(3).latest());
        assertWarned("chk-2.ckpt", "checksum mismatch");
        assertTrue(Files.exists(file(2)));
    }

    /** Detection must notice a flipped bit anywhere in the file, not just in one place. */
    @Test
    void aFlippedBitAnywhereInTheLatestFileFallsBack() throws IOException {
        storeAll(3, 1, 2);
        byte[] good = Files.readAllBytes(file(2));
        for (int i = 0; i < good.length; i += 7) {
            byte[] bad = good.clone();
            bad[i] ^= (byte) (1 << (i % 8));
            Files.write(file(2), bad);
            warnings.clear();
            assertEquals(Optional.of(sample(1)), open(3).latest(), "byte " + i);
            assertWarned("chk-2.ckpt");
        }
    }

    @Test
    void badMagicAndUnsupportedVersionAreReported() throws IOException {
        storeAll(3, 1, 2, 3);
        Files.writeString(file(3), "definitely not a checkpoint");
        byte[] v3 = Files.readAllBytes(file(2));
        v3[7] = 3; // version 2 is the job-identity format; 3 does not exist
        Files.write(file(2), v3);
        assertEquals(Optional.of(sample(1)), open(3).latest());
        assertWarned("chk-3.ckpt", "bad magic");
        assertWarned("chk-2.ckpt", "unsupported version: 3");
    }

    @Test
    void aFileWhoseContentContradictsItsNameIsRefused() throws IOException {
        storeAll(3, 1, 2);
        Files.copy(file(1), file(2), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertEquals(Optional.of(sample(1)), open(3).latest());
        assertWarned("chk-2.ckpt", "holds checkpoint 1");
    }

    @Test
    void everyFileDamagedMeansInitialState() throws IOException {
        storeAll(3, 1);
        Files.write(file(1), new byte[0]);
        assertEquals(Optional.empty(), open(3).latest());
        assertWarned("chk-1.ckpt", "truncated");
    }

    // ---------------------------------------------------------------- the pointer

    @Test
    void aMissingPointerFallsBackToTheNewestValidFile() throws IOException {
        storeAll(3, 1, 2);
        Files.delete(dir.resolve("LATEST"));
        assertEquals(Optional.of(sample(2)), open(3).latest());
        assertWarned("LATEST", "missing");
    }

    @Test
    void aCorruptPointerFallsBackToTheNewestValidFileAndIsReplacedByTheNextStore() throws IOException {
        storeAll(3, 1, 2);
        Files.writeString(dir.resolve("LATEST"), "checkpoint 2 crc32c 00000000\n");
        assertEquals(Optional.of(sample(2)), open(3).latest());
        assertWarned("LATEST", "checksum mismatch");
        Files.writeString(dir.resolve("LATEST"), "chec");
        warnings.clear();
        DirectoryCheckpointStore s = open(3);
        assertEquals(Optional.of(sample(2)), s.latest());
        assertWarned("LATEST", "corrupt pointer", "'chec'");
        s.store(sample(3));
        warnings.clear();
        assertEquals(Optional.of(sample(3)), s.latest());
        assertEquals(List.of(), warnings);
    }

    @Test
    void aPointerToAMissingFileFallsBackToAnOlderOneOnly() throws IOException {
        storeAll(5, 1, 2, 3);
        Files.writeString(dir.resolve("LATEST"), new String(DirectoryCheckpointStore.pointerBytes(2),
                StandardCharsets.US_ASCII));
        Files.delete(file(2));
        // chk-3 is newer than the pointer: never committed, so not a fallback.
        assertEquals(Optional.of(sample(1)), open(5).latest());
        assertWarned("chk-2.ckpt", "named by LATEST", "missing");
    }

    @Test
    void aCheckpointRenamedButNotYetPointedToIsNotLatest() throws IOException {
        storeAll(5, 1);
        Files.write(file(2), CheckpointCodec.encode(sample(2))); // a crash between rename and pointer
        assertEquals(Optional.of(sample(1)), open(5).latest());
    }

    // ---------------------------------------------------------------- leftovers and bad input

    @Test
    void leftoverTempFilesAreReportedIgnoredAndKept() throws IOException {
        storeAll(3, 1);
        Files.write(dir.resolve("chk-2.tmp"), new byte[] {1, 2, 3});
        Files.write(dir.resolve("LATEST.tmp"), new byte[] {4});
        DirectoryCheckpointStore s = open(3);
        assertWarned("chk-2.tmp", "leftover");
        assertWarned("LATEST.tmp", "leftover");
        assertEquals(Optional.of(sample(1)), s.latest());
        assertEquals(List.of(1L), s.retainedIds());
        assertTrue(Files.exists(dir.resolve("LATEST.tmp")));
        s.store(sample(2)); // its own write replaces the leftover of the same name
        assertEquals(Optional.of(sample(2)), s.latest());
        assertFalse(Files.exists(dir.resolve("chk-2.tmp")));
    }

    @Test
    void nothingThatCannotBeParsedIsEverDeleted() throws IOException {
        DirectoryCheckpointStore s = storeAll(1, 1);
        Files.write(file(1), new byte[] {9, 9, 9});
        s.store(sample(2));
        s.store(sample(3));
        s.store(sample(4));
        // The shared files of the unreadable chk-1 are kept too: it may reference them.
        assertEquals(Set.of("LATEST", "chk-1.ckpt", "chk-4.ckpt", "shared-1-count.seg", "shared-1-sink.seg",
                "shared-4-count.seg", "shared-4-sink.seg"), files());
        assertArrayEquals(new byte[] {9, 9, 9}, Files.readAllBytes(file(1)));
        assertWarned("chk-1.ckpt", "not deleted");
        assertEquals(1, warnings.stream().filter(w -> w.contains("chk-1.ckpt")).count(), "reported once");
        Files.writeString(dir.resolve("notes.txt"), "mine");
        s.store(sample(5));
        assertTrue(Files.exists(dir.resolve("notes.txt")));
    }

    /** A damaged newer file must not count as retained, or the last good one would be deleted. */
    @Test
    void aDamagedFileDoesNotCountAsRetained() throws IOException {
        DirectoryCheckpointStore s = storeAll(1, 1, 3);
        Files.write(file(3), new byte[] {0});
        s.store(sample(2)); // older than 3: kept, since 3 is not valid
        assertEquals(Set.of("LATEST", "chk-2.ckpt", "chk-3.ckpt", "shared-2-count.seg", "shared-2-sink.seg",
                "shared-3-count.seg", "shared-3-sink.seg"), files());
        assertEquals(Optional.of(sample(2)), s.latest());
    }

    @Test
    void aPathThatIsAFileIsRefusedNamingIt() throws IOException {
        Path notADir = Files.writeString(dir.resolve("plain"), "x");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DirectoryCheckpointStore(notADir, 1, warnings::add));
        assertTrue(e.getMessage().contains(notADir.toString()) && e.getMessage().contains("not a directory"),
                e.getMessage());
        Path below = notADir.resolve("sub");
        UncheckedIOException u = assertThrows(UncheckedIOException.class,
                () -> new DirectoryCheckpointStore(below, 1, warnings::add));
        assertTrue(u.getMessage().contains(below.toString()), u.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DirectoryCheckpointStore(dir, 0, warnings::add));
    }

    @Test
    void aFailedWriteLeavesThePreviousLatestIntact() throws IOException {
        DirectoryCheckpointStore s = storeAll(3, 1);
        Files.createDirectory(dir.resolve("chk-2.tmp")); // the temp file cannot be opened for writing
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> s.store(sample(2)));
        assertTrue(e.getMessage().contains("checkpoint 2"), e.getMessage());
        assertEquals(Optional.of(sample(1)), s.latest());
        assertEquals(List.of(1L), s.retainedIds());
    }

    // ---------------------------------------------------------------- with the coordinator

    @Test
    void recoveryThroughTheCoordinatorSkipsACorruptLatest() throws IOException {
        DirectoryCheckpointStore s = open(3);
        Set<String> tasks = Set.of("s", "op");
        CheckpointCoordinator co = CheckpointCoordinator.forAligned(tasks, Set.of("s->op"), 1, s, () -> 0);
        List<CompletedCheckpoint> done = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            long c = co.triggerCheckpoint().orElseThrow();
            co.acknowledge(Acknowledgement.ofSource("s", c, 10 * c, java.util.Map.of(), 0));
            co.acknowledge(Acknowledgement.ofOperator("op", c,
                    new TaskSnapshot(new byte[] {(byte) c}, java.util.Map.of()),
                    java.util.Map.of(), java.util.Map.of(), 0, 0));
            done.add(co.completeCheckpoint(c).orElseThrow());
        }
        byte[] bytes = Files.readAllBytes(file(2));
        bytes[20] ^= 1;
        Files.write(file(2), bytes);
        assertEquals(Optional.of(done.get(0)), co.failAndRestore());
        assertWarned("chk-2.ckpt", "checksum mismatch");
        // A new coordinator on the same directory never reuses an id, not even a corrupt file's.
        CheckpointCoordinator next = CheckpointCoordinator.forAligned(tasks, Set.of("s->op"), 1, open(3), () -> 0);
        assertEquals(3, next.triggerCheckpoint().orElseThrow());
    }

    // ---------------------------------------------------------------- a reader racing a writer

    @Test
    void aReaderRacingAWriterNeverSeesAPartialCheckpoint() throws Exception {
        DirectoryCheckpointStore s = open(2);
        int n = 60;
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        Thread writer = new Thread(() -> {
            try {
                for (long id = 1; id <= n; id++) {
                    s.store(sample(id));
                }
            } catch (Throwable t) {
                failures.add(t);
            }
        });
        writer.start();
        long lastSeen = 0;
        while (lastSeen < n && failures.isEmpty()) {
            Optional<CompletedCheckpoint> c = s.latest();
            if (c.isPresent()) {
                long id = c.get().id();
                assertEquals(sample(id), c.get(), "checkpoint " + id + " read back differently");
                assertTrue(id >= lastSeen, "latest went back from " + lastSeen + " to " + id);
                lastSeen = id;
            }
        }
        writer.join();
        assertEquals(List.of(), failures);
        assertEquals(List.of(), warnings);
        assertEquals(n, lastSeen);
    }

    @Test
    void aCheckpointOfAnotherJobIsReportedAndNeverRestored() {
        DirectoryCheckpointStore a = new DirectoryCheckpointStore(dir, 3, warnings::add, "job-a");
        a.store(sample(1));
        DirectoryCheckpointStore b = new DirectoryCheckpointStore(dir, 3, warnings::add, "job-b");
        assertEquals(Optional.empty(), b.latest());
        assertWarned("chk-1.ckpt", "belongs to job job-a, not to job job-b");
        assertEquals(Optional.of(sample(1)), new DirectoryCheckpointStore(dir, 3, warnings::add, "job-a").latest());
    }

    @Test
    void leftoversOfInterruptedWritesAreRemovedOnceNoWriterCanFinishThem() throws IOException {
        storeAll(3, 1);
        Files.write(dir.resolve("chk-2.tmp"), new byte[] {1}); // a write killed midway
        DirectoryCheckpointStore s = open(3);
        assertTrue(Files.exists(dir.resolve("chk-2.tmp")), "kept while checkpoint 2 may still be written");
        s.store(sample(3));
        assertFalse(Files.exists(dir.resolve("chk-2.tmp")), "id 2 is below the newest stored: never finished");
        assertWarned("chk-2.tmp", "leftover of an interrupted write removed");
    }
}
