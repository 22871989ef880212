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
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.RunObserver;
import dev.consistentcut.task.SourceTask;
import dev.consistentcut.task.Step;
import dev.consistentcut.task.Task;
import dev.consistentcut.testsupport.RecordingGateway;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The job both lifecycle races run: one aligned operator task with two inputs, the
 * engine's own {@link SourceTask}s, {@link OperatorTask}, {@link Channel}s and
 * {@link CheckpointCoordinator} (aborts reach the tasks, Flink's lifecycle), on real threads.
 *
 * <pre>
 *   s1 (keys 1, 2)    --FORWARD, capacity 4--\
 *                                             op (Sum, no outputs: its acknowledgement is the last)
 *   s2 (keys 3, 4, 5) --FORWARD, capacity 4--/
 * </pre>
 *
 * <p>Threading contract, as the engine's: the coordinator is thread-safe and may be called from
 * any actor; each task is confined to one thread at a time (the constructor's thread for the
 * set-up, one actor during the race, the arbiter after it; jcstress orders these with
 * happens-before). The gateway completes a checkpoint on the thread whose acknowledgement was the
 * last, as the runtimes do, so a completion can race an abort on the coordinator.
 *
 * <p>What the operator did with checkpoint 1 is watched step by step ({@link #performOp}): how
 * its handling of checkpoint 1 ended ({@link #ENDED_ALIGNED}, {@link #ENDED_BY_NOTIFICATION},
 * {@link #ENDED_BY_NEWER_BARRIER}, {@link #ENDED_OTHERWISE}; 0 while it still handles it), and how
 * many of its inputs were still blocked right after that step (the spec: an abandoned alignment
 * unblocks every input at once).
 */
abstract class LifecycleRaceJob {

    static final String S1 = "s1#0";
    static final String S2 = "s2#0";
    static final String OP = "op#0";

    /** Column values for how the operator's handling of checkpoint 1 ended. */
    static final int ENDED_ALIGNED = 1;
    static final int ENDED_BY_NOTIFICATION = 2;
    static final int ENDED_BY_NEWER_BARRIER = 3;
    static final int ENDED_OTHERWISE = 4;

    private static final JobGraph JOB = JobGraph.builder()
            .source("s1", InMemorySourceLog.ofKeys(1, 2))
            .source("s2", InMemorySourceLog.ofKeys(3, 4, 5))
            .operator("op", 1, Sum::new)
            .edge("s1", "op", Partitioning.FORWARD, 4)
            .edge("s2", "op", Partitioning.FORWARD, 4)
            .build();
    private static final PhysicalGraph GRAPH = PhysicalGraph.of(JOB);
    private static final CutInvariants INVARIANTS = new CutInvariants(GRAPH);
    private static final int ARBITER_STEPS = 200;

    final CheckpointCoordinator coordinator;
    final SourceTask s1;
    final SourceTask s2;
    final OperatorTask op;
    private final Map<String, Channel> channels = new HashMap<>();
    private final RecordingGateway gateway;
    /** How the operator's handling of checkpoint 1 ended (0: not yet); written by the thread running op. */
    private int endedHow;
    /** Inputs of op blocked right after the step that ended its handling of checkpoint 1. */
    private int blockedAfterEnd;
    private volatile RuntimeException failure;

    LifecycleRaceJob(BarrierMode mode) {
        for (PhysicalGraph.ChannelSpec c : GRAPH.channels()) {
            channels.put(c.id(), new Channel(c.id(), c.capacity()));
        }
        coordinator = CheckpointCoordinator.forAligned(Set.of(S1, S2, OP), channels.keySet(), 1,
                new InMemoryCheckpointStore(3), () -> 0L);
        gateway = new RecordingGateway(coordinator);
        s1 = new SourceTask(S1, GRAPH, channels, mode, gateway, RunObserver.NONE);
        s2 = new SourceTask(S2, GRAPH, channels, mode, gateway, RunObserver.NONE);
        op = new OperatorTask(OP, GRAPH, channels, mode, gateway, RunObserver.NONE, true);
    }

    /** The first exception the engine threw in this run, or null: for diagnosing a -2 outcome. */
    public RuntimeException failure() {
        return failure;
    }

    final void fail(RuntimeException e) {
        if (failure == null) {
            failure = e;
        }
    }

    /**
     * The operator's task loop for {@code attempts} rounds: each round it performs one enabled
     * step, round {@code i} choosing step {@code i mod n} of the {@code n} enabled (the abort
     * notification, when the coordinator has one, is listed first), so that runs vary which of
     * two enabled steps the task takes first, as a real task loop may.
     */
    final void opLoop(int attempts) {
        try {
            List<Step> steps = new ArrayList<>();
            for (int i = 0; i < attempts; i++) {
                steps.clear();
                op.enabledSteps(steps);
                if (!steps.isEmpty()) {
                    performOp(steps.get(i % steps.size()));
                }
            }
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    /** Performs one step of op, watching whether it ends the handling of checkpoint 1 (see the class comment). */
    final void performOp(Step step) {
        long before = op.handlerState().checkpointId();
        op.perform(step);
        if (before == 1 && op.handlerState().checkpointId() != 1 && endedHow == 0) {
            endedHow = switch (step.action()) {
                case RECEIVE_BARRIER -> step.checkpointId() == 1 ? ENDED_ALIGNED : ENDED_BY_NEWER_BARRIER;
                case NOTIFY_CHECKPOINT_ABORTED -> step.checkpointId() == 1 ? ENDED_BY_NOTIFICATION : ENDED_OTHERWISE;
                default -> ENDED_OTHERWISE;
            };
            for (int i = 0; i < op.inputCount(); i++) {
                blockedAfterEnd += op.isBlocked(i) ? 1 : 0;
            }
        }
    }

    /**
     * The arbiter's part: runs every task to the end, single-threaded (the actors are done), each
     * round every source's first enabled step, then one of op's: with {@code notificationsFirst}
     * op's first enabled step (an abort notification before its inputs), otherwise its last (its
     * inputs before a notification). Both orders are ones a task loop may take; the race decides
     * the state in which each is reached.
     *
     * @return whether the run finished: sources exhausted and every channel empty
     */
    final boolean finish(boolean notificationsFirst) {
        try {
            List<Step> steps = new ArrayList<>();
            for (int round = 0; round < ARBITER_STEPS; round++) {
                boolean moved = false;
                for (Task source : List.of(s1, s2)) {
                    steps.clear();
                    source.enabledSteps(steps);
                    if (!steps.isEmpty()) {
                        source.perform(steps.get(0));
                        moved = true;
                    }
                }
                steps.clear();
                op.enabledSteps(steps);
                if (!steps.isEmpty()) {
                    performOp(steps.get(notificationsFirst ? 0 : steps.size() - 1));
                    moved = true;
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

    /** 1 for COMPLETED, 2 for ABORTED, 0 for NONE, 3 for a checkpoint still PENDING. */
    final int status(long id) {
        CheckpointStatus s = coordinator.status(id);
        return switch (s) {
            case COMPLETED -> 1;
            case ABORTED -> 2;
            case NONE -> 0;
            default -> 3;
        };
    }

    final int endedHow() {
        return endedHow;
    }

    final int blockedAfterEnd() {
        return blockedAfterEnd;
    }

    /**
     * The invariants of the finished run: {@code ConsistentCutInv} and
     * {@code AlignedNoChannelStateInv} of every completed checkpoint, {@code ExactlyOnceInv} of
     * the final ledger.
     */
    final int violations() {
        List<Violation> v = new ArrayList<>();
        for (CompletedCheckpoint c : gateway.completed()) {
            v.addAll(INVARIANTS.consistentCut(c));
            v.addAll(INVARIANTS.alignedNoChannelState(c));
        }
        v.addAll(INVARIANTS.exactlyOnce(Map.of(OP, op.processed())));
        return v.size();
    }
}
