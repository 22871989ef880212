package dev.consistentcut.cli;

import dev.consistentcut.barrier.DeliveryGuarantee;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.sink.FileSinkDirectory;
import dev.consistentcut.sink.SinkFiles;
import dev.consistentcut.sink.SinkIoException;
import dev.consistentcut.source.FileSourceLog;
import dev.consistentcut.source.SourceLog;
import dev.consistentcut.text.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The output verifier: reads a file job's output directory the way an external reader
 * does (committed part files only, {@link SinkFiles}) and checks it against the input files: every
 * input record committed exactly once, with its key, nothing else; no transaction left pending
 * (a finished job commits or aborts every one). Independent of the engine's own bookkeeping: it
 * knows only the file formats. Used by {@code verify-output} and by the report of a file job.
 *
 * @param files the committed part files, sorted, with their record counts
 * @param expected input records
 * @param committed records in the part files
 * @param missing input records not committed
 * @param duplicated input records committed more than once (counted once per record)
 * @param unknown committed records no input has, or with another key than the input's
 * @param pending temp files (transactions neither committed nor aborted)
 * @param problems the first few problems, one sentence each
 */
record OutputCheck(Map<String, Long> files, long expected, long committed, long missing, long duplicated, long unknown,
                   List<String> pending, List<String> problems) {

    static final int MAX_PROBLEMS = 20;

    boolean exactlyOnce() {
        return missing == 0 && duplicated == 0 && unknown == 0 && pending.isEmpty() && problems.isEmpty();
    }

    /** What at-least-once mode promises of the output: nothing missing (duplicates allowed), nothing unknown, nothing pending, nothing malformed. */
    boolean atLeastOnce() {
        return missing == 0 && unknown == 0 && pending.isEmpty()
                && problems.stream().noneMatch(p -> p.startsWith("malformed part file"));
    }

    /** The promise of a mode that gives {@code guarantee}. */
    boolean holds(DeliveryGuarantee guarantee) {
        return guarantee == DeliveryGuarantee.AT_LEAST_ONCE ? atLeastOnce() : exactlyOnce();
    }

    /**
     * Checks {@code output} against {@code inputs}.
     *
     * @throws EnvironmentException when an input or the output directory cannot be read
     */
    static OutputCheck check(List<Path> inputs, Path output) {
        if (!Files.isDirectory(output)) {
            throw new EnvironmentException("--output " + output + ": " + (Files.exists(output) ? "not a directory" : "no such directory"));
        }
        List<FileSourceLog> logs = CliJob.open(inputs);
        Map<RecordId, Long> keys = new HashMap<>();
        for (int i = 0; i < logs.size(); i++) {
            SourceLog log = logs.get(i);
            for (long off = 0; off < log.length(); off++) {
                keys.put(new RecordId(CliJob.sourceTask(i), off), log.entryAt(off).key());
            }
        }
        List<String> problems = new ArrayList<>();
        Map<String, Long> files = new java.util.TreeMap<>();
        List<String> pending = new ArrayList<>();
        Map<RecordId, Integer> seen = new HashMap<>();
        long committed = 0;
        long unknown = 0;
        FileSinkDirectory dir;
        try {
            dir = new FileSinkDirectory(output);
            for (String name : dir.list()) {
                if (SinkFiles.isTemp(name)) {
                    pending.add(name);
                    continue;
                }
                if (!SinkFiles.isPart(name)) {
                    continue; // not the sink's: ignored, as a reader of part files would
                }
                List<Record> records;
                try {
                    records = SinkFiles.parse(name, dir.read(name));
                } catch (IllegalArgumentException e) {
                    problems.add("malformed part file: " + e.getMessage());
                    continue;
                }
                files.put(name, (long) records.size());
                for (Record r : records) {
                    committed++;
                    Long key = keys.get(r.id());
                    if (key == null || key != r.key()) {
                        unknown++;
                        note(problems, name + ": record " + r.id() + (key == null ? " is in no input"
                                : " has key " + r.key() + ", its input line has key " + key));
                        continue;
                    }
                    seen.merge(r.id(), 1, Integer::sum);
                }
            }
        } catch (SinkIoException e) {
            throw new EnvironmentException(e.getMessage(), e);
        }
        long missing = 0;
        long duplicated = 0;
        for (RecordId id : new java.util.TreeSet<>(keys.keySet())) {
            int n = seen.getOrDefault(id, 0);
            if (n == 0) {
                missing++;
                note(problems, "record " + id + " (" + inputs.get(index(id)) + ", record " + id.offset() + ") is missing");
            } else if (n > 1) {
                duplicated++;
                note(problems, "record " + id + " (" + inputs.get(index(id)) + ", record " + id.offset() + ") is committed "
                        + n + " times");
            }
        }
        if (!pending.isEmpty()) {
            problems.add(pending.size() + " transaction(s) neither committed nor aborted, e.g. " + pending.get(0)
                    + " (the job has not finished, or its sink leaks transactions)");
        }
        return new OutputCheck(files, keys.size(), committed, missing, duplicated, unknown, pending, problems);
    }

    private static int index(RecordId id) {
        String s = id.source();
        return Integer.parseInt(s.substring(1, s.indexOf('#'))) - 1;
    }

    private static void note(List<String> problems, String p) {
        if (problems.size() < MAX_PROBLEMS) {
            problems.add(p);
        }
    }

    /** One line: the verdict on exactly-once. */
    String verdictLine() {
        return verdictLine(DeliveryGuarantee.EXACTLY_ONCE);
    }

    /** One line: the verdict on the promise of {@code guarantee}. */
    String verdictLine(DeliveryGuarantee guarantee) {
        if (guarantee == DeliveryGuarantee.AT_LEAST_ONCE) {
            return atLeastOnce()
                    ? "output: at-least-once holds (" + expected + " input records, each committed at least once, "
                            + duplicated + " of them more than once, in " + files.size() + " part files)"
                    : "output: VIOLATED for at-least-once (" + missing + " missing, " + unknown + " unknown, "
                            + pending.size() + " pending transaction(s); " + duplicated + " duplicated, which it allows)";
        }
        return exactlyOnce()
                ? "output: exactly-once holds (" + expected + " input records, each committed once, in " + files.size()
                        + " part files)"
                : "output: VIOLATED (" + missing + " missing, " + duplicated + " duplicated, " + unknown
                        + " unknown, " + pending.size() + " pending transaction(s))";
    }

    String text(Path output, int maxFiles) {
        return text(output, maxFiles, DeliveryGuarantee.EXACTLY_ONCE);
    }

    /** The part files (the first {@code maxFiles}), the problems and the verdict on {@code guarantee}'s promise. */
    String text(Path output, int maxFiles, DeliveryGuarantee guarantee) {
        StringBuilder b = new StringBuilder();
        b.append("output ").append(output).append(": ").append(files.size()).append(" part file(s), ")
                .append(committed).append(" record(s)\n");
        int n = 0;
        for (Map.Entry<String, Long> f : files.entrySet()) {
            if (n++ == maxFiles) {
                b.append("  ... and ").append(files.size() - maxFiles).append(" more\n");
                break;
            }
            b.append(String.format("  %-48s %8d records%n", f.getKey(), f.getValue()));
        }
        problems.forEach(p -> b.append("  ").append(p).append('\n'));
        return b.append(verdictLine(guarantee)).toString();
    }

    String json(Path output) {
        return json(output, DeliveryGuarantee.EXACTLY_ONCE);
    }

    /**
     * The check as one JSON object; with {@code AT_LEAST_ONCE} it also names the mode and its verdict
     * ({@code "mode"}, {@code "atLeastOnce"}), so the exactly-once document stays as it was.
     */
    String json(Path output, DeliveryGuarantee guarantee) {
        StringBuilder b = new StringBuilder("{\"output\":").append(Json.str(output))
                .append(",\"exactlyOnce\":").append(exactlyOnce());
        if (guarantee == DeliveryGuarantee.AT_LEAST_ONCE) {
            b.append(",\"mode\":\"at-least-once\",\"atLeastOnce\":").append(atLeastOnce());
        }
        b.append(",\"inputRecords\":").append(expected)
                .append(",\"committedRecords\":").append(committed)
                .append(",\"missing\":").append(missing)
                .append(",\"duplicated\":").append(duplicated)
                .append(",\"unknown\":").append(unknown)
                .append(",\"pendingTransactions\":[").append(String.join(",", pending.stream().map(Json::str).toList()))
                .append("],\"files\":[");
        int n = 0;
        for (Map.Entry<String, Long> f : files.entrySet()) {
            b.append(n++ == 0 ? "" : ",").append("{\"name\":").append(Json.str(f.getKey()))
                    .append(",\"records\":").append(f.getValue()).append('}');
        }
        return b.append("],\"problems\":[").append(String.join(",", problems.stream().map(Json::str).toList()))
                .append("]}").toString();
    }
}
