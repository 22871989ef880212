package dev.consistentcut.checkpoint;

import dev.consistentcut.message.RecordId;
import dev.consistentcut.message.RecordLedger;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What one operator task instance put into a checkpoint: its user operator state as bytes and its
 * ledger of processed records (the spec's {@code processed[t]}, a bag: record id to the number of
 * times the task processed it). Source tasks have no snapshot; their offset is in
 * {@link CompletedCheckpoint#sourceOffsets()}.
 *
 * <p>Both are kept as {@link Changelog}s (the spec's local files): a task's snapshot shares the
 * segments of its previous one and adds the changes since, so taking it costs the changes, not the
 * whole state. {@link #operatorState()} and {@link #processed()} still give the whole state and
 * ledger, assembled on first use (checks, traces, codec, restore); {@link #timesProcessed} looks a
 * record up in the segments without assembling. Immutable and thread-safe (the segments are
 * immutable; the assembled values are cached racily but idempotently).
 */
public final class TaskSnapshot {

    private final Changelog<byte[]> state;
    private final StateMerge merge;
    private final int stateSize;
    private final Changelog<Map<RecordId, Integer>> ledger;
    private final int ledgerEntries;
    private final long ledgerBytes;
    private volatile byte[] wholeState;
    private volatile Map<RecordId, Integer> wholeLedger;

    /** A snapshot of a whole state and ledger (one segment each): what a decoded checkpoint holds. */
    public TaskSnapshot(byte[] operatorState, Map<RecordId, Integer> processed) {
        this(Changelog.base(Objects.requireNonNull(operatorState, "operatorState").clone(), operatorState.length),
                StateMerge.WHOLE, operatorState.length, wholeLedger(processed), processed.size(), ledgerBytes(processed));
    }

    private TaskSnapshot(Changelog<byte[]> state, StateMerge merge, int stateSize,
                         Changelog<Map<RecordId, Integer>> ledger, int ledgerEntries, long ledgerBytes) {
        this.state = Objects.requireNonNull(state, "state");
        this.merge = Objects.requireNonNull(merge, "merge");
        this.stateSize = stateSize;
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.ledgerEntries = ledgerEntries;
        this.ledgerBytes = ledgerBytes;
    }

    /**
     * A snapshot of changelogs a task keeps.
     *
     * @param merge materialises {@code state}
     * @param stateSize bytes of the whole operator state
     * @param ledger segments of record id to its count after the change, base first
     * @param ledgerEntries distinct records in the whole ledger
     * @param ledgerBytes {@link #ledgerEntryBytes} summed over the whole ledger
     */
    public static TaskSnapshot ofChangelogs(Changelog<byte[]> state, StateMerge merge, int stateSize,
                                            Changelog<Map<RecordId, Integer>> ledger, int ledgerEntries,
                                            long ledgerBytes) {
        return new TaskSnapshot(state, merge, stateSize, ledger, ledgerEntries, ledgerBytes);
    }

    private static Changelog<Map<RecordId, Integer>> wholeLedger(Map<RecordId, Integer> processed) {
        return Changelog.base(frozen(processed), processed.size());
    }

    /**
     * A read-only copy of a ledger, without null keys or counts, as a {@link RecordLedger} (a bit
     * per record counted once). Not {@code Map.copyOf}: the ids of one source have consecutive hash
     * codes, which the immutable maps' open addressing turns into long probe runs.
     */
    public static Map<RecordId, Integer> frozen(Map<RecordId, Integer> ledger) {
        Objects.requireNonNull(ledger, "processed");
        RecordLedger copy = new RecordLedger();
        if (ledger instanceof RecordLedger l) {
            copy.putAll(l); // a word of offsets at a time; a ledger holds no null
        } else {
            ledger.forEach((id, n) -> copy.put(Objects.requireNonNull(id, "record id"), Objects.requireNonNull(n, "count")));
        }
        return copy.readOnly();
    }

    private static long ledgerBytes(Map<RecordId, Integer> processed) {
        long bytes = 0;
        for (RecordId id : processed.keySet()) {
            bytes += ledgerEntryBytes(id);
        }
        return bytes;
    }

    /** Bytes one ledger entry takes in the checkpoint format ({@link CheckpointCodec}): source, offset, times. */
    public static int ledgerEntryBytes(RecordId id) {
        return 4 + id.source().getBytes(StandardCharsets.UTF_8).length + 8 + 4;
    }

    /** The whole user operator state (a copy). */
    public byte[] operatorState() {
        byte[] s = wholeState;
        if (s == null) {
            s = state.length() == 1 ? state.latest() : merge.merge(state.segments());
            wholeState = s;
        }
        return s.clone();
    }

    /** The whole ledger (read-only); a lookup does not assemble it, iterating does. */
    public Map<RecordId, Integer> processed() {
        return new LedgerView();
    }

    /** Times this task had processed {@code id} when the snapshot was taken (0 if never). */
    public int timesProcessed(RecordId id) {
        Integer n = lookup(id);
        return n == null ? 0 : n;
    }

    private Integer lookup(Object id) {
        Map<RecordId, Integer> whole = wholeLedger;
        if (whole != null) {
            return whole.get(id);
        }
        for (Map<RecordId, Integer> segment : ledger.newestFirst()) {
            Integer n = segment.get(id);
            if (n != null) {
                return n;
            }
        }
        return null;
    }

    private Map<RecordId, Integer> assembledLedger() {
        Map<RecordId, Integer> whole = wholeLedger;
        if (whole == null) {
            if (ledger.length() == 1) {
                whole = ledger.latest();
            } else {
                RecordLedger m = new RecordLedger();
                for (Map<RecordId, Integer> segment : ledger.segments()) {
                    m.putAll(segment);
                }
                whole = m.readOnly();
            }
            wholeLedger = whole;
        }
        return whole;
    }

    /**
     * The records whose count changed after {@code earlier} was taken, if this snapshot's ledger
     * goes on from {@code earlier}'s (the same task, no whole compaction or restore in between; a
     * rebase on a materialisation of {@code earlier}'s chain or of a prefix of it keeps this
     * incremental, {@link Changelog#segmentsSince}); null if not.
     */
    public Set<RecordId> changedSince(TaskSnapshot earlier) {
        List<Map<RecordId, Integer>> since = earlier == null ? null : ledger.segmentsSince(earlier.ledger);
        if (since == null) {
            return null;
        }
        Set<RecordId> changed = new HashSet<>();
        since.forEach(segment -> changed.addAll(segment.keySet()));
        return changed;
    }

    /** The operator state's changelog. */
    public Changelog<byte[]> stateChangelog() {
        return state;
    }

    /** What materialises {@link #stateChangelog()}: {@link StateMerge#WHOLE} for a whole-state chain. */
    public StateMerge stateMerge() {
        return merge;
    }

    /** The ledger's changelog: per segment, record id to its count after the change. */
    public Changelog<Map<RecordId, Integer>> ledgerChangelog() {
        return ledger;
    }

    /** Bytes of the whole operator state. */
    public int stateSize() {
        return stateSize;
    }

    /** Distinct records in the whole ledger. */
    public int ledgerEntries() {
        return ledgerEntries;
    }

    /** Bytes the whole ledger's entries take in the checkpoint format. */
    public long ledgerBytes() {
        return ledgerBytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TaskSnapshot t
                && Arrays.equals(operatorState(), t.operatorState())
                && assembledLedger().equals(t.assembledLedger());
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(operatorState()) + assembledLedger().hashCode();
    }

    @Override
    public String toString() {
        return "TaskSnapshot[stateBytes=" + stateSize + ", processed=" + assembledLedger() + "]";
    }

    /** The whole ledger as a map: lookups go to the segments, everything else to the assembled ledger. */
    private final class LedgerView extends AbstractMap<RecordId, Integer> {

        @Override
        public Integer get(Object key) {
            return lookup(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return lookup(key) != null;
        }

        @Override
        public int size() {
            return ledgerEntries;
        }

        @Override
        public Set<Entry<RecordId, Integer>> entrySet() {
            return assembledLedger().entrySet();
        }
    }
}
