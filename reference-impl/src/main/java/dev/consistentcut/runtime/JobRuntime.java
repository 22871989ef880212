package dev.consistentcut.runtime;

/**
 * Runs a job's tasks to completion with checkpoints, and can fail and restore it. Both runtimes
 * run the same task classes; they differ in who chooses the next step (a seeded generator in one
 * thread, or one thread per task).
 */
public interface JobRuntime {

    /** Runs the job until it finishes (or cannot go on), checking the invariants; see {@link RunResult}. */
    RunResult run();

    /**
     * Action {@code FailAndRestore}: a global failure. Every pending checkpoint aborts; every task
     * restarts from the latest completed checkpoint (the initial state if there is none):
     * operator state and ledger restored, sources rewound, each channel emptied and refilled with
     * its persisted records ahead of anything new.
     */
    void failAndRestore();
}
