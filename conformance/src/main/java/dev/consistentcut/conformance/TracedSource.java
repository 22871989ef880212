package dev.consistentcut.conformance;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A bounded FLIP-27 source of one split (one log, read by the source's only reader) whose reader
 * reports what the spec calls the source's steps: {@code EmitRecord} before it hands a record to
 * Flink, {@code SnapshotState} with the offset it stores in {@code snapshotState(checkpointId)},
 * {@code InitializeState} when its split arrives (fresh, or restored from a checkpoint, whose id
 * the split carries), {@code SendEndOfPartition} when it returns {@code END_OF_INPUT}, and the
 * checkpoint notifications. Like the sources of Flink's own UnalignedCheckpointTestBase (its
 * LongSource: a split per reader holding the next value, the checkpoint's id kept in the split
 * state so the restored reader knows it), written anew for this trace.
 *
 * <p>The reader is throttled ({@link RunSpec#emitMillis()}) and waits at each gate offset until a
 * checkpoint completes, so every run has completed checkpoints between records whatever the
 * machine's speed: the wait ends on an event Flink is bound to deliver (periodic checkpoints go
 * on while the source idles).
 */
public final class TracedSource implements Source<Rec, TracedSource.Split, ArrayList<TracedSource.Split>> {

    private static final long serialVersionUID = 1L;

    private final RunSpec spec;
    private final String task;

    /** @param task the source task, e.g. {@code left#0} */
    public TracedSource(RunSpec spec, String task) {
        this.spec = spec;
        this.task = task;
    }

    /** The one split: the source's log from {@code offset}; {@code checkpoint} is the id of the checkpoint it was stored in (0: fresh). */
    public record Split(String src, int offset, long checkpoint) implements SourceSplit {
        @Override
        public String splitId() {
            return src;
        }
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<Rec, Split> createReader(SourceReaderContext context) {
        String attempt = context.metricGroup().getAllVariables().get("<task_attempt_num>");
        if (attempt == null) {
            throw new IllegalStateException("Flink's reader metric group names no <task_attempt_num>");
        }
        int a = TraceLog.current().attempt(Integer.parseInt(attempt));
        // where the reader runs (a TaskManager loss fails the tasks on it: FlinkHarness)
        TraceLog.current().placed(task, a, context.metricGroup().getAllVariables().get("<tm_id>"), -1);
        return new Reader(spec, task, a);
    }

    @Override
    public SplitEnumerator<Split, ArrayList<Split>> createEnumerator(SplitEnumeratorContext<Split> context) {
        ArrayList<Split> pending = new ArrayList<>();
        pending.add(new Split(task, 0, 0));
        return new Enumerator(context, pending);
    }

    @Override
    public SplitEnumerator<Split, ArrayList<Split>> restoreEnumerator(SplitEnumeratorContext<Split> context,
            ArrayList<Split> checkpoint) {
        return new Enumerator(context, new ArrayList<>(checkpoint));
    }

    @Override
    public SimpleVersionedSerializer<Split> getSplitSerializer() {
        return new SplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<ArrayList<Split>> getEnumeratorCheckpointSerializer() {
        return new PendingSerializer();
    }

    /** Hands the one split to reader 0 when it registers; keeps it (stamped with the checkpoint id) while unassigned. */
    static final class Enumerator implements SplitEnumerator<Split, ArrayList<Split>> {
        private final SplitEnumeratorContext<Split> context;
        private final ArrayList<Split> pending;

        Enumerator(SplitEnumeratorContext<Split> context, ArrayList<Split> pending) {
            this.context = context;
            this.pending = pending;
        }

        @Override
        public void start() {
        }

        @Override
        public void handleSplitRequest(int subtask, String host) {
        }

        @Override
        public void addSplitsBack(List<Split> splits, int subtask) {
            pending.addAll(splits);
            if (context.registeredReaders().containsKey(0)) {
                addReader(0);
            }
        }

        @Override
        public void addReader(int subtask) {
            for (Split s : pending) {
                context.assignSplit(s, subtask);
            }
            pending.clear();
        }

        @Override
        public ArrayList<Split> snapshotState(long checkpointId) {
            ArrayList<Split> out = new ArrayList<>();
            for (Split s : pending) {
                out.add(new Split(s.src(), s.offset(), checkpointId));
            }
            return out;
        }

        @Override
        public void close() {
        }
    }

    /** The instrumented reader (one per attempt). */
    static final class Reader implements SourceReader<Rec, Split> {
        /** At most this long past a gate's completion the reader waits for the sink's commit of it. */
        private static final long COMMIT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
        private final RunSpec spec;
        private final String task;
        private final int attempt;
        private final List<Integer> gates;
        private Split split;
        private int next;
        private boolean ended;
        private long nextEmitNanos;
        /** The gate the reader waits at; -1: none. */
        private int waitingAt = -1;
        /** Checkpoints this reader snapshotted while waiting at {@link #waitingAt}. */
        private final java.util.Set<Long> gateCheckpoints = new java.util.HashSet<>();
        private boolean gatePassed;
        private int passedGate = -1;
        /** The gate's completed checkpoint, and when the reader heard of it. */
        private long gateCompleted;
        private long gateCompletedNanos;

        Reader(RunSpec spec, String task, int attempt) {
            this.spec = spec;
            this.task = task;
            this.attempt = attempt;
            this.gates = spec.gates();
        }

        @Override
        public void start() {
        }

        @Override
        public InputStatus pollNext(ReaderOutput<Rec> output) {
            if (split == null) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            if (next >= spec.records()) {
                if (!ended) {
                    ended = true;
                    TraceLog.current().event("SendEndOfPartition", task, attempt, "offset", next);
                    TraceLog.current().sourceEnded(task, true);
                }
                return InputStatus.END_OF_INPUT;
            }
            if (!mayEmit()) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            Rec r = new Rec(task, next, spec.key(task, next), task);
            next++;
            TraceLog.current().event("EmitRecord", task, attempt, "record", r.traceForm(), "offset", next);
            output.collect(r);
            nextEmitNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(spec.emitMillis());
            return InputStatus.NOTHING_AVAILABLE;
        }

        /**
         * Whether the throttle and the gates let the next record go now. At a gate the reader waits
         * until a checkpoint it snapshotted at this very offset has completed (it is notified): that
         * checkpoint's cut is the gate, and everything after the gate comes after its completion.
         */
        private boolean mayEmit() {
            if (System.nanoTime() < nextEmitNanos) {
                return false;
            }
            if (gates.contains(next) && passedGate != next) {
                if (waitingAt != next) {
                    waitingAt = next;
                    gateCheckpoints.clear();
                    TraceLog.current().waitingAtGate(task, true, gates.indexOf(next));
                }
                if (!gatePassed || TraceLog.current().gateHeld(gates.indexOf(next))) {
                    return false;
                }
                // With the two-phase-commit sink, also until the committer has committed what the
                // sink pre-committed up to that checkpoint (it does so when notified, whatever the
                // schedule; bounded all the same): a failure after the gate then finds it committed,
                // so a restore's re-commit meets a transaction that is already in the output.
                if (spec.transactionalSink() && TraceLog.current().transactionPendingUpTo(attempt, gateCompleted)
                        && System.nanoTime() - gateCompletedNanos < COMMIT_WAIT_NANOS) {
                    return false;
                }
                passedGate = next;
                TraceLog.current().passedGate(attempt, gates.indexOf(next));
                waitingAt = -1;
                gatePassed = false;
                TraceLog.current().waitingAtGate(task, false);
            }
            return true;
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            // Polled again after a short pause: the throttle, a gate or a split yet to come.
            return CompletableFuture.runAsync(() -> { },
                    CompletableFuture.delayedExecutor(Math.max(1, spec.emitMillis()), TimeUnit.MILLISECONDS));
        }

        @Override
        public List<Split> snapshotState(long checkpointId) {
            if (split == null) {
                return List.of();
            }
            int offset = spec.twin() == RunSpec.Twin.SOURCE_OFFSET_AHEAD ? next + 1 : next;
            TraceLog.current().event("SnapshotState", task, attempt, "checkpoint", checkpointId, "offset", offset);
            if (waitingAt == next) {
                gateCheckpoints.add(checkpointId);
            }
            return List.of(new Split(task, offset, checkpointId));
        }

        @Override
        public void addSplits(List<Split> splits) {
            for (Split s : splits) {
                split = s;
                TraceLog.current().sourceEnded(task, false);
                next = spec.twin() == RunSpec.Twin.REPLAY_FROM_ZERO ? 0 : s.offset();
                TraceLog.current().event("InitializeState", task, attempt, "restored", s.checkpoint(), "offset", next);
            }
        }

        @Override
        public void notifyNoMoreSplits() {
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            TraceLog.current().event("NotifyCheckpointComplete", task, attempt, "checkpoint", checkpointId);
            if (waitingAt >= 0 && gateCheckpoints.contains(checkpointId)) {
                gatePassed = true;
                TraceLog.current().gateCheckpointCompleted(attempt, gates.indexOf(waitingAt));
                gateCompleted = checkpointId;
                gateCompletedNanos = System.nanoTime();
                if (spec.transactionalSink() || TraceLog.current().gateHeld(gates.indexOf(waitingAt))) {
                    // served: while it waits for the sink's commit, or while the harness holds the
                    // gate (for a savepoint, or a stop after a throw still to come), no further
                    // checkpoint for this gate (each would be one more for TLC to search)
                    TraceLog.current().waitingAtGate(task, false);
                }
            }
        }

        @Override
        public void notifyCheckpointAborted(long checkpointId) {
            TraceLog.current().event("NotifyCheckpointAborted", task, attempt, "checkpoint", checkpointId);
        }

        @Override
        public void close() {
        }
    }

    static final class SplitSerializer implements SimpleVersionedSerializer<Split> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Split s) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                write(out, s);
            }
            return bytes.toByteArray();
        }

        @Override
        public Split deserialize(int version, byte[] data) throws IOException {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
                return read(in);
            }
        }

        static void write(DataOutputStream out, Split s) throws IOException {
            out.writeUTF(s.src());
            out.writeInt(s.offset());
            out.writeLong(s.checkpoint());
        }

        static Split read(DataInputStream in) throws IOException {
            return new Split(in.readUTF(), in.readInt(), in.readLong());
        }
    }

    static final class PendingSerializer implements SimpleVersionedSerializer<ArrayList<Split>> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(ArrayList<Split> splits) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeInt(splits.size());
                for (Split s : splits) {
                    SplitSerializer.write(out, s);
                }
            }
            return bytes.toByteArray();
        }

        @Override
        public ArrayList<Split> deserialize(int version, byte[] data) throws IOException {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
                int n = in.readInt();
                ArrayList<Split> out = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    out.add(SplitSerializer.read(in));
                }
                return out;
            }
        }
    }
}
