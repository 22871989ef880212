package dev.consistentcut.stress.harness;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.operator.Sum;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.RunObserver;
import dev.consistentcut.task.SourceTask;
import dev.consistentcut.task.Step;
import dev.consistentcut.task.Task;
import dev.consistentcut.testsupport.RecordingGateway;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The alternating mode's race: the alignment timeout racing the last barrier of an alignment, in alternating
 * mode, on the engine's own {@link SourceTask}s, {@link OperatorTask}, {@link Channel}s and
 * {@link CheckpointCoordinator}.
 *
 * <pre>
 *   s1 (keys 1, 2)       --FORWARD, capacity 4--\
 *                                                op (Sum, no outputs: its acknowledgement is the last)
 *   s2 (keys 3, 4, 5, 6) --FORWARD, capacity 4--/
 * </pre>
 *
 * <p>Set up single-threaded before the race: checkpoint 1 triggered; {@code s1} emitted a record,
 * injected barrier 1 and emitted its second record; {@code s2} emitted two records; op took
 * {@code s1}'s record and barrier, so it aligns checkpoint 1 with input 0 blocked, and two records
 * of {@code s2} wait on input 1 ahead of where its barrier will go.
 *
 * <p>The race, two actors (jcstress runs no more actors than the machine has CPUs, and CI has
 * two): upstream, {@code s2}'s thread injects the last barrier of checkpoint 1 (behind those two
 * records), emits one more record, and then the alignment timer of checkpoint 1 fires (a
 * volatile flag the gateway's {@code alignmentTimedOut} reads, as the threaded runtime's
 * coordinator thread wakes the tasks); so when the timer has fired the barrier is queued. Op's
 * task loop takes its enabled steps, an enabled {@code TimeoutAlignment} first (as the threaded
 * runtime's worker does), for a bounded number of rounds: it may take both records and the last
 * barrier before the timer (aligned), or time out with 0, 1 or 2 records still ahead of the
 * queued barrier. The arbiter then runs the job to its end.
 *
 * <p>Threading contract, as the engine's: the coordinator and the channels are thread-safe; each
 * task is confined to one thread at a time (the constructor's thread, one actor during the race,
 * the arbiter after it; jcstress orders these with happens-before).
 *
 * <p>Outcome {@code (r1, r2, r3, r4)}: r1 = checkpoint 1's final status (1 completed, 2 aborted, 3
 * still pending, 0 never triggered); r2 = 1 if it completed aligned, 2 if op switched it to
 * unaligned; r3 = the records persisted as channel state in checkpoint 1; r4 = invariant
 * violations of the finished run ({@code ConsistentCutInv}, {@code AlignedNoChannelStateInv} if it
 * did not switch, {@code ExactlyOnceInv}), -1 if the run could not finish, -2 if the engine threw.
 */
public final class TimeoutVersusLastBarrierScenario {

    static final String S1 = "s1#0";
    static final String S2 = "s2#0";
    static final String OP = "op#0";
    private static final JobGraph JOB = JobGraph.builder()
            .source("s1", InMemorySourceLog.ofKeys(1, 2))
            .source("s2", InMemorySourceLog.ofKeys(3, 4, 5, 6))
            .operator("op", 1, Sum::new)
            .edge("s1", "op", Partitioning.FORWARD, 4)
            .edge("s2", "op", Partitioning.FORWARD, 4)
            .build();
    private static final PhysicalGraph GRAPH = PhysicalGraph.of(JOB);
    private static final CutInvariants INVARIANTS = new CutInvariants(GRAPH);
    private static final int OP_ROUNDS = 5;
    private static final int ARBITER_ROUNDS = 200;

    private final CheckpointCoordinator coordinator;
    private final SourceTask s1;
    private final SourceTask s2;
    private final OperatorTask op;
    private final Map<String, Channel> channels = new ConcurrentHashMap<>();
    private final RecordingGateway gateway;
    private volatile boolean timerFired;
    private volatile RuntimeException failure;

    public TimeoutVersusLastBarrierScenario(BarrierMode mode) {
        for (PhysicalGraph.ChannelSpec c : GRAPH.channels()) {
            channels.put(c.id(), new Channel(c.id(), c.capacity()));
        }
        coordinator = CheckpointCoordinator.forUnaligned(Set.of(S1, S2, OP), channels.keySet(),
                new InMemoryCheckpointStore(3), () -> 0L);
        gateway = new RecordingGateway(coordinator, timeoutMillis -> timerFired);
        s1 = new SourceTask(S1, GRAPH, channels, mode, gateway, RunObserver.NONE);
        s2 = new SourceTask(S2, GRAPH, channels, mode, gateway, RunObserver.NONE);
        op = new OperatorTask(OP, GRAPH, channels, mode, gateway, RunObserver.NONE, true);
        coordinator.triggerCheckpoint();
        s1.emitRecord();
        s1.injectBarrier(1);
        s1.emitRecord();
        s2.emitRecord();
        s2.emitRecord();
        op.processRecord(0);
        op.receiveBarrier(0);
    }

    /** Actor: the last barrier of checkpoint 1 arrives on op's input 1, then one more record, then the timer fires. */
    public void upstream() {
        try {
            s2.injectBarrier(1);
            s2.emitRecord();
            timerFired = true;
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    /** Actor: op's task loop, a bounded number of rounds, an enabled TimeoutAlignment first. */
    public void taskLoop() {
        try {
            List<Step> steps = new ArrayList<>();
            for (int i = 0; i < OP_ROUNDS; i++) {
                steps.clear();
                op.enabledSteps(steps);
                if (!steps.isEmpty()) {
                    op.perform(steps.get(0).action() == Action.TIMEOUT_ALIGNMENT ? steps.get(0) : steps.get(i % steps.size()));
                }
            }
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    /** Arbiter: runs every task to the end, single-threaded, then judges. */
    public void judge(IIII_Result r) {
        boolean finished = finish();
        r.r1 = switch (coordinator.status(1)) {
            case COMPLETED -> 1;
            case ABORTED -> 2;
            case NONE -> 0;
            default -> 3;
        };
        r.r2 = coordinator.switched(1) ? 2 : 1;
        r.r3 = (int) gateway.completed().stream().filter(c -> c.id() == 1).mapToLong(CompletedCheckpoint::persistedRecordCount).sum();
        r.r4 = failure != null ? -2 : !finished ? -1 : violations();
    }

    /** The first exception the engine threw in this run, or null: for diagnosing a -2 outcome. */
    public RuntimeException failure() {
        return failure;
    }

    private void fail(RuntimeException e) {
        if (failure == null) {
            failure = e;
        }
    }

    private boolean finish() {
        try {
            List<Step> steps = new ArrayList<>();
            for (int round = 0; round < ARBITER_ROUNDS; round++) {
                boolean moved = false;
                for (Task t : List.of(s1, s2, op)) {
                    steps.clear();
                    t.enabledSteps(steps);
                    if (!steps.isEmpty()) {
                        t.perform(steps.get(0));
                        moved = true;
                    }
                }
                if (!moved) {
                    break;
                }
            }
        } catch (RuntimeException e) {
            fail(e);
        }
        return s1.exhausted() && s2.exhausted() && channels.values().stream().allMatch(Channel::isEmpty);
    }

    private int violations() {
        List<Violation> v = new ArrayList<>();
        for (CompletedCheckpoint c : gateway.completed()) {
            v.addAll(INVARIANTS.completedAlternating(c, coordinator.switched(c.id()), false, true));
        }
        v.addAll(INVARIANTS.exactlyOnce(Map.of(OP, op.processed())));
        return v.size();
    }
}
