package dev.consistentcut.check;

import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.source.SourceLog;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * The input universe the invariants quantify over: every record of every source log, the sources
 * in the graph's order, each source's records by offset. A view of the logs, not a copy: record
 * {@code i} is read from its log when asked for, and a record id's position is its source's first
 * position plus its offset. So the universe costs a few words per source, not an object and a map
 * entry per record (millions of them in a long run). Immutable and thread-safe (the logs are).
 */
final class Universe extends AbstractList<Record> implements RandomAccess {

    private final String[] sources;
    private final SourceLog[] logs;
    /** starts[j]: the position of source j's offset 0; starts[sources.length]: the size. */
    private final int[] starts;
    private final Map<String, Integer> sourceIndex = new HashMap<>();

    Universe(PhysicalGraph graph) {
        List<String> names = graph.sourceTasks();
        this.sources = names.toArray(String[]::new);
        this.logs = new SourceLog[sources.length];
        this.starts = new int[sources.length + 1];
        long size = 0;
        for (int j = 0; j < sources.length; j++) {
            logs[j] = graph.log(sources[j]);
            sourceIndex.put(sources[j], j);
            starts[j] = (int) size;
            size += logs[j].length();
            if (size > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("the source logs hold " + size + " records or more; the checks index at most "
                        + (Integer.MAX_VALUE - 8));
            }
        }
        starts[sources.length] = (int) size;
    }

    @Override
    public int size() {
        return starts[sources.length];
    }

    /** Record {@code i}, read from its source's log. */
    @Override
    public Record get(int i) {
        if (i < 0 || i >= size()) {
            throw new IndexOutOfBoundsException("record " + i + " outside the universe [0, " + size() + ")");
        }
        int j = Arrays.binarySearch(starts, 0, sources.length, i);
        if (j < 0) {
            j = -j - 2; // the last source starting before i
        } else {
            while (j + 1 < sources.length && starts[j + 1] == i) {
                j++; // empty logs start where the next one does
            }
        }
        return logs[j].read(sources[j], i - (long) starts[j]);
    }

    /** The position of {@code id} in the universe, or -1 if no source log has it. */
    int position(RecordId id) {
        Integer j = sourceIndex.get(id.source());
        if (j == null || id.offset() >= logs[j].length()) {
            return -1;
        }
        return starts[j] + (int) id.offset();
    }

    /** Sets in {@code out} the positions of {@code source}'s records at offsets {@code [from, to)} that its log has (none for an unknown source). */
    void addOffsets(BitSet out, String source, long from, long to) {
        Integer j = sourceIndex.get(source);
        if (j == null) {
            return;
        }
        long end = Math.min(to, logs[j].length());
        if (from < end) {
            out.set(starts[j] + (int) from, starts[j] + (int) end);
        }
    }

    /** Whether some source log has {@code id}. */
    boolean has(RecordId id) {
        return position(id) >= 0;
    }

    /** The record {@code id} names, or null if no source log has it. */
    Record byId(RecordId id) {
        int i = position(id);
        return i < 0 ? null : get(i);
    }
}
