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
 * One aligned operator task with three inputs, racing its three sources (the engine's own tasks,
 * channels and coordinator on real threads), as {@link TwoInputScenario} does for two. Three inputs
 * matter: the alignment must wait for the last of three barriers with two inputs blocked, a case
 * two inputs never reach (a handler that assumes two inputs passes every two-input test).
 *
 * <pre>
 *   s1 (3 records) --FORWARD, capacity 4--\
 *   s2 (3 records) --FORWARD, capacity 4---op (Sum, no outputs)
 *   s3 (3 records) --FORWARD, capacity 4--/
 * </pre>
 *
 * Checkpoint 1 is triggered before the race. The producer thread runs the three sources: s1 emits
 * 1 record and its barrier, s2 emits 1 and its barrier, s3 emits 2 and its barrier (records of
 * every source follow each barrier, interleaved), so that two inputs are blocked while s3's records
 * still have to be taken. The consumer performs a bounded number of the operator's enabled steps;
 * the arbiter finishes the run single-threaded and judges it with the engine's {@link CutInvariants}.
 *
 * <p>Outcome {@code (r1, r2, r3, r4)}: r1, r2, r3 = records of s1, s2, s3 in the operator's
 * snapshot of checkpoint 1; r4 = invariant violations ({@code ConsistentCutInv},
 * {@code AlignedNoChannelStateInv}, {@code ExactlyOnceInv} of the finished run), or -1 if
 * checkpoint 1 did not complete, -2 if the engine threw.
 */
public final class ThreeInputScenario {

    public static final String S1 = "s1#0";
    public static final String S2 = "s2#0";
    public static final String S3 = "s3#0";
    public static final String OP = "op#0";

    private static final JobGraph JOB = JobGraph.builder()
            .source("s1", InMemorySourceLog.ofKeys(1, 2, 3))
            .source("s2", InMemorySourceLog.ofKeys(4, 5, 6))
            .source("s3", InMemorySourceLog.ofKeys(7, 8, 9))
            .operator("op", 1, Sum::new)
            .edge("s1", "op", Partitioning.FORWARD, 4)
            .edge("s2", "op", Partitioning.FORWARD, 4)
            .edge("s3", "op", Partitioning.FORWARD, 4)
            .build();
    private static final PhysicalGraph GRAPH = PhysicalGraph.of(JOB);
    private static final CutInvariants INVARIANTS = new CutInvariants(GRAPH);
    private static final int CONSUMER_ATTEMPTS = 16;

    private final CheckpointCoordinator coordinator;
    private final SourceTask s1;
    private final SourceTask s2;
    private final SourceTask s3;
    private final OperatorTask op;
    private volatile RuntimeException failure;

    /** @param mode an aligned mode (the engine's, or a broken twin) */
    public ThreeInputScenario(BarrierMode mode) {
        if (mode.overtaking()) {
            throw new IllegalArgumentException("ThreeInputScenario judges aligned modes; got " + mode.name());
        }
        Map<String, Channel> channels = new HashMap<>();
        for (PhysicalGraph.ChannelSpec c : GRAPH.channels()) {
            channels.put(c.id(), new Channel(c.id(), c.capacity()));
        }
        coordinator = CheckpointCoordinator.forAligned(Set.of(S1, S2, S3, OP), channels.keySet(), 1,
                new InMemoryCheckpointStore(2), () -> 0L);
        RecordingGateway gateway = new RecordingGateway(coordinator);
        s1 = new SourceTask(S1, GRAPH, channels, mode, gateway, RunObserver.NONE);
        s2 = new SourceTask(S2, GRAPH, channels, mode, gateway, RunObserver.NONE);
        s3 = new SourceTask(S3, GRAPH, channels, mode, gateway, RunObserver.NONE);
        op = new OperatorTask(OP, GRAPH, channels, mode, gateway, RunObserver.NONE, true);
        coordinator.triggerCheckpoint();
    }

    /** Producer actor: the three sources, one thread. */
    public void produce() {
        try {
            s1.emitRecord();
            s2.emitRecord();
            s3.emitRecord();
            s1.injectBarrier(1);
            s1.emitRecord();
            s2.injectBarrier(1);
            s3.emitRecord();
            s2.emitRecord();
            s3.injectBarrier(1);
            s1.emitRecord();
            s3.emitRecord();
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
                }
            }
        } catch (RuntimeException e) {
            failure = e;
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
        r.r3 = bySource.getOrDefault(S3, 0);
        List<Violation> violations = new ArrayList<>(INVARIANTS.consistentCut(c));
        violations.addAll(INVARIANTS.alignedNoChannelState(c));
        violations.addAll(INVARIANTS.exactlyOnce(Map.of(OP, op.processed())));
        r.r4 = violations.size();
    }
}
