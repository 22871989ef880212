package dev.consistentcut.cli;

import dev.consistentcut.checkpoint.CheckpointFiles;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.DirectoryCheckpointStore;
import dev.consistentcut.graph.KeyGroups;
import dev.consistentcut.sink.SinkIoException;
import dev.consistentcut.text.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code inspect DIR [--json]}: what a job directory holds: the job, whether it
 * finished, each checkpoint file (id, size, channel-state records, checksum verdict, job identity),
 * the files each valid checkpoint consists of (its private file, the shared segment files it
 * references and how many checkpoints reference each), the shared files no valid checkpoint
 * references (an interrupted checkpoint's orphans mid-run, which the next run or resume deletes; a
 * leak once the job has finished), leftover temporary files, the pointer, and the checkpoint a
 * resume would use (found exactly as {@code resume} finds it, so the warnings are the ones a resume
 * would print), and the key groups each task of the keyed operator owns. Reads only.
 */
final class InspectCommand {

    static final String USAGE = String.join("\n",
            "Usage: " + CliOptions.JAR + " inspect DIR [--json]",
            "",
            "Lists the checkpoints in the job directory DIR: id, size, in-flight records persisted",
            "(channel state), checksum verdict, and which one 'resume DIR' would use; then per valid",
            "checkpoint its private file and the shared segment files it references, each with the",
            "number of checkpoints referencing it, and the shared files no valid checkpoint references",
            "(orphans of an interrupted checkpoint, deleted by the next run or resume; after the job",
            "finished, a leak), and the key-group range of each task of the keyed operator 'count'",
            "(a checkpoint taken at another parallelism is restored rescaled: said as a warning);",
            "--json prints one JSON document instead. Exit codes: 0 listed; 2 bad",
            "usage; 3 DIR missing or unreadable.");

