package dev.consistentcut.stress.broken;

import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;

/**
 * Broken twins of the two-phase-commit sink for the property tests: the correct
 * {@link TransactionalFileSink} with one change each (reference-impl's test sources have the whole
 * set, with its own test).
 */
public final class BrokenSinks {

    private BrokenSinks() {
    }

    /**
     * {@code BugCommitOnSnapshot}: commits a transaction in the snapshot that pre-commits it, before
     * the checkpoint is complete; after a restore to an older checkpoint its records are replayed
     * and committed again.
     */
    public static TransactionalFileSink commitOnSnapshot(SinkDirectory dir) {
        return new TransactionalFileSink(dir) {
            @Override
            protected void onPreCommitted(long checkpointId, String txn) {
                commit(checkpointId, txn);
            }
        };
    }
}
