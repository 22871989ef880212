package dev.consistentcut.cli;

import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.SinkIoException;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.FileSourceLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The job the CLI runs for a set of options: the demo job ({@link DemoJob}), or, with
 * {@code --input FILE... --output DIR}, the file job: one source per input file
 * ({@code s1}, {@code s2}, ... in the order given, {@link FileSourceLog} format) into the keyed
 * count (parallelism 2 unless {@code --parallelism} says otherwise), into one {@link TransactionalFileSink} committing to DIR.
 */
final class CliJob {

    private CliJob() {
    }

    /** The source node reading input file {@code index} (0-based): {@code s1}, {@code s2}, ... */
    static String sourceName(int index) {
        return "s" + (index + 1);
    }

    /** The source task instance reading input file {@code index}: what the output's records name. */
    static String sourceTask(int index) {
        return sourceName(index) + "#0";
    }

    /** The job for {@code o}; the file job's sink writes through {@code outputs} applied to {@code --output}. */
    static JobGraph build(CliOptions o, long sinkDelayNanos, Function<Path, SinkDirectory> outputs) {
        if (!o.fileJob()) {
            return DemoJob.build(o.records(), o.seed(), sinkDelayNanos, o.capacity(), o.parallelism(), o.maxParallelism());
        }
        SinkDirectory out;
        try {
            out = outputs.apply(o.output());
        } catch (SinkIoException e) {
            throw new EnvironmentException(e.getMessage(), e);
        }
        JobGraph.Builder b = JobGraph.builder().defaultCapacity(o.capacity()).maxParallelism(o.maxParallelism());
        List<FileSourceLog> logs = open(o.inputs());
        for (int i = 0; i < logs.size(); i++) {
            b.source(sourceName(i), logs.get(i));
        }
        b.operator("count", o.parallelism(), KeyedCount::new)
                .operator("sink", 1, () -> new TransactionalFileSink(out, sinkDelayNanos));
        for (int i = 0; i < logs.size(); i++) {
            b.edge(sourceName(i), "count", Partitioning.HASH);
        }
        return b.edge("count", "sink", Partitioning.HASH).build();
    }

    /**
     * Refuses an input that exists but is neither a regular file nor a directory (a device such as
     * {@code /dev/zero}, a pipe): the job reads its inputs again, after a restart and to check its
     * output, which such a file cannot give twice the same, if it ends at all. A missing input or a
     * directory is left to {@link #open}, which names it as an I/O problem.
     */
    static void requireRegularFiles(List<Path> inputs) throws UsageException {
        for (Path p : inputs) {
            if (Files.exists(p) && !Files.isRegularFile(p) && !Files.isDirectory(p)) {
                throw new UsageException("--input " + p + " is not a regular file (a device or a pipe): the job reads"
                        + " its inputs again after a restart and to check its output");
            }
        }
    }

    /** Opens every input file; a missing, unreadable or malformed one is an EnvironmentException naming it. */
    static List<FileSourceLog> open(List<Path> inputs) {
        List<FileSourceLog> logs = new ArrayList<>();
        for (Path p : inputs) {
            try {
                logs.add(FileSourceLog.open(p));
            } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
                throw new EnvironmentException("--input " + e.getMessage(), e);
            }
        }
        return logs;
    }

    /** Records read by the job: per source for the demo, all inputs together for the file job. */
    static long totalRecords(CliOptions o) {
        if (!o.fileJob()) {
            return 2L * o.records();
        }
        return open(o.inputs()).stream().mapToLong(FileSourceLog::length).sum();
    }

    /** The job graph in words, for the manifest (a resume compares it with what it would build). */
    static String describe(CliOptions o) {
        if (!o.fileJob()) {
            return DemoJob.describe(o.records(), o.seed(), o.capacity(), o.parallelism(), o.maxParallelism());
        }
        StringBuilder b = new StringBuilder("files:");
        List<FileSourceLog> logs = open(o.inputs());
        for (int i = 0; i < logs.size(); i++) {
            b.append(i == 0 ? " " : ", ").append(sourceName(i)).append(" (")
                    .append(o.inputs().get(i).toAbsolutePath().normalize()).append(", ")
                    .append(logs.get(i).length()).append(" records)");
        }
        return b.append(" -HASH-> count x").append(o.parallelism()).append(" (KeyedCount) -HASH-> sink x1 (TransactionalFileSink into ")
                .append(o.output().toAbsolutePath().normalize()).append("); channel capacity ").append(o.capacity())
                .append("; max parallelism ").append(o.maxParallelism()).toString();
    }
}
