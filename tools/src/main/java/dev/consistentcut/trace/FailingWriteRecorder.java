package dev.consistentcut.trace;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A store trace's recorder that also makes the store's {@code n}-th file write fail before its
 * temporary file is written, as a full disk would ({@code trace record-store --fail-write N}): the
 * store then aborts the checkpoint it was writing (the spec's {@code AbortCheckpoint}, whose
 * uploads the next store deletes), which a run without failures never shows. Fault injection
 * through the store's observer, as the crash test's kill points are: the store does not know.
 *
 * <p>Threading contract: as {@link StoreTraceRecorder}'s (the store's thread, under its lock).
 */
final class FailingWriteRecorder extends StoreTraceRecorder {

    private final int failing;
    private int writes;

    /**
     * @param failing which write of the store's own fails, counting from 1 (every temporary file of
     *     a shared file, a checkpoint's private file or the pointer is one write; a task's or a
     *     materialiser's staged write is not counted: its failure aborts nothing, the store then
     *     writes the segments itself)
     */
    FailingWriteRecorder(Path dir, String task, int retained, int failing) {
        super(dir, task, retained);
        if (failing < 1) {
            throw new IllegalArgumentException("--fail-write must be at least 1, got " + failing);
        }
        this.failing = failing;
    }

    @Override
    public void beforeTempWrite(String write, Path temp, byte[] bytes) throws IOException {
        if (!write.equals("changes") && !write.equals("materialised") && ++writes == failing) {
            throw new IOException("write " + failing + " of the store (" + write + ", " + temp.getFileName()
                    + ") failed: injected by --fail-write");
        }
    }
}
