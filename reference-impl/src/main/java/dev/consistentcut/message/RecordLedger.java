package dev.consistentcut.message;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A bag of records: how often each record id occurs (a task's ledger, the spec's
 * {@code processed[t]}), as a {@code Map} from {@link RecordId} to its count, kept per source as
 * one bit per offset for the records counted once and a sorted map of the other counts.
 *
 * <p>Why not a {@code HashMap}: a task's ledger holds every record the task ever processed. As
 * hash-map nodes, boxed counts and record ids it cost about 70 bytes of heap per record, millions
 * of long-lived objects whose growth made every young collection slower as a run went on, so a
 * checkpoint's duration grew with the records processed. A source's offsets are dense, and a
 * record is counted more than once only where at-least-once replays it, so a bit per offset
 * holds almost all of it.
 *
 * <p>Entries iterate by source, then by offset, ascending. Its entries are immutable: {@code
 * setValue} is not supported; {@link #put} is. Not thread-safe, as {@code HashMap}: one thread
 * writes, and readers need a happens-before edge with the writes they read.
 */
public final class RecordLedger extends AbstractMap<RecordId, Integer> {

    /** Offsets at or above this are kept in {@link Offsets#other}: their bit's word index would not fit an int. */
    private static final long MAX_BIT_OFFSET = (long) Integer.MAX_VALUE << 6;

    /** One source's records. */
    private static final class Offsets {
        /** Bit {@code o} set: offset {@code o} counted exactly once. */
        long[] once = new long[0];
        /** Offsets with any other count (and every offset past {@link #MAX_BIT_OFFSET}). */
        final TreeMap<Long, Integer> other = new TreeMap<>();
        int size;

        boolean isOnce(long offset) {
            if (offset >= MAX_BIT_OFFSET) {
                return false;
            }
            int word = (int) (offset >>> 6);
            return word < once.length && (once[word] & (1L << offset)) != 0;
        }

        void setOnce(long offset, boolean value) {
            int word = (int) (offset >>> 6);
            if (value) {
                if (word >= once.length) {
                    once = Arrays.copyOf(once, Math.max(word + 1, once.length * 2));
                }
                once[word] |= 1L << offset;
            } else if (word < once.length) {
                once[word] &= ~(1L << offset);
            }
        }

        /** The largest offset counted once, or -1. */
        long lastOnce() {
            for (int word = once.length - 1; word >= 0; word--) {
                if (once[word] != 0) {
                    return ((long) word << 6) + 63 - Long.numberOfLeadingZeros(once[word]);
                }
            }
            return -1;
        }

        /** The offsets {@code from} to {@code from + 63} counted once, as bits (bit i: {@code from + i}). */
        long onceWord(long from) {
            if (from >= MAX_BIT_OFFSET) {
                return 0;
            }
            int word = (int) (from >>> 6);
            int shift = (int) (from & 63);
            long low = word < once.length ? once[word] >>> shift : 0;
            long high = shift == 0 || word + 1 >= once.length ? 0 : once[word + 1] << (64 - shift);
            return low | high;
        }

        int onceCount() {
            int n = 0;
            for (long w : once) {
                n += Long.bitCount(w);
            }
            return n;
        }

        /** The smallest offset at or above {@code from} counted once, or -1. */
        long nextOnce(long from) {
            if (from >= MAX_BIT_OFFSET) {
                return -1;
            }
            int word = (int) (from >>> 6);
            if (word >= once.length) {
                return -1;
            }
            long bits = once[word] & (-1L << from);
            while (true) {
                if (bits != 0) {
                    return ((long) word << 6) + Long.numberOfTrailingZeros(bits);
                }
                if (++word == once.length) {
                    return -1;
                }
                bits = once[word];
            }
        }
    }

    private final TreeMap<String, Offsets> bySource = new TreeMap<>();
    private int size;
    /** Set by {@link #readOnly()}: no write after it. */
    private boolean readOnly;
    /** The source of the last lookup, and its offsets: a task's records come in runs of one source. */
    private String lastSource;
    private Offsets lastOffsets;

    public RecordLedger() {
    }

    /** A ledger holding {@code m}'s entries. */
    public RecordLedger(Map<RecordId, Integer> m) {
        putAll(m);
    }

    /**
     * Makes this ledger read-only and returns it: from now on {@code put}, {@code remove} and
     * {@code clear} throw {@link UnsupportedOperationException}. For a ledger handed to other
     * threads (a snapshot, a changelog segment) as {@code Collections.unmodifiableMap} would, but
     * still a {@code RecordLedger}, so that its readers can take its bits a word at a time
     * ({@link #sources}, {@link #putAll}) instead of an entry object per record.
     */
    public RecordLedger readOnly() {
        readOnly = true;
        return this;
    }

    private void checkWritable() {
        if (readOnly) {
            throw new UnsupportedOperationException("this ledger is read-only");
        }
    }

    /**
     * What a ledger holds of one source, read-only, as its encoders want it: the offsets counted
     * once as bits, and every other count.
     */
    public interface SourceEntries {
        /** The source. */
        String source();

        /** How many offsets are counted exactly once (and held as bits). */
        int onceCount();

        /** The smallest offset counted once, or -1 if none. */
        long firstOnce();

        /** The largest offset counted once, or -1 if none. */
        long lastOnce();

        /** The offsets {@code from} to {@code from + 63} counted once, as bits: bit i is {@code from + i}. */
        long onceWord(long from);

        /** The smallest offset at or above {@code from} counted once, or -1. */
        long nextOnce(long from);

        /** Every other entry, offset to count, ascending (read-only). */
        NavigableMap<Long, Integer> others();
    }

    /** Each source's entries, by source, ascending; a view, valid while the ledger does not change. */
    public List<SourceEntries> sources() {
        List<SourceEntries> out = new ArrayList<>(bySource.size());
        for (Map.Entry<String, Offsets> e : bySource.entrySet()) {
            String source = e.getKey();
            Offsets o = e.getValue();
            if (o.size == 0) {
                continue; // every entry removed: nothing of this source left
            }
            out.add(new SourceEntries() {
                @Override
                public String source() {
                    return source;
                }

                @Override
                public int onceCount() {
                    return o.onceCount();
                }

                @Override
                public long firstOnce() {
                    return o.nextOnce(0);
                }

                @Override
                public long lastOnce() {
                    return o.lastOnce();
                }

                @Override
                public long onceWord(long from) {
                    return o.onceWord(from);
                }

                @Override
                public long nextOnce(long from) {
                    return o.nextOnce(from);
                }

                @Override
                public NavigableMap<Long, Integer> others() {
                    return Collections.unmodifiableNavigableMap(o.other);
                }
            });
        }
        return out;
    }

    /**
     * Puts every entry of {@code m}, as {@code Map.putAll}; from another ledger a word of offsets
     * at a time (a materialisation merges whole ledgers: no entry object per record).
     */
    @Override
    public void putAll(Map<? extends RecordId, ? extends Integer> m) {
        checkWritable();
        if (!(m instanceof RecordLedger other)) {
            super.putAll(m);
            return;
        }
        for (Map.Entry<String, Offsets> e : other.bySource.entrySet()) {
            Offsets from = e.getValue();
            Offsets to = from.once.length == 0 && from.other.isEmpty() ? null : offsets(e.getKey(), true);
            if (to == null) {
                continue;
            }
            for (int word = 0; word < from.once.length; word++) {
                long bits = from.once[word];
                if (bits == 0) {
                    continue;
                }
                if (word >= to.once.length) {
                    to.once = Arrays.copyOf(to.once, from.once.length);
                }
                long added = bits & ~to.once[word];
                if (!to.other.isEmpty()) {
                    long base = (long) word << 6;
                    // An offset with another count here gets count 1: not a new entry.
                    Iterator<Long> it = to.other.subMap(base, true, base + 63, true).keySet().iterator();
                    while (it.hasNext()) {
                        long offset = it.next();
                        if ((bits & (1L << offset)) != 0) {
                            it.remove();
                            added &= ~(1L << offset);
                        }
                    }
                }
                to.once[word] |= bits;
                int n = Long.bitCount(added);
                to.size += n;
                size += n;
            }
            for (Map.Entry<Long, Integer> o : from.other.entrySet()) {
                put(new RecordId(e.getKey(), o.getKey()), o.getValue());
            }
        }
    }

    private Offsets offsets(String source, boolean create) {
        if (source.equals(lastSource)) {
            return lastOffsets;
        }
        Offsets o = bySource.get(source);
        if (o == null) {
            if (!create) {
                return null;
            }
            o = new Offsets();
            bySource.put(source, o);
        }
        lastSource = source;
        lastOffsets = o;
        return o;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public Integer get(Object key) {
        if (!(key instanceof RecordId id)) {
            return null;
        }
        Offsets o = offsets(id.source(), false);
        if (o == null) {
            return null;
        }
        return o.isOnce(id.offset()) ? Integer.valueOf(1) : o.other.get(id.offset());
    }

    @Override
    public Integer put(RecordId key, Integer value) {
        checkWritable();
        Objects.requireNonNull(value, "a ledger counts every record it holds");
        Offsets o = offsets(key.source(), true);
        long offset = key.offset();
        Integer previous;
        if (o.isOnce(offset)) {
            previous = 1;
            if (value != 1) {
                o.setOnce(offset, false);
                o.other.put(offset, value);
            }
        } else if (value == 1 && offset < MAX_BIT_OFFSET) {
            previous = o.other.remove(offset);
            o.setOnce(offset, true);
        } else {
            previous = o.other.put(offset, value);
        }
        if (previous == null) {
            o.size++;
            size++;
        }
        return previous;
    }

    @Override
    public Integer remove(Object key) {
        checkWritable();
        if (!(key instanceof RecordId id)) {
            return null;
        }
        Offsets o = offsets(id.source(), false);
        if (o == null) {
            return null;
        }
        Integer previous;
        if (o.isOnce(id.offset())) {
            o.setOnce(id.offset(), false);
            previous = 1;
        } else {
            previous = o.other.remove(id.offset());
        }
        if (previous != null) {
            o.size--;
            size--;
        }
        return previous;
    }

    @Override
    public void clear() {
        checkWritable();
        bySource.clear();
        size = 0;
        lastSource = null;
        lastOffsets = null;
    }

    @Override
    public Set<Map.Entry<RecordId, Integer>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<RecordId, Integer>> iterator() {
                return new Entries();
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    /** By source, then offset: the bits and the other counts merged in offset order. */
    private final class Entries implements Iterator<Map.Entry<RecordId, Integer>> {
        private final Iterator<Map.Entry<String, Offsets>> sources = bySource.entrySet().iterator();
        private String source;
        private Offsets offsets;
        /** The next entry's offset in {@link #offsets} is at or above this. */
        private long from;
        private Map.Entry<RecordId, Integer> next;
        private RecordId last;

        Entries() {
            advance();
        }

        private void advance() {
            next = null;
            while (true) {
                if (offsets != null) {
                    long once = offsets.nextOnce(from);
                    Map.Entry<Long, Integer> other = offsets.other.ceilingEntry(from);
                    if (once >= 0 && (other == null || once < other.getKey())) {
                        next = Map.entry(new RecordId(source, once), 1);
                        from = once + 1;
                        return;
                    }
                    if (other != null) {
                        next = Map.entry(new RecordId(source, other.getKey()), other.getValue());
                        if (other.getKey() == Long.MAX_VALUE) {
                            offsets = null; // the source's last possible offset: nothing after it
                        } else {
                            from = other.getKey() + 1;
                        }
                        return;
                    }
                }
                if (!sources.hasNext()) {
                    return;
                }
                Map.Entry<String, Offsets> e = sources.next();
                source = e.getKey();
                offsets = e.getValue();
                from = 0;
            }
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public Map.Entry<RecordId, Integer> next() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            Map.Entry<RecordId, Integer> e = next;
            last = e.getKey();
            advance();
            return e;
        }

        /** Removes the last entry returned: lookups from {@link #from} on are not disturbed by it. */
        @Override
        public void remove() {
            if (last == null) {
                throw new IllegalStateException();
            }
            RecordLedger.this.remove(last);
            last = null;
        }
    }
}
