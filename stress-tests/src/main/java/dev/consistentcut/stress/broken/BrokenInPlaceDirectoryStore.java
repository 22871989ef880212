package dev.consistentcut.stress.broken;

import dev.consistentcut.checkpoint.CheckpointCodec;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.CorruptCheckpointException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;

/**
 * DELIBERATELY BROKEN: a directory store that overwrites one file in place, without writing a
 * temporary file and renaming it atomically. A reader during a write reads a truncated or mixed
 * file; the codec's length and checksum expose it, but there is no complete older checkpoint left
 * to fall back to, so {@link #latest()} fails. It exists only to show that
 * {@code Store_02_DirectoryLatestVersusStore} catches this bug. Never use it otherwise.
 */
public final class BrokenInPlaceDirectoryStore implements CheckpointStore {

    private final Path file;

    public BrokenInPlaceDirectoryStore(Path dir) {
        this.file = dir.resolve("checkpoint.ckpt");
    }

    @Override
    public void store(CompletedCheckpoint c) {
        byte[] bytes = CheckpointCodec.encode(c);
        // THE BUG: truncate and rewrite the only copy, in place.
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            int half = bytes.length / 2;
            ch.write(ByteBuffer.wrap(bytes, 0, half));
            ch.write(ByteBuffer.wrap(bytes, half, bytes.length - half));
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    @Override
    public Optional<CompletedCheckpoint> latest() {
        try {
            return Optional.of(CheckpointCodec.decode(Files.readAllBytes(file), file.toString()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (CorruptCheckpointException e) {
            throw new UncheckedIOException("latest checkpoint is unreadable: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    @Override
    public List<Long> retainedIds() {
        return latest().map(c -> List.of(c.id())).orElse(List.of());
    }
}
