package dev.consistentcut.bench;

import java.io.IOException;

/**
 * Write bandwidth of checkpoint storage, measured as the median of several writes of one size:
 * the figure the unaligned prediction divides the persisted bytes by. Stateless.
 */
public final class StoreBandwidth {

    /** Writes measured per figure. */
    public static final int WRITES = 9;

    /**
     * Unmeasured writes first: the calibration runs at the start of the JVM, and the first writes
     * run the codec interpreted, several times slower than it runs during the scenarios.
     */
    public static final int WARMUP_WRITES = 20;

    private StoreBandwidth() {
    }

    /** Something that writes one checkpoint of about {@code bytes} bytes and returns the bytes it wrote. */
    @FunctionalInterface
    public interface Writer {
        long write(int attempt) throws IOException;
    }

    /**
     * Bytes per second of {@code writer}: bytes written over the median time of {@link #WRITES}
     * writes, after {@link #WARMUP_WRITES} unmeasured ones. Attempts are numbered from 0.
     */
    public static double measure(Writer writer) throws IOException {
        for (int i = 0; i < WARMUP_WRITES; i++) {
            writer.write(i);
        }
        double[] seconds = new double[WRITES];
        long bytes = 0;
        for (int i = 0; i < WRITES; i++) {
            long start = System.nanoTime();
            bytes = writer.write(WARMUP_WRITES + i);
            seconds[i] = (System.nanoTime() - start) / 1e9;
        }
        return bytes / Stats.median(seconds);
    }
}
