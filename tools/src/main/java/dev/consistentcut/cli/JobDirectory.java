package dev.consistentcut.cli;

import dev.consistentcut.sink.SinkIoException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A durable job's directory: the checkpoint files of
 * {@link dev.consistentcut.checkpoint.DirectoryCheckpointStore}, the {@link JobManifest}, the
 * {@code FINISHED} marker written when the job ran to its end, and {@code LOCK}, held (an OS file
 * lock, released by the kernel even after {@code kill -9}: {@link DirectoryLock}) by the one process running the job, so
 * that two processes never write one directory. Every I/O failure becomes an
 * {@link EnvironmentException} naming the path. Used by one thread.
 */
final class JobDirectory {

    static final String FINISHED = "FINISHED";
    /** A checkpoint write's temporary file, private or shared ({@code DirectoryCheckpointStore}'s naming). */
    private static final Pattern CHECKPOINT_TEMP = Pattern.compile("chk-\\d{1,18}\\.tmp|shared-\\d{1,18}-.+\\.seg\\.tmp");
    static final String LOCK = "LOCK";
    /** Every file a job writes: {@code --force} deletes these and nothing else. */
    private static final Pattern JOB_FILE = Pattern.compile(
            "chk-\\d{1,18}\\.(ckpt|tmp)|shared-\\d{1,18}-.+\\.seg(\\.tmp)?|LATEST(\\.tmp)?|MANIFEST(\\.tmp)?"
                    + "|FINISHED(\\.tmp)?|LOCK");

    private final Path dir;
    /** This process's hold on the directory, while it has one. */
    private DirectoryLock locked;

    JobDirectory(Path dir) {
        this.dir = dir;
    }

    Path path() {
        return dir;
    }

    /** Names in the directory; an EnvironmentException when it is missing or unreadable. */
    List<String> names() {
        if (!Files.exists(dir)) {
            throw new EnvironmentException(dir + ": no such directory");
        }
        if (!Files.isDirectory(dir)) {
            throw new EnvironmentException(dir + ": not a directory");
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = new ArrayList<>();
            files.forEach(p -> names.add(p.getFileName().toString()));
            names.sort(null);
            return names;
        } catch (IOException e) {
            throw new EnvironmentException(dir + ": cannot be listed: " + SinkIoException.reason(e), e);
        }
    }

    /** The manifest, or empty when the directory holds none. */
    Optional<JobManifest> manifest() {
        try {
            return Optional.of(JobManifest.read(dir));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** The text of {@code FINISHED} (the verdict of the run that finished the job), or empty. */
    Optional<String> finished() {
        Path f = dir.resolve(FINISHED);
        try {
            return Optional.of(Files.readString(f, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new EnvironmentException(f + ": cannot be read: " + SinkIoException.reason(e), e);
        }
    }

    /**
     * Prepares the directory of a new job for {@code run}: creates it, or checks that it is empty;
     * with {@code force}, deletes an old job's files first (only a job's files: a directory holding
     * anything else is refused). Usage errors say what to do instead.
     */
    void prepareNew(boolean force) throws UsageException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UsageException("--checkpoint-dir " + dir + " is not a directory");
        }
        if (!Files.exists(dir)) {
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new EnvironmentException("--checkpoint-dir " + dir + ": cannot be created: " + SinkIoException.reason(e), e);
            }
            return;
        }
        List<String> names = names();
        if (names.isEmpty()) {
            return;
        }
        List<String> foreign = names.stream().filter(n -> !JOB_FILE.matcher(n).matches()).toList();
        Optional<JobManifest> job = manifest();
        if (foreign.isEmpty() && job.isEmpty() && names.stream().allMatch(n -> n.equals(LOCK) || n.equals("MANIFEST.tmp"))) {
            // A run killed before its manifest was written left only these: no job ever started here.
            lock();
            try {
                Files.deleteIfExists(dir.resolve("MANIFEST.tmp"));
            } catch (IOException e) {
                throw new EnvironmentException(dir.resolve("MANIFEST.tmp") + ": cannot be deleted: " + SinkIoException.reason(e), e);
            }
            return;
        }
        if (!foreign.isEmpty() || job.isEmpty()) {
            throw new UsageException("--checkpoint-dir " + dir + " is not empty and holds no job of this tool ("
                    + (foreign.isEmpty() ? "no " + JobManifest.FILE : "e.g. '" + foreign.get(0) + "'")
                    + "); give a new or empty directory");
        }
        if (!force) {
            throw new UsageException("--checkpoint-dir " + dir + " holds job " + job.get().jobId()
                    + (finished().isPresent() ? " (finished)" : " (not finished)") + ": continue it with 'resume "
                    + dir + "', look at it with 'inspect " + dir + "', or add --force to start a new job there"
                    + " (deletes that job's checkpoints)");
        }
        lock(); // never delete the files of a job another process is running
        for (String n : names) {
            if (n.equals(LOCK)) {
                continue; // held by this process now
            }
            try {
                Files.deleteIfExists(dir.resolve(n));
            } catch (IOException e) {
                throw new EnvironmentException(dir.resolve(n) + ": cannot be deleted (--force): " + SinkIoException.reason(e), e);
            }
        }
    }

    /**
     * Takes the directory's lock for this process, until {@link #unlock} (or the process's end,
     * even by SIGKILL: the kernel releases it).
     *
     * @throws EnvironmentException when another process holds it, or it cannot be taken
     */
    void lock() {
        if (locked == null) {
            locked = DirectoryLock.take(dir, LOCK, "one job directory, one process", false);
        }
    }

    /** Releases the lock taken by {@link #lock}, if any. */
    void unlock() {
        if (locked != null) {
            locked.close();
            locked = null;
        }
    }

    void writeManifest(JobManifest m) {
        writeAtomically(JobManifest.FILE, m.text());
    }

    void writeFinished(String text) {
        writeAtomically(FINISHED, text);
    }

    /**
     * Deletes the {@code chk-<id>.tmp} (and shared {@code .seg.tmp}) files of checkpoint writes a killed process left behind.
     * Called by the lock holder once its run has finished: no write of its own is under way and no
     * other process may write here, so every such file is dead. The store removes those at or below
     * its newest checkpoint as it goes; one with a higher id (a kill while writing a checkpoint whose
     * id the resumed run never reached before the job ended) is removed only here.
     *
     * @return the files removed
     */
    int removeLeftoverCheckpointTemps() {
        int removed = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (CHECKPOINT_TEMP.matcher(p.getFileName().toString()).matches() && Files.deleteIfExists(p)) {
                    removed++;
                }
            }
        } catch (IOException e) {
            // Harmless: a leftover is reported when the directory is next opened, never read.
        }
        return removed;
    }

    /** Temp file, fsync, rename, fsync of the directory: a crash leaves the old file or the new one. */
    private void writeAtomically(String name, String text) {
        Path target = dir.resolve(name);
        Path temp = dir.resolve(name + ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            } catch (IOException e) {
                // some platforms cannot fsync a directory; the rename is still atomic
            }
        } catch (IOException e) {
            throw new EnvironmentException(target + ": cannot be written: " + SinkIoException.reason(e), e);
        }
    }
}
