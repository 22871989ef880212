package dev.consistentcut.bench;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Write bandwidth of checkpoint storage, measured as the median of several writes of one size:
 * the figure the unaligned prediction divides the persisted bytes by. Stateless.
 */
public final class StoreBandwidth {

    /** Writes measured per figure. */
    public static final int WRITES = 9;

    private StoreBandwidth() {
    }

    /** Something that writes one checkpoint of about {@code bytes} bytes and returns the bytes it wrote. */
    @FunctionalInterface
    public interface Writer {
        long write(int attempt) throws IOException;
    }

    /** Bytes per second of {@code writer}: bytes written over the median time of {@link #WRITES} writes (after one unmeasured). */
    public static double measure(Writer writer) throws IOException {
        writer.write(0);
        double[] seconds = new double[WRITES];
        long bytes = 0;
        for (int i = 0; i < WRITES; i++) {
            long start = System.nanoTime();
            bytes = writer.write(i + 1);
            seconds[i] = (System.nanoTime() - start) / 1e9;
        }
        return bytes / Stats.median(seconds);
    }

    /**
     * The way Flink's filesystem checkpoint storage writes a state file: a new file, written
     * through a 4 KB buffer, closed, not fsynced.
     */
    public static Writer plainFile(Path dir, int bytes) {
        byte[] data = new byte[bytes];
        new SplittableRandom(7).nextBytes(data);
        return attempt -> {
            Path file = dir.resolve("bandwidth-" + attempt);
            try (OutputStream out = new java.io.BufferedOutputStream(new FileOutputStream(file.toFile()), 4096)) {
                out.write(data);
            }
            return bytes; // the caller's temporary directory is removed at the end of the run
        };
    }
}
