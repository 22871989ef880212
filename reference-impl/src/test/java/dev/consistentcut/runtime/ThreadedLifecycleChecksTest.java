package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.check.LifecycleChecks;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.message.Record;
import dev.consistentcut.task.RunEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where the threaded runtime calls the step-by-step checks of order, restore point and status ({@link LifecycleChecks}), each
 * call shown needed by a run only it can judge: a resume whose channel state comes back out of
 * order (only the constructor looks at the channels before a failure), a restore after the disk
 * lost the newest checkpoint (the restore's {@code failed()} must move the restore point back
 * with it), a broken restore after which no coordinator step follows (only the restore's own
 * {@code checkAll()} sees it), and the paths that must not touch the checks when a run keeps no
 * ledgers (they are off: {@code lifecycle} is null). Outcomes only, never timing.
 */
@Timeout(60)
class ThreadedLifecycleChecksTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private static Set<String> names(RunResult r) {
        return r.violations().stream().map(Violation::invariant).collect(Collectors.toSet());
    }

    private static void assertNoCountingInvariantFailed(Set<String> names) {
        for (String counting : List.of(CutInvariants.NO_DOUBLE_COUNT, CutInvariants.NO_SKIP,
                CutInvariants.CONSISTENT_CUT, CutInvariants.EXACTLY_ONCE)) {
            assertFalse(names.contains(counting), counting + " failed too: " + names);
        }
    }

    /** {@code c} with every channel's state reversed (spec twin {@code BugRestoreReversed}). */
    private static CompletedCheckpoint reversed(CompletedCheckpoint c) {
        Map<String, List<Record>> out = new LinkedHashMap<>();
        c.channelState().forEach((ch, records) -> {
            List<Record> r = new ArrayList<>(records);
            Collections.reverse(r);
            out.put(ch, r);
        });
        return new CompletedCheckpoint(c.id(), c.sourceOffsets(), c.taskSnapshots(), out, c.stats());
    }

    /**
     * A store that holds, before anything is written to it, one checkpoint an earlier process
     * completed (a resume), and hands it back as given; afterwards an ordinary in-memory store.
     */
    private static final class ResumingStore extends ForwardingStore {
        private final CompletedCheckpoint resumed;

        ResumingStore(CompletedCheckpoint resumed) {
            super(3);
            this.resumed = resumed;
        }

        @Override
        public Optional<CompletedCheckpoint> latest() {
            return inner.latest().or(() -> Optional.of(resumed));
        }

        @Override
        public List<Long> retainedIds() {
            List<Long> ids = inner.retainedIds();
            return ids.isEmpty() ? List.of(resumed.id()) : ids;
        }
    }

    @Test
    void aResumeWhoseChannelStateComesBackOutOfOrderIsCaughtWithoutAFailure() {
        // The first checkpoint of a seeded unaligned simulation with two records of one source in
        // one channel's state, handed back reversed (DELIBERATELY BROKEN, as
        // BrokenOrderAndRestoreTwins.restoringChannelStateReversed) to a threaded run that
        // resumes from it and never fails: FifoChannelInv can only be seen at the constructor's
        // look at the channels as restored (the next look is after a failure).
        for (long seed = 0; seed < 200; seed++) {
            JobGraph job = Topologies.demo(seed);
            SimulationRuntime sim = new SimulationRuntime(job, BarrierHandlers.unaligned(),
                    RunOptions.builder().seed(seed).triggerProbability(0.1).maxCheckpoints(1).build());
            while (sim.completedCheckpoints().isEmpty() && sim.step()) {
                // run until the first checkpoint completes
            }
            if (sim.completedCheckpoints().isEmpty()) {
                continue;
            }
            CompletedCheckpoint bad = reversed(sim.completedCheckpoints().get(0));
            CutInvariants inv = new CutInvariants(PhysicalGraph.of(job));
            boolean outOfOrder = bad.channelState().entrySet().stream()
                    .anyMatch(e -> !inv.fifoChannel(e.getKey(), e.getValue()).isEmpty());
            if (!outOfOrder) {
                continue; // reversing no channel's state breaks its source order: no bug to catch
            }
            RunResult r = new ThreadedRuntime(Topologies.demo(seed), BarrierHandlers.unaligned(),
                    RunOptions.builder().checkpointInterval(MS).store(() -> new ResumingStore(bad)).build()).run();
            assertTrue(r.finished());
            assertEquals(0, r.failures());
            Set<String> names = names(r);
            assertTrue(names.contains(CutInvariants.FIFO_CHANNEL), "seed " + seed + ": " + r.violations());
            assertNoCountingInvariantFailed(names);
            return;
        }
        fail("no seed in 200 gave a first checkpoint whose reversed channel state is out of source order");
    }

    /**
     * A store whose newest checkpoint is found damaged at the restore (a corrupt newest file, as
     * the durable store reports it: {@link dev.consistentcut.checkpoint.CheckpointStore#damagedIds()}),
     * so the restore falls back to the one before. Not a bug: the spec's restore point never
     * loses a checkpoint to the disk, and the checks restart their claim from the store's answer.
     */
    private static final class LosingItsNewestAtTheRestore extends ForwardingStore {
        private final Map<Long, CompletedCheckpoint> kept = new HashMap<>();
        private final Set<Long> damaged = new TreeSet<>();
        private int reads;

        LosingItsNewestAtTheRestore() {
            super(3);
        }

        @Override
        public synchronized void store(CompletedCheckpoint c) {
            inner.store(c);
            kept.put(c.id(), c);
        }

        @Override
        public synchronized Optional<CompletedCheckpoint> latest() {
            List<Long> ids = new ArrayList<>(inner.retainedIds());
            if (reads++ > 0 && ids.size() >= 2 && damaged.isEmpty()) {
                damaged.add(ids.get(ids.size() - 1)); // read at the restore: the newest file is corrupt
            }
            ids.removeAll(damaged);
            return ids.isEmpty() ? Optional.empty() : Optional.of(kept.get(ids.get(ids.size() - 1)));
        }

        @Override
        public synchronized Set<Long> damagedIds() {
            return Set.copyOf(damaged);
        }
    }

    @Test
    void aRestoreThatFallsBackPastADamagedCheckpointIsNoViolation() {
        // One checkpoint in flight at a time (unaligned): 1 and 2 complete, the failure after the
        // second finds 2 damaged and restores 1. The restore's failed() drops 2 from the checks'
        // completed set and restarts the restore point from the store's answer; without that
        // the restore point would seem to move back (RestorePointMonotoneProp, RestorePointInv).
        List<String> progress = Collections.synchronizedList(new ArrayList<>());
        RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(200, 0, 4), BarrierHandlers.unaligned(),
                RunOptions.builder().checkpointInterval(MS).failAfterCheckpoint(2)
                        .store(LosingItsNewestAtTheRestore::new).progress(progress::add).build()).run();
        assertEquals(1, r.failures());
        assertTrue(progress.contains("failure 1: restored checkpoint 1"), progress.toString());
        assertEquals(List.of(), r.violations());
    }

    @Test
    void aBrokenRestoreAfterWhichNoCoordinatorStepComesIsCaughtByTheRestoresOwnCheck() {
        // DELIBERATELY BROKEN store (BrokenOrderAndRestoreTwins.keepingAnOlderRestorePoint): the
        // failure after checkpoint 2 restores checkpoint 1. When both were taken after every
        // source had read its whole log, the restored job has nothing left to do: no trigger
        // (input exhausted, no failure to come), no timeout (none set), nothing to complete, so
        // no coordinator step follows the restore and only its own checkAll() sees the older
        // restore point. Runs where checkpoint 1 came before the end of input are skipped.
        int records = 5;
        for (int attempt = 0; attempt < 10; attempt++) {
            RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(records, 0, 64), BarrierHandlers.aligned(),
                    RunOptions.builder().checkpointInterval(20 * MS).failAfterCheckpoint(2)
                            .store(BrokenOrderAndRestoreTwins::keepingAnOlderRestorePoint).build()).run();
            assertTrue(r.finished());
            assertEquals(1, r.failures());
            CheckpointSummary first = r.checkpoints().get(0);
            assertEquals(1, first.id());
            if (!first.sourceOffsets().values().stream().allMatch(o -> o == records)) {
                continue; // checkpoint 1 came before the end of input: triggers follow the restore
            }
            Set<String> names = names(r);
            assertTrue(names.contains(CutInvariants.RESTORE_POINT), "attempt " + attempt + ": " + r.violations());
            assertTrue(names.contains(CutInvariants.RESTORE_POINT_MONOTONE), r.violations().toString());
            assertNoCountingInvariantFailed(names);
            return;
        }
        fail("in 10 runs checkpoint 1 never came after the end of input");
    }

    @Test
    void anUntrackedRunTakesAFailedStoreWriteAndAFailureWithoutTheChecks() {
        // Without the processed ledgers the checks are off (no LifecycleChecks): a failed store
        // write (tolerated once) and the injected failure must not reach for them.
        RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(200, 0, 4), BarrierHandlers.unaligned(),
                RunOptions.builder().checkpointInterval(MS).trackProcessed(false)
                        .store(() -> new FailingStore(Set.of(2L))).tolerableFailedCheckpoints(1)
                        .failAfterCheckpoint(2).build()).run();
        assertTrue(r.finished());
        assertEquals(1, r.failures());
        assertEquals(List.of(1L, 3L), r.checkpoints().stream().map(CheckpointSummary::id).limit(2).toList());
        assertEquals(List.of(), r.violations());
    }

    @Test
    void anUntrackedRunTakesACompletionThatFindsItsCheckpointAbortedWithoutTheChecks() {
        // The first checkpoint every task has acknowledged (handed to the coordinator thread for
        // completion) is aborted before the coordinator completes it: the listener runs under
        // the trace lock, which the coordinator's steps take too, right after the step with the
        // last acknowledgement. The completion then finds it not pending and does nothing; with
        // the checks off it must not reach for them.
        ThreadedRuntime[] runtime = new ThreadedRuntime[1];
        AtomicLong abortedByTest = new AtomicLong();
        List<Long> triggered = new ArrayList<>(); // the observer's calls do not overlap (trace lock)
        RunResult r = (runtime[0] = new ThreadedRuntime(ThreadedRuntimeTest.demo(200, 0, 4), BarrierHandlers.unaligned(),
                RunOptions.builder().checkpointInterval(MS).trackProcessed(false).stepOrdering(StepOrdering.oneAtATime()).observer(e -> {
                    if (e instanceof RunEvent.TriggerCheckpoint t) {
                        triggered.add(t.checkpoint());
                    }
                    if (abortedByTest.get() != 0) {
                        return;
                    }
                    var coordinator = runtime[0].coordinator();
                    for (long c : triggered) {
                        if (coordinator.allAcknowledged(c) && coordinator.abortCheckpoint(c)) {
                            abortedByTest.set(c);
                            return;
                        }
                    }
                }).build())).run();
        assertTrue(r.finished());
        long c = abortedByTest.get();
        assertTrue(c > 0, "no checkpoint was ever acknowledged by every task");
        assertEquals(CheckpointStatus.ABORTED, runtime[0].coordinator().status(c));
        assertFalse(r.checkpoints().stream().anyMatch(cp -> cp.id() == c), r.checkpoints().toString());
        assertEquals(List.of(), r.violations());
    }
}
