package dev.consistentcut.stress.lincheck;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.consistentcut.checkpoint.CheckpointStats;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.DirectoryCheckpointStore;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.stress.StressMode;
import dev.consistentcut.stress.broken.BrokenPointerFirstMemoryStore;
import dev.consistentcut.stress.harness.ScratchDirectories;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint stores (thread-safe: any thread, any method) are linearizable with respect to
 * {@link StoreModel}, and {@code latest()} returns exactly the checkpoint stored under its id:
 * the in-memory store under the model checker and in stress mode, the directory store in stress
 * mode (real files).
 */
class StoreLinearizabilityTest {

    /**
     * The checkpoints the tests store, made once: building them inside an operation would make the
     * model checker trace every collection the constructors touch, for nothing.
     */
    private static final CompletedCheckpoint[] CHECKPOINTS = {null, build(1), build(2), build(3), build(4)};

    static CompletedCheckpoint checkpoint(long id) {
        return CHECKPOINTS[(int) id];
    }

    /** The one checkpoint the tests store under {@code id}: small, with state and in-flight records. */
    private static CompletedCheckpoint build(long id) {
        return new CompletedCheckpoint(id, Map.of("s#0", id),
                Map.of("op#0", new TaskSnapshot(new byte[] {(byte) id, 7}, Map.of(new RecordId("s#0", 0), 1))),
                Map.of("s#0->op#0", List.of(new Record(new RecordId("s#0", id), id, id))),
                new CheckpointStats(0, id, Map.of(), Map.of(), 1, 0, 0));
    }

    /** Shared operations over any store; {@code latest} is the id, or -1 if not the very checkpoint stored. */
    @Param(name = "id", gen = IntGen.class, conf = "1:4")
    public abstract static class StoreOps {
        abstract CheckpointStore store();

        @Operation
        public String store(@Param(name = "id") int id) {
            try {
                store().store(checkpoint(id));
                return "stored";
            } catch (RuntimeException e) {
                return e.getClass().getSimpleName();
            }
        }

        @Operation
        public long latest() {
            CompletedCheckpoint c = store().latest().orElse(null);
            if (c == null) {
                return 0;
            }
            // The in-memory store hands back the very object; a decoded one must be equal.
            return c == checkpoint(c.id()) || c.equals(checkpoint(c.id())) ? c.id() : -1;
        }

        @Operation
        public List<Long> retainedIds() {
            return new ArrayList<>(store().retainedIds());
        }
    }

    public static class EngineInMemoryStore extends StoreOps {
        private final InMemoryCheckpointStore store = new InMemoryCheckpointStore(StoreModel.RETAIN);

        @Override
        CheckpointStore store() {
            return store;
        }
    }

    /**
     * The durable store, in a fresh directory per scenario (on tmpfs where there is one). Stress
     * mode only: the model checker cannot control file-system calls.
     */
    public static class EngineDirectoryStore extends StoreOps {
        private final DirectoryCheckpointStore store = new DirectoryCheckpointStore(
                ScratchDirectories.create("lincheck-store-"), StoreModel.RETAIN, warning -> { });

        @Override
        CheckpointStore store() {
            return store;
        }
    }

    /** Publishes the latest pointer before the checkpoint: must be rejected. */
    @Param(name = "id", gen = IntGen.class, conf = "1:4")
    public static class BrokenPointerFirstStore {
        private final BrokenPointerFirstMemoryStore store = new BrokenPointerFirstMemoryStore(false);

        @Operation
        public String store(@Param(name = "id") int id) {
            store.store(checkpoint(id));
            return "stored";
        }

        @Operation
        public long latest() {
            return store.latest().map(CompletedCheckpoint::id).orElse(0L);
        }
    }

    private static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .iterations(StressMode.pick(6, 30))
                .invocationsPerIteration(StressMode.pick(60, 1_000))
                .threads(2)
                .actorsPerThread(2)
                .actorsBefore(1)
                .actorsAfter(1);
    }

    /** The race of the issue: a reader of latest() while the next checkpoint is stored. */
    private static ExecutionScenario readerVersusWriter(Class<?> ops) {
        return Scenarios.of(ops).init("store", 1).thread("store", 2).thread("latest").post("latest").build();
    }

    @Test
    void inMemoryStoreModelChecking() {
        modelChecking()
                .addCustomScenario(readerVersusWriter(EngineInMemoryStore.class))
                .sequentialSpecification(StoreModel.class)
                .check(EngineInMemoryStore.class);
    }

    @Test
    void inMemoryStoreStress() {
        new StressOptions()
                .iterations(StressMode.pick(3, 30))
                .invocationsPerIteration(StressMode.pick(200, 2_000))
                .threads(2)
                .actorsPerThread(3)
                .sequentialSpecification(StoreModel.class)
                .check(EngineInMemoryStore.class);
    }

    @Test
    void directoryStoreStress() {
        new StressOptions()
                .iterations(StressMode.pick(3, 20))
                .invocationsPerIteration(StressMode.pick(100, 1_000))
                .threads(2)
                .actorsPerThread(3)
                .addCustomScenario(readerVersusWriter(EngineDirectoryStore.class))
                .sequentialSpecification(StoreModel.class)
                .check(EngineDirectoryStore.class);
    }

    @Test
    void modelCheckingRejectsTheStoreThatPublishesItsPointerFirst() {
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class, () -> modelChecking()
                .iterations(0)
                .addCustomScenario(readerVersusWriter(BrokenPointerFirstStore.class))
                .sequentialSpecification(UnboundedStoreModel.class)
                .check(BrokenPointerFirstStore.class));
        LincheckReport.print("store that publishes its latest pointer first", e);
    }

    /** The broken twin keeps every checkpoint (it has no retention): the same model without dropping any. */
    public static class UnboundedStoreModel {
        private final java.util.TreeSet<Long> kept = new java.util.TreeSet<>();

        public String store(int id) {
            kept.add((long) id);
            return "stored";
        }

        public long latest() {
            return kept.isEmpty() ? 0 : kept.last();
        }
    }
}
