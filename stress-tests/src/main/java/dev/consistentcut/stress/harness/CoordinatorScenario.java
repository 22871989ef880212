package dev.consistentcut.stress.harness;

import dev.consistentcut.checkpoint.AckResult;
import dev.consistentcut.checkpoint.CheckpointStatus;
import java.util.function.Function;
import java.util.Set;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Races on one checkpoint of a coordinator with two tasks {@code a} and {@code b}. Checkpoint 1 is
 * triggered before the race. The claim (class comment of the engine's coordinator): a checkpoint
 * is completed or aborted, never both; completed at most once; completed only when every task
 * acknowledged it, and then it is in the store.
 *
 * <p>Outcome {@code (r1, r2, r3, r4)}: r1, r2 = what each actor achieved (1 yes, 0 no, -2 the
 * coordinator threw; per scenario below); r3 = final status of checkpoint 1 (2 COMPLETED,
 * 3 ABORTED, as {@link CheckpointStatus#ordinal()}); r4 = id of the store's latest checkpoint
 * (0 none). Each role runs on one thread; {@link #judge} runs after both actors.
 */
public final class CoordinatorScenario {

    public static final Set<String> TASKS = Set.of("a", "b");

    private final CoordinatorUnderTest coordinator;
    private final long id;
    private volatile int first;
    private volatile int second;

    /** @param factory makes the coordinator under test for {@link #TASKS} */
    public CoordinatorScenario(Function<Set<String>, CoordinatorUnderTest> factory, boolean bAcknowledgedBefore) {
        coordinator = factory.apply(TASKS);
        id = coordinator.trigger();
        if (bAcknowledgedBefore) {
            coordinator.acknowledge("b", id);
        }
    }

    /** Actor: {@code a} acknowledges the last missing ack and, as a runtime does on ALL_ACKNOWLEDGED, completes. r1 = completed. */
    public void acknowledgeAndComplete() {
        first = attempt(() -> coordinator.acknowledge("a", id) == AckResult.ALL_ACKNOWLEDGED && coordinator.complete(id));
    }

    /** Actor: times the checkpoint out. r2 = aborted. */
    public void abort() {
        second = attempt(() -> coordinator.abort(id));
    }

    /** Actor: a global failure. r2 = the id it restores (0: initial state). */
    public void failAndRestore() {
        try {
            second = (int) coordinator.failAndRestore();
        } catch (RuntimeException e) {
            second = -2;
        }
    }

    /** Actors of the completion race: task {@code task} acknowledges, then calls complete whatever the answer. */
    public void acknowledgeThenComplete(String task, boolean asFirst) {
        int v = attempt(() -> {
            coordinator.acknowledge(task, id);
            return coordinator.complete(id);
        });
        if (asFirst) {
            first = v;
        } else {
            second = v;
        }
    }

    private static int attempt(java.util.function.BooleanSupplier action) {
        try {
            return action.getAsBoolean() ? 1 : 0;
        } catch (RuntimeException e) {
            return -2;
        }
    }

    public void judge(IIII_Result r) {
        r.r1 = first;
        r.r2 = second;
        r.r3 = coordinator.status(id).ordinal();
        r.r4 = (int) coordinator.latestStoredId();
    }
}
