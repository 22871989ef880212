package dev.consistentcut.stress.lincheck;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.stress.StressMode;
import dev.consistentcut.stress.broken.BrokenUnlockedCoordinator;
import dev.consistentcut.stress.harness.CoordinatorUnderTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.junit.jupiter.api.Test;

/**
 * {@link CheckpointCoordinator} (thread-safe: any thread, any method) is linearizable with respect
 * to {@link CoordinatorModel}: trigger, acknowledge, complete, abort, fail, latest completed,
 * status, in flight, the next barrier of a source.
 */
class CoordinatorLinearizabilityTest {

    /**
     * The acknowledgements, made once per (task, id): building them inside an operation would make
     * the model checker trace every collection their constructor touches, for nothing.
     */
    private static final Acknowledgement[][] ACKS = new Acknowledgement[CoordinatorModel.TASKS.length][4];

    static {
        for (int t = 0; t < CoordinatorModel.TASKS.length; t++) {
            for (int id = 1; id <= 3; id++) {
                ACKS[t][id] = Acknowledgement.ofSource(CoordinatorModel.TASKS[t], id, 0, Map.of(), 0);
            }
        }
    }

    static String outcome(Supplier<?> call) {
        try {
            return String.valueOf(call.get());
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    @Param(name = "task", gen = IntGen.class, conf = "0:2")
    @Param(name = "id", gen = IntGen.class, conf = "1:3")
    public static class EngineCoordinator {
        private final CheckpointCoordinator coordinator = CheckpointCoordinator.forAligned(
                CoordinatorModel.KNOWN, Set.of(), CoordinatorModel.MAX_CONCURRENT, new InMemoryCheckpointStore(10), () -> 0L);

        {
            // CoordinatorModel states the abort model in which an aborted checkpoint stays in
            // flight until every task acknowledged it (the spec's AbortsReachTasks = FALSE); the
            // model of Flink's (it leaves flight at once) is still to be written.
            coordinator.setAbortsReachTasks(false);
        }

        @Operation
        public long trigger() {
            return coordinator.triggerCheckpoint().orElse(-1);
        }

        @Operation
        public long nextBarrierFor(@Param(name = "task") int task) {
            try {
                return coordinator.nextBarrierFor(CoordinatorModel.TASKS[task]).orElse(-1);
            } catch (IllegalArgumentException unknownTask) {
                return -2;
            }
        }

        @Operation
        public String acknowledge(@Param(name = "task") int task, @Param(name = "id") int id) {
            return outcome(() -> coordinator.acknowledge(ACKS[task][id]).name());
        }

        @Operation
        public boolean complete(@Param(name = "id") int id) {
            return coordinator.completeCheckpoint(id).isPresent();
        }

        @Operation
        public boolean abort(@Param(name = "id") int id) {
            return coordinator.abortCheckpoint(id);
        }

        @Operation
        public long failAndRestore() {
            return coordinator.failAndRestore().map(CompletedCheckpoint::id).orElse(0L);
        }

        @Operation
        public long latestCompleted() {
            return coordinator.latestCompleted().map(CompletedCheckpoint::id).orElse(0L);
        }

        @Operation
        public CheckpointStatus status(@Param(name = "id") int id) {
            return coordinator.status(id);
        }

        @Operation
        public List<Long> inFlight() {
            return new ArrayList<>(coordinator.inFlight());
        }

        @Operation
        public List<Long> completedIds() {
            return new ArrayList<>(coordinator.completedIds());
        }
    }

    /**
     * The coordinator's decisions without its lock, checkpoint 1 triggered and acknowledged by both
     * tasks up front (so every scenario races its completion): must be rejected.
     */
    public static class BrokenCoordinator {
        private final CoordinatorUnderTest coordinator =
                new BrokenUnlockedCoordinator(CoordinatorModel.KNOWN, new InMemoryCheckpointStore(10));

        public BrokenCoordinator() {
            coordinator.trigger();
            coordinator.acknowledge("a", 1);
            coordinator.acknowledge("b", 1);
        }

        @Operation
        public boolean complete() {
            return outcomeOf(() -> coordinator.complete(1));
        }

        @Operation
        public boolean abort() {
            return coordinator.abort(1);
        }

        @Operation
        public long failAndRestore() {
            return coordinator.failAndRestore();
        }

        @Operation
        public CheckpointStatus status() {
            return coordinator.status(1);
        }

        @Operation
        public long latestCompleted() {
            return coordinator.latestStoredId();
        }

        /** A second store of the same id throws in the broken twin; the spec says the call just fails. */
        private static boolean outcomeOf(java.util.function.BooleanSupplier call) {
            try {
                return call.getAsBoolean();
            } catch (IllegalArgumentException storedTwice) {
                return false;
            }
        }
    }

    private static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .iterations(StressMode.pick(4, 30))
                .invocationsPerIteration(StressMode.pick(50, 1_000))
                .threads(2)
                .actorsPerThread(2)
                .actorsBefore(3)
                .actorsAfter(2);
    }

    @Test
    void modelCheckingFindsNoNonLinearizableExecution() {
        // The races of the issue, always explored: the last ack against an abort, and against a failure.
        ExecutionScenario ackVersusAbort = Scenarios.of(EngineCoordinator.class)
                .init("trigger").init("acknowledge", 1, 1)
                .thread("acknowledge", 0, 1).then("complete", 1)
                .thread("abort", 1).then("inFlight")
                .post("status", 1).post("latestCompleted").post("nextBarrierFor", 0)
                .build();
        ExecutionScenario ackVersusFailure = Scenarios.of(EngineCoordinator.class)
                .init("trigger").init("acknowledge", 1, 1)
                .thread("acknowledge", 0, 1).then("complete", 1)
                .thread("failAndRestore").then("trigger")
                .post("status", 1).post("completedIds").post("inFlight")
                .build();
        modelChecking()
                .addCustomScenario(ackVersusAbort)
                .addCustomScenario(ackVersusFailure)
                .sequentialSpecification(CoordinatorModel.class)
                .check(EngineCoordinator.class);
    }

    @Test
    void stressFindsNoNonLinearizableExecution() {
        new StressOptions()
                .iterations(StressMode.pick(3, 30))
                .invocationsPerIteration(StressMode.pick(100, 2_000))
                .threads(2)
                .actorsPerThread(3)
                .sequentialSpecification(CoordinatorModel.class)
                .check(EngineCoordinator.class);
    }

    @Test
    void modelCheckingRejectsTheCoordinatorWithoutItsLock() {
        ExecutionScenario completeVersusAbort = Scenarios.of(BrokenCoordinator.class)
                .thread("complete").thread("abort").post("status").build();
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class, () -> modelChecking()
                .iterations(0)
                .addCustomScenario(completeVersusAbort)
                .sequentialSpecification(CoordinatorModel.OneAcknowledged.class)
                .check(BrokenCoordinator.class));
        LincheckReport.print("coordinator without its lock", e);
    }
}
