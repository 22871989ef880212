package dev.consistentcut.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TransactionalFileSink} on a real directory, step by step: pre-commit makes a transaction
 * durable but invisible, commit makes it visible by a rename, commits are idempotent, a restore
 * re-commits the restored checkpoint's transactions and aborts the rest, end of input pre-commits
 * for the next checkpoint, and a transaction that vanished is an error, not silent loss.
 */
class TransactionalFileSinkTest {

    @TempDir
    Path tmp;

    static Record rec(long offset) {
        return new Record(new RecordId("s#0", offset), offset % 3, offset * 10);
    }

    private TransactionalFileSink sink(FileSinkDirectory dir, byte[] state) {
        TransactionalFileSink s = new TransactionalFileSink(dir);
        if (state != null) {
            s.restoreState(state);
        }
        s.initializeState("sink#0", state != null);
        return s;
    }

    private static List<String> parts(FileSinkDirectory dir) {
        return dir.list().stream().filter(SinkFiles::isPart).toList();
    }

    private static List<String> temps(FileSinkDirectory dir) {
        return dir.list().stream().filter(SinkFiles::isTemp).toList();
    }

    @Test
    void preCommitIsDurableButInvisibleAndTheNotificationCommitsByRename() {
        FileSinkDirectory dir = new FileSinkDirectory(tmp.resolve("out"));
        TransactionalFileSink s = sink(dir, null);
        s.process(0, rec(0));
        s.process(0, rec(1));
        assertEquals(1, temps(dir).size(), "the open transaction is a temp file");
        s.preCommit(1);
        assertTrue(parts(dir).isEmpty(), "pre-committed, not visible");
        assertEquals(Map.of(1L, s.pendingTransactions().get(1L)), s.pendingTransactions());
        s.process(0, rec(2));
        s.preCommit(2);
        assertEquals(List.of(1L), s.notifyCheckpointComplete(1));
        assertEquals(1, parts(dir).size());
        assertTrue(parts(dir).get(0).startsWith("part-sink_0-000001-"), parts(dir).toString());
        assertEquals(Map.of(new RecordId("s#0", 0), 1, new RecordId("s#0", 1), 1), s.committed());
        assertEquals(List.of(2L), s.notifyCheckpointComplete(5), "every pending transaction up to the checkpoint");
        assertEquals(3, s.committed().size());
        assertTrue(s.settled());
        assertTrue(temps(dir).isEmpty());
        assertEquals(List.of(), s.notifyCheckpointComplete(6), "an empty transaction has no file and commits nothing");
    }

    @Test
    void aRestoreRecommitsTheRestoredTransactionsIdempotentlyAndAbortsTheRest() {
        FileSinkDirectory dir = new FileSinkDirectory(tmp.resolve("out"));
        TransactionalFileSink s = sink(dir, null);
        s.process(0, rec(0));
        s.preCommit(1);
        s.process(0, rec(1));
        s.preCommit(2);
        byte[] checkpoint2 = s.snapshotState(); // pending: 1 and 2
        s.notifyCheckpointComplete(1); // then 2's notification is lost to a failure
        s.process(0, rec(2));
        s.preCommit(3); // checkpoint 3 never completes
        s.process(0, rec(3)); // the open transaction
        assertEquals(3, temps(dir).size(), "2's, 3's and the open transaction");

        TransactionalFileSink restored = sink(dir, checkpoint2);
        assertEquals(List.of(), restored.pendingTransactions().keySet().stream().toList());
        assertTrue(temps(dir).isEmpty(), "3's transaction and the open one are aborted: " + dir.list());
        assertEquals(Map.of(new RecordId("s#0", 0), 1, new RecordId("s#0", 1), 1), restored.committed(),
                "1 stays committed once, 2 is re-committed");
        // The same checkpoint restored again (a second failure): nothing changes.
        TransactionalFileSink again = sink(dir, checkpoint2);
        assertEquals(restored.committed(), again.committed());
        assertEquals(2, parts(dir).size());
    }

    @Test
    void theInitialStateAbortsWhatAnEarlierAttemptLeftAndKeepsOtherTasksFiles() {
        FileSinkDirectory dir = new FileSinkDirectory(tmp.resolve("out"));
        TransactionalFileSink s = sink(dir, null);
        s.process(0, rec(0));
        TransactionalFileSink other = new TransactionalFileSink(dir);
        other.initializeState("sink#1", false);
        other.process(0, rec(1));
        sink(dir, null);
        assertEquals(1, temps(dir).size(), "only sink#0's transaction is aborted: " + dir.list());
        assertTrue(temps(dir).get(0).startsWith(".txn-sink_1-"));
    }

    @Test
    void endOfInputPreCommitsForTheNextCheckpoint() {
        FileSinkDirectory dir = new FileSinkDirectory(tmp.resolve("out"));
        TransactionalFileSink s = sink(dir, null);
        s.process(0, rec(0));
        s.preCommit(4);
        s.process(0, rec(1));
        s.endOfInput();
        assertEquals(List.of(4L, 5L), s.pendingTransactions().keySet().stream().sorted().toList());
        assertEquals(List.of(4L), s.notifyCheckpointComplete(4), "4 holds the sink's earlier snapshot, not its final state");
        assertEquals(List.of(5L), s.notifyCheckpointComplete(7));
        assertTrue(s.settled());
    }

    @Test
    void aVanishedTransactionIsAnErrorAndABadStateIsRefused() throws Exception {
        FileSinkDirectory dir = new FileSinkDirectory(tmp.resolve("out"));
        TransactionalFileSink s = sink(dir, null);
        s.process(0, rec(0));
        s.preCommit(1);
        for (String t : temps(dir)) {
            Files.delete(tmp.resolve("out").resolve(t));
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.notifyCheckpointComplete(1));
        assertTrue(e.getMessage().contains("is lost"), e.getMessage());
        TransactionalFileSink fresh = new TransactionalFileSink(dir);
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> fresh.restoreState(new byte[] {1, 2}));
        assertTrue(bad.getMessage().contains("truncated or malformed"), bad.getMessage());
        assertThrows(IllegalStateException.class, () -> new TransactionalFileSink(dir).process(0, rec(0)),
                "a sink is initialized before it writes");
    }

    @Test
    void aCommitNeverReplacesAFile() {
        MemorySinkDirectory mem = new MemorySinkDirectory();
        mem.create("a").append(new byte[] {1});
        mem.create("b");
        assertThrows(SinkIoException.class, () -> mem.rename("a", "b"));
        FileSinkDirectory dir = new FileSinkDirectory(tmp.resolve("out"));
        dir.create("a").close();
        dir.create("b").close();
        assertThrows(SinkIoException.class, () -> dir.rename("a", "b"));
    }
}
