package dev.consistentcut.stress.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Temporary directories for store stress tests, many per second. They live under one root per
 * JVM, on {@code /dev/shm} where it exists (tmpfs: an fsync costs nothing there, so a run spends
 * its time racing rather than waiting for a disk), else under {@code java.io.tmpdir}. The root is
 * deleted when the JVM exits. Thread-safe.
 */
public final class ScratchDirectories {

    private static final Path ROOT = createRoot();

    private ScratchDirectories() {
    }

    private static Path createRoot() {
        Path shm = Path.of("/dev/shm");
        Path base = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        try {
            Path root = Files.createTempDirectory(base, "consistentcut-stress-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(root)));
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a scratch directory under " + base, e);
        }
    }

    /** A new empty directory. */
    public static Path create(String prefix) {
        try {
            return Files.createTempDirectory(ROOT, prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a scratch directory under " + ROOT, e);
        }
    }

    /** Deletes {@code dir} and everything in it; a failure leaves it for the JVM-exit cleanup. */
    public static void deleteQuietly(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // left for the shutdown hook; a stress test must not fail on cleanup
        }
    }
}
