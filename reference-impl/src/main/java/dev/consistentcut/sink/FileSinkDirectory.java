package dev.consistentcut.sink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A {@link SinkDirectory} on a real directory: temp files are written through a buffer and
 * {@link FileChannel#force fsynced} on {@link TempFile#sync}; {@link #rename} is
 * {@code ATOMIC_MOVE}, made durable by {@link #syncDirectory} (an fsync of the directory), so a
 * committed file survives a power loss once both returned (Flink's FileSink commits part files the
 * same way). Every failure is a {@link SinkIoException} naming the path.
 */
public final class FileSinkDirectory implements SinkDirectory {

    private static final int BUFFER = 64 * 1024;

    private final Path dir;

    /** Opens {@code dir}, creating it (and its parents) if needed. */
    public FileSinkDirectory(Path dir) {
        this.dir = dir;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new SinkIoException("output directory " + dir + ": cannot be created: " + SinkIoException.reason(e), e);
        }
        if (!Files.isDirectory(dir)) {
            throw new SinkIoException("output directory " + dir + ": not a directory", new IOException("not a directory"));
        }
    }

    public Path path() {
        return dir;
    }

    @Override
    public TempFile create(String name) {
        Path p = dir.resolve(name);
        try {
            FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
            return new Temp(p, ch);
        } catch (IOException e) {
            throw new SinkIoException(p + ": cannot be created: " + SinkIoException.reason(e), e);
        }
    }

    private static final class Temp implements TempFile {
        private final Path path;
        private final FileChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);

        Temp(Path path, FileChannel channel) {
            this.path = path;
            this.channel = channel;
        }

        @Override
        public void append(byte[] bytes) {
            if (bytes.length > buffer.remaining()) {
                flush();
            }
            if (bytes.length > buffer.capacity()) {
                write(ByteBuffer.wrap(bytes));
            } else {
                buffer.put(bytes);
            }
        }

        private void flush() {
            buffer.flip();
            write(buffer);
            buffer.clear();
        }

        private void write(ByteBuffer b) {
            try {
                while (b.hasRemaining()) {
                    channel.write(b);
                }
            } catch (IOException e) {
                throw new SinkIoException(path + ": cannot be written: " + SinkIoException.reason(e), e);
            }
        }

        @Override
        public void sync() {
            flush();
            try {
                channel.force(true);
            } catch (IOException e) {
                throw new SinkIoException(path + ": fsync failed: " + SinkIoException.reason(e), e);
            }
        }

        @Override
        public void close() {
            try {
                channel.close();
            } catch (IOException e) {
                throw new SinkIoException(path + ": cannot be closed: " + SinkIoException.reason(e), e);
            }
        }
    }

    @Override
    public boolean exists(String name) {
        return Files.exists(dir.resolve(name));
    }

    @Override
    public void rename(String from, String to) {
        Path target = dir.resolve(to);
        if (Files.exists(target)) {
            throw new SinkIoException(target + ": already exists; a commit never replaces output",
                    new FileAlreadyExistsException(target.toString()));
        }
        try {
            Files.move(dir.resolve(from), target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new SinkIoException(dir.resolve(from) + ": cannot be renamed to " + to + ": " + SinkIoException.reason(e), e);
        }
    }

    @Override
    public void copy(String from, String to) {
        Path target = dir.resolve(to);
        try {
            Files.copy(dir.resolve(from), target);
            try (FileChannel ch = FileChannel.open(target, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
        } catch (IOException e) {
            throw new SinkIoException(dir.resolve(from) + ": cannot be copied to " + to + ": " + SinkIoException.reason(e), e);
        }
        syncDirectory();
    }

    @Override
    public void syncDirectory() {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // some platforms cannot open a directory for fsync; the rename itself is still atomic
        }
    }

    @Override
    public void delete(String name) {
        try {
            Files.deleteIfExists(dir.resolve(name));
        } catch (IOException e) {
            throw new SinkIoException(dir.resolve(name) + ": cannot be deleted: " + SinkIoException.reason(e), e);
        }
    }

    @Override
    public List<String> list() {
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = new ArrayList<>();
            files.forEach(p -> names.add(p.getFileName().toString()));
            names.sort(null);
            return names;
        } catch (IOException e) {
            throw new SinkIoException(dir + ": cannot be listed: " + SinkIoException.reason(e), e);
        }
    }

    @Override
    public byte[] read(String name) {
        try {
            return Files.readAllBytes(dir.resolve(name));
        } catch (IOException e) {
            throw new SinkIoException(dir.resolve(name) + ": cannot be read: " + SinkIoException.reason(e), e);
        }
    }

    @Override
    public String describe() {
        return dir.toString();
    }
}
