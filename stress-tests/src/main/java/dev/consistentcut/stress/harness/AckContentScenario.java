package dev.consistentcut.stress.harness;

import dev.consistentcut.checkpoint.AckResult;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Two tasks {@code a} and {@code b} (sources) acknowledge checkpoint 1 at the same time, each with
 * its own content (offsets 5 and 7); whichever is told {@code ALL_ACKNOWLEDGED} completes it, as a
 * runtime does. The claim: the stored checkpoint holds every acknowledgement's content, whichever
 * thread completed it and however the two interleaved (a coordinator that decides "all
 * acknowledged" before the last content is recorded stores a checkpoint missing a part; counting
 * the acknowledgements, as the other coordinator tests do, does not see it).
 *
 * <p>Outcome {@code (r1, r2, r3, r4)}: r1, r2 = the offsets of {@code a}, {@code b} in the stored
 * checkpoint (-1: missing); r3 = status of checkpoint 1 (2 COMPLETED, as
 * {@link CheckpointStatus#ordinal()}); r4 = id of the stored checkpoint (0 none, -2 the coordinator
 * threw).
 */
public final class AckContentScenario {

    public static final long OFFSET_A = 5;
    public static final long OFFSET_B = 7;

    /** What the race needs of a coordinator over tasks {@code a}, {@code b} with checkpoint 1 triggered. */
    public interface Coordinator {
        /** Task {@code task}, a source, acknowledges checkpoint 1 at {@code offset}. */
        AckResult acknowledge(String task, long offset);

        /** {@code CompleteCheckpoint(1)}: true when this call completed it. */
        boolean complete();

        CheckpointStatus status();

        Optional<CompletedCheckpoint> stored();

        /** The engine's coordinator. */
        static Coordinator engine() {
            InMemoryCheckpointStore store = new InMemoryCheckpointStore(2);
            CheckpointCoordinator c = CheckpointCoordinator.forAligned(Set.of("a", "b"), Set.of(), 1, store, () -> 0L);
            c.triggerCheckpoint();
            return new Coordinator() {
                @Override
                public AckResult acknowledge(String task, long offset) {
                    return c.acknowledge(Acknowledgement.ofSource(task, 1, offset, Map.of(), 0));
                }

                @Override
                public boolean complete() {
                    return c.completeCheckpoint(1).isPresent();
                }

                @Override
                public CheckpointStatus status() {
                    return c.status(1);
                }

                @Override
                public Optional<CompletedCheckpoint> stored() {
                    return store.latest();
                }
            };
        }
    }

    private final Coordinator coordinator;
    private volatile boolean threw;

    public AckContentScenario(Coordinator coordinator) {
        this.coordinator = coordinator;
    }

    /** Actor: {@code task} acknowledges and, if told it was the last, completes. */
    public void acknowledge(String task, long offset) {
        try {
            if (coordinator.acknowledge(task, offset) == AckResult.ALL_ACKNOWLEDGED) {
                coordinator.complete();
            }
        } catch (RuntimeException e) {
            threw = true;
        }
    }

    public void judge(IIII_Result r) {
        Optional<CompletedCheckpoint> c = coordinator.stored();
        r.r1 = c.map(x -> x.sourceOffsets().getOrDefault("a", -1L).intValue()).orElse(-1);
        r.r2 = c.map(x -> x.sourceOffsets().getOrDefault("b", -1L).intValue()).orElse(-1);
        r.r3 = coordinator.status().ordinal();
        r.r4 = threw ? -2 : c.map(x -> (int) x.id()).orElse(0);
    }
}
