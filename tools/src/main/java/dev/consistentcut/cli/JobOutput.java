package dev.consistentcut.cli;

import dev.consistentcut.sink.SinkIoException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A file job's output directory as the command line guards it: apart from the job directory, new
 * or empty for a new job, still there for a resumed one, and written by one process at a time,
 * which holds {@link #LOCK} in it ({@link DirectoryLock}) for the whole run. Without the lock two
 * runs into one directory both commit every record, and both end with every record duplicated.
 * Used by one thread.
 */
final class JobOutput {

    /** The output's lock file: a hidden name, which readers of the output skip (SinkDirectory's contract). */
    static final String LOCK = ".lock";

    private static final String RULE = "one output directory, one writing process";

    private JobOutput() {
    }

    /**
     * Refuses an output directory that is the job directory or lies inside it, or holds it: the
     * job's files and the output's would be taken for each other ({@code --force} would delete
     * output, a reader of the output would find checkpoints).
     */
    static void requireApart(Path output, Path checkpointDir) throws UsageException {
        Path o = canonical(output);
        Path d = canonical(checkpointDir);
        if (o.startsWith(d) || d.startsWith(o)) {
            throw new UsageException("--output " + output + " and --checkpoint-dir " + checkpointDir + " overlap ("
                    + (o.equals(d) ? "the same directory" : "one inside the other")
                    + "); give the job's output and its checkpoints separate directories");
        }
    }

    /** The absolute path with the symbolic links of its existing part resolved. */
    private static Path canonical(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path existing = abs;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        try {
            return existing == null ? abs : existing.toRealPath().resolve(existing.relativize(abs));
        } catch (IOException e) {
            return abs; // compared as written: the later steps name what is wrong with the path
        }
    }

    /**
     * Locks the output of a new job, creating it: it must be new or empty (a lock file a killed
     * run left aside). Checked before the directory is created, and again once it is locked, for
     * a run that started meanwhile and has already finished.
     */
    static DirectoryLock lockNew(CliOptions o) throws UsageException {
        if (!o.fileJob()) {
            return DirectoryLock.NONE;
        }
        requireEmpty(o.output());
        DirectoryLock lock = take(o.output());
        try {
            requireEmpty(o.output());
        } catch (UsageException | RuntimeException e) {
            lock.close();
            throw e;
        }
        return lock;
    }

    /**
     * Locks the output of a resumed job. A job with a checkpoint may have committed output: if its
     * directory is gone, that output is lost, and the resume refuses rather than start an output
     * without it (the job would end with records missing, or fail at its first re-commit).
     */
    static DirectoryLock lockResumed(CliOptions o, String jobId, boolean hasCheckpoints) {
        if (!o.fileJob()) {
            return DirectoryLock.NONE;
        }
        Path output = o.output();
        if (!Files.exists(output) && hasCheckpoints) {
            throw new EnvironmentException("--output " + output + ": cannot be continued: no such directory (job "
                    + jobId + " has checkpoints, so what it committed there is lost; put the directory back, or start"
                    + " a new job)");
        }
        return take(output);
    }

    private static DirectoryLock take(Path output) {
        if (Files.exists(output) && !Files.isDirectory(output)) {
            throw new EnvironmentException("--output " + output + ": cannot be written: not a directory");
        }
        try {
            Files.createDirectories(output);
        } catch (IOException e) {
            throw new EnvironmentException("--output " + output + ": cannot be created: " + SinkIoException.reason(e), e);
        }
        return DirectoryLock.take(output, LOCK, RULE, true);
    }

    /** A new job's output directory must be new or empty: its part files are the job's output and nothing else. */
    private static void requireEmpty(Path output) throws UsageException {
        if (!Files.exists(output)) {
            return;
        }
        if (!Files.isDirectory(output)) {
            throw new UsageException("--output " + output + " is not a directory");
        }
        try (Stream<Path> files = Files.list(output)) {
            if (files.anyMatch(f -> !f.getFileName().toString().equals(LOCK))) {
                throw new UsageException("--output " + output + " is not empty; give a new or empty directory"
                        + " (a job's output is exactly what its sink committed there)");
            }
        } catch (IOException e) {
            throw new EnvironmentException("--output " + output + ": cannot be listed: " + SinkIoException.reason(e), e);
        }
    }
}
