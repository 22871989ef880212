package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.RecordingSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shared segment files: a name says the uploader and the task (escaped, read back exactly), a
 * checkpoint uploads only the segments no registered checkpoint's file holds, and a private file
 * whose references do not fit the shared files is refused.
 */
class SharedSegmentFilesTest {

    @TempDir
    Path dir;

    private static IncrementalCodec.SegmentRef ref(long uploader, String task, int index) {
        return new IncrementalCodec.SegmentRef(SharedSegmentFiles.name(uploader, task), index);
    }

    private static IncrementalCodec.Metadata metadata(String task, List<IncrementalCodec.SegmentRef> state,
                                                      List<IncrementalCodec.SegmentRef> ledger) {
        CompletedCheckpoint c = SampleCheckpoints.sample(2);
        return new IncrementalCodec.Metadata("job", 2, c.sourceOffsets(),
                Map.of(task, new IncrementalCodec.TaskRefs(3, 1, 20, "", state, ledger)), c.channelState(), c.stats());
    }

    private void writeShared(String file, String task, long uploader, List<Object> segments) throws IOException {
        Files.write(dir.resolve(file), IncrementalCodec.encodeShared(task, uploader, segments));
    }

    private static void register(SharedStateRegistry registry, long id, SharedSegmentFiles.Upload u) {
        registry.registerCheckpoint(id, Set.of(u.file()));
        u.located().forEach(registry::locate);
    }

    @Test
    void namesEscapeTheTaskAndSayTheUploader() {
        assertEquals("shared-0-sink_0.seg", SharedSegmentFiles.name(0, "sink_0"));
        assertEquals("shared-10-sink%5B10%5D.seg", SharedSegmentFiles.name(10, "sink[10]"));
        assertEquals("shared-9-a%25b%20%C3%BC%2F.seg", SharedSegmentFiles.name(9, "a%b ü/"));
        assertEquals(10, SharedSegmentFiles.uploader(SharedSegmentFiles.name(10, "sink[10]")));
        assertEquals(9, SharedSegmentFiles.uploader("shared-9-t.seg.tmp"));
        assertEquals(-1, SharedSegmentFiles.uploader("chk-9.ckpt"));
    }

    @Test
    void aRestoredTaskNameIsTheOneEscaped() throws IOException {
        for (String task : List.of("sink[0]", "sink[9]", "sink/10 ü%", "-._")) {
            String file = SharedSegmentFiles.name(1, task);
            writeShared(file, task, 1, List.of(new byte[] {4, 2}, Map.of(new RecordId("src", 9), 1)));
            CompletedCheckpoint c = SharedSegmentFiles.assemble(
                    metadata(task, List.of(ref(1, task, 0)), List.of(ref(1, task, 1))), dir, "chk-2", new SharedStateRegistry());
            TaskSnapshot s = c.taskSnapshots().get(task);
            assertArrayEquals(new byte[] {4, 2}, s.operatorState(), task);
            assertEquals(Map.of(new RecordId("src", 9), 1), s.processed(), task);
        }
    }

    @Test
    void aPercentSignNotFollowedByTwoCharactersIsReadAsItself() throws IOException {
        String file = "shared-1-ab%4.seg";
        writeShared(file, "ab%4", 1, List.of(new byte[] {1}, Map.of()));
        IncrementalCodec.SegmentRef state = new IncrementalCodec.SegmentRef(file, 0);
        IncrementalCodec.SegmentRef ledger = new IncrementalCodec.SegmentRef(file, 1);
        CompletedCheckpoint c = SharedSegmentFiles.assemble(
                metadata("ab%4", List.of(state), List.of(ledger)), dir, "chk-2", new SharedStateRegistry());
        assertArrayEquals(new byte[] {1}, c.taskSnapshots().get("ab%4").operatorState());
    }

    @Test
    void aReferenceToNoSuchSegmentIsRefused() throws IOException {
        String task = "count";
        writeShared(SharedSegmentFiles.name(1, task), task, 1, List.of(new byte[] {1}, Map.of()));
        String pastTheEnd = assertThrows(CorruptCheckpointException.class, () -> SharedSegmentFiles.assemble(
                metadata(task, List.of(ref(1, task, 2)), List.of(ref(1, task, 1))), dir, "chk-2",
                new SharedStateRegistry())).defect();
        assertEquals("references segment 2 of shared file " + SharedSegmentFiles.name(1, task)
                + ", which has no such state segment", pastTheEnd);
        String stateAsLedger = assertThrows(CorruptCheckpointException.class, () -> SharedSegmentFiles.assemble(
                metadata(task, List.of(ref(1, task, 0)), List.of(ref(1, task, 0))), dir, "chk-2",
                new SharedStateRegistry())).defect();
        assertEquals("references segment 0 of shared file " + SharedSegmentFiles.name(1, task)
                + ", which has no such ledger segment", stateAsLedger);
    }

