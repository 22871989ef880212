package dev.consistentcut.sink;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A {@link SinkDirectory} in memory, for the seeded simulation runs: the same operations and the
 * same refusals as {@link FileSinkDirectory} (a rename never replaces a file, reading a missing
 * file fails), without disk time. It outlives the sink instances that write to it, as a real
 * directory outlives a failed task. A crash of the process is not modelled (the durable tests use
 * the real directory). Thread-safe.
 */
public final class MemorySinkDirectory implements SinkDirectory {

    private final TreeMap<String, ByteArrayOutputStream> files = new TreeMap<>();

    @Override
    public synchronized TempFile create(String name) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        files.put(name, content);
        return new TempFile() {
            @Override
            public void append(byte[] bytes) {
                synchronized (MemorySinkDirectory.this) {
                    content.writeBytes(bytes);
                }
            }

            @Override
            public void sync() {
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public synchronized boolean exists(String name) {
        return files.containsKey(name);
    }

    @Override
    public synchronized void rename(String from, String to) {
        if (files.containsKey(to)) {
            throw new SinkIoException("memory:" + to + ": already exists; a commit never replaces output",
                    new IOException("exists"));
        }
        ByteArrayOutputStream content = files.remove(from);
        if (content == null) {
            throw new SinkIoException("memory:" + from + ": no such file", new IOException("missing"));
        }
        files.put(to, content);
    }

    @Override
    public void syncDirectory() {
        // memory has no power to lose
    }

    @Override
    public synchronized void copy(String from, String to) {
        if (files.containsKey(to)) {
            throw new SinkIoException("memory:" + to + ": already exists", new IOException("exists"));
        }
        ByteArrayOutputStream content = files.get(from);
        if (content == null) {
            throw new SinkIoException("memory:" + from + ": no such file", new IOException("missing"));
        }
        ByteArrayOutputStream c = new ByteArrayOutputStream();
        c.writeBytes(content.toByteArray());
        files.put(to, c);
    }

    @Override
    public synchronized void delete(String name) {
        files.remove(name);
    }

    @Override
    public synchronized List<String> list() {
        return new ArrayList<>(files.keySet());
    }

    @Override
    public synchronized byte[] read(String name) {
        ByteArrayOutputStream content = files.get(name);
        if (content == null) {
            throw new SinkIoException("memory:" + name + ": no such file", new IOException("missing"));
        }
        return content.toByteArray();
    }

    @Override
    public String describe() {
        return "memory";
    }
}
