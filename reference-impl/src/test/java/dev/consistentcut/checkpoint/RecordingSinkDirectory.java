package dev.consistentcut.checkpoint;

import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.SinkIoException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link SinkDirectory} of the power-loss test: the sink's directory held in the
 * {@link PowerLossDisk} under the name {@code dir}, every operation recorded there (the reads
 * answered from its current view), with the refusals of {@code FileSinkDirectory}.
 *
 * <p><b>Threading contract.</b> Confined to the runtime's one thread, as the disk is.
 */
final class RecordingSinkDirectory implements SinkDirectory {

    private final PowerLossDisk disk;
    private final String dir;

    RecordingSinkDirectory(PowerLossDisk disk, String dir) {
        this.disk = disk;
        this.dir = dir;
    }

    @Override
    public TempFile create(String name) {
        disk.create(dir, name);
        return new TempFile() {
            @Override
            public void append(byte[] bytes) {
                disk.write(dir, name, bytes);
            }

            @Override
            public void sync() {
                disk.fsync(dir, name);
            }

            @Override
            public void close() {
                // a close is no file operation a power loss depends on
            }
        };
    }

    @Override
    public boolean exists(String name) {
        return disk.names(dir).containsKey(name);
    }

    @Override
    public void rename(String from, String to) {
        if (exists(to)) {
            throw new SinkIoException(dir + "/" + to + ": already exists", new IOException("exists"));
        }
        disk.rename(dir, from, to);
    }

    @Override
    public void syncDirectory() {
        disk.fsyncDirectory(dir);
    }

    @Override
    public void copy(String from, String to) {
        byte[] content = read(from);
        disk.create(dir, to);
        disk.write(dir, to, content);
        disk.fsync(dir, to);
        disk.fsyncDirectory(dir);
    }

    @Override
    public void delete(String name) {
        disk.delete(dir, name);
    }

    @Override
    public List<String> list() {
        return new ArrayList<>(disk.names(dir).keySet());
    }

    @Override
    public byte[] read(String name) {
        if (!exists(name)) {
            throw new SinkIoException(dir + "/" + name + ": no such file", new IOException("missing"));
        }
        return disk.inode(dir, name).content.clone();
    }

    @Override
    public String describe() {
        return "recorded:" + dir;
    }
}
