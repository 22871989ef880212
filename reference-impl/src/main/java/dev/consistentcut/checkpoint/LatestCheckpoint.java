package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * How {@link DirectoryCheckpointStore#latest} finds the checkpoint to restore: the one the pointer
 * {@code LATEST} names, else the newest older checkpoint file that reads; each one passed over is
 * reported and counted as damaged. Stateless; called under the store's lock.
 */
final class LatestCheckpoint {

    /** Reads the checkpoint file {@code file} of id {@code id}, or throws naming its defect. */
    interface Reader {
        CompletedCheckpoint read(Path file, long id) throws IOException;
    }

    private LatestCheckpoint() {
    }

    /**
     * The checkpoint of {@code dir} to restore, if any reads.
     *
     * @param idsDescending the ids of the checkpoint files in {@code dir}, newest first
     * @param damaged receives the ids passed over (the caller clears it first)
     */
    static Optional<CompletedCheckpoint> find(Path dir, List<Long> idsDescending, Reader reader,
            Consumer<String> warnings, Set<Long> damaged) {
        long below = Long.MAX_VALUE; // fall back to checkpoints with a smaller id than this
        Path pointer = dir.resolve(DirectoryCheckpointStore.POINTER);
        Long pointed = null;
        try {
            pointed = PointerFile.parse(Files.readAllBytes(pointer), pointer);
        } catch (NoSuchFileException e) {
            if (!idsDescending.isEmpty()) {
                warnings.accept(pointer + ": missing; falling back to the newest valid checkpoint file");
            }
        } catch (IOException e) {
            warnings.accept(describe(pointer, e) + "; falling back to the newest valid checkpoint file");
        }
        if (pointed != null) {
            Path file = dir.resolve(DirectoryCheckpointStore.fileName(pointed));
            if (!Files.exists(file)) {
                warnings.accept(file + " (named by LATEST): missing; falling back to an older checkpoint");
            } else {
                try {
                    return Optional.of(reader.read(file, pointed));
                } catch (IOException e) {
                    warnings.accept(describe(file, e) + "; falling back to an older checkpoint");
                }
            }
            damaged.add(pointed);
            below = pointed;
        }
        for (long id : idsDescending) {
            if (id >= below) {
                continue;
            }
            Path file = dir.resolve(DirectoryCheckpointStore.fileName(id));
            try {
                CompletedCheckpoint c = reader.read(file, id);
                warnings.accept("using " + file + " instead");
                return Optional.of(c);
            } catch (IOException e) {
                warnings.accept(describe(file, e) + "; skipped and left in place");
                damaged.add(id);
            }
        }
        return Optional.empty();
    }

    /** What is wrong with {@code file}, in one line. */
    static String describe(Path file, IOException e) {
        return e instanceof CorruptCheckpointException ? e.getMessage() : file + ": cannot be read: " + e;
    }
}
