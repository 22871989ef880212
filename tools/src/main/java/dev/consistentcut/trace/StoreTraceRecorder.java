package dev.consistentcut.trace;

import dev.consistentcut.checkpoint.WriteObserver;
import dev.consistentcut.text.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Records the actions of a {@link dev.consistentcut.checkpoint.DirectoryCheckpointStore} as a store
 * trace (NDJSON, header {@code "mode": "store"}), projected onto one task, for
 * spec/traces/TraceIncrementalStore.tla. The projection: the segments of the task's operator-state
 * chain are the spec's local files, numbered 1, 2, ... in the order the store first sees them (in
 * chain order); a segment stored at index k of shared file {@code shared-<c>-<task>.seg} is the
 * spec's remote file {@code <<f, c>>}; {@code <<0, c>>} is the private file {@code chk-<c>.ckpt}.
 * One engine file holding several of the task's segments is several remote files of the spec, so
 * its upload and its delete are one event per segment. The other tasks and the ledger chains are
 * not recorded (docs/trace-validation.md, "The store's trace").
 *
 * <p>Open for a broken twin's store (a test's subclass acting in an action, then recording it), not
 * for changing what is recorded.
 *
 * <p>Threading contract: the store calls it with its lock held, on the thread that stores or
 * restores (the coordinator's) or, for a materialisation's write, the materialiser's;
 * {@link #close} after the run, on the thread that ran it.
 */
public class StoreTraceRecorder implements WriteObserver {

    /** The header's mode: which trace module validates it. */
    public static final String MODE = "store";
    private static final Pattern UPLOADER = Pattern.compile("shared-(\\d{1,18})-.+\\.seg");
    private static final Pattern PRIVATE_FILE = Pattern.compile("chk-(\\d{1,18})\\.ckpt");

    private final Path dir;
    private final String task;
    private final List<String> lines = new ArrayList<>();
    /** The projected task's segments, by where they are stored, to the spec's local file ids. */
    private final Map<Segment, Integer> localIds = new HashMap<>();
    /** The projected task's shared files to the local files they hold, in index order. */
    private final Map<String, List<Integer>> filesOf = new HashMap<>();

    /**
     * @param dir the store's directory (the private files in it are the spec's {@code store})
     * @param task the task the trace is projected onto
     * @param retained the store's {@code retain}: the spec's {@code Retained}
     */
    public StoreTraceRecorder(Path dir, String task, int retained) {
        this.dir = dir;
        this.task = task;
        StringBuilder h = new StringBuilder("{\"trace\":");
        Json.quote(h, TraceRecorder.FORMAT).append(",\"version\":").append(TraceRecorder.VERSION).append(",\"mode\":");
        Json.quote(h, MODE).append(",\"task\":");
        Json.quote(h, task).append(",\"retained\":").append(retained).append('}');
        lines.add(h.toString());
    }

    @Override
    public void triggerCheckpoint(long checkpoint, Map<String, List<Segment>> stateSegments) {
        StringBuilder handle = new StringBuilder("[");
        for (Segment s : stateSegments.getOrDefault(task, List.of())) {
            Integer id = localIds.get(s);
            if (id == null) {
                id = localIds.size() + 1;
                localIds.put(s, id);
                filesOf.computeIfAbsent(s.file(), f -> new ArrayList<>()).add(id);
            }
            handle.append('[').append(id).append(',').append(uploader(s.file())).append("],");
        }
        handle.append("[0,").append(checkpoint).append("]]");
        event("TriggerCheckpoint", checkpoint, ",\"handle\":" + handle);
    }

    @Override
    public void uploadFile(long checkpoint, String uploader, String file) {
        if (uploader.equals(task)) {
            for (int f : filesOf.getOrDefault(file, List.of())) {
                event("UploadFile", checkpoint, ",\"file\":[" + f + "," + checkpoint + "]");
            }
        }
    }

    @Override
    public void acknowledgeCheckpoint(long checkpoint) {
        event("AcknowledgeCheckpoint", checkpoint, "");
    }

    @Override
    public void completeCheckpoint(long checkpoint) {
        event("CompleteCheckpoint", checkpoint, ",\"store\":" + storeIds());
    }

    @Override
    public void abortCheckpoint(long checkpoint) {
        event("AbortCheckpoint", checkpoint, "");
    }

    @Override
    public void subsumeCheckpoint(long checkpoint) {
        event("SubsumeCheckpoint", checkpoint, ",\"store\":" + storeIds());
    }

    /**
     * Also the private file's {@code DeleteFile}: the store deleted it at the subsumption already
     * (its metadata leaves the store), the spec schedules it here; in between only a crash could
     * tell the two apart, and the crash test covers that window.
     */
    @Override
    public void unregisterCheckpoint(long checkpoint) {
        event("UnregisterCheckpoint", checkpoint, "");
        lines.add("{\"event\":\"DeleteFile\",\"file\":[0," + checkpoint + "]}");
    }

    @Override
    public void deleteFile(String file) {
        for (int f : filesOf.getOrDefault(file, List.of())) {
            lines.add("{\"event\":\"DeleteFile\",\"file\":[" + f + "," + uploader(file) + "]}");
        }
    }

    /** A job starting from an empty directory reads nothing back: that is the spec's initial state, no step. */
    @Override
    public void restoreCheckpoint(long checkpoint) {
        if (lines.size() > 1 || checkpoint != 0) {
            lines.add("{\"event\":\"RestoreCheckpoint\",\"restored\":" + checkpoint + "}");
        }
    }

    /** The events recorded so far. */
    public int events() {
        return lines.size() - 1;
    }

    /** Writes the trace to {@code file} (via {@code file.part}, renamed when complete). */
    public void close(Path file) {
        Path part = file.resolveSibling(file.getFileName() + ".part");
        try {
            Files.write(part, lines, StandardCharsets.UTF_8);
            Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the store trace " + file + ": " + e.getMessage(), e);
        }
    }

    private void event(String name, long checkpoint, String fields) {
        lines.add("{\"event\":\"" + name + "\",\"checkpoint\":" + checkpoint + fields + "}");
    }

    /** The ids of the private files in the directory: the checkpoints in the store. */
    private String storeIds() {
        TreeSet<Long> ids = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.forEach(p -> {
                Matcher m = PRIVATE_FILE.matcher(p.getFileName().toString());
                if (m.matches()) {
                    ids.add(Long.parseLong(m.group(1)));
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        return ids.toString().replace(" ", "");
    }

    private static long uploader(String file) {
        Matcher m = UPLOADER.matcher(file);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a shared file name: " + file);
        }
        return Long.parseLong(m.group(1));
    }
}
