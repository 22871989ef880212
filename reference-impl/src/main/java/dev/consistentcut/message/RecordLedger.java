package dev.consistentcut.message;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
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
    /** The source of the last lookup, and its offsets: a task's records come in runs of one source. */
    private String lastSource;
    private Offsets lastOffsets;

    public RecordLedger() {
    }

    /** A ledger holding {@code m}'s entries. */
    public RecordLedger(Map<RecordId, Integer> m) {
        putAll(m);
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
