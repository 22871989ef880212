package dev.consistentcut.checkpoint;

import dev.consistentcut.sink.FileSinkDirectory;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.SinkIoException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The sink directory of a power-loss test's resumed run ({@link PowerLossRun}): the files and
 * names of a {@link FileSinkDirectory}, with its refusals (a rename onto an existing name), but no
 * fsync. A temp file's bytes reach the file at {@link TempFile#sync} (the real one writes its
 * buffer there too; the sink syncs every temp file before it closes it), and a directory fsync
 * does nothing. No power loss follows a resume, so what the run and its checks read is what the
 * real directory would give them.
 *
 * <p><b>Threading contract.</b> Confined to the runtime's one thread, as the resumed run is.
 */
final class UnsyncedSinkDirectory implements SinkDirectory {

    private final FileSinkDirectory real;

    UnsyncedSinkDirectory(FileSinkDirectory real) {
        this.real = real;
    }

    @Override
    public TempFile create(String name) {
        real.create(name).close(); // created or truncated, as the real one opens it
        Path path = real.path().resolve(name);
        return new TempFile() {
            private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

            @Override
            public void append(byte[] bytes) {
                pending.writeBytes(bytes);
            }

            @Override
            public void sync() {
                try {
                    Files.write(path, pending.toByteArray(), StandardOpenOption.APPEND);
                } catch (IOException e) {
                    throw new SinkIoException(path + ": cannot be written: " + SinkIoException.reason(e), e);
                }
                pending.reset();
            }

            @Override
            public void close() {
                pending.reset();
            }
        };
    }

    @Override
    public boolean exists(String name) {
        return real.exists(name);
    }

    @Override
    public void rename(String from, String to) {
        real.rename(from, to);
    }

    @Override
    public void syncDirectory() {
        // no power loss follows a resume
    }

    @Override
    public void copy(String from, String to) {
        Path target = real.path().resolve(to);
        try {
            Files.copy(real.path().resolve(from), target);
        } catch (IOException e) {
            throw new SinkIoException(real.path().resolve(from) + ": cannot be copied to " + to + ": " + SinkIoException.reason(e), e);
        }
    }

    @Override
    public void delete(String name) {
        real.delete(name);
    }

    @Override
    public List<String> list() {
        return real.list();
    }

    @Override
    public byte[] read(String name) {
        return real.read(name);
    }

    @Override
    public String describe() {
        return real.describe();
    }
}
