package dev.consistentcut.bench.scale;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs the CLI once in a fresh JVM. The sweep's one seam to the outside: the tests give it a
 * launcher that answers with canned output. Implementations are called from one thread.
 */
public interface Launcher {

    /**
     * What one CLI invocation gave: its exit code, its stdout and stderr, its wall time, and its
     * CPU time (user + system, every thread; -1 where the launcher cannot tell).
     */
    record Launched(int exitCode, String stdout, String stderr, long wallNanos, long cpuNanos) {
    }

    /**
     * Runs {@code java -jar tools.jar <args>} and waits for it.
     *
     * @param workDir a directory of this run's own for the launcher's files
     */
    Launched launch(List<String> args, Path workDir) throws IOException, InterruptedException;
}
