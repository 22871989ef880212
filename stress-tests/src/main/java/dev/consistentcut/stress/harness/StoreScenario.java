package dev.consistentcut.stress.harness;

import dev.consistentcut.checkpoint.CheckpointStats;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A reader of the latest completed checkpoint racing a writer of the next one. Checkpoint 1 is
 * stored before the race; the writer stores checkpoint 2 while the reader calls
 * {@link CheckpointStore#latest()}. The claim ({@link CheckpointStore#latest()}): never a
 * partially written checkpoint; the reader sees checkpoint 1 or 2, each entire.
 *
 * <p>The checkpoints are big enough (some 10 KB encoded: a state of 4 KB per operator and 200
 * in-flight records) that a write takes long enough to be caught halfway.
 *
 * <p>Outcome {@code (r1, r2)}: r1 = what the reader saw: 1 or 2 when equal to the whole
 * checkpoint stored with that id, 0 when nothing, -1 when something else (partial, corrupt, or
 * the store threw); r2 = the same for a {@code latest()} after both, which must be 2. Each role on
 * one thread; {@link #judge} after both.
 */
public final class StoreScenario {

    private static final CompletedCheckpoint FIRST = checkpoint(1);
    private static final CompletedCheckpoint SECOND = checkpoint(2);

    private final CheckpointStore store;
    private final Runnable cleanup;
    private volatile int seen;

    /** @param cleanup runs after the judgement, e.g. to delete the store's directory */
    public StoreScenario(CheckpointStore store, Runnable cleanup) {
        this.store = store;
        this.cleanup = cleanup;
        store.store(FIRST);
    }

    static CompletedCheckpoint checkpoint(long id) {
        byte[] state = new byte[4096];
        java.util.Arrays.fill(state, (byte) id);
        List<Record> inFlight = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            inFlight.add(new Record(new RecordId("s#0", id * 1000 + i), i, id));
        }
        return new CompletedCheckpoint(id,
                Map.of("s#0", id * 1000),
                Map.of("op#0", new TaskSnapshot(state, Map.of(new RecordId("s#0", id), 1)),
                        "op#1", new TaskSnapshot(state, Map.of())),
                Map.of("s#0->op#0", inFlight, "s#0->op#1", List.of()),
                new CheckpointStats(id, id + 1, Map.of("op#0", 1L), Map.of("op#0", 0L), inFlight.size(), 0, 0));
    }

    /** Writer actor. */
    public void write() {
        store.store(SECOND);
    }

    /** Reader actor. */
    public void read() {
        seen = classify();
    }

    private int classify() {
        Optional<CompletedCheckpoint> c;
        try {
            c = store.latest();
        } catch (RuntimeException e) {
            return -1;
        }
        if (c.isEmpty()) {
            return 0;
        }
        if (c.get().equals(FIRST)) {
            return 1;
        }
        return c.get().equals(SECOND) ? 2 : -1;
    }

    public void judge(II_Result r) {
        r.r1 = seen;
        r.r2 = classify();
        cleanup.run();
    }
}