    private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d{1,18})\\.ckpt");
    private static final Pattern TEMP = Pattern.compile(
            "chk-\\d{1,18}\\.tmp|LATEST\\.tmp|MANIFEST\\.tmp|FINISHED\\.tmp|shared-\\d{1,18}-.+\\.seg\\.tmp");

    /**
     * One checkpoint file: {@code problem} null when it decodes and belongs to the job; {@code
     * shared} the shared files it references, name to size (-1: unreadable), empty if it is whole
     * or unusable.
     */
    record Entry(long id, String file, long bytes, long channelStateRecords, String problem, Map<String, Long> shared) {
    }

    /** The directory's files: the checkpoints (newest first), unreferenced shared files (name to size), temporary files. */
    private record Listing(List<Entry> entries, Map<String, Long> unreferenced, List<String> temps) {
    }

    private InspectCommand() {
    }

    static int run(String[] args, PrintStream out) throws UsageException {
        boolean json = false;
        Path path = null;
        for (String a : args) {
            if (a.equals("--json")) {
                json = true;
            } else if (a.startsWith("--")) {
                throw new UsageException("unknown argument '" + a + "'");
            } else if (path == null) {
                path = Path.of(a);
            } else {
                throw new UsageException("inspect takes one DIR, got a second: '" + a + "'");
            }
        }
        if (path == null) {
            throw new UsageException("inspect needs the job's directory: inspect DIR [--json]");
        }
        JobDirectory dir = new JobDirectory(path);
        List<String> names = dir.names();
        Optional<JobManifest> manifest = dir.manifest();
        String jobId = manifest.map(JobManifest::jobId).orElse(null);
        List<Entry> entries = new ArrayList<>();
        for (String n : names) {
            Matcher m = CHECKPOINT.matcher(n);
            if (m.matches()) {
                entries.add(entry(path.resolve(n), Long.parseLong(m.group(1)), jobId));
            }
        }
        entries.sort(Comparator.comparingLong(Entry::id).reversed());
        List<String> temps = names.stream().filter(n -> TEMP.matcher(n).matches()).toList();
        Map<String, Long> unreferenced = unreferenced(path, names, referenceCounts(entries).keySet());
        List<String> warnings = new ArrayList<>();
        Optional<CompletedCheckpoint> resumeFrom;
        try {
            resumeFrom = new DirectoryCheckpointStore(path, 3, warnings::add, jobId).latest();
        } catch (IllegalArgumentException e) {
            throw new EnvironmentException(e.getMessage(), e);
        }
        Optional<String> finished = dir.finished();
        String pointer = pointer(path);
        Long uses = resumeFrom.map(CompletedCheckpoint::id).orElse(null);
        if (resumeFrom.isPresent()) {
            int taken = (int) resumeFrom.get().taskSnapshots().keySet().stream()
                    .filter(t -> t.startsWith(CliOptions.KEYED + "#")).count();
            Map<String, String> ranges = keyGroupRanges(manifest);
            if (taken > 0 && !ranges.isEmpty() && taken != ranges.size()) {
                warnings.add("checkpoint " + uses + " holds " + CliOptions.KEYED + " at " + taken + " tasks, the job runs "
                        + ranges.size() + ": resume restores it rescaled by key group");
            }
        }
        Listing listing = new Listing(entries, unreferenced, temps);
        out.println(json ? json(path, manifest, finished, pointer, listing, uses, warnings)
                : text(path, manifest, finished, pointer, listing, uses, warnings));
        return Main.OK;
    }

    private static Entry entry(Path file, long id, String jobId) {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            return new Entry(id, file.getFileName().toString(), -1, -1, "cannot be read: " + SinkIoException.reason(e),
                    Map.of());
        }
        try {
            CheckpointFiles.Summary d = CheckpointFiles.summarize(file);
            String problem = d.id() != id ? "holds checkpoint " + d.id()
                    : jobId != null && !jobId.equals(d.jobId()) ? "belongs to " + (d.jobId() == null ? "no job"
                    : "job " + d.jobId()) + ", not to this directory's job" : null;
            Map<String, Long> shared = new TreeMap<>();
            if (problem == null) {
                d.sharedFiles().forEach(f -> shared.put(f, sizeOf(file.resolveSibling(f))));
                problem = shared.entrySet().stream().filter(f -> f.getValue() < 0).findFirst()
                        .map(f -> "references shared file " + f.getKey() + ", which is missing").orElse(null);
            }
            return new Entry(id, file.getFileName().toString(), size, d.channelStateRecords(), problem,
                    problem == null ? shared : Map.of());
        } catch (IOException e) {
            return new Entry(id, file.getFileName().toString(), size, -1, e.getMessage(), Map.of());
        }
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return -1;
        }
    }

    /** The shared files among {@code names} that are not in {@code referenced}, with their sizes. */
    private static Map<String, Long> unreferenced(Path dir, List<String> names, Set<String> referenced) {
        Map<String, Long> files = new TreeMap<>();
        names.stream().filter(n -> CheckpointFiles.isSharedFile(n) && !referenced.contains(n))
                .forEach(n -> files.put(n, sizeOf(dir.resolve(n))));
        return files;
    }

    /** Per shared file, the valid checkpoints referencing it (the registry's counts, from the files). */
    private static Map<String, Integer> referenceCounts(List<Entry> entries) {
        Map<String, Integer> counts = new TreeMap<>();
        entries.forEach(e -> e.shared().keySet().forEach(f -> counts.merge(f, 1, Integer::sum)));
        return counts;
    }

    /**
     * Per task of the keyed operator, the key groups it owns at the parallelism the manifest says
     * the job runs at ({@link KeyGroups#range}); empty for a manifest without those options.
     */
    static Map<String, String> keyGroupRanges(Optional<JobManifest> manifest) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        if (manifest.isEmpty()) {
            return out;
        }
        String max = manifest.get().options().get("max-parallelism");
        String parallelism = manifest.get().options().get("parallelism");
        if (max == null || parallelism == null || !max.matches("\\d{1,9}")
                || !parallelism.matches(CliOptions.KEYED + "=\\d{1,9}")) {
            return out;
        }
        int m = Integer.parseInt(max);
        int p = Integer.parseInt(parallelism.substring(CliOptions.KEYED.length() + 1));
        if (m < 1 || m > KeyGroups.UPPER_BOUND_MAX_PARALLELISM || p < 1 || p > m) {
            return out;
        }
        for (int i = 0; i < p; i++) {
            out.put(CliOptions.KEYED + "#" + i, KeyGroups.range(i, p, m).toString());
        }
        return out;
    }

    private static String pointer(Path dir) {
        try {
            return Files.readString(dir.resolve("LATEST")).strip();
        } catch (IOException e) {
            return null;
        }
    }

    private static String text(Path path, Optional<JobManifest> manifest, Optional<String> finished, String pointer,
            Listing listing, Long uses, List<String> warnings) {
        List<Entry> entries = listing.entries();
        StringBuilder b = new StringBuilder();
        b.append("directory ").append(path).append('\n');
        if (manifest.isPresent()) {
            JobManifest m = manifest.get();
            b.append("job ").append(m.jobId()).append(" (manifest format ").append(m.formatVersion()).append("): ")
                    .append(m.graph()).append('\n');
            b.append("options:");
            m.options().forEach((k, v) -> b.append(" --").append(k).append(' ').append(v));
            b.append('\n');
            Map<String, String> ranges = keyGroupRanges(manifest);
            if (!ranges.isEmpty()) {
                b.append("key groups (max parallelism ").append(m.options().get("max-parallelism")).append("):");
                ranges.forEach((t, r) -> b.append(' ').append(t).append(' ').append(r));
                b.append('\n');
            }
        } else {
            b.append("job: none (no ").append(JobManifest.FILE).append("; not resumable)\n");
        }
        b.append("state: ").append(finished.map(f -> "finished, " + f.lines().filter(l -> l.startsWith("verdict="))
                .map(l -> l.substring(8)).findFirst().orElse("verdict unknown")).orElse("not finished")).append('\n');
        b.append("pointer LATEST: ").append(pointer == null ? "missing" : "'" + pointer + "'").append('\n');
        b.append(String.format("%-6s %-16s %10s %14s  %s%n", "id", "file", "bytes", "channel-state", "verdict"));
        for (Entry e : entries) {
            b.append(String.format("%-6d %-16s %10d %14s  %s%s%n", e.id(), e.file(), e.bytes(),
                    e.channelStateRecords() < 0 ? "-" : e.channelStateRecords() + " records",
                    e.problem() == null ? "complete, checksum ok" : "UNUSABLE: " + e.problem(),
                    uses != null && uses == e.id() ? "  <- resume uses this" : ""));
        }
        if (entries.isEmpty()) {
            b.append("(no checkpoint files)\n");
        }
        Map<String, Integer> counts = referenceCounts(entries);
        for (Entry e : entries) {
            if (e.problem() != null) {
                continue;
            }
            long sharedBytes = e.shared().values().stream().mapToLong(n -> Math.max(0, n)).sum();
            b.append("files of checkpoint ").append(e.id()).append(": private ").append(e.file()).append(" (")
                    .append(e.bytes()).append(" bytes), ").append(e.shared().size()).append(" shared (")
                    .append(sharedBytes).append(" bytes)\n");
            e.shared().forEach((f, n) -> b.append(String.format("  shared %s %d bytes, referenced by %d checkpoint%s%n",
                    f, n, counts.get(f), counts.get(f) == 1 ? "" : "s")));
        }
        listing.unreferenced().forEach((f, n) -> b.append("shared file ").append(f).append(" (").append(n)
                .append(" bytes): referenced by no valid checkpoint").append(finished.isPresent()
                        ? " (a leak: the job has finished)\n"
                        : " (an interrupted checkpoint's orphan: the next run or resume deletes it)\n"));
        for (String t : listing.temps()) {
            b.append("temporary file ").append(t).append(": an interrupted write's leftover (never restored)\n");
        }
        warnings.forEach(w -> b.append("warning: ").append(w).append('\n'));
        b.append("resume would start from ").append(uses == null ? "the initial state (no valid checkpoint)"
                : "checkpoint " + uses);
        return b.toString();
    }

    private static String json(Path path, Optional<JobManifest> manifest, Optional<String> finished, String pointer,
            Listing listing, Long uses, List<String> warnings) {
        List<Entry> entries = listing.entries();
        StringBuilder b = new StringBuilder("{\"directory\":").append(Json.str(path));
        b.append(",\"jobId\":").append(Json.str(manifest.map(JobManifest::jobId).orElse(null)));
        b.append(",\"manifestVersion\":").append(manifest.map(m -> Integer.toString(m.formatVersion())).orElse("null"));
        b.append(",\"jobGraph\":").append(Json.str(manifest.map(JobManifest::graph).orElse(null)));
        b.append(",\"options\":{");
        manifest.ifPresent(m -> {
            int[] i = {0};
            m.options().forEach((k, v) -> b.append(i[0]++ == 0 ? "" : ",").append(Json.str(k)).append(':').append(Json.str(v)));
        });
        b.append("},\"keyGroups\":{");
        int[] g = {0};
        keyGroupRanges(manifest).forEach((t, r) -> b.append(g[0]++ == 0 ? "" : ",").append(Json.str(t)).append(':')
                .append(Json.str(r)));
        b.append("},\"finished\":").append(finished.isPresent());
        b.append(",\"pointer\":").append(Json.str(pointer));
        b.append(",\"checkpoints\":[");
        Map<String, Integer> counts = referenceCounts(entries);
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            b.append(i == 0 ? "" : ",").append("{\"id\":").append(e.id())
                    .append(",\"file\":").append(Json.str(e.file()))
                    .append(",\"bytes\":").append(e.bytes())
                    .append(",\"channelStateRecords\":").append(e.channelStateRecords())
                    .append(",\"valid\":").append(e.problem() == null)
                    .append(",\"problem\":").append(Json.str(e.problem()))
                    .append(",\"resumeUses\":").append(uses != null && uses == e.id())
                    .append(",\"sharedFiles\":[");
            int[] j = {0};
            e.shared().forEach((f, n) -> b.append(j[0]++ == 0 ? "" : ",").append("{\"file\":").append(Json.str(f))
                    .append(",\"bytes\":").append(n).append(",\"references\":").append(counts.get(f)).append('}'));
            b.append("]}");
        }
        b.append("],\"unreferencedSharedFiles\":[");
        int[] k = {0};
        listing.unreferenced().forEach((f, n) -> b.append(k[0]++ == 0 ? "" : ",").append("{\"file\":").append(Json.str(f))
                .append(",\"bytes\":").append(n).append('}'));
        b.append("],\"temporaryFiles\":[").append(String.join(",", listing.temps().stream().map(Json::str).toList()));
        b.append("],\"warnings\":[").append(String.join(",", warnings.stream().map(Json::str).toList()));
        return b.append("],\"resumeFrom\":").append(uses == null ? "null" : uses.toString()).append('}').toString();
    }
}
