package dev.consistentcut.sink;

import java.util.List;
import java.util.Map;

/**
 * Deliberately broken twins of {@link TransactionalFileSink}, one per classic two-phase-commit bug (the
 * spec's failing models of the same names), each the correct sink with one change. Every one
 * passes a run without failures; {@code BrokenSinkTest} shows each caught by the Java checks.
 */
public final class BrokenSinks {

    private BrokenSinks() {
    }

    /** {@code BugCommitOnSnapshot}: commits at pre-commit, before the checkpoint is complete: a restore replays committed records. */
    public static final class CommitOnSnapshot extends TransactionalFileSink {
        public CommitOnSnapshot(SinkDirectory dir) {
            super(dir);
        }

        @Override
        protected void onPreCommitted(long checkpointId, String txn) {
            commit(checkpointId, txn);
        }
    }

    /** {@code BugNoRecommitOnRestore}: a restore aborts the restored checkpoint's transactions too: a lost notification loses output. */
    public static final class NoRecommitOnRestore extends TransactionalFileSink {
        public NoRecommitOnRestore(SinkDirectory dir) {
            super(dir);
        }

        @Override
        protected List<Long> recommitRestored() {
            pending.clear(); // their temp files are then aborted as leftovers
            return List.of();
        }
    }

    /**
     * {@code BugCommitNotIdempotent}: a commit copies the transaction into a new part file and keeps
     * the temp file, so a re-commit of a transaction committed before the failure duplicates it.
     */
    public static final class CommitNotIdempotent extends TransactionalFileSink {
        public CommitNotIdempotent(SinkDirectory dir) {
            super(dir);
        }

        @Override
        protected void commit(long checkpointId, String txn) {
            if (!dir.exists(SinkFiles.tempName(taskId(), txn))) {
                return; // deleted as a leftover by an earlier restore
            }
            dir.copy(SinkFiles.tempName(taskId(), txn), SinkFiles.partName(taskId(), checkpointId,
                    txn + String.format("-copy%08x", java.util.concurrent.ThreadLocalRandom.current().nextInt())));
        }

        @Override
        public boolean settled() {
            return pending.isEmpty(); // its temp files stay behind
        }
    }

    /** {@code BugNoFinalCheckpoint}: at end of input the open transaction is never pre-committed, so nothing commits it. */
    public static final class NoFinalCheckpoint extends TransactionalFileSink {
        public NoFinalCheckpoint(SinkDirectory dir) {
            super(dir);
        }

        @Override
        public void endOfInput() {
        }

        @Override
        public boolean settled() {
            return pending.isEmpty(); // the open transaction is forgotten
        }
    }

    /** The broken sinks by bug class name. */
    public static final Map<String, java.util.function.Function<SinkDirectory, TransactionalFileSink>> ALL = Map.of(
            "BugCommitOnSnapshot", CommitOnSnapshot::new,
            "BugNoRecommitOnRestore", NoRecommitOnRestore::new,
            "BugCommitNotIdempotent", CommitNotIdempotent::new,
            "BugNoFinalCheckpoint", NoFinalCheckpoint::new);
}
