package dev.consistentcut.checkpoint;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The file operations of a recorded run, in the order they happened across its directories (the
 * checkpoint store's and the sink's), and every state a power loss after any of them may leave
 * (ALICE, Pillai et al., OSDI'14; CrashMonkey, Mohan et al., OSDI'18). The crash model, POSIX
 * without the guarantees of one particular file system:
 * <ul>
 *   <li>a file's data is durable as far as its last fsync; data written after it may reach the
 *       disk or not: a file not in sync is left with its written content, its content at its last
 *       fsync, or nothing (zero length; delayed allocation does this);
 *   <li>a name change (create, rename, delete) is durable once its directory is fsynced; before,
 *       any subset of the pending ones may be undone, except that a change needs the earlier
 *       pending changes of the same names (a rename of a file needs its create);
 *   <li>an fsync of a file does not make its name durable, nor an fsync of one directory another's.
 * </ul>
 * The state after each prefix of the log is taken ({@link #crashPoint}), each pending subset
 * combined with each content choice; identical states are kept once.
 *
 * <p><b>Bound.</b> At most {@value #MAX_PENDING} pending name changes per directory and
 * {@value #MAX_STATES_PER_CRASH_POINT} states per crash point: beyond, the recording fails (a
 * bigger job would need sampling, which this test does not do).
 *
 * <p><b>Threading contract.</b> Confined to one thread: the simulation runtime's, which runs the
 * store and the sink.
 */
final class PowerLossDisk {

    static final int MAX_PENDING = 12;
    static final int MAX_STATES_PER_CRASH_POINT = 16384;

    /** A file's data: as written, and as of its last fsync. Identity matters: a rename moves it. */
    static final class Inode {
        byte[] content = new byte[0];
        byte[] synced = new byte[0];
    }

    /** A name change in {@code dir} not yet made durable by an fsync of it: create, rename or delete. */
    private record NameChange(String dir, String from, String to, Inode created, String what) {
        boolean touches(NameChange o) {
            return Arrays.stream(names()).anyMatch(n -> Arrays.asList(o.names()).contains(n));
        }

        String[] names() {
            return from == null ? new String[] {to} : to == null ? new String[] {from} : new String[] {from, to};
        }
    }

    /**
     * One state a power loss may leave: directory to file name to content; {@code stored} is the
     * highest checkpoint whose {@code store} had returned; {@code where} says after which operation
     * and what was lost.
     */
    record CrashState(int afterOperation, long stored, Map<String, Map<String, byte[]>> files, String where) {
    }

    private final List<String> log = new ArrayList<>();
    private final Map<String, Map<String, Inode>> current = new TreeMap<>();
    private final Map<String, Map<String, Inode>> durable = new TreeMap<>();
    private final Map<String, List<NameChange>> pending = new TreeMap<>();
    private final Map<String, CrashState> states = new LinkedHashMap<>();
    private long stored;
    private int crashPoints;

    /** Starts with {@code dirs}, empty and durable. */
    PowerLossDisk(String... dirs) {
        for (String d : dirs) {
            current.put(d, new TreeMap<>());
            durable.put(d, new TreeMap<>());
            pending.put(d, new ArrayList<>());
        }
        crashPoint();
    }

    // ---------------------------------------------------------------- the operations

    /** Creates {@code name} empty, or truncates it when it exists. */
    void create(String dir, String name) {
        Inode i = current.get(dir).get(name);
        if (i == null) {
            i = new Inode();
            current.get(dir).put(name, i);
            pending.get(dir).add(new NameChange(dir, null, name, i, "create " + dir + "/" + name));
            record("create " + dir + "/" + name);
        } else {
            i.content = new byte[0];
            record("truncate " + dir + "/" + name);
        }
    }

    void write(String dir, String name, byte[] bytes) {
        Inode i = inode(dir, name);
        byte[] c = Arrays.copyOf(i.content, i.content.length + bytes.length);
        System.arraycopy(bytes, 0, c, i.content.length, bytes.length);
        i.content = c;
        record("write " + dir + "/" + name + " (" + bytes.length + " bytes)");
    }

    void fsync(String dir, String name) {
        Inode i = inode(dir, name);
        i.synced = i.content;
        record("fsync " + dir + "/" + name);
    }

    void rename(String dir, String from, String to) {
        current.get(dir).put(to, inode(dir, from));
        current.get(dir).remove(from);
        pending.get(dir).add(new NameChange(dir, from, to, null, "rename " + dir + "/" + from + " -> " + to));
        record("rename " + dir + "/" + from + " -> " + to);
    }

    void fsyncDirectory(String dir) {
        durable.put(dir, new TreeMap<>(current.get(dir)));
        pending.get(dir).clear();
        record("fsync directory " + dir);
    }

    void delete(String dir, String name) {
        if (current.get(dir).remove(name) != null) {
            pending.get(dir).add(new NameChange(dir, name, null, null, "delete " + dir + "/" + name));
            record("delete " + dir + "/" + name);
        }
    }

    /** Not an operation: {@code store(checkpoint)} returned, so from here on it must survive. */
    void stored(long checkpoint) {
        stored = Math.max(stored, checkpoint);
        crashPoint();
    }

    /** The current (not crashed) view, for the reads of the recorded run. */
    Map<String, Inode> names(String dir) {
        return current.get(dir);
    }

    Inode inode(String dir, String name) {
        Inode i = current.get(dir).get(name);
        if (i == null) {
            throw new IllegalStateException("recorded run: no file " + dir + "/" + name);
        }
        return i;
    }

    List<String> log() {
        return List.copyOf(log);
    }

    /** Every distinct crash state, in the order of the log. */
    List<CrashState> crashStates() {
        return List.copyOf(states.values());
    }

    /** How many crash points (prefixes of the log, and store returns) were enumerated. */
    int crashPoints() {
        return crashPoints;
    }

    private void record(String what) {
        log.add(what);
        crashPoint();
    }

    // ---------------------------------------------------------------- the crash states

    /** Adds every state a power loss now may leave. */
    private void crashPoint() {
        crashPoints++;
        List<Map<String, Map<String, Inode>>> outcomes = new ArrayList<>();
        outcomes.add(new TreeMap<>());
        List<List<String>> lostNames = new ArrayList<>();
        lostNames.add(List.of());
        for (String dir : current.keySet()) {
            List<Map<String, Map<String, Inode>>> next = new ArrayList<>();
            List<List<String>> nextLost = new ArrayList<>();
            List<NameChange> p = pending.get(dir);
            if (p.size() > MAX_PENDING) {
                throw new IllegalStateException("bound exceeded: " + p.size() + " pending name changes in " + dir
                        + " after " + last());
            }
            for (int mask = 0; mask < 1 << p.size(); mask++) {
                if (!closed(p, mask)) {
                    continue;
                }
                Map<String, Inode> names = new TreeMap<>(durable.get(dir));
                List<String> undone = new ArrayList<>();
                for (int k = 0; k < p.size(); k++) {
                    if ((mask & 1 << k) == 0) {
                        undone.add(p.get(k).what());
                    } else {
                        apply(p.get(k), names);
                    }
                }
                for (int o = 0; o < outcomes.size(); o++) {
                    Map<String, Map<String, Inode>> m = new TreeMap<>(outcomes.get(o));
                    m.put(dir, names);
                    next.add(m);
                    List<String> l = new ArrayList<>(lostNames.get(o));
                    l.addAll(undone);
                    nextLost.add(l);
                }
            }
            outcomes = next;
            lostNames = nextLost;
        }
        int count = 0;
        for (int o = 0; o < outcomes.size(); o++) {
            count += addContentChoices(outcomes.get(o), lostNames.get(o));
        }
        if (count > MAX_STATES_PER_CRASH_POINT) {
            throw new IllegalStateException("bound exceeded: " + count + " states after " + last());
        }
    }

    /** Whether the kept changes ({@code mask}) include, for each, the earlier changes of its names. */
    private static boolean closed(List<NameChange> p, int mask) {
        for (int k = 0; k < p.size(); k++) {
            if ((mask & 1 << k) == 0) {
                continue;
            }
            for (int j = 0; j < k; j++) {
                if ((mask & 1 << j) == 0 && p.get(j).touches(p.get(k))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void apply(NameChange c, Map<String, Inode> names) {
        apply(names, c.from(), c.to(), c.created());
    }

    /**
     * Applies one name change to {@code names}: a create ({@code created} non-null, under
     * {@code to}), a rename ({@code from} to {@code to}) or a delete ({@code to} null). Shared with
     * the crash-ordering test's model ({@link CrashSimulatingFiles}).
     */
    static <I> void apply(Map<String, I> names, String from, String to, I created) {
        if (created != null) {
            names.put(to, created);
        } else if (to != null) {
            I moved = names.remove(from);
            if (moved != null) {
                names.put(to, moved);
            }
        } else {
            names.remove(from);
        }
    }

    /** Adds the states of one name outcome: each file not in sync as written, as last synced, or empty. */
    private int addContentChoices(Map<String, Map<String, Inode>> names, List<String> undone) {
        Map<Inode, List<byte[]>> choices = new LinkedHashMap<>(); // Inode has identity equality; the order is the order found
        for (Map<String, Inode> dir : names.values()) {
            for (Inode i : dir.values()) {
                if (!Arrays.equals(i.content, i.synced)) {
                    List<byte[]> c = new ArrayList<>(List.of(i.content));
                    if (i.synced.length > 0) {
                        c.add(i.synced);
                    }
                    c.add(new byte[0]);
                    choices.put(i, c);
                }
            }
        }
        List<Inode> unsynced = new ArrayList<>(choices.keySet());
        int combinations = 1;
        for (Inode i : unsynced) {
            combinations *= choices.get(i).size();
            if (combinations > MAX_STATES_PER_CRASH_POINT) {
                throw new IllegalStateException("bound exceeded: " + combinations + " content choices after " + last());
            }
        }
        for (int n = 0; n < combinations; n++) {
            Map<Inode, byte[]> chosen = new IdentityHashMap<>();
            int rest = n;
            for (Inode i : unsynced) {
                List<byte[]> c = choices.get(i);
                chosen.put(i, c.get(rest % c.size()));
                rest /= c.size();
            }
            Map<String, Map<String, byte[]>> files = new TreeMap<>();
            List<String> lost = new ArrayList<>(undone);
            names.forEach((dir, m) -> {
                Map<String, byte[]> f = new TreeMap<>();
                m.forEach((name, i) -> {
                    byte[] content = chosen.getOrDefault(i, i.content);
                    if (content.length < i.content.length) {
                        lost.add("data of " + dir + "/" + name + " cut to " + content.length + " of " + i.content.length
                                + " bytes");
                    }
                    f.put(name, content);
                });
                files.put(dir, f);
            });
            String where = "power loss after operation " + log.size() + " (" + last() + ")"
                    + (stored > 0 ? ", checkpoint " + stored + " stored" : "")
                    + (lost.isEmpty() ? ", nothing lost" : ", lost: " + String.join("; ", lost));
            states.putIfAbsent(signature(files), new CrashState(log.size(), stored, files, where));
        }
        return combinations;
    }

    private String last() {
        return log.isEmpty() ? "the start" : log.get(log.size() - 1);
    }

    private String signature(Map<String, Map<String, byte[]>> files) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(Long.toString(stored).getBytes(StandardCharsets.US_ASCII));
            files.forEach((dir, m) -> m.forEach((name, content) -> {
                d.update((dir + "/" + name + "\0" + content.length + "\0").getBytes(StandardCharsets.UTF_8));
                d.update(content);
            }));
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is in every JDK", e);
        }
    }
}
