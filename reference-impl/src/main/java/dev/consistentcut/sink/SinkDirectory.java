package dev.consistentcut.sink;

import java.util.List;

/**
 * The external system a {@link TransactionalFileSink} commits to: a flat directory of files. Its
 * operations are the ones a two-phase commit needs and nothing more, so that the sink can run on a
 * real directory ({@link FileSinkDirectory}) and, in the thousands of seeded simulation runs, on
 * memory ({@link MemorySinkDirectory}) with the same code.
 *
 * <p>Contract (POSIX, as the real directory gives it): {@link #rename} is atomic; a name change
 * ({@link #create}, {@link #rename}, {@link #delete}) is durable once {@link #syncDirectory}
 * returned after it, and a file's contents as far as {@link TempFile#sync} made them durable. The
 * sink calls each fsync itself, in the order its protocol needs, so that a test recording these
 * calls sees every one (the power-loss test); a name starting with {@code .} is never output
 * ({@link #list} returns every name, readers of the output skip those).
 *
 * <p>Threading: every method is thread-safe; one {@link TempFile} is used by one thread.
 */
public interface SinkDirectory {

    /** A file being written: the open transaction. */
    interface TempFile {
        /** Appends {@code bytes} (buffered: not durable before {@link #sync}). */
        void append(byte[] bytes);

        /** Flushes and fsyncs: every byte appended so far is durable. */
        void sync();

        /** Releases the handle (the file stays). */
        void close();
    }

    /** Creates (or truncates) {@code name} for writing. */
    TempFile create(String name);

    boolean exists(String name);

    /**
     * Moves {@code from} to {@code to} atomically (replacing nothing: {@code to} must not exist);
     * durable after the next {@link #syncDirectory}.
     */
    void rename(String from, String to);

    /** Makes every name change so far durable (fsync of the directory). */
    void syncDirectory();

    /** Copies {@code from} to a new file {@code to} (durable when it returns); {@code from} stays. */
    void copy(String from, String to);

    /** Deletes {@code name} if it exists. */
    void delete(String name);

    /** Every name in the directory, sorted. */
    List<String> list();

    /** The whole content of {@code name}. */
    byte[] read(String name);

    /** Where the files are, for messages. */
    String describe();
}
