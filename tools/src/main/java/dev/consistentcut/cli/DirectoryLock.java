package dev.consistentcut.cli;

import dev.consistentcut.sink.SinkIoException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

/**
 * One process's hold on a directory it writes: an OS file lock on a file in it, which the kernel
 * releases even after {@code kill -9}, so a crashed holder never blocks the next process. The file
 * names its holder ({@code pid N}) for the message another process gets. The job directory keeps
 * its lock file; the output directory's must not outlive the run (the output is exactly the sink's
 * files), so it is deleted on release, while still held: a process that opened it before then finds,
 * once it holds the lock, that the file it locked is no longer the one at the path, and tries again.
 * Used by one thread.
 */
final class DirectoryLock implements AutoCloseable {

    /** Holds nothing: a run that writes no such directory. */
    static final DirectoryLock NONE = new DirectoryLock(null, List.of(), false);

    /** A lock file replaced this often while we take it is a contention we give up on. */
    private static final int ATTEMPTS = 10;

    private final Path file;
    /**
     * The locked channel, and the one that read the file back, if any. Both stay open until the
     * release: closing any channel of the file would drop this process's lock on it (POSIX locks
     * belong to the process and the file, not to the channel).
     */
    private List<FileChannel> channels;
    private final boolean removeOnRelease;

    private DirectoryLock(Path file, List<FileChannel> channels, boolean removeOnRelease) {
        this.file = file;
        this.channels = channels;
        this.removeOnRelease = removeOnRelease;
    }

    /**
     * Locks {@code dir} (which exists) for this process through its file {@code name}, until
     * {@link #close} or the process's end.
     *
     * @param rule why there is one holder, said to the process refused ("one job directory, one process")
     * @throws EnvironmentException when another process (or another command in this one) holds it,
     *     naming the holder, or when the lock cannot be taken
     */
    static DirectoryLock take(Path dir, String name, String rule, boolean removeOnRelease) {
        Path file = dir.resolve(name);
        byte[] holder = ("pid " + ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
        try {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock;
                try {
                    lock = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    lock = null; // held by this very process (a test running two commands at once)
                }
                if (lock == null) {
                    ch.close();
                    throw new EnvironmentException(dir + ": in use by another process (" + file + " is locked"
                            + holderOf(file) + "); " + rule);
                }
                ch.truncate(0);
                ByteBuffer b = ByteBuffer.wrap(holder);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                if (!removeOnRelease) {
                    return new DirectoryLock(file, List.of(ch), false);
                }
                FileChannel check = readBack(file, holder);
                if (check != null) {
                    return new DirectoryLock(file, List.of(ch, check), true);
                }
                ch.close(); // the file we locked was released and deleted meanwhile: lock the one at the path now
            }
            throw new EnvironmentException(file + ": cannot be locked: it is replaced again and again by other processes");
        } catch (IOException e) {
            throw new EnvironmentException(file + ": cannot be locked: " + SinkIoException.reason(e), e);
        }
    }

    /**
     * A channel on the file now at {@code file} if it holds {@code holder} (so it is the file we
     * locked and wrote), else null with nothing left open.
     */
    private static FileChannel readBack(Path file, byte[] holder) throws IOException {
        FileChannel check;
        try {
            check = FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return null;
        }
        ByteBuffer content = ByteBuffer.allocate(holder.length + 1);
        while (content.hasRemaining() && check.read(content) >= 0) {
            // read until full or at the end
        }
        if (content.position() == holder.length && Arrays.equals(Arrays.copyOf(content.array(), holder.length), holder)) {
            return check;
        }
        check.close();
        return null;
    }

    /** ", by pid N" when the lock file names its holder (a holder that just took it may not have yet). */
    private static String holderOf(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
            return text.matches("pid \\d+") ? ", by " + text : "";
        } catch (IOException | java.io.UncheckedIOException e) {
            return "";
        }
    }

    /** Releases the lock (deleting its file first if it must not outlive the run); again: nothing. */
    @Override
    public void close() {
        if (channels.isEmpty()) {
            return;
        }
        try {
            if (removeOnRelease) {
                Files.deleteIfExists(file); // while still held: see the class comment
            }
        } catch (IOException e) {
            // Left behind: harmless, the next holder takes it over.
        } finally {
            for (FileChannel ch : channels) {
                try {
                    ch.close();
                } catch (IOException e) {
                    // the process ends soon, and with it the lock
                }
            }
            channels = List.of();
        }
    }
}
