package dev.consistentcut.checkpoint;

import dev.consistentcut.sink.SinkDirectory;
import java.util.List;

/**
 * DELIBERATELY BROKEN: the sink's directory with one of the sink's fsyncs dropped, the rest passed
 * on. Without a power loss nothing differs, so every test but the power-loss test passes with it;
 * {@code PowerLossBrokenTwinTest} shows that one failing. Never use it otherwise.
 *
 * <p><b>Threading contract.</b> As {@link SinkDirectory}'s user: one thread, the sink task's.
 */
final class SinkMissingFsync implements SinkDirectory {

    /** The fsync dropped. */
    enum Dropped {
        /** The fsync of the transaction file at pre-commit. */
        TRANSACTION_FILE_FSYNC,
        /** The directory fsync at pre-commit, after the transaction file's fsync (its name). */
        DIRECTORY_FSYNC_AT_PRE_COMMIT,
        /** The directory fsync after the commit's rename of the transaction file to its part file. */
        DIRECTORY_FSYNC_AFTER_COMMIT_RENAME
    }

    private final SinkDirectory dir;
    private final Dropped dropped;
    /** What the sink called last: a directory fsync is told apart by what it follows. */
    private String last = "";

    SinkMissingFsync(SinkDirectory dir, Dropped dropped) {
        this.dir = dir;
        this.dropped = dropped;
    }

    @Override
    public TempFile create(String name) {
        last = "create";
        TempFile f = dir.create(name);
        return new TempFile() {
            @Override
            public void append(byte[] bytes) {
                last = "append";
                f.append(bytes);
            }

            @Override
            public void sync() {
                last = "sync";
                if (dropped != Dropped.TRANSACTION_FILE_FSYNC) {
                    f.sync();
                }
            }

            @Override
            public void close() {
                f.close();
            }
        };
    }

    @Override
    public void syncDirectory() {
        Dropped here = last.equals("rename") ? Dropped.DIRECTORY_FSYNC_AFTER_COMMIT_RENAME : Dropped.DIRECTORY_FSYNC_AT_PRE_COMMIT;
        last = "syncDirectory";
        if (dropped != here) {
            dir.syncDirectory();
        }
    }

    @Override
    public void rename(String from, String to) {
        last = "rename";
        dir.rename(from, to);
    }

    @Override
    public boolean exists(String name) {
        return dir.exists(name);
    }

    @Override
    public void copy(String from, String to) {
        dir.copy(from, to);
    }

    @Override
    public void delete(String name) {
        dir.delete(name);
    }

    @Override
    public List<String> list() {
        return dir.list();
    }

    @Override
    public byte[] read(String name) {
        return dir.read(name);
    }

    @Override
    public String describe() {
        return dir.describe();
    }
}
