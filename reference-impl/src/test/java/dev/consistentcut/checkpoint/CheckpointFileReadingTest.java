package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.operator.RecordingSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a checkpoint file outside a store's restore: a whole checkpoint of another job or with
 * another id than its name says is refused, a summary says what a whole file holds, and a state
 * merge is found again by its operator class's name (and only for a changelog operator class).
 */
class CheckpointFileReadingTest {

    @TempDir
    Path dir;

    private Path whole(long id, String job) throws IOException {
        Path file = dir.resolve(DirectoryCheckpointStore.fileName(id));
        Files.write(file, CheckpointCodec.encode(SampleCheckpoints.sample(id), job));
        return file;
    }

    @Test
    void aWholeCheckpointOfAnotherJobOrIdIsRefused() throws IOException {
        Path file = whole(4, "job-B");
        String otherJob = assertThrows(CorruptCheckpointException.class,
                () -> new CheckpointReader(dir, "job-A").read(file, 4, new SharedStateRegistry())).defect();
        assertEquals("belongs to job job-B, not to job job-A; never restored into another job", otherJob);
        String otherId = assertThrows(CorruptCheckpointException.class,
                () -> new CheckpointReader(dir, "job-B").read(file, 5, new SharedStateRegistry())).defect();
        assertEquals("holds checkpoint 4, but its name says 5", otherId);
        assertEquals(SampleCheckpoints.sample(4), new CheckpointReader(dir, "job-B").read(file, 4, new SharedStateRegistry()));
    }

    @Test
    void theSummaryOfAWholeCheckpoint() throws IOException {
        CompletedCheckpoint c = SampleCheckpoints.sample(6);
        assertEquals(new CheckpointFiles.Summary("job-A", 6, c.persistedRecordCount(), Set.of()),
                CheckpointFiles.summarize(whole(6, "job-A")));
        CheckpointSummary s = CheckpointSummary.of(c);
        assertEquals(new CheckpointSummary(6, c.sourceOffsets(), c.persistedRecordCount(), c.stats()), s);
        assertEquals(4, s.persistedRecordCount());
    }

    @Test
    void aMergeIsFoundByItsOperatorClassName() {
        StateMerge merge = OperatorStateMerge.named(RecordingSink.class.getName());
        assertNotNull(merge);
        assertEquals(RecordingSink.class.getName(), ((OperatorStateMerge) merge).name());
        assertSame(merge, OperatorStateMerge.named(RecordingSink.class.getName()), "one merge per class");
    }

    @Test
    void aClassThatIsNoChangelogOperatorHasNoMerge() {
        IllegalArgumentException notAnOperator = assertThrows(IllegalArgumentException.class,
                () -> OperatorStateMerge.named(String.class.getName()));
        assertEquals("state merge java.lang.String is no changelog operator class", notAnOperator.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> OperatorStateMerge.named("no.such.Operator"));
        assertTrue(unknown.getMessage().startsWith("state merge no.such.Operator cannot be made"), unknown.getMessage());
    }
}
