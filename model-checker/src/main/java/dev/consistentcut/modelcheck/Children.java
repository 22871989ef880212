package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The runner's child processes (TLC, the trace validator, the picture renderer): they die with it.
 * On an interrupt or a kill (SIGINT, SIGTERM) the JVM runs its shutdown hooks, and this one ends
 * every child still running (and their children; the validator's JVM also ends its TLC in a
 * shutdown hook of its own), which would otherwise run on, orphaned.
 *
 * <p>Thread-safe: the scheduler's threads start and wait for their TLCs concurrently; the hook
 * runs on the JVM's shutdown thread. A child is started and registered under one lock, which the
 * hook takes too: a child whose start was under way when the signal came is registered before the
 * hook looks, and none starts after it looked.
 */
final class Children {

    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();
    private static final Object STARTING = new Object();
    private static boolean stopping; // guarded by STARTING

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Children::stopAll, "model-check-children"));
    }

    private Children() {
    }

    /** Starts a child and registers it, to be ended if the runner is; refused once the runner is ending. */
    static Process start(ProcessBuilder pb) throws IOException {
        synchronized (STARTING) {
            if (stopping) {
                throw new IOException("the run is being stopped");
            }
            Process p = pb.start();
            RUNNING.add(p);
            return p;
        }
    }

    /** Waits for a child started by {@link #start} and forgets it; its exit code. */
    static int waitFor(Process p) {
        try {
            return p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            return 130;
        } finally {
            RUNNING.remove(p);
        }
    }

    private static void stopAll() {
        List<Process> running;
        synchronized (STARTING) {
            stopping = true;
            running = new ArrayList<>(RUNNING);
        }
        if (running.isEmpty()) {
            return;
        }
        for (Process p : running) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (Process p : running) {
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        System.err.println("model-check.sh: interrupted; TLC stopped");
    }
}
