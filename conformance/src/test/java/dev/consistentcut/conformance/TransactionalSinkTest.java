package dev.consistentcut.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.sink2.Committer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two-phase-commit sink's writer and committer driven from the test thread, in the order
 * Flink's sink writer and committer operators call them (no Flink runtime): pre-commit in
 * prepareCommit, the snapshot, the commit on completion, a failure, the restore's re-commit of
 * the restored checkpoint's transaction, then end of input and the final checkpoint's commit.
 * The right sink leaves each record once in the committed output and passes the Java checks;
 * each broken twin is caught by them at what it breaks.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TransactionalSinkTest {

    @TempDir
    Path dir;

    /** A CommitRequest as Flink's committer operator hands it over: the committable, nothing else used. */
    private record Request(String committable) implements Committer.CommitRequest<String> {
        @Override
        public String getCommittable() {
            return committable;
        }

        @Override
        public int getNumberOfRetries() {
            return 0;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
        }

        @Override
        public void retryLater() {
        }

        @Override
        public void updateAndRetryLater(String committable) {
        }

        @Override
        public void signalAlreadyCommitted() {
        }
    }

    private static List<Committer.CommitRequest<String>> requests(Collection<String> names) {
        return names.stream().<Committer.CommitRequest<String>>map(Request::new).toList();
    }

    /** One run of the sink with twin {@code twin}: the events it logged, and the committed output at the end. */
    private TraceLog drive(RunSpec.Twin twin) throws Exception {
        RunSpec spec = RunSpec.of("aligned", "join", 1, 1).withTwin(twin).withTransactionalSink(true);
        TraceLog log = new TraceLog(new Topology(spec).header(1));
        Files.createDirectories(dir.resolve("pending"));
        Files.createDirectories(dir.resolve("committed"));
        log.sinkDir(dir);
        TraceLog.install(log);
        Rec a = new Rec("left#0", 0, 0, "join#0");
        Rec b = new Rec("right#0", 0, 0, "join#1");

        // attempt 0: a is written, pre-committed and snapshotted in checkpoint 1, which completes
        TransactionalSink.Writer w0 = new TransactionalSink.Writer(spec, 0, 0, 0, List.of());
        w0.write(a, null);
        w0.flush(false);
        Collection<String> txn1 = w0.prepareCommit();
        List<String> state1 = w0.snapshotState(1);
        new TransactionalSink.TxnCommitter(spec, 0, 0, 0).commit(requests(txn1));

        // a failure; attempt 1 restores checkpoint 1: the committer re-commits its transaction,
        // the writer its bag; b arrives, end of input, the final checkpoint 2 commits it
        new TransactionalSink.TxnCommitter(spec, 0, 1, 1).commit(requests(txn1));
        TransactionalSink.Writer w1 = new TransactionalSink.Writer(spec, 0, 1, 1, state1);
        w1.write(b, null);
        w1.flush(true);
        Collection<String> txn2 = w1.prepareCommit();
        w1.snapshotState(2);
        new TransactionalSink.TxnCommitter(spec, 0, 1, 1).commit(requests(txn2));
        // (not "finished": the run above is two records of the spec's 24, so the end's
        // exactly-once check, TraceChecksTest's, has nothing to say here)
        log.event("RunEnded", "job", 1, "finished", false, "output", log.committedOutput());
        return log;
    }

    private static List<Map<String, Object>> sinkEvents(TraceLog log, String event) {
        return log.events().stream().filter(e -> e.get("event").equals(event) && "sink#0".equals(e.get("task"))).toList();
    }

    private static List<Object> once(String... ids) {
        Map<String, Integer> m = new java.util.LinkedHashMap<>();
        for (String id : ids) {
            m.merge(id, 1, Integer::sum);
        }
        return TraceLog.bag(m);
    }

    @Test
    void theRightSinkCommitsEachTransactionOnceAndOnlyInTheCommitter() throws Exception {
        TraceLog log = drive(RunSpec.Twin.NONE);
        // the snapshot of checkpoint 1 shows nothing committed; its commit shows a; the restore's
        // re-commit writes no event and adds nothing; the end-of-input transaction is checkpoint 2's
        assertEquals(List.of(), sinkEvents(log, "SnapshotState").get(0).get("output"));
        List<Map<String, Object>> commits = sinkEvents(log, "NotifyCheckpointComplete");
        assertEquals(2, commits.size(), commits.toString());
        assertEquals(1L, commits.get(0).get("checkpoint"));
        assertEquals(once("left#0/0"), commits.get(0).get("output"));
        assertEquals(2L, commits.get(1).get("checkpoint"));
        assertEquals(once("left#0/0", "right#0/0"), log.committedOutput());
        assertEquals(List.of(), TraceChecks.transactions(RunSpec.of("aligned", "join", 1, 1).withTransactionalSink(true),
                new Topology(RunSpec.of("aligned", "join", 1, 1)), withCompletions(log.events())));
    }

    @Test
    void commitOnSnapshotMakesOutputVisibleAtTheSnapshot() throws Exception {
        TraceLog log = drive(RunSpec.Twin.COMMIT_ON_SNAPSHOT);
        assertEquals(once("left#0/0"), sinkEvents(log, "SnapshotState").get(0).get("output"));
        assertEquals(List.of(), sinkEvents(log, "NotifyCheckpointComplete"));
        List<String> v = TraceChecks.transactions(RunSpec.of("aligned", "join", 1, 1).withTransactionalSink(true),
                new Topology(RunSpec.of("aligned", "join", 1, 1)), withCompletions(log.events()));
        assertTrue(!v.isEmpty() && v.get(0).startsWith("the committed output changed outside a commit"), v.toString());
    }

    @Test
    void aCommitThatIsNotIdempotentAppendsAgainOnTheRestoresRecommit() throws Exception {
        TraceLog log = drive(RunSpec.Twin.COMMIT_NOT_IDEMPOTENT);
        Map<String, Integer> twice = new java.util.LinkedHashMap<>();
        twice.put("left#0/0", 2);
        twice.put("right#0/0", 1);
        assertEquals(TraceLog.bag(twice), log.committedOutput());
        List<String> v = TraceChecks.transactions(RunSpec.of("aligned", "join", 1, 1).withTransactionalSink(true),
                new Topology(RunSpec.of("aligned", "join", 1, 1)), withCompletions(log.events()));
        assertTrue(v.get(0).startsWith("NoDuplicateOutputInv"), v.toString());
    }

    /** The events, with the join notified of checkpoints 1 and 2 (what Flink's other tasks would show). */
    private static List<Map<String, Object>> withCompletions(List<Map<String, Object>> events) {
        List<Map<String, Object>> out = new java.util.ArrayList<>(events);
        for (long c = 1; c <= 2; c++) {
            Map<String, Object> e = new java.util.LinkedHashMap<>();
            e.put("event", "NotifyCheckpointComplete");
            e.put("task", "join#0");
            e.put("attempt", 1);
            e.put("checkpoint", c);
            out.add(0, e);
        }
        return out;
    }
}
