package dev.consistentcut.stress.harness;

import dev.consistentcut.checkpoint.AckResult;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import java.util.Map;
import java.util.Set;

/**
 * The coordinator operations the stress tests race, for tasks that are sources with nothing to
 * persist (the races are about statuses, not contents), so that one harness drives both the
 * engine's {@link CheckpointCoordinator} and its deliberately broken twin. Implementations must be
 * thread-safe (the broken twin claims to be and is not).
 */
public interface CoordinatorUnderTest {

    /** {@code TriggerCheckpoint}: the new id, or -1 when none may start. */
    long trigger();

    /** Task {@code task} acknowledges checkpoint {@code id} (a source at offset 0). */
    AckResult acknowledge(String task, long id);

    /** {@code CompleteCheckpoint}: true when this call completed {@code id}. */
    boolean complete(long id);

    /** {@code AbortCheckpoint}: true when this call aborted {@code id}. */
    boolean abort(long id);

    /** The coordinator's share of {@code FailAndRestore}: the id to restore, 0 for the initial state. */
    long failAndRestore();

    CheckpointStatus status(long id);

    /** The id of the store's latest checkpoint, 0 if none. */
    long latestStoredId();

    /** The engine's coordinator over {@code tasks}, no channels, writing to {@code store}. */
    static CoordinatorUnderTest engine(Set<String> tasks, CheckpointStore store) {
        CheckpointCoordinator c = CheckpointCoordinator.forAligned(tasks, Set.of(), 1, store, () -> 0L);
        return new CoordinatorUnderTest() {
            @Override
            public long trigger() {
                return c.triggerCheckpoint().orElse(-1);
            }

            @Override
            public AckResult acknowledge(String task, long id) {
                return c.acknowledge(Acknowledgement.ofSource(task, id, 0, Map.of(), 0));
            }

            @Override
            public boolean complete(long id) {
                return c.completeCheckpoint(id).isPresent();
            }

            @Override
            public boolean abort(long id) {
                return c.abortCheckpoint(id);
            }

            @Override
            public long failAndRestore() {
                return c.failAndRestore().map(CompletedCheckpoint::id).orElse(0L);
            }

            @Override
            public CheckpointStatus status(long id) {
                return c.status(id);
            }

            @Override
            public long latestStoredId() {
                return store.latest().map(CompletedCheckpoint::id).orElse(0L);
            }
        };
    }
}
