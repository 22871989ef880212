package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The {@link StoreFiles} of a crash test: performs the real operations, numbered from 0, until
 * operation {@code crashAt}, which it does not perform: it throws {@link Crash} instead (the
 * process dies there). Meanwhile it keeps a model of what a power loss would leave on disk, the
 * usual POSIX contract as journaling file systems give it:
 * <ul>
 *   <li>a file's content is durable only after an fsync of it; before that a power loss may leave
 *       it empty (the worst case, modelled so: delayed allocation on ext4 does exactly this);
 *   <li>name changes (create, rename, delete) are durable only after an fsync of the directory;
 *       before that a power loss keeps some prefix of them, in order (the journal commits in
 *       order), so every prefix is a possible outcome.
 * </ul>
 * {@link #crashStates()} lists every directory state a crash at that point may leave: the
 * process crash (everything done so far, as it is) and the power losses (each prefix of the
 * pending name changes, unsynced contents lost).
 *
 * <p><b>Threading contract.</b> Confined to the test's thread (the store calls it under its lock).
 */
final class CrashSimulatingFiles implements StoreFiles {

    /** The simulated death of the process at an operation; never caught by the store's I/O handling. */
    static final class Crash extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Crash(int op, String what) {
            super("simulated crash at operation " + op + ": " + what);
        }
    }

    /** A file's content and whether it has been fsynced. Identity matters (renames move it). */
    private static final class Inode {
        final byte[] content;
        boolean synced;

        Inode(byte[] content, boolean synced) {
            this.content = content;
            this.synced = synced;
        }
    }

    /** A name change not yet made durable by a directory fsync. */
    private record NameChange(String from, String to, Inode created) {
    }

    private final int crashAt;
    private final List<String> log = new ArrayList<>();
    /** The names the directory has now, in the model. */
    private final Map<String, Inode> current = new LinkedHashMap<>();
    /** The names as of the last directory fsync. */
    private Map<String, Inode> durableNames;
    private final List<NameChange> pending = new ArrayList<>();

    /**
     * @param dir the checkpoint directory, taken as fully durable as it is now
     * @param crashAt the number of the operation not performed, or -1 to perform them all
     */
    CrashSimulatingFiles(Path dir, int crashAt) throws IOException {
        this.crashAt = crashAt;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                current.put(p.getFileName().toString(), new Inode(Files.readAllBytes(p), true));
            }
        }
        durableNames = new HashMap<>(current);
    }

    /** The operations performed (and the one that crashed, last, marked so), for messages. */
    List<String> log() {
        return List.copyOf(log);
    }

    int operationsPerformed() {
        return (int) log.stream().filter(s -> !s.startsWith("CRASH")).count();
    }

    private void next(String what) {
        int op = log.size();
        if (op == crashAt) {
            log.add("CRASH before " + what);
            throw new Crash(op, what);
        }
        log.add(what);
    }

    @Override
    public void write(Path file, byte[] bytes) throws IOException {
        next("write " + file.getFileName());
        StoreFiles.REAL.write(file, bytes);
        Inode i = new Inode(bytes.clone(), false);
        current.put(name(file), i);
        pending.add(new NameChange(null, name(file), i));
    }

    @Override
    public void fsync(Path file) throws IOException {
        next("fsync " + file.getFileName());
        StoreFiles.REAL.fsync(file);
        current.get(name(file)).synced = true;
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        next("rename " + from.getFileName() + " -> " + to.getFileName());
        StoreFiles.REAL.rename(from, to);
        current.put(name(to), current.remove(name(from)));
        pending.add(new NameChange(name(from), name(to), null));
    }

    @Override
    public void fsyncDirectory(Path dir) {
        next("fsync directory");
        StoreFiles.REAL.fsyncDirectory(dir);
        durableNames = new HashMap<>(current);
        pending.clear();
    }

    @Override
    public void delete(Path file) throws IOException {
        next("delete " + file.getFileName());
        StoreFiles.REAL.delete(file);
        current.remove(name(file));
        pending.add(new NameChange(name(file), null, null));
    }

    /**
     * Every directory state (file name to content) a crash now may leave: first the process
     * crash, then the power losses, one per durable prefix of the pending name changes.
     */
    List<Map<String, byte[]>> crashStates() {
        List<Map<String, byte[]>> states = new ArrayList<>();
        Map<String, byte[]> processCrash = new LinkedHashMap<>();
        current.forEach((n, i) -> processCrash.put(n, i.content));
        states.add(processCrash);
        for (int j = 0; j <= pending.size(); j++) {
            Map<String, Inode> names = new HashMap<>(durableNames);
            for (NameChange c : pending.subList(0, j)) {
                PowerLossDisk.apply(names, c.from(), c.to(), c.created());
            }
            Map<String, byte[]> state = new LinkedHashMap<>();
            names.forEach((n, i) -> state.put(n, i.synced ? i.content : new byte[0]));
            states.add(state);
        }
        return states;
    }

    private static String name(Path p) {
        return p.getFileName().toString();
    }
}