    @Test
    void missingNamesTheFirstAbsentSharedFile() throws IOException {
        String task = "count";
        writeShared(SharedSegmentFiles.name(1, task), task, 1, List.of(new byte[] {1}));
        assertNull(SharedSegmentFiles.missing(metadata(task, List.of(ref(1, task, 0)), List.of(ref(1, task, 0))).sharedFiles(), dir));
        assertEquals(SharedSegmentFiles.name(2, task), SharedSegmentFiles.missing(
                metadata(task, List.of(ref(1, task, 0)), List.of(ref(2, task, 0))).sharedFiles(), dir));
    }

    @Test
    void aSecondCheckpointUploadsOnlyTheNewSegmentsOfAMergedState() {
        SharedStateRegistry registry = new SharedStateRegistry();
        byte[] s0 = {0};
        byte[] s1 = {1};
        Map<RecordId, Integer> l0 = Map.of(new RecordId("src", 0), 1);
        StateMerge merge = new OperatorStateMerge(new RecordingSink());
        Changelog<byte[]> state = Changelog.base(s0, 1).writeState(s1, 1);
        Changelog<Map<RecordId, Integer>> ledger = Changelog.base(l0, 1);
        SharedSegmentFiles.Upload first = SharedSegmentFiles.plan(1, "t",
                TaskSnapshot.ofChangelogs(state, merge, 2, ledger, 1, 20), registry);
        assertEquals(SharedSegmentFiles.name(1, "t"), first.file());
        assertEquals(3, first.segments().size());
        assertSame(s0, first.segments().get(0));
        assertSame(s1, first.segments().get(1));
        assertSame(l0, first.segments().get(2));
        assertEquals(new IncrementalCodec.TaskRefs(2, 1, 20, RecordingSink.class.getName(),
                List.of(ref(1, "t", 0), ref(1, "t", 1)), List.of(ref(1, "t", 2))), first.refs());
        register(registry, 1, first);

        byte[] s2 = {2};
        Map<RecordId, Integer> l1 = Map.of(new RecordId("src", 1), 1);
        SharedSegmentFiles.Upload second = SharedSegmentFiles.plan(2, "t", TaskSnapshot.ofChangelogs(
                state.writeState(s2, 1), merge, 3, ledger.writeState(l1, 1), 2, 40), registry);
        assertEquals(List.of(s2, l1), second.segments());
        assertEquals(new IncrementalCodec.TaskRefs(3, 2, 40, RecordingSink.class.getName(),
                List.of(ref(1, "t", 0), ref(1, "t", 1), ref(2, "t", 0)),
                List.of(ref(1, "t", 2), ref(2, "t", 1))), second.refs());

        SharedSegmentFiles.Upload otherTask = SharedSegmentFiles.plan(2, "u",
                TaskSnapshot.ofChangelogs(state, merge, 2, ledger, 1, 20), registry);
        assertEquals(3, otherTask.segments().size(), "a task references its own shared files only");
    }

    @Test
    void aSingleSegmentStateIsReusedAsItIsWithoutAMerge() {
        SharedStateRegistry registry = new SharedStateRegistry();
        TaskSnapshot s = TaskSnapshot.ofChangelogs(Changelog.base(new byte[] {7}, 1),
                new OperatorStateMerge(new RecordingSink()), 1, Changelog.base(Map.of(), 0), 0, 0);
        SharedSegmentFiles.Upload first = SharedSegmentFiles.plan(1, "t", s, registry);
        assertEquals("", first.refs().merge(), "one segment is the whole state");
        register(registry, 1, first);
        SharedSegmentFiles.Upload second = SharedSegmentFiles.plan(2, "t", s, registry);
        assertEquals(List.of(), second.segments(), "both segments are in checkpoint 1's file");
        assertEquals(first.refs(), second.refs());
    }

    @Test
    void aMultiSegmentStateWhoseMergeHasNoNameGoesWhole() {
        StateMerge concatenation = segments -> {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            segments.forEach(out::writeBytes);
            return out.toByteArray();
        };
        TaskSnapshot s = TaskSnapshot.ofChangelogs(Changelog.base(new byte[] {5}, 1).writeState(new byte[] {6}, 1),
                concatenation, 2, Changelog.base(Map.of(), 0), 0, 0);
        SharedSegmentFiles.Upload u = SharedSegmentFiles.plan(1, "t", s, new SharedStateRegistry());
        assertEquals("", u.refs().merge());
        assertEquals(List.of(ref(1, "t", 0)), u.refs().state(), "one segment: the merged state");
        assertEquals(2, u.segments().size());
        assertArrayEquals(new byte[] {5, 6}, (byte[]) u.segments().get(0));
    }
}
