package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared-state registry's reference counting (the spec's {@code refCount}): a shared file is
 * deletable once the last registered checkpoint referencing it is unregistered, never before; a
 * segment is reusable only while a registered checkpoint references the file it is located in; a
 * checkpoint whose private file cannot be read protects every shared file uploaded up to it.
 */
class SharedStateRegistryTest {

    private static final String A = SharedSegmentFiles.name(1, "count");
    private static final String B = SharedSegmentFiles.name(2, "count");

    @TempDir
    Path dir;

    @Test
    void aFileSharedByTwoCheckpointsIsUnreferencedOnlyWhenBothAreUnregistered() {
        SharedStateRegistry r = new SharedStateRegistry();
        assertFalse(r.isRegistered(1));
        r.registerCheckpoint(1, Set.of(A));
        r.registerCheckpoint(2, Set.of(A, B));
        assertTrue(r.isRegistered(1));
        assertTrue(r.isRegistered(2));
        assertEquals(Map.of(A, 2, B, 1), r.counts());

        assertEquals(List.of(), r.unregisterCheckpoint(1), "checkpoint 2 still references " + A);
        assertFalse(r.isRegistered(1));
        assertEquals(1, r.count(A));
        assertEquals(Map.of(A, 1, B, 1), r.counts());

        assertEquals(List.of(A, B), r.unregisterCheckpoint(2));
        assertFalse(r.isRegistered(2));
        assertEquals(0, r.count(A));
        assertEquals(Map.of(), r.counts());
        assertEquals(List.of(), r.unregisterCheckpoint(2), "unregistering twice releases nothing more");
    }

    @Test
    void aSegmentIsReusableOnlyWhileARegisteredCheckpointReferencesItsFile() {
        SharedStateRegistry r = new SharedStateRegistry();
        Object segment = new byte[] {1};
        IncrementalCodec.SegmentRef ref = new IncrementalCodec.SegmentRef(A, 0);
        r.locate(segment, ref);
        assertNull(r.reusable(segment), "no registered checkpoint references " + A);
        r.registerCheckpoint(1, Set.of(A));
        assertEquals(ref, r.reusable(segment));
        r.unregisterCheckpoint(1);
        assertNull(r.reusable(segment), "the last reference to " + A + " is gone");
        assertNull(r.reusable(new byte[] {1}), "segments are located by identity");
    }

    @Test
    void forgettingAFileUnlocatesItsSegments() {
        SharedStateRegistry r = new SharedStateRegistry();
        Object segment = new byte[] {1};
        r.locate(segment, new IncrementalCodec.SegmentRef(A, 0));
        r.locate(segment, new IncrementalCodec.SegmentRef(A, 0)); // located again where it is: no change
        r.registerCheckpoint(1, Set.of(A));
        r.forget(A);
        assertNull(r.reusable(segment));
        r.forget(A); // nothing left to forget
        assertNull(r.reusable(segment));
    }

    @Test
    void forgettingAFileKeepsASegmentReUploadedElsewhere() {
        SharedStateRegistry r = new SharedStateRegistry();
        Object segment = new byte[] {1};
        IncrementalCodec.SegmentRef inB = new IncrementalCodec.SegmentRef(B, 3);
        r.locate(segment, new IncrementalCodec.SegmentRef(A, 0));
        r.locate(segment, inB);
        r.registerCheckpoint(1, Set.of(A));
        r.registerCheckpoint(2, Set.of(B));
        r.forget(A);
        assertEquals(inB, r.reusable(segment));
        r.forget(B);
        assertNull(r.reusable(segment));
    }

    @Test
    void anUnreadableCheckpointProtectsTheFilesUploadedUpToIt() {
        SharedStateRegistry r = new SharedStateRegistry();
        assertTrue(r.mayDelete(SharedSegmentFiles.name(1, "t")));
        r.unreadable(5);
        r.unreadable(3); // a lower one does not lower the bound
        assertFalse(r.mayDelete(SharedSegmentFiles.name(1, "t")));
        assertFalse(r.mayDelete(SharedSegmentFiles.name(5, "t")));
        assertTrue(r.mayDelete(SharedSegmentFiles.name(6, "t")));
    }

    @Test
    void rebuiltRegistersTheReadableCheckpointsAndMarksTheOthersUnreadable() throws IOException {
        String shared = SharedSegmentFiles.name(3, "count");
        IncrementalCodec.SegmentRef ref = new IncrementalCodec.SegmentRef(shared, 0);
        IncrementalCodec.TaskRefs refs = new IncrementalCodec.TaskRefs(1, 0, 0, "", List.of(ref), List.of(ref));
        Files.write(dir.resolve(DirectoryCheckpointStore.fileName(3)),
                IncrementalCodec.encodeMetadata(SampleCheckpoints.sample(3), "job", Map.of("count", refs)));
        Files.write(dir.resolve(DirectoryCheckpointStore.fileName(4)),
                CheckpointCodec.encode(SampleCheckpoints.sample(4), "job"));
        Files.write(dir.resolve(DirectoryCheckpointStore.fileName(7)), new byte[] {1, 2, 3});

        SharedStateRegistry r = SharedStateRegistry.rebuilt(dir, List.of(3L, 4L, 7L));
        assertTrue(r.isRegistered(3));
        assertFalse(r.isRegistered(4), "a whole checkpoint references no shared file");
        assertFalse(r.isRegistered(7));
        assertEquals(Map.of(shared, 1), r.counts());
        assertFalse(r.mayDelete(SharedSegmentFiles.name(7, "count")), "checkpoint 7's file is damaged");
        assertTrue(r.mayDelete(SharedSegmentFiles.name(8, "count")));

        SharedStateRegistry missing = SharedStateRegistry.rebuilt(dir, List.of(9L));
        assertFalse(missing.mayDelete(SharedSegmentFiles.name(9, "count")), "checkpoint 9's file is missing");
    }
}
