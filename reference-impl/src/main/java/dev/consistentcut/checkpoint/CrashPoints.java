package dev.consistentcut.checkpoint;

import dev.consistentcut.annotation.TestSeam;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test-only deterministic kill points inside a checkpoint write, so that the crash test (issue 17,
 * {@code tests/crash-test.sh}) hits the dangerous windows of {@link DirectoryCheckpointStore#store}
 * on purpose instead of by luck. Off unless the system property {@value #PROPERTY} is set to
 * {@code WINDOW:N}: the process then kills itself with SIGKILL the {@code N}-th time it reaches
 * {@code WINDOW}, after printing {@code crash point WINDOW reached: SIGKILL} on stderr (the
 * harness counts these lines). The windows, in the order a write passes them:
 * <ul>
 *   <li>{@code checkpoint-temp-partial}: half of {@code chk-<id>.tmp} written, not synced;
 *   <li>{@code checkpoint-temp-synced}: the temp file complete and fsynced, not yet renamed;
 *   <li>{@code checkpoint-renamed}: {@code chk-<id>.ckpt} in place, the pointer still the old one;
 *   <li>{@code pointer-temp-partial}, {@code pointer-temp-synced}: the same for {@code LATEST.tmp};
 *   <li>{@code pointer-renamed}: the new pointer committed, older checkpoints not yet pruned.
 * </ul>
 * Threading: {@link #reach} may be called from any thread; the count is atomic.
 */
@TestSeam
public final class CrashPoints {

    /** The system property naming the kill point, {@code WINDOW:N}. */
    public static final String PROPERTY = "consistentcut.crash-at";

    private static final String WINDOW;
    private static final int NTH;
    private static final AtomicInteger REACHED = new AtomicInteger();

    static {
        String v = System.getProperty(PROPERTY, "");
        int colon = v.lastIndexOf(':');
        String window = null;
        int nth = 0;
        if (colon > 0) {
            try {
                nth = Integer.parseInt(v.substring(colon + 1));
                window = v.substring(0, colon);
            } catch (NumberFormatException e) {
                window = null;
            }
        }
        if (!v.isEmpty() && (window == null || nth < 1)) {
            throw new IllegalArgumentException(PROPERTY + " must be WINDOW:N with N >= 1, got '" + v + "'");
        }
        WINDOW = window;
        NTH = nth;
    }

    private CrashPoints() {
    }

    /**
     * The window "half the data written": when {@code window} is the configured kill point, writes
     * the first half of {@code bytes} to {@code temp} (through the store's {@code files}) and
     * {@linkplain #reach reaches} it, so that the window exists; otherwise does nothing.
     */
    static void writeHalfIfArmed(String window, StoreFiles files, Path temp, byte[] bytes) throws IOException {
        if (window.equals(WINDOW)) {
            files.write(temp, Arrays.copyOf(bytes, bytes.length / 2));
            reach(window);
        }
    }

    /** Called by the store at each window; kills the process when it is the configured point. */
    static void reach(String window) {
        if (WINDOW == null || !WINDOW.equals(window) || REACHED.incrementAndGet() != NTH) {
            return;
        }
        System.err.println("crash point " + window + " reached: SIGKILL");
        System.err.flush();
        try {
            new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid()))
                    .inheritIO().start().waitFor(5, TimeUnit.SECONDS);
            Thread.sleep(5_000); // the signal is on its way
        } catch (Exception e) {
            // no kill command: fall through to the nearest equivalent
        }
        Runtime.getRuntime().halt(137); // no shutdown hooks, no flushing: as abrupt as SIGKILL
    }
}
