package dev.consistentcut.checkpoint;

import dev.consistentcut.annotation.TestSeam;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The crash test's {@link WriteObserver} ({@code tests/crash-test.sh}): deterministic kill points
 * inside a checkpoint write, so that the test hits the dangerous windows of
 * {@link DirectoryCheckpointStore#store} on purpose instead of by luck. The command line installs
 * it only when the system property {@value #PROPERTY} is set to {@code WINDOW:N}
 * ({@link #fromSystemProperty}): the process then kills itself with SIGKILL the {@code N}-th time
 * it reaches {@code WINDOW}, after printing {@code crash point WINDOW reached: SIGKILL} on stderr
 * (the harness counts these lines). The windows, in the order a write passes them:
 * <ul>
 *   <li>{@code changes-temp-partial}, {@code changes-temp-synced}: a task's staged write of its
 *       changes since its previous snapshot ({@code changes-<k>-<task>.seg},
 *       {@link DirectoryCheckpointStore#persist}; written in place, so it has no rename), on the
 *       task's thread before it acknowledges the checkpoint: a kill there leaves changes no
 *       checkpoint's metadata references;
 *   <li>{@code shared-temp-partial}, {@code shared-temp-synced}, {@code shared-renamed}: a shared
 *       file the store writes itself (segments no task wrote ahead);
 *   <li>{@code checkpoint-temp-partial}: half of {@code chk-<id>.tmp} written, not synced;
 *   <li>{@code checkpoint-temp-synced}: the temp file complete and fsynced, not yet renamed;
 *   <li>{@code checkpoint-renamed}: {@code chk-<id>.ckpt} in place, the pointer still the old one;
 *   <li>{@code pointer-temp-partial}, {@code pointer-temp-synced}: the same for {@code LATEST.tmp};
 *   <li>{@code pointer-renamed}: the new pointer committed, older checkpoints not yet pruned;
 *   <li>{@code checkpoint-subsumed}: a subsumed checkpoint's private file deleted, the shared
 *       files only it referenced not yet;
 *   <li>{@code materialised-temp-partial}, {@code materialised-temp-synced}: the same as a
 *       task's changes for a materialisation's staged upload
 *       ({@code materialised-<k>-<task>.seg}), written on the materialiser's thread, whichever
 *       window of a checkpoint's write the coordinator is in meanwhile.
 * </ul>
 * Threading: may be shared by any threads; the count is atomic.
 */
@TestSeam
public final class CrashPoints implements WriteObserver {

    /** The system property naming the kill point, {@code WINDOW:N}. */
    public static final String PROPERTY = "consistentcut.crash-at";

    private final String window;
    private final int nth;
    private final AtomicInteger reached = new AtomicInteger();

    private CrashPoints(String window, int nth) {
        this.window = window;
        this.nth = nth;
    }

    /**
     * The kill point {@value #PROPERTY} names, or {@link WriteObserver#NONE} when it is unset.
     *
     * @throws IllegalArgumentException when the property is set but not {@code WINDOW:N} with {@code N >= 1}
     */
    public static WriteObserver fromSystemProperty() {
        String v = System.getProperty(PROPERTY, "");
        if (v.isEmpty()) {
            return NONE;
        }
        int colon = v.lastIndexOf(':');
        int nth = 0;
        if (colon > 0) {
            try {
                nth = Integer.parseInt(v.substring(colon + 1));
            } catch (NumberFormatException e) {
                nth = 0;
            }
        }
        if (nth < 1) {
            throw new IllegalArgumentException(PROPERTY + " must be WINDOW:N with N >= 1, got '" + v + "'");
        }
        return new CrashPoints(v.substring(0, colon), nth);
    }

    /**
     * The window "half the data written": when it is the kill point, writes the first half of
     * {@code bytes} to {@code temp} first, so that the window exists when the process dies.
     */
    @Override
    public void beforeTempWrite(String write, Path temp, byte[] bytes) throws IOException {
        if (window.equals(write + "-temp-partial")) {
            StoreFiles.REAL.write(temp, Arrays.copyOf(bytes, bytes.length / 2));
            reach(write + "-temp-partial");
        }
    }

    @Override
    public void tempSynced(String write) {
        reach(write + "-temp-synced");
    }

    @Override
    public void renamed(String write) {
        reach(write + "-renamed");
    }

    @Override
    public void subsumeCheckpoint(long checkpoint) {
        reach("checkpoint-subsumed");
    }

    /** Kills the process when {@code at} is the kill point, reached for the {@code N}-th time. */
    private void reach(String at) {
        if (!window.equals(at) || reached.incrementAndGet() != nth) {
            return;
        }
        System.err.println("crash point " + at + " reached: SIGKILL");
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
