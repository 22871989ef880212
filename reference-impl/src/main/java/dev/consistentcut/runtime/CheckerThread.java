package dev.consistentcut.runtime;

import java.util.ArrayDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The threaded runtime's completion checks ({@link dev.consistentcut.check.CompletionChecks}) on a
 * thread of their own, one after another in the order given. Checking a completed checkpoint's cut
 * takes time in proportion to the records since the previous one; on the coordinator thread it held
 * up the next trigger, so that without a sink delay (tasks busy on every core) the next checkpoint
 * covered more records, and its check took longer in turn: few checkpoints, each longer than the
 * last. Here the coordinator only hands the check over.
 *
 * <p>At most {@link #MAX_WAITING} checks wait or run: a hand-over beyond that waits for the oldest
 * to finish, so that the checkpoints queued for checking (each holds its snapshots) stay bounded
 * when the checker falls behind. A check that throws fails the run: its exception is rethrown by
 * the next hand-over or by {@link #awaitAll()}.
 *
 * <p>Threading contract: {@link #execute}, {@link #awaitAll} and {@link #close} are called by one
 * thread, the coordinator thread. The checks run on the checker thread, created at the first
 * hand-over; the executor's hand-over orders each check after the previous one.
 */
final class CheckerThread implements Executor, AutoCloseable {

    /** Checks waiting or running at most, before a hand-over waits. */
    static final int MAX_WAITING = 4;

    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "completion-checks");
        t.setDaemon(true); // a run that failed and was not closed does not keep the JVM alive
        return t;
    });
    /** The checks handed over and not yet known to have finished, oldest first. */
    private final ArrayDeque<Future<?>> handedOver = new ArrayDeque<>();

    @Override
    public void execute(Runnable check) {
        while (!handedOver.isEmpty() && handedOver.peekFirst().isDone()) {
            settle(handedOver.pollFirst());
        }
        if (handedOver.size() >= MAX_WAITING) {
            settle(handedOver.pollFirst());
        }
        handedOver.addLast(thread.submit(check));
    }

    /** Waits until every check handed over has run; rethrows the first one's failure. */
    void awaitAll() {
        while (!handedOver.isEmpty()) {
            settle(handedOver.pollFirst());
        }
    }

    private static void settle(Future<?> check) {
        try {
            check.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("a completion check failed: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a completion check", e);
        }
    }

    /** Stops the checker thread; checks not yet run are dropped (call {@link #awaitAll()} first to keep their verdicts). */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
