package dev.consistentcut.bench;

import java.io.IOException;

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
}
