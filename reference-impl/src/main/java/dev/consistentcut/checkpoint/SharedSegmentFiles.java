package dev.consistentcut.checkpoint;

import dev.consistentcut.message.RecordId;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shared segment files of a {@link DirectoryCheckpointStore}: their names ({@code
 * shared-<checkpoint>-<task>.seg}, the spec's remote file {@code <<f, c>>}: the segments of one task
 * uploaded by checkpoint {@code c}, the task's name escaped to a file name) and the reading of a
 * checkpoint's private file back into the {@link CompletedCheckpoint} it was written from.
 * Stateless; the registry passed in is confined to the store's lock.
 */
final class SharedSegmentFiles {

    /**
     * A shared file: group 1 the id of the checkpoint that uploaded it, group 2 its task, escaped
     * (never a '~': it is escaped); group 3, if present, the number of the materialisation whose
     * staged upload the checkpoint took over ({@link #materialisedName}).
     */
    static final Pattern SHARED_FILE = Pattern.compile("shared-(\\d{1,18})-([^~]+)(?:~m(\\d{1,18}))?\\.seg");
    /**
     * A staged upload before a checkpoint takes it over, a materialisation's ({@link #stagedName})
     * or a task's changes ({@link #changesName}): group 1 its number, group 2 its task, escaped;
     * group 3, if present, its temporary file.
     */
    static final Pattern STAGED_FILE = Pattern.compile("(?:materialised|changes)-(\\d{1,18})-([^~]+)\\.seg(\\.tmp)?");
    /** A shared file's temporary name while it is written. */
    static final Pattern SHARED_TEMP = Pattern.compile("shared-(\\d{1,18})-.+\\.seg\\.tmp");

    private SharedSegmentFiles() {
    }

    /** The shared file of {@code task}'s segments uploaded by checkpoint {@code id}. */
    static String name(long id, String task) {
        return "shared-" + id + "-" + escaped(task) + ".seg";
    }

    /**
     * The shared file of {@code task}'s segments that materialisation {@code number} merged and
     * staged ({@link #stagedName}), as checkpoint {@code id} took it over: it uploaded it, in the
     * spec's terms, by a rename. Its content names no checkpoint (uploader 0): it was written
     * before one was known.
     */
    static String materialisedName(long id, String task, long number) {
        return "shared-" + id + "-" + escaped(task) + "~m" + number + ".seg";
    }

    /** The file materialisation {@code number} of {@code task} writes its merged segments to, until a checkpoint takes them over. */
    static String stagedName(long number, String task) {
        return "materialised-" + number + "-" + escaped(task) + ".seg";
    }

    /**
     * The file a task writes its changes since its previous snapshot to (staged upload {@code
     * number}), before the checkpoint it acknowledges takes them over.
     */
    static String changesName(long number, String task) {
        return "changes-" + number + "-" + escaped(task) + ".seg";
    }

    /** Whether {@code file} is a shared file of {@code task}'s (a private file references a task's own files only). */
    static boolean isTasks(String file, String task) {
        Matcher m = SHARED_FILE.matcher(file);
        return m.matches() && m.group(2).equals(escaped(task));
    }

    private static String escaped(String task) {
        StringBuilder b = new StringBuilder();
        for (byte x : task.getBytes(StandardCharsets.UTF_8)) {
            char ch = (char) (x & 0xff);
            if (ch < 0x80 && (Character.isLetterOrDigit(ch) || ch == '.' || ch == '_' || ch == '-')) {
                b.append(ch);
            } else {
                b.append('%').append(String.format("%02X", x & 0xff));
            }
        }
        return b.toString();
    }

    /** The id of the checkpoint that uploaded shared file (or shared temp file) {@code name}; -1 if it is none. */
    static long uploader(String name) {
        Matcher m = SHARED_FILE.matcher(name);
        if (m.matches()) {
            return Long.parseLong(m.group(1));
        }
        Matcher t = SHARED_TEMP.matcher(name);
        return t.matches() ? Long.parseLong(t.group(1)) : -1;
    }

    /** The materialisation whose staged upload shared file {@code name} is ({@link #materialisedName}); 0 if none. */
    static long materialisation(String name) {
        Matcher m = SHARED_FILE.matcher(name);
        return m.matches() && m.group(3) != null ? Long.parseLong(m.group(3)) : 0;
    }

    private static String task(String escaped) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < escaped.length(); i++) {
            char ch = escaped.charAt(i);
            if (ch == '%' && i + 2 < escaped.length()) {
                out.write(Integer.parseInt(escaped.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.write(ch);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * The checkpoint private file {@code m} describes, its segments read from the shared files of
     * {@code dir} (each verified: checksum, the task and uploader its name says); each segment is
     * located in {@code registry}, so that a checkpoint taken after a restore from it references
     * the segments instead of writing them again.
     *
     * @throws CorruptCheckpointException naming the private file when a shared file it references
     *     is missing or damaged, or its state merge is unknown
     */
    static CompletedCheckpoint assemble(IncrementalCodec.Metadata m, Path dir, String where,
            SharedStateRegistry registry) throws IOException {
        Map<String, List<Object>> loaded = new HashMap<>();
        Map<String, TaskSnapshot> snapshots = new HashMap<>();
        for (Map.Entry<String, IncrementalCodec.TaskRefs> e : m.tasks().entrySet()) {
            IncrementalCodec.TaskRefs t = e.getValue();
            Changelog<byte[]> state = null;
            for (IncrementalCodec.SegmentRef r : t.state()) {
                byte[] segment = segment(r, byte[].class, dir, where, loaded, registry);
                state = state == null ? Changelog.base(segment, segment.length) : state.writeState(segment, segment.length);
            }
            Changelog<Map<RecordId, Integer>> ledger = null;
            for (IncrementalCodec.SegmentRef r : t.ledger()) {
                @SuppressWarnings("unchecked")
                Map<RecordId, Integer> segment = segment(r, Map.class, dir, where, loaded, registry);
                ledger = ledger == null ? Changelog.base(segment, segment.size()) : ledger.writeState(segment, segment.size());
            }
            StateMerge merge;
            try {
                merge = t.merge().isEmpty() ? StateMerge.WHOLE : OperatorStateMerge.named(t.merge());
            } catch (IllegalArgumentException x) {
                throw new CorruptCheckpointException(where, "task " + e.getKey() + ": " + x.getMessage(), x);
            }
            if (merge == StateMerge.WHOLE && state.length() > 1) {
                throw new CorruptCheckpointException(where, "task " + e.getKey() + ": a state of "
                        + state.length() + " segments without a merge");
            }
            snapshots.put(e.getKey(), TaskSnapshot.ofChangelogs(state, merge, t.stateSize(), ledger,
                    t.ledgerEntries(), t.ledgerBytes()));
        }
        return new CompletedCheckpoint(m.id(), m.offsets(), snapshots, m.channelState(), m.stats());
    }

    /**
     * What checkpoint {@code id} writes for {@code task}: the shared file {@code file} of the
     * {@code segments} no registered checkpoint's shared file holds (empty: nothing to write),
     * where each of them will be ({@code located}), and the references of the task's snapshot.
     */
    record Upload(String file, List<Object> segments, Map<Object, IncrementalCodec.SegmentRef> located,
                  IncrementalCodec.TaskRefs refs, Map<String, String> takenOver) {
    }

    /** Where a materialisation staged a segment: its staged file, its number, the segment's index in it. */
    record Staged(String file, long number, int index) {
    }

    /**
     * The references of {@code s}'s changelogs in checkpoint {@code id}: a segment in a shared file
     * some registered checkpoint references is referenced there; the others go to one new shared
     * file of this checkpoint and task, except those a materialisation staged ({@code staged}):
     * the checkpoint takes their staged file over ({@code takenOver}: staged file to its shared
     * name). A state whose merge has no name ({@link OperatorStateMerge}) goes whole, one segment.
     */
    static Upload plan(long id, String task, TaskSnapshot s, SharedStateRegistry registry) {
        return plan(id, task, s, registry, segment -> null);
    }

    /** As {@link #plan(long, String, TaskSnapshot, SharedStateRegistry)}, taking over what {@code staged} locates. */
    static Upload plan(long id, String task, TaskSnapshot s, SharedStateRegistry registry,
            java.util.function.Function<Object, Staged> staged) {
        String file = name(id, task);
        List<Object> uploads = new ArrayList<>();
        Map<Object, IncrementalCodec.SegmentRef> located = new IdentityHashMap<>();
        Map<String, String> takenOver = new java.util.TreeMap<>();
        Changelog<byte[]> state = s.stateChangelog();
        String merge = "";
        if (state.length() > 1) {
            if (s.stateMerge() instanceof OperatorStateMerge m) {
                merge = m.name();
            } else {
                byte[] whole = s.operatorState();
                state = Changelog.base(whole, whole.length);
            }
        }
        List<IncrementalCodec.SegmentRef> stateRefs =
                references(id, state.segments(), task, file, uploads, located, registry, staged, takenOver);
        List<IncrementalCodec.SegmentRef> ledgerRefs = references(id, s.ledgerChangelog().segments(), task, file,
                uploads, located, registry, staged, takenOver);
        return new Upload(file, uploads, located, new IncrementalCodec.TaskRefs(s.stateSize(), s.ledgerEntries(),
                s.ledgerBytes(), merge, stateRefs, ledgerRefs), takenOver);
    }

    /**
     * The references of {@code segments}: reused from {@code task}'s shared files (a private file
     * names them by uploader), taken over from a materialisation's staged file, or new.
     */
    private static List<IncrementalCodec.SegmentRef> references(long id, List<?> segments, String task, String file,
            List<Object> uploads, Map<Object, IncrementalCodec.SegmentRef> located, SharedStateRegistry registry,
            java.util.function.Function<Object, Staged> staged, Map<String, String> takenOver) {
        List<IncrementalCodec.SegmentRef> refs = new ArrayList<>(segments.size());
        for (Object segment : segments) {
            IncrementalCodec.SegmentRef ref = registry.reusable(segment);
            if (ref != null && !isTasks(ref.file(), task)) {
                ref = null; // another task's file: a private file references a task's own files only
            }
            if (ref == null) {
                ref = located.get(segment);
            }
            Staged st = ref == null ? staged.apply(segment) : null;
            if (st != null && (st.file().equals(stagedName(st.number(), task))
                    || st.file().equals(changesName(st.number(), task)))) {
                String shared = materialisedName(id, task, st.number());
                takenOver.put(st.file(), shared);
                ref = new IncrementalCodec.SegmentRef(shared, st.index());
                located.put(segment, ref);
            }
            if (ref == null) {
                ref = new IncrementalCodec.SegmentRef(file, uploads.size());
                uploads.add(segment);
                located.put(segment, ref);
            }
            refs.add(ref);
        }
        return refs;
    }

    /** The first of the {@code shared} files that is not in {@code dir}, or null if all are. */
    static String missing(Collection<String> shared, Path dir) {
        for (String f : shared) {
            if (!Files.isRegularFile(dir.resolve(f))) {
                return f;
            }
        }
        return null;
    }

    private static <T> T segment(IncrementalCodec.SegmentRef r, Class<T> kind, Path dir, String where,
            Map<String, List<Object>> loaded, SharedStateRegistry registry) throws IOException {
        List<Object> segments = loaded.get(r.file());
        if (segments == null) {
            Matcher n = SHARED_FILE.matcher(r.file());
            if (!n.matches() || r.file().contains("/") || r.file().contains("\\")) {
                throw new CorruptCheckpointException(where, "references '" + r.file() + "', no shared file name");
            }
            Path file = dir.resolve(r.file());
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (NoSuchFileException x) {
                throw new CorruptCheckpointException(where, "references shared file " + r.file() + ", which is missing");
            }
            String task;
            try {
                task = task(n.group(2));
            } catch (NumberFormatException x) {
                throw new CorruptCheckpointException(where, "references '" + r.file() + "', a badly escaped name");
            }
            // a materialisation's staged upload was written before a checkpoint was known: uploader 0
            segments = IncrementalCodec.decodeShared(bytes, file.toString(), task,
                    n.group(3) == null ? Long.parseLong(n.group(1)) : 0);
            loaded.put(r.file(), segments);
        }
        if (r.index() < 0 || r.index() >= segments.size() || !kind.isInstance(segments.get(r.index()))) {
            throw new CorruptCheckpointException(where, "references segment " + r.index() + " of shared file "
                    + r.file() + ", which has no such " + (kind == byte[].class ? "state" : "ledger") + " segment");
        }
        Object s = segments.get(r.index());
        registry.locate(s, r);
        return kind.cast(s);
    }
}
