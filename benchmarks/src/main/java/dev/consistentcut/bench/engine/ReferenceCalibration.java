package dev.consistentcut.bench.engine;

import dev.consistentcut.bench.StoreBandwidth;
import dev.consistentcut.checkpoint.CheckpointCodec;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.DirectoryCheckpointStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The reference engine's checkpoint store for the benchmark, and its write bandwidth. The store
 * is the durable {@link DirectoryCheckpointStore} (temporary file, fsync, atomic rename, pointer
 * file), the counterpart of Flink's filesystem checkpoint storage; each scenario gets a fresh
 * directory.
 */
public final class ReferenceCalibration {

    /** Checkpoints each store keeps: the benchmark never restores, so the fewest the store allows. */
    static final int RETAIN = 1;

    /** The measured bandwidth and the size of the checkpoint it was measured with. */
    public record StoreFigure(double bytesPerSecond, long checkpointBytes) {
    }

    private ReferenceCalibration() {
    }

    /** A factory of fresh directory stores under {@code root}, one directory per call. */
    public static Supplier<CheckpointStore> storeFactory(Path root) {
        AtomicInteger n = new AtomicInteger();
        return () -> {
            try {
                Path dir = Files.createDirectories(root.resolve("run-" + n.incrementAndGet()));
                return new DirectoryCheckpointStore(dir, RETAIN, warning -> System.err.println("checkpoint store: " + warning));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    /** Stores a {@link SyntheticCheckpoint} repeatedly in a directory store under {@code dir}. */
    public static StoreFigure storeBandwidth(Path dir) throws IOException {
        CheckpointStore store = storeFactory(dir).get();
        // Built before the clock starts: only the store's work (encode, write, fsync, rename) is timed.
        CompletedCheckpoint[] checkpoints = new CompletedCheckpoint[StoreBandwidth.WARMUP_WRITES + StoreBandwidth.WRITES];
        for (int i = 0; i < checkpoints.length; i++) {
            checkpoints[i] = SyntheticCheckpoint.of(i + 1);
        }
        long bytes = CheckpointCodec.encode(checkpoints[0]).length;
        double bandwidth = StoreBandwidth.measure(attempt -> {
            store.store(checkpoints[attempt]);
            return bytes;
        });
        return new StoreFigure(bandwidth, bytes);
    }
}
