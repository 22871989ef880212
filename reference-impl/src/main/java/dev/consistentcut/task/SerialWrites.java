package dev.consistentcut.task;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * One task's checkpoint writes, run one after another in the order they were handed over, on a
 * shared executor (the threaded runtime's writer threads, or the calling thread). A task's writes
 * must stay in checkpoint order: the store skips the segments an earlier write of the task holds
 * ({@code DirectoryCheckpointStore.persist}), so a later write that overtook an earlier one would
 * write them twice. Flink keeps this order per task too: a subtask's {@code
 * AsyncCheckpointRunnable}s run on its own async-operations thread pool, and FLIP-158's {@code
 * FsStateChangelogWriter} persists a task's changes in sequence-number order.
 *
 * <p>Threads: {@link #execute} from any thread; each write runs on the executor's thread, never
 * two at a time.
 */
final class SerialWrites implements Executor {

    private final Executor executor;
    /** Writes handed over while an earlier one is with the executor; guarded by itself. */
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    /** Whether a write is with the executor (handed over, running); guarded by {@link #queue}. */
    private boolean busy;

    SerialWrites(Executor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** Runs {@code write} on the executor once every write handed over before it has run. */
    @Override
    public void execute(Runnable write) {
        Objects.requireNonNull(write, "write");
        synchronized (queue) {
            if (busy) {
                queue.add(write);
                return;
            }
            busy = true;
        }
        handOver(write);
    }

    /** Gives the executor {@code write}, then the next queued one when it is done: one at a time. */
    private void handOver(Runnable write) {
        executor.execute(() -> {
            try {
                write.run(); // a write reports its own failure (OperatorTask's PendingWrite)
            } finally {
                Runnable next;
                synchronized (queue) {
                    next = queue.poll();
                    busy = next != null;
                }
                if (next != null) {
                    handOver(next);
                }
            }
        });
    }
}
