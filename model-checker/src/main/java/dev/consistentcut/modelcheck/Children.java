package dev.consistentcut.modelcheck;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The runner's child processes (TLC, the trace validator, the picture renderer): they die with it.
 * On an interrupt or a kill (SIGINT, SIGTERM) the JVM runs its shutdown hooks, and this one ends
 * every child still running (and their children; the validator's JVM also ends its TLC in a
 * shutdown hook of its own), which would otherwise run on, orphaned.
 *
 * <p>Thread-safe: the scheduler's threads register and wait for their TLCs concurrently; the hook
 * runs on the JVM's shutdown thread.
 */
final class Children {

    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Children::stopAll, "model-check-children"));
    }

    private Children() {
    }

    /** Registers a started child, to be ended if the runner is. */
    static Process register(Process p) {
        RUNNING.add(p);
        return p;
    }

    /** Waits for a registered (or not yet registered) child and forgets it; its exit code. */
    static int waitFor(Process p) {
        register(p);
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
        if (RUNNING.isEmpty()) {
            return;
        }
        for (Process p : RUNNING) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (Process p : RUNNING) {
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
