package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * Reads the checkpoint files of one {@link DirectoryCheckpointStore} directory and job: whole
 * checkpoints ({@link CheckpointCodec}) and incremental ones (a private file, {@link
 * IncrementalCodec}, and the shared files it references), refusing a file of another job or one
 * whose name contradicts its content. Stateless apart from its directory and job: thread-safe;
 * the registry passed in is confined to the store's lock.
 */
final class CheckpointReader {

    private final Path dir;
    /** The job whose checkpoints are read; null: any (version-1 files name none). */
    private final String jobId;

    CheckpointReader(Path dir, String jobId) {
        this.dir = dir;
        this.jobId = jobId;
    }

    /**
     * The checkpoint in {@code file}, fully decoded and verified; each segment it reads is located
     * in {@code registry} (a later checkpoint then references it instead of writing it again).
     */
    CompletedCheckpoint read(Path file, long expectedId, SharedStateRegistry registry) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        if (!IncrementalCodec.isIncremental(bytes)) { // a whole checkpoint, as the store wrote them before
            return whole(file, bytes, expectedId);
        }
        IncrementalCodec.Metadata m = metadata(file, bytes, expectedId);
        return SharedSegmentFiles.assemble(m, dir, file.toString(), registry);
    }

    /**
     * The shared files {@code bytes}, read from checkpoint {@code id}'s {@code file}, reference (none
     * for a whole checkpoint), once the bytes decode as a checkpoint of this job and id.
     *
     * @throws CorruptCheckpointException naming the file and why it does not decode
     */
    Set<String> decodedSharedFiles(Path file, long id, byte[] bytes) throws IOException {
        if (!IncrementalCodec.isIncremental(bytes)) {
            whole(file, bytes, id);
            return Set.of();
        }
        return metadata(file, bytes, id).sharedFiles();
    }

    /** @throws CorruptCheckpointException naming {@code file} if one of {@code shared} is missing */
    void requireSharedFiles(Path file, Set<String> shared) throws CorruptCheckpointException {
        String missing = SharedSegmentFiles.missing(shared, dir);
        if (missing != null) {
            throw new CorruptCheckpointException(file.toString(), "references shared file " + missing
                    + ", which is missing");
        }
    }

    /** The whole checkpoint {@code file} holds, checked to be of this job and of checkpoint {@code expectedId}. */
    private CompletedCheckpoint whole(Path file, byte[] bytes, long expectedId) throws CorruptCheckpointException {
        CheckpointCodec.Decoded d = CheckpointCodec.decodeWithJob(bytes, file.toString());
        checkIdentity(file, expectedId, d.jobId(), d.checkpoint().id());
        return d.checkpoint();
    }

    /** The decoded private file {@code file}, checked to be of this job and of checkpoint {@code expectedId}. */
    private IncrementalCodec.Metadata metadata(Path file, byte[] bytes, long expectedId) throws CorruptCheckpointException {
        IncrementalCodec.Metadata m = IncrementalCodec.decodeMetadata(bytes, file.toString());
        checkIdentity(file, expectedId, m.jobId(), m.id());
        return m;
    }

    private void checkIdentity(Path file, long expectedId, String fileJob, long fileId) throws CorruptCheckpointException {
        if (jobId != null && !jobId.equals(fileJob)) {
            throw new CorruptCheckpointException(file.toString(), "belongs to "
                    + (fileJob == null ? "no job (format version 1)" : "job " + fileJob)
                    + ", not to job " + jobId + "; never restored into another job");
        }
        if (fileId != expectedId) {
            throw new CorruptCheckpointException(file.toString(),
                    "holds checkpoint " + fileId + ", but its name says " + expectedId);
        }
    }
}
