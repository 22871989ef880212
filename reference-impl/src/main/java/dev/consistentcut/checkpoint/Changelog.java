package dev.consistentcut.checkpoint;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One state of a task as the spec's local files (spec/incremental/IncrementalCheckpointStore.tla):
 * an immutable chain of segments, the base (oldest) first. {@link #writeState} ({@code WriteState})
 * seals the changes since the previous snapshot as a new segment and keeps the earlier ones;
 * {@code CompactState} replaces a prefix of the chain by one materialised segment: the whole chain
 * ({@link #compactState(Object, long)}), or the prefix a background materialisation merged while
 * later segments were written ({@link #compactState(Changelog, Object, long)}, the rebase of
 * Flink's changelog state backend, FLIP-158). Chains share their prefixes, so a snapshot costs the
 * changes since the previous one, never the whole state. Immutable and thread-safe (the segments
 * must not be changed after they are sealed).
 *
 * @param <S> a segment: whole state for the base, the changes for the later ones
 */
public final class Changelog<S> {

    /** The next {@link #version}: unique in the process, so chains made apart never share one. */
    private static final AtomicLong VERSIONS = new AtomicLong();

    private final Changelog<S> previous;
    private final S segment;
    /**
     * Which state of the task this chain holds: a new number at each {@link #writeState} and
     * {@link #base}; a rebase keeps the numbers (the merged segment takes its point's, the
     * later segments their own), as the whole state they stand for is the same. Flink's
     * changelog likewise names a materialisation by the sequence number it covers (the {@code
     * upTo} of PeriodicMaterializationManager.MaterializationTarget.handleMaterializationResult).
     * Rises from the base to the newest.
     */
    private final long version;
    private final int length;
    private final long baseBytes;
    private final long changeBytes;

    private Changelog(Changelog<S> previous, S segment, long bytes) {
        this(previous, segment, bytes, VERSIONS.incrementAndGet());
    }

    private Changelog(Changelog<S> previous, S segment, long bytes, long version) {
        this.previous = previous;
        this.segment = Objects.requireNonNull(segment, "segment");
        this.version = version;
        this.length = previous == null ? 1 : previous.length + 1;
        this.baseBytes = previous == null ? bytes : previous.baseBytes;
        this.changeBytes = previous == null ? 0 : previous.changeBytes + bytes;
    }

    /** A one-segment chain: the whole state {@code base}, of {@code bytes} bytes. */
    public static <S> Changelog<S> base(S base, long bytes) {
        return new Changelog<>(null, base, bytes);
    }

    /** Action {@code WriteState}: this chain and one more segment, the {@code bytes} bytes of changes {@code changes}. */
    public Changelog<S> writeState(S changes, long bytes) {
        return new Changelog<>(this, changes, bytes);
    }

    /** Action {@code CompactState} of the whole chain: one segment, {@code whole}, in place of the chain it was materialised from. */
    public static <S> Changelog<S> compactState(S whole, long bytes) {
        return base(whole, bytes);
    }

    /**
     * Action {@code CompactState} of a prefix (a rebase): {@code merged}, of {@code bytes} bytes,
     * the segments of {@code point} merged into one whole segment, in place of that prefix of this
     * chain; the segments this chain wrote after {@code point} follow it, the same objects (so a
     * store that knows them by identity does not write them again). Null if this chain does not
     * extend {@code point} (another compaction or a restore in between): the materialisation is
     * then of no use to it. Flink: ChangelogKeyedStateBackend.handleMaterializationResult, which
     * rebases the changelog on the materialised snapshot and truncates what it holds.
     */
    public Changelog<S> compactState(Changelog<S> point, S merged, long bytes) {
        if (point == null || point.length > length) {
            return null;
        }
        List<Changelog<S>> since = new ArrayList<>(length - point.length);
        Changelog<S> c = this;
        while (c.length > point.length) {
            since.add(c);
            c = c.previous;
        }
        if (c != point) {
            return null;
        }
        Changelog<S> out = new Changelog<>(null, merged, bytes, point.version);
        for (int i = since.size() - 1; i >= 0; i--) {
            Changelog<S> s = since.get(i);
            out = new Changelog<>(out, s.segment, s.changeBytes - s.previous.changeBytes, s.version);
        }
        return out;
    }

    /**
     * Whether a compaction is due before a segment of {@code bytes} bytes is written: the chain
     * would have more than {@code maxSegments} segments, or its changes more bytes than its base.
     * So restoring a chain replays a bounded number of segments and at most about twice the
     * state's bytes, and the compactions' cost stays linear in the bytes written (each one at
     * least doubles what the base held).
     */
    public boolean compactionDue(long bytes, int maxSegments) {
        return length + 1 > maxSegments || changeBytes + bytes > baseBytes;
    }

    /** The newest segment. */
    public S latest() {
        return segment;
    }

    /** The segments, base first. */
    public List<S> segments() {
        List<S> out = new ArrayList<>(length);
        for (Changelog<S> c = this; c != null; c = c.previous) {
            out.add(c.segment);
        }
        Collections.reverse(out);
        return out;
    }

    /** The segments, newest first (for a lookup that stops at the newest change of a key). */
    public Iterable<S> newestFirst() {
        return () -> new java.util.Iterator<>() {
            private Changelog<S> next = Changelog.this;

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public S next() {
                if (next == null) {
                    throw new java.util.NoSuchElementException();
                }
                S s = next.segment;
                next = next.previous;
                return s;
            }
        };
    }

    /**
     * The segments this chain wrote after {@code earlier}, oldest first, if this chain holds the
     * state {@code earlier} held and went on from it (it extends {@code earlier}, or a rebase
     * merged a prefix of it up to {@code earlier} or to a point before it: the {@link #version}s
     * tell); null if not (a whole compaction, a restore, a rebase past {@code earlier}'s point,
     * another chain). So a check of what changed between two snapshots stays incremental across a
     * rebase. Costs the segments walked, newest first, down to {@code earlier}'s version.
     */
    public List<S> segmentsSince(Changelog<?> earlier) {
        if (earlier == null) {
            return null;
        }
        List<S> out = new ArrayList<>();
        Changelog<S> c = this;
        while (c != null && c.version > earlier.version) {
            out.add(c.segment);
            c = c.previous;
        }
        if (c == null || c.version != earlier.version) {
            return null;
        }
        Collections.reverse(out);
        return out;
    }

    /** Segments in the chain. */
    public int length() {
        return length;
    }

    /** Bytes of the base segment. */
    public long baseBytes() {
        return baseBytes;
    }

    /** Bytes of the segments after the base. */
    public long changeBytes() {
        return changeBytes;
    }
}
