package dev.consistentcut.source;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/** A {@link SourceLog} held in memory. Immutable and thread-safe. */
public final class InMemorySourceLog implements SourceLog {

    private final List<Entry> entries;

    public InMemorySourceLog(List<Entry> entries) {
        this.entries = List.copyOf(Objects.requireNonNull(entries, "entries"));
    }

    /** A log with the given keys, every value 1. */
    public static InMemorySourceLog ofKeys(long... keys) {
        List<Entry> list = new ArrayList<>(keys.length);
        for (long k : keys) {
            list.add(new Entry(k, 1));
        }
        return new InMemorySourceLog(list);
    }

    /** {@code length} records with keys drawn from {@code [0, keys)} by a generator seeded with {@code seed}, values 1. */
    public static InMemorySourceLog randomKeys(int length, int keys, long seed) {
        return randomKeys(length, keys, new SplittableRandom(seed));
    }

    /** {@code length} records with keys drawn from {@code [0, keys)} by {@code draws} (one {@code nextInt} each), values 1. */
    public static InMemorySourceLog randomKeys(int length, int keys, RandomGenerator draws) {
        if (length < 0 || keys < 1) {
            throw new IllegalArgumentException("need length >= 0 and keys >= 1, got length " + length + ", keys " + keys);
        }
        List<Entry> list = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            list.add(new Entry(draws.nextInt(keys), 1));
        }
        return new InMemorySourceLog(list);
    }

    @Override
    public long length() {
        return entries.size();
    }

    @Override
    public Entry entryAt(long offset) {
        if (offset < 0 || offset >= entries.size()) {
            throw new IndexOutOfBoundsException("offset " + offset + " outside the log [0, " + entries.size() + ")");
        }
        return entries.get((int) offset);
    }

    /** All entries in offset order. */
    public List<Entry> entries() {
        return entries;
    }
}
