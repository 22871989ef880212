package dev.consistentcut.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Java-side checks on hand-made traces (no Flink): each passes a right cut and output and
 * names the invariant a wrong one breaks, in the modes where the observable half applies.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TraceChecksTest {

    /** A join run of 12 records per source; every record goes to its key's join task and on to the sink. */
    private static RunSpec spec(String mode) {
        return new RunSpec(mode, "join", 0, 1, 12, 0, 0, RunSpec.Twin.NONE, false);
    }

    private static Map<String, Object> ev(String event, String task, Object... fields) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("event", event);
        e.put("task", task);
        e.put("attempt", 0);
        for (int i = 0; i < fields.length; i += 2) {
            e.put((String) fields[i], fields[i + 1]);
        }
        return e;
    }

    /** The bag task holds after both sources emitted {@code upTo} records, every record processed once. */
    private static List<Object> bagAt(RunSpec s, String task, int upTo) {
        Topology t = new Topology(s);
        Map<String, Integer> b = new LinkedHashMap<>();
        for (String src : s.sources()) {
            for (int off = 0; off < upTo; off++) {
                int n = t.paths(src, off, task);
                if (n > 0) {
                    b.put(src + "/" + off, n);
                }
            }
        }
        return TraceLog.bag(b);
    }

    /** A run cut by checkpoint 1 at offset {@code cut}, with operator bags taken after {@code processed} records, finished. */
    private static List<Map<String, Object>> run(RunSpec s, int cut, int processed) {
        List<Map<String, Object>> events = new ArrayList<>();
        for (String src : s.sources()) {
            events.add(ev("SnapshotState", src, "checkpoint", 1L, "offset", cut));
        }
        for (String op : new Topology(s).operators) {
            events.add(ev("SnapshotState", op, "checkpoint", 1L, "snapshot", bagAt(s, op, processed)));
        }
        events.add(ev("NotifyCheckpointComplete", "sink#0", "checkpoint", 1L));
        events.add(ev("InitializeState", "sink#0", "restored", 0L, "processed", bagAt(s, "sink#0", s.records())));
        events.add(ev("RunEnded", "job", "finished", true));
        return events;
    }

    @Test
    void aRightCutAndOutputPassInEveryMode() {
        for (String mode : RunSpec.MODES) {
            assertEquals(List.of(), TraceChecks.check(spec(mode), run(spec(mode), 6, 6)), mode);
        }
    }

    @Test
    void aBagMissingARecordOfTheCutBreaksNoSkipWhereItIsObservable() {
        // Aligned and at least once: nothing of the cut may be missing. Unaligned: the record may
        // be in channel state, which a user function cannot see: not a violation.
        assertTrue(TraceChecks.check(spec("aligned"), run(spec("aligned"), 6, 5)).get(0).startsWith("NoSkipInv"));
        assertTrue(TraceChecks.check(spec("at-least-once"), run(spec("at-least-once"), 6, 5)).get(0).startsWith("NoSkipInv"));
        assertEquals(List.of(), TraceChecks.check(spec("unaligned"), run(spec("unaligned"), 6, 5)));
    }

    @Test
    void aBagPastTheCutBreaksNoDoubleCountExceptAtLeastOnce() {
        for (String mode : List.of("aligned", "unaligned", "alternating")) {
            assertTrue(TraceChecks.check(spec(mode), run(spec(mode), 6, 7)).get(0).startsWith("NoDoubleCountInv"), mode);
        }
        assertEquals(List.of(), TraceChecks.check(spec("at-least-once"), run(spec("at-least-once"), 6, 7)));
    }

    @Test
    void aCheckpointNoTaskWasToldOfIsCutCheckedWhenItIsRetained() {
        // Flink completed checkpoint 1 (its _metadata was retained) but no task was notified of
        // it: the trace's check skips it, CheckpointReading checks its cut (cutsAt).
        RunSpec s = spec("aligned");
        List<Map<String, Object>> events = run(s, 6, 7);
        events.removeIf(e -> e.get("event").equals("NotifyCheckpointComplete"));
        assertEquals(List.of(), TraceChecks.check(s, events));
        List<String> v = TraceChecks.cutsAt(s, new Topology(s), events, java.util.Set.of(1L));
        assertTrue(!v.isEmpty() && v.get(0).startsWith("NoDoubleCountInv: checkpoint 1"), v.toString());
        assertEquals(List.of(), TraceChecks.cutsAt(s, new Topology(s), run(s, 6, 6), java.util.Set.of(1L)));
    }

    @Test
    void anOffsetPastTheLogIsAViolation() {
        List<String> v = TraceChecks.check(spec("unaligned"), run(spec("unaligned"), 13, 12));
        assertTrue(v.get(0).contains("past the end of its log"), v.toString());
    }

    @Test
    void theOutputMustHoldEveryRecordOnceOrAtLeastOnce() {
        RunSpec s = spec("aligned");
        List<Map<String, Object>> events = run(s, 6, 6);
        // the sink restored everything and then processed left#0/0 again: a duplicate
        events.add(events.size() - 1, ev("ProcessRecord", "sink#0", "channel", List.of("join#0", "sink#0"),
                "record", TraceLog.record("left#0", 0)));
        assertTrue(TraceChecks.check(s, events).get(0).startsWith("OutputExactlyOnceInv"));
        assertEquals(List.of(), TraceChecks.check(spec("at-least-once"), events));
        List<Map<String, Object>> lost = run(s, 6, 6);
        lost.set(lost.size() - 2, ev("InitializeState", "sink#0", "restored", 0L, "processed", bagAt(s, "sink#0", 11)));
        assertTrue(TraceChecks.check(spec("at-least-once"), lost).get(0).startsWith("OutputAtLeastOnceInv"));
    }

    @Test
    void anUnfinishedRunHasNoOutputToJudge() {
        List<Map<String, Object>> events = run(spec("aligned"), 6, 6);
        events.set(events.size() - 1, ev("RunEnded", "job", "finished", false));
        assertTrue(TraceChecks.check(spec("aligned"), events).get(0).contains("did not finish"));
    }

    @Test
    void aSourceSnapshotGoesBeforeTheFirstSnapshotItsBarrierCaused() {
        RunSpec s = spec("aligned");
        TraceLog log = new TraceLog(new Topology(s).header(1));
        log.event("EmitRecord", "left#0", 0, "record", TraceLog.record("left#0", 0), "offset", 1);
        log.event("ProcessRecord", "join#0", 0, "channel", List.of("left#0", "join#0"), "record", TraceLog.record("left#0", 0));
        log.event("SnapshotState", "join#0", 0, "checkpoint", 1L, "snapshot", List.of());
        log.event("SnapshotState", "left#0", 0, "checkpoint", 1L, "offset", 1);
        List<String> order = log.events().stream().map(e -> e.get("event") + " " + e.get("task")).toList();
        assertEquals(List.of("EmitRecord left#0", "ProcessRecord join#0", "SnapshotState left#0", "SnapshotState join#0"),
                order);
        // ... but never before the source's own previous event
        log.event("SnapshotState", "right#0", 0, "checkpoint", 2L, "offset", 0);
        log.event("EmitRecord", "left#0", 0, "record", TraceLog.record("left#0", 1), "offset", 2);
        log.event("SnapshotState", "left#0", 0, "checkpoint", 1L, "offset", 2);
        assertEquals("SnapshotState left#0", log.events().get(log.events().size() - 1).get("event") + " "
                + log.events().get(log.events().size() - 1).get("task"));
    }
    /**
     * A two-phase-commit sink's run: checkpoint 1 cut at offset 6, its transaction committed
     * (the first half of the records), then the final checkpoint 2's (the rest), finished.
     */
    private static List<Map<String, Object>> txRun(RunSpec s) {
        List<Map<String, Object>> events = new ArrayList<>(run(s, 6, 6));
        events.remove(events.size() - 1); // RunEnded, re-added with the output
        events.removeIf(e -> e.get("event").equals("NotifyCheckpointComplete"));
        events.add(ev("NotifyCheckpointComplete", "join#0", "checkpoint", 1L));
        events.add(ev("SnapshotState", "sink#0", "checkpoint", 1L, "snapshot", bagAt(s, "sink#0", 6), "output", List.of()));
        events.add(ev("NotifyCheckpointComplete", "sink#0", "checkpoint", 1L, "committed", List.of(1L), "output",
                bagAt(s, "sink#0", 6)));
        events.add(ev("NotifyCheckpointComplete", "join#0", "checkpoint", 2L));
        events.add(ev("NotifyCheckpointComplete", "sink#0", "checkpoint", 2L, "committed", List.of(2L), "output",
                bagAt(s, "sink#0", 12)));
        events.add(ev("RunEnded", "job", "finished", true, "output", bagAt(s, "sink#0", 12)));
        return events;
    }

    @Test
    void aTransactionalSinksRightCommitsPass() {
        RunSpec s = spec("aligned").withTransactionalSink(true);
        assertEquals(List.of(), TraceChecks.check(s, txRun(s)));
    }

    @Test
    void outputVisibleAtASnapshotIsACommitOutsideTheCommitter() {
        // commit-on-snapshot: the snapshot of checkpoint 1 already shows its transaction
        RunSpec s = spec("aligned").withTransactionalSink(true);
        List<Map<String, Object>> events = txRun(s);
        Map<String, Object> snap = events.stream().filter(e -> e.get("event").equals("SnapshotState")
                && e.get("task").equals("sink#0") && e.containsKey("output")).findFirst().orElseThrow();
        snap.put("output", bagAt(s, "sink#0", 6));
        List<String> v = TraceChecks.check(s, events);
        assertTrue(v.get(0).startsWith("the committed output changed outside a commit"), v.toString());
    }

    @Test
    void aCommitOfACheckpointThatDidNotCompleteIsAViolation() {
        RunSpec s = spec("aligned").withTransactionalSink(true);
        List<Map<String, Object>> events = txRun(s);
        events.removeIf(e -> e.get("event").equals("NotifyCheckpointComplete") && e.get("task").equals("join#0")
                && e.get("checkpoint").equals(2L));
        List<String> v = TraceChecks.check(s, events);
        assertTrue(v.get(0).startsWith("commit of a checkpoint that did not complete"), v.toString());
    }

    @Test
    void aRecommitThatAppendsAgainBreaksNoDuplicateOutput() {
        // commit-not-idempotent: after a restore the first half is in the output twice
        RunSpec s = spec("aligned").withTransactionalSink(true);
        List<Map<String, Object>> events = txRun(s);
        Map<String, Integer> twice = new LinkedHashMap<>();
        for (String src : s.sources()) {
            for (int off = 0; off < 12; off++) {
                twice.put(src + "/" + off, off < 6 ? 2 : 1);
            }
        }
        Map<String, Object> last = events.get(events.size() - 2);
        last.put("attempt", 1);
        last.put("output", TraceLog.bag(twice));
        events.get(events.size() - 1).put("attempt", 1);
        events.get(events.size() - 1).put("output", TraceLog.bag(twice));
        List<String> v = TraceChecks.check(s, events);
        assertTrue(v.stream().anyMatch(x -> x.startsWith("NoDuplicateOutputInv")), v.toString());
        assertTrue(v.stream().anyMatch(x -> x.startsWith("OutputExactlyOnceInv: the committed output")), v.toString());
    }

    /** A run with a fault of kind {@code f} on checkpoint 1 (the join declines it, or its snapshot is slow), then checkpoint 2 at the same cut. */
    private static List<Map<String, Object>> faultRun(RunSpec s) {
        List<Map<String, Object>> events = new ArrayList<>();
        for (String src : s.sources()) {
            events.add(ev("SnapshotState", src, "checkpoint", 1L, "offset", 6));
        }
        if (s.fault() == RunSpec.Fault.DECLINE) {
            events.add(ev("SnapshotState", "join#0", "checkpoint", 1L, "snapshot", bagAt(s, "join#0", 6), "fault",
                    "decline"));
        } else {
            events.add(ev("SnapshotState", "join#0", "checkpoint", 1L, "snapshot", bagAt(s, "join#0", 6), "fault",
                    "timeout", "slowMillis", RunSpec.SLOW_SNAPSHOT_MILLIS));
        }
        for (String t : List.of("left#0", "right#0", "join#0", "join#1", "sink#0")) {
            events.add(ev("NotifyCheckpointAborted", t, "checkpoint", 1L));
        }
        events.addAll(run(s, 6, 6).stream().map(e -> {
            Map<String, Object> c = new LinkedHashMap<>(e);
            if (c.containsKey("checkpoint")) {
                c.put("checkpoint", 2L);
            }
            return c;
        }).toList());
        return events;
    }

    private static RunSpec faultSpec(RunSpec.Fault f) {
        return new RunSpec("aligned", "join", 1, 1, 12, 0, 0, RunSpec.Twin.NONE, false, f, 1, 1);
    }

    @Test
    void aDeclinedOrExpiredCheckpointThatAbortsPasses() {
        for (RunSpec.Fault f : List.of(RunSpec.Fault.DECLINE, RunSpec.Fault.TIMEOUT)) {
            assertEquals(List.of(), TraceChecks.check(faultSpec(f), faultRun(faultSpec(f))), f.option());
        }
    }

    @Test
    void aDeclinedOrExpiredCheckpointThatCompletesIsAViolation() {
        // mutant: Flink completes the checkpoint the join declined (or that expired): the
        // notification of its completion contradicts the aborts and the fault
        for (RunSpec.Fault f : List.of(RunSpec.Fault.DECLINE, RunSpec.Fault.TIMEOUT)) {
            List<Map<String, Object>> events = faultRun(faultSpec(f));
            events.add(events.size() - 3, ev("NotifyCheckpointComplete", "sink#0", "checkpoint", 1L));
            List<String> v = TraceChecks.check(faultSpec(f), events);
            assertTrue(v.stream().anyMatch(x -> x.startsWith("checkpoint 1 completed (a task was notified")), v.toString());
            assertTrue(v.stream().anyMatch(x -> x.startsWith("checkpoint 1 completed, yet join#0 ")), v.toString());
        }
    }

    @Test
    void aRunWithoutItsFaultIsAViolation() {
        // a run whose fault did not happen (no slow snapshot) does not pass as one with it
        RunSpec t = faultSpec(RunSpec.Fault.TIMEOUT);
        List<Map<String, Object>> noFault = faultRun(t);
        noFault.forEach(e -> e.remove("fault"));
        assertEquals(List.of("the run shows 0 fault(s) of kind timeout, 1 were asked for"), TraceChecks.check(t, noFault));
    }

    @Test
    void aTaskManagerLossCountsByTheAttemptsItEnded() {
        RunSpec s = new RunSpec("aligned", "join", 1, 1, 12, 0, 0, RunSpec.Twin.NONE, false, RunSpec.Fault.TM_LOSS, 1, 1);
        List<Map<String, Object>> events = run(s, 6, 6);
        events.add(1, ev("FailTask", "join#1", "cause", "tm-loss", "taskManager", 1));
        events.add(2, ev("FailTask", "sink#0", "cause", "tm-loss", "taskManager", 1));
        for (int k = 3; k < events.size(); k++) {
            events.get(k).put("attempt", 1);
        }
        assertEquals(List.of(), TraceChecks.check(s, events));
        // no restart after the loss: the run is not the one asked for
        events.subList(3, events.size()).forEach(e -> e.put("attempt", 0));
        assertTrue(TraceChecks.check(s, events).get(0).startsWith("the run ended in attempt 0"));
    }

    /** A run with savepoint 2 at the cut of checkpoint 1 (its snapshots marked), finished. */
    private static List<Map<String, Object>> savepointRun(RunSpec s) {
        List<Map<String, Object>> events = run(s, 6, 6);
        List<Map<String, Object>> sp = new ArrayList<>();
        for (Map<String, Object> e : events) {
            if (e.get("event").equals("SnapshotState")) {
                Map<String, Object> c = new LinkedHashMap<>(e);
                c.put("checkpoint", 2L);
                c.put("savepoint", true);
                sp.add(c);
            }
        }
        events.addAll(events.size() - 2, sp);
        return events;
    }

    @Test
    void aSavepointNotifiedOrRestoredIsAViolation() {
        RunSpec s = new RunSpec("aligned", "join", 0, 1, 12, 0, 0, RunSpec.Twin.NONE, false, RunSpec.Fault.THROW, 0, 1,
                true);
        assertEquals(List.of(), TraceChecks.check(s, savepointRun(s)));
        // mutant: a task is told the savepoint completed (Flink 2.3 tells none)
        List<Map<String, Object>> notified = savepointRun(s);
        notified.add(notified.size() - 2, ev("NotifyCheckpointComplete", "join#0", "checkpoint", 2L));
        assertEquals(List.of("savepoint 2: join#0 was notified of its completion"), TraceChecks.check(s, notified));
        // mutant: the sink restores the savepoint (Flink 2.3 restores the latest checkpoint)
        List<Map<String, Object>> restored = savepointRun(s);
        restored.stream().filter(e -> e.get("event").equals("InitializeState")).forEach(e -> e.put("restored", 2L));
        assertTrue(TraceChecks.check(s, restored).contains("savepoint 2: sink#0 (attempt 0) restored from it on failover"));
        // a savepoint asked for and not taken
        List<Map<String, Object>> none = run(s, 6, 6);
        assertTrue(TraceChecks.check(s, none).get(0).startsWith("a savepoint was asked for, none is in the trace"));
    }

    @Test
    void aSavepointsCutIsJudged() {
        // the savepoint's bag holds a record past its cut: NoDoubleCountInv, though no task was notified of it
        RunSpec s = new RunSpec("aligned", "join", 0, 1, 12, 0, 0, RunSpec.Twin.NONE, false, RunSpec.Fault.THROW, 0, 1,
                true);
        List<Map<String, Object>> events = savepointRun(s);
        events.stream().filter(e -> Boolean.TRUE.equals(e.get("savepoint")) && e.get("task").equals("sink#0"))
                .forEach(e -> e.put("snapshot", bagAt(s, "sink#0", 7)));
        assertTrue(TraceChecks.check(s, events).get(0).startsWith("NoDoubleCountInv: checkpoint 2"),
                TraceChecks.check(s, events).toString());
    }

    @Test
    void aSavepointsCutIsExactInUnalignedModeToo() {
        // a savepoint is aligned even with unaligned checkpoints on (CheckpointOptions#forConfig):
        // a record of its cut missing from a bag is NoSkipInv there, though not for a checkpoint
        RunSpec s = new RunSpec("unaligned", "join", 0, 1, 12, 0, 0, RunSpec.Twin.NONE, false, RunSpec.Fault.THROW, 0, 1,
                true);
        assertEquals(List.of(), TraceChecks.check(s, savepointRun(s)));
        List<Map<String, Object>> events = savepointRun(s);
        events.stream().filter(e -> e.get("task").equals("sink#0") && e.get("event").equals("SnapshotState"))
                .forEach(e -> e.put("snapshot", bagAt(s, "sink#0", 5)));
        List<String> v = TraceChecks.check(s, events);
        assertTrue(v.size() > 0 && v.stream().allMatch(m -> m.startsWith("NoSkipInv: checkpoint 2")), v.toString());
    }

    /** A stop-with-savepoint spec: join, no failures. */
    private static RunSpec stopSpec(String mode) {
        return new RunSpec(mode, "join", 0, 1, 12, 0, 0, RunSpec.Twin.NONE, false, RunSpec.Fault.THROW, 0, 1, false,
                true);
    }

    /**
     * A run stopped with savepoint 1 at offset 6 (every task snapshots and is notified in attempt
     * 0), then the job restored from it (attempt 1): every task starts from the savepoint, the
     * sink processes the rest of the records, finished.
     */
    private static List<Map<String, Object>> stopRun(RunSpec s) {
        Topology t = new Topology(s);
        List<String> tasks = new ArrayList<>(s.sources());
        tasks.addAll(t.operators);
        List<Map<String, Object>> events = new ArrayList<>();
        for (String src : s.sources()) {
            events.add(ev("SnapshotState", src, "checkpoint", 1L, "offset", 6, "stopWithSavepoint", true));
        }
        for (String op : t.operators) {
            events.add(ev("SnapshotState", op, "checkpoint", 1L, "snapshot", bagAt(s, op, 6), "stopWithSavepoint", true));
        }
        for (String task : tasks) {
            events.add(ev("NotifyCheckpointComplete", task, "checkpoint", 1L));
        }
        events.add(ev("StopWithSavepoint", "job", "checkpoint", 1L));
        List<Map<String, Object>> second = new ArrayList<>();
        for (String src : s.sources()) {
            second.add(ev("InitializeState", src, "restored", 1L, "offset", 6));
        }
        for (String op : t.operators) {
            second.add(ev("InitializeState", op, "restored", 1L, "processed", bagAt(s, op, 6)));
        }
        for (String src : s.sources()) {
            for (int off = 6; off < s.records(); off++) {
                second.add(ev("ProcessRecord", "sink#0", "record", TraceLog.record(src, off)));
            }
        }
        second.add(ev("RunEnded", "job", "finished", true));
        second.forEach(e -> e.put("attempt", 1));
        events.addAll(second);
        return events;
    }

    @Test
    void aStopWithSavepointAndItsRestorePassInEveryMode() {
        for (String mode : RunSpec.MODES) {
            assertEquals(List.of(), TraceChecks.check(stopSpec(mode), stopRun(stopSpec(mode))), mode);
        }
    }

    @Test
    void aStopWithSavepointThatIsNotNotifiedRestoredOrTakenIsAViolation() {
        RunSpec s = stopSpec("aligned");
        // mutant: a task not told of the synchronous savepoint's completion (Flink tells every task)
        List<Map<String, Object>> unnotified = stopRun(s);
        unnotified.removeIf(e -> e.get("event").equals("NotifyCheckpointComplete") && e.get("task").equals("join#1"));
        assertEquals(List.of("savepoint 1 of the stop: join#1 (attempt 0) snapshotted it and was not notified of its"
                + " completion before the job ended"), TraceChecks.check(s, unnotified));
        // mutant: the second job's join#0 starts fresh instead of from the savepoint
        List<Map<String, Object>> fresh = stopRun(s);
        fresh.stream().filter(e -> e.get("event").equals("InitializeState") && e.get("task").equals("join#0"))
                .forEach(e -> {
                    e.put("restored", 0L);
                    e.put("processed", List.of());
                });
        assertEquals(List.of("the job after the stop: join#0 (attempt 1) restored 0, not the savepoint 1"),
                TraceChecks.check(s, fresh));
        // mutant: no stop in the trace
        List<Map<String, Object>> none = stopRun(s);
        none.removeIf(e -> e.get("event").equals("StopWithSavepoint"));
        assertTrue(TraceChecks.check(s, none).contains("a stop-with-savepoint was asked for, the trace has 0"
                + " StopWithSavepoint event(s)"));
        // mutant: the second job's sink takes a record of the savepoint's cut again: both jobs'
        // output together is not exactly once
        List<Map<String, Object>> twice = stopRun(s);
        Map<String, Object> again = ev("ProcessRecord", "sink#0", "record", TraceLog.record("left#0", 5));
        again.put("attempt", 1);
        twice.add(twice.size() - 1, again);
        assertEquals(List.of("OutputExactlyOnceInv: the output holds left#0/5 2 time(s), expected 1"),
                TraceChecks.check(s, twice));
        // at least once, the same run passes
        RunSpec alo = stopSpec("at-least-once");
        List<Map<String, Object>> twiceAlo = stopRun(alo);
        twiceAlo.add(twiceAlo.size() - 1, again);
        assertEquals(List.of(), TraceChecks.check(alo, twiceAlo));
    }
}
