package dev.consistentcut.stress.lincheck;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The sequential specification of a {@link dev.consistentcut.checkpoint.CheckpointStore} keeping
 * {@link #RETAIN} checkpoints, from its contract: {@code store} of an id already stored fails
 * (IllegalArgumentException) and changes nothing; otherwise the checkpoint is kept and, once more
 * than {@link #RETAIN} are kept, the lowest ids are dropped; {@code latest} is the highest id kept
 * (0: none). Checkpoints are identified by id here; the tests store one fixed checkpoint per id.
 * Not thread-safe: lincheck runs it sequentially.
 */
public class StoreModel {

    static final int RETAIN = 2;

    private final TreeSet<Long> kept = new TreeSet<>();

    public String store(int id) {
        if (kept.contains((long) id)) {
            return "IllegalArgumentException";
        }
        kept.add((long) id);
        while (kept.size() > RETAIN) {
            kept.pollFirst();
        }
        return "stored";
    }

    public long latest() {
        return kept.isEmpty() ? 0 : kept.last();
    }

    public List<Long> retainedIds() {
        return new ArrayList<>(kept);
    }
}
