package dev.consistentcut.stress.harness;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.operator.Sum;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.RunObserver;
import dev.consistentcut.task.SourceTask;
import dev.consistentcut.task.Step;
import dev.consistentcut.testsupport.RecordingGateway;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * One operator task with two inputs, racing its two sources: the engine's own {@link SourceTask},
 * {@link OperatorTask}, {@link Channel} and {@link CheckpointCoordinator}, on real threads.
 *
 * <pre>
 *   s1 (3 records) --FORWARD, capacity 4--\
 *                                          op (Sum, no outputs)
 *   s2 (3 records) --FORWARD, capacity 4--/
 * </pre>
 *
 * Checkpoint 1 is triggered before the race. The producer thread runs both sources (each source
 * task stays on that one thread, as the task threading contract requires): {@code s1} emits 2
 * records, injects barrier 1, emits 1 more; {@code s2} emits 1, injects, emits 2; interleaved so
 * that a record after {@code s1}'s barrier is queued before {@code s2}'s barrier. The consumer
 * thread meanwhile performs a bounded number of the operator's enabled steps, as a task loop does.
 * The arbiter then finishes the run single-threaded and judges it with the engine's
 * {@link CutInvariants}, which state the spec's invariants.
 *
 * <p>Outcome {@code (r1, r2, r3, r4)}: r1, r2 = records of {@code s1}, {@code s2} in the
 * operator's snapshot; r3 = records persisted as channel state in checkpoint 1; r4 = number of
 * invariant violations ({@code ConsistentCutInv}; aligned: {@code AlignedNoChannelStateInv};
 * unaligned: {@code UnalignedNeverBlocksInv} after every consumer step; and {@code ExactlyOnceInv}
 * of the finished run), or -1 if checkpoint 1 did not complete, -2 if the engine threw.
 */
public final class TwoInputScenario {

    public static final String S1 = "s1#0";
    public static final String S2 = "s2#0";
    public static final String OP = "op#0";

    private static final JobGraph JOB = JobGraph.builder()
            .source("s1", InMemorySourceLog.ofKeys(1, 2, 3))
            .source("s2", InMemorySourceLog.ofKeys(4, 5, 6))
            .operator("op", 1, Sum::new)
            .edge("s1", "op", Partitioning.FORWARD, 4)
            .edge("s2", "op", Partitioning.FORWARD, 4)
            .build();
    private static final PhysicalGraph GRAPH = PhysicalGraph.of(JOB);
    private static final CutInvariants INVARIANTS = new CutInvariants(GRAPH);
    private static final int CONSUMER_ATTEMPTS = 12;

    private final BarrierMode mode;
    private final CheckpointCoordinator coordinator;
    private final SourceTask s1;
    private final SourceTask s2;
    private final OperatorTask op;
    private final List<Violation> blockedWhileUnaligned = new ArrayList<>();
    private volatile RuntimeException failure;

    /** The first exception the engine threw in this run, or null: for diagnosing a -2 outcome. */
    public RuntimeException failure() {
        return failure;
    }

    public TwoInputScenario(BarrierMode mode) {
        this.mode = mode;
        Map<String, Channel> channels = new HashMap<>();
        for (PhysicalGraph.ChannelSpec c : GRAPH.channels()) {
            channels.put(c.id(), new Channel(c.id(), c.capacity()));
        }
        Set<String> tasks = Set.of(S1, S2, OP);
        coordinator = mode.overtaking()
                ? CheckpointCoordinator.forUnaligned(tasks, channels.keySet(), new InMemoryCheckpointStore(2), () -> 0L)
                : CheckpointCoordinator.forAligned(tasks, channels.keySet(), 1, new InMemoryCheckpointStore(2), () -> 0L);
        RecordingGateway gateway = new RecordingGateway(coordinator);
        s1 = new SourceTask(S1, GRAPH, channels, mode, gateway, RunObserver.NONE);
        s2 = new SourceTask(S2, GRAPH, channels, mode, gateway, RunObserver.NONE);
        op = new OperatorTask(OP, GRAPH, channels, mode, gateway, RunObserver.NONE, true);
        coordinator.triggerCheckpoint();
    }

    /** Producer actor: both sources, one thread. */
    public void produce() {
        try {
            s1.emitRecord();
            s2.emitRecord();
            s1.emitRecord();
            s1.injectBarrier(1);
            s1.emitRecord();
            s2.injectBarrier(1);
            s2.emitRecord();
            s2.emitRecord();
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    /** Consumer actor: the operator's task loop, a bounded number of times, varying the input it prefers. */
    public void consume() {
        try {
            List<Step> steps = new ArrayList<>();
            for (int i = 0; i < CONSUMER_ATTEMPTS; i++) {
                steps.clear();
                op.enabledSteps(steps);
                if (!steps.isEmpty()) {
                    op.perform(steps.get(i % steps.size()));
                    checkNeverBlocks();
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    private void checkNeverBlocks() {
        if (mode.overtaking()) {
            blockedWhileUnaligned.addAll(CutInvariants.unalignedNeverBlocks(OP, op.inputCount(), op::isBlocked));
        }
    }

    /** Arbiter: runs the operator to the end (the producer is done), then judges. */
    public void judge(IIII_Result r) {
        try {
            List<Step> steps = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                steps.clear();
                op.enabledSteps(steps);
                if (steps.isEmpty()) {
                    break;
                }
                op.perform(steps.get(0));
                checkNeverBlocks();
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        if (failure != null) {
            r.r4 = -2;
            return;
        }
        CompletedCheckpoint c = coordinator.latestCompleted().orElse(null);
        if (c == null || c.id() != 1) {
            r.r4 = -1;
            return;
        }
        TaskSnapshot snap = c.taskSnapshots().get(OP);
        Map<String, Integer> bySource = snap.processed().entrySet().stream()
                .collect(Collectors.groupingBy(e -> e.getKey().source(), Collectors.summingInt(Map.Entry::getValue)));
        r.r1 = bySource.getOrDefault(S1, 0);
        r.r2 = bySource.getOrDefault(S2, 0);
        r.r3 = (int) c.persistedRecordCount();
        List<Violation> violations = new ArrayList<>(INVARIANTS.consistentCut(c));
        if (!mode.overtaking()) {
            violations.addAll(INVARIANTS.alignedNoChannelState(c));
        }
        violations.addAll(blockedWhileUnaligned);
        violations.addAll(INVARIANTS.exactlyOnce(Map.of(OP, op.processed())));
        r.r4 = violations.size();
    }
}
