package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.SampleCheckpoints.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exact warnings of {@link DirectoryCheckpointStore}: each problem is reported once, in words
 * that name the file and the defect. (DirectoryCheckpointStoreTest checks that a warning with the
 * right words exists; these check that there is no other, which mutation testing showed missing.)
 */
class DirectoryCheckpointStoreWarningsTest {

    @TempDir
    Path dir;

    final List<String> warnings = new ArrayList<>();

    DirectoryCheckpointStore open(int retain) {
        return new DirectoryCheckpointStore(dir, retain, warnings::add);
    }

    @Test
    void aCorruptPointedFileIsReportedOnceAndTheOlderOneUsed() throws IOException {
        DirectoryCheckpointStore s = open(3);
        s.store(sample(1));
        s.store(sample(2));
        Files.write(dir.resolve("chk-2.ckpt"), new byte[] {1, 2, 3, 4});
        assertEquals(Optional.of(sample(1)), open(3).latest());
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith(dir.resolve("chk-2.ckpt") + ": bad magic"), warnings.get(0));
        assertTrue(warnings.get(0).endsWith("; falling back to an older checkpoint"), warnings.get(0));
        assertEquals("using " + dir.resolve("chk-1.ckpt") + " instead", warnings.get(1));
        assertEquals(dir, s.directory());
    }

    @Test
    void anUnreadablePointerIsReportedAsUnreadableNotAsCorrupt() throws IOException {
        open(3).store(sample(1));
        Files.delete(dir.resolve("LATEST"));
        Files.createDirectory(dir.resolve("LATEST")); // reading it fails with an I/O error
        assertEquals(Optional.of(sample(1)), open(3).latest());
        assertTrue(warnings.get(0).startsWith(dir.resolve("LATEST") + ": cannot be read: "), warnings.toString());
    }

    @Test
    void aCorruptPointerIsQuotedInFullUpTo80Characters() throws IOException {
        open(3).store(sample(1));
        String eighty = "x".repeat(80);
        Files.writeString(dir.resolve("LATEST"), eighty, StandardCharsets.US_ASCII);
        open(3).latest();
        assertTrue(warnings.get(0).contains("'" + eighty + "'"), warnings.get(0));
        warnings.clear();
        Files.writeString(dir.resolve("LATEST"), eighty + "y", StandardCharsets.US_ASCII);
        open(3).latest();
        assertTrue(warnings.get(0).contains("'" + eighty + "...'"), warnings.get(0));
    }

    @Test
    void anExpiredCheckpointThatCannotBeDeletedIsReportedAndKept() {
        StoreFiles undeletable = new DeleteRefusingFiles(file -> true);
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 1, warnings::add, undeletable);
        s.store(sample(1));
        s.store(sample(2));
        assertEquals(List.of(dir.resolve("chk-1.ckpt") + ": could not delete an expired checkpoint: "
                + "java.nio.file.AccessDeniedException: " + dir.resolve("chk-1.ckpt")), warnings);
        assertEquals(Optional.of(sample(2)), s.latest());
    }

    @Test
    void anOlderFileThatDoesNotDecodeIsKeptAndReportedOnceWhenPruning() throws IOException {
        DirectoryCheckpointStore s = open(1);
        s.store(sample(1));
        Files.write(dir.resolve("chk-1.ckpt"), new byte[] {9});
        s.store(sample(2));
        s.store(sample(3));
        assertTrue(Files.exists(dir.resolve("chk-1.ckpt")), "undecodable files are never deleted");
        assertEquals(List.of(1L, 3L), s.retainedIds());
        assertEquals(1, warnings.stream().filter(w -> w.contains("not deleted, and not counted as retained")).count(),
                warnings.toString());
    }

    @Test
    void aLeftoverOfTheNewestIdIsRemovedTooSinceTheStoreNeverRewritesAnIdItHolds() throws IOException {
        DirectoryCheckpointStore s = open(3);
        s.store(sample(3));
        Files.write(dir.resolve("chk-3.tmp"), new byte[] {1}); // as a write of 3 killed midway would leave it
        s.store(sample(2)); // an id below the newest: 3 stays the newest, and 3 is never written again
        assertFalse(Files.exists(dir.resolve("chk-3.tmp")), "ids at or below the newest are finished");
        assertEquals(List.of(dir.resolve("chk-3.tmp") + ": leftover of an interrupted write removed"), warnings);
        assertEquals(Optional.of(sample(3)), s.latest());
    }

    @Test
    void aLeftoverThatCannotBeRemovedIsReportedAndTheStoreCarriesOn() throws IOException {
        DirectoryCheckpointStore s = open(3);
        s.store(sample(1));
        Path stuck = Files.createDirectory(dir.resolve("chk-1.tmp")); // not empty: deleting it fails
        Files.write(stuck.resolve("inside"), new byte[] {1});
        s.store(sample(2));
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith(stuck + ": could not remove a leftover temporary file: "
                + "java.nio.file.DirectoryNotEmptyException"), warnings.get(0));
        assertTrue(Files.exists(stuck.resolve("inside")), "nothing inside it was touched");
        assertEquals(Optional.of(sample(2)), s.latest());
    }
}
