package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.stream.Stream;

/**
 * The files of a {@link DirectoryCheckpointStore} directory as inspection sees them: what each
 * checkpoint file holds and which shared files it references. Reads only, and needs no store:
 * stateless and thread-safe (a directory being written may show a write half done).
 */
public final class CheckpointFiles {

    private CheckpointFiles() {
    }

    /**
     * What a checkpoint file holds, for inspection: the job it belongs to ({@code null}: none),
     * its id, the in-flight records it persisted, and the shared files it references (none for a
     * whole checkpoint of an earlier version).
     */
    public record Summary(String jobId, long id, long channelStateRecords, Set<String> sharedFiles) {
    }

    /**
     * The summary of checkpoint file {@code file}, its private data decoded and checksum-verified
     * (whether the shared files it references are there, and their contents, is not checked
     * here: a restore verifies them).
     * Reads only; no store needs to be open.
     *
     * @throws CorruptCheckpointException naming the file and the first defect found
     */
    public static Summary summarize(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        if (!IncrementalCodec.isIncremental(bytes)) {
            CheckpointCodec.Decoded d = CheckpointCodec.decodeWithJob(bytes, file.toString());
            return new Summary(d.jobId(), d.checkpoint().id(), d.checkpoint().persistedRecordCount(), Set.of());
        }
        IncrementalCodec.Metadata m = IncrementalCodec.decodeMetadata(bytes, file.toString());
        long records = m.channelState().values().stream().mapToLong(List::size).sum();
        return new Summary(m.jobId(), m.id(), records, m.sharedFiles());
    }

    /**
     * Whether {@code name} is the name of a shared segment file ({@code shared-<id>-<task>.seg}), or of
     * a materialisation's staged upload ({@code materialised-<k>-<task>.seg}), which no checkpoint
     * references until one takes it over: both leak if none ever does.
     */
    public static boolean isSharedFile(String name) {
        java.util.regex.Matcher staged = SharedSegmentFiles.STAGED_FILE.matcher(name);
        return SharedSegmentFiles.SHARED_FILE.matcher(name).matches() || staged.matches() && staged.group(3) == null;
    }

    /**
     * The shared files each checkpoint file in {@code dir} references, by checkpoint id: empty for
     * a whole checkpoint; absent for a file that {@link #summarize} refuses. Reads only.
     */
    public static SortedMap<Long, Set<String>> sharedFileReferences(Path dir) {
        SortedMap<Long, Set<String>> refs = new TreeMap<>();
        try (Stream<Path> names = Files.list(dir)) {
            for (Path p : (Iterable<Path>) names::iterator) {
                Matcher m = DirectoryCheckpointStore.CHECKPOINT_FILE.matcher(p.getFileName().toString());
                if (!m.matches()) {
                    continue;
                }
                try {
                    refs.put(Long.parseLong(m.group(1)), summarize(p).sharedFiles());
                } catch (IOException e) {
                    // not restorable: its references are unknown or broken
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list checkpoint directory " + dir + ": " + e, e);
        }
        return refs;
    }

}
