package dev.consistentcut.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The two-phase-commit sink ({@code --sink transactional}), built on Flink's public Sink V2 API
 * (FLIP-143, FLIP-191): a {@link Writer} that writes each record into its open transaction and
 * pre-commits it in {@code prepareCommit} (a transaction file under {@code pending/}, written
 * whole, then renamed), and a {@link TxnCommitter} that commits a transaction by renaming its
 * file into {@code committed/}, the directory a reader of the output sees. Flink decides when:
 * the sink writer operator calls {@code prepareCommit} in {@code prepareSnapshotPreBarrier} (and
 * at end of input, for the checkpoint after the writer's last one), the committer operator
 * commits a checkpoint's committables when it is notified that a checkpoint at least as new
 * completed, and on restore re-commits those of the restored checkpoint it still held
 * (CommitterOperatorTestBase#testStateRestore: "Previous committables are immediately committed
 * if possible"; #testHandleEndInputInStreamingMode: with checkpointing, end of input commits
 * nothing, a final checkpoint follows). The commit is idempotent: a transaction whose file has
 * already moved is committed.
 *
 * <p>The spec's sink task ({@code sink#0}) is the writer and the committer together; the trace
 * names both's observations after it. The writer writes {@code InitializeState},
 * {@code ProcessRecord} and {@code SnapshotState} as the plain sink does (its processed bag is its
 * writer state), the snapshot with {@code output}; the committer writes each commit as the sink's
 * {@code NotifyCheckpointComplete} with {@code committed} and {@code output}, as the engine's
 * transactional sink does (docs/trace-validation.md). The re-commit on restore is part of the
 * spec's hidden {@code FailAndRestore} and writes no event. Every rename into {@code committed/}
 * and every read of it happens under the run's {@link TraceLog} lock, so an event's
 * {@code output} is what the commits logged before it left.
 *
 * <p>Broken twins: {@link RunSpec.Twin#COMMIT_ON_SNAPSHOT} (the writer commits in
 * {@code prepareCommit} and leaves the committer nothing), {@link RunSpec.Twin#COMMIT_NOT_IDEMPOTENT}
 * (the committer copies the transaction into the output under a new name each time it is asked).
 */
public final class TransactionalSink implements Sink<Rec>, SupportsCommitter<String>, SupportsWriterState<Rec, String> {

    private static final long serialVersionUID = 1L;

    private final RunSpec spec;

    public TransactionalSink(RunSpec spec) {
        this.spec = spec;
    }

    @Override
    public SinkWriter<Rec> createWriter(WriterInitContext context) {
        placed(context.getTaskInfo().getIndexOfThisSubtask(), attempt(context.getTaskInfo()),
                context.metricGroup().getAllVariables());
        return new Writer(spec, context.getTaskInfo().getIndexOfThisSubtask(), attempt(context.getTaskInfo()),
                context.getRestoredCheckpointId().orElse(0L), List.of());
    }

    @Override
    public StatefulSinkWriter<Rec, String> restoreWriter(WriterInitContext context, Collection<String> state) {
        placed(context.getTaskInfo().getIndexOfThisSubtask(), attempt(context.getTaskInfo()),
                context.metricGroup().getAllVariables());
        return new Writer(spec, context.getTaskInfo().getIndexOfThisSubtask(), attempt(context.getTaskInfo()),
                context.getRestoredCheckpointId().orElse(0L), state);
    }

    @Override
    public SimpleVersionedSerializer<String> getWriterStateSerializer() {
        return new Utf8();
    }

    @Override
    public Committer<String> createCommitter(CommitterInitContext context) {
        return new TxnCommitter(spec, context.getTaskInfo().getIndexOfThisSubtask(),
                attempt(context.getTaskInfo()), context.getRestoredCheckpointId().orElse(0L));
    }

    @Override
    public SimpleVersionedSerializer<String> getCommittableSerializer() {
        return new Utf8();
    }

    /** The trace's attempt of the task {@code info} describes (TraceLog#attempt: a restored job's follow the first's). */
    private static int attempt(org.apache.flink.api.common.TaskInfo info) {
        return TraceLog.current().attempt(info.getAttemptNumber());
    }

    /**
     * Where the writer runs (its metric variables' {@code <tm_id>}): a TaskManager loss fails the
     * tasks on it (FlinkHarness). The committer, a task of its own that may run on the other
     * TaskManager, is not placed: the trace names the spec's sink task after the writer's place.
     */
    private static void placed(int subtask, int attempt, Map<String, String> variables) {
        TraceLog.current().placed(task(subtask), attempt, variables.get("<tm_id>"), -1);
    }

    /** The task the trace names for subtask {@code index}: the spec's sink task. */
    static String task(int index) {
        return "sink#" + index;
    }

    /**
     * The writer: the processed bag (its state, one {@code id#count} entry per record) and the
     * open transaction (the record ids written since the last pre-commit).
     */
    static final class Writer implements CommittingSinkWriter<Rec, String>, StatefulSinkWriter<Rec, String> {
        private final RunSpec spec;
        private final String task;
        private final int attempt;
        private final Map<String, Integer> bag = new LinkedHashMap<>();
        private final List<String> open = new ArrayList<>();
        /** Transactions pre-committed since the last snapshot: their checkpoint is the next snapshot's. */
        private final List<String> unassigned = new ArrayList<>();
        /** The newest checkpoint the writer snapshotted (or restored from). */
        private long lastKnown;
        /** The last flush was end of input's: the next prepareCommit is for the checkpoint after lastKnown. */
        private boolean flushedForEnd;
        private int sequence;

        /** Subtask {@code subtask}'s writer in attempt {@code attempt}, restored from checkpoint {@code restored} (0: none). */
        Writer(RunSpec spec, int subtask, int attempt, long restored, Collection<String> state) {
            this.spec = spec;
            this.task = task(subtask);
            this.attempt = attempt;
            for (String entry : state) {
                int hash = entry.lastIndexOf('#');
                bag.merge(entry.substring(0, hash), Integer.parseInt(entry.substring(hash + 1)), Integer::sum);
            }
            lastKnown = restored;
            TraceLog.current().event("InitializeState", task, attempt, "restored", restored, "processed",
                    TraceLog.bag(bag));
        }

        @Override
        public void write(Rec r, SinkWriter.Context context) {
            TraceLog.current().event("ProcessRecord", task, attempt, "channel", List.of(r.via, task), "record",
                    r.traceForm());
            bag.merge(r.id(), 1, Integer::sum);
            open.add(r.id());
        }

        @Override
        public void flush(boolean endOfInput) {
            flushedForEnd = endOfInput;
        }

        /** Pre-commits the open transaction, if it holds a record (the spec's PreCommitTransactions). */
        @Override
        public Collection<String> prepareCommit() throws IOException {
            boolean forEnd = flushedForEnd;
            flushedForEnd = false;
            if (open.isEmpty()) {
                return List.of();
            }
            TraceLog log = TraceLog.current();
            String name = "txn-a" + attempt + "-" + sequence++;
            Path pending = log.sinkDir().resolve("pending").resolve(name);
            Path tmp = pending.resolveSibling(name + ".tmp");
            Files.write(tmp, open, StandardCharsets.UTF_8);
            Files.move(tmp, pending, StandardCopyOption.ATOMIC_MOVE);
            open.clear();
            if (spec.twin() == RunSpec.Twin.COMMIT_ON_SNAPSHOT) {
                // Broken twin: commits now, in the checkpoint's snapshot, before it completes.
                synchronized (log) {
                    Files.move(pending, log.sinkDir().resolve("committed").resolve(name), StandardCopyOption.ATOMIC_MOVE);
                }
                return List.of();
            }
            if (forEnd) {
                // End of input: Flink emits this committable for the checkpoint after the writer's
                // last one (SinkWriterOperator#endInput), which the final checkpoint commits.
                log.transactionPreCommitted(name, attempt, lastKnown + 1);
            } else {
                unassigned.add(name);
            }
            return List.of(name);
        }

        /** The writer's snapshot of checkpoint {@code c}: right after its prepareCommit for {@code c}. */
        @Override
        public List<String> snapshotState(long c) {
            lastKnown = c;
            TraceLog log = TraceLog.current();
            for (String name : unassigned) {
                log.transactionPreCommitted(name, attempt, c);
            }
            unassigned.clear();
            List<String> entries = new ArrayList<>();
            bag.forEach((id, n) -> entries.add(id + "#" + n));
            synchronized (log) {
                log.event("SnapshotState", task, attempt, "checkpoint", c, "snapshot", TraceLog.bag(bag), "output",
                        log.committedOutput());
            }
            return entries;
        }

        @Override
        public void close() {
        }
    }

    /** The committer: moves a transaction's file from {@code pending/} to {@code committed/}. */
    static final class TxnCommitter implements Committer<String> {
        private final RunSpec spec;
        private final String task;
        private final int attempt;
        private final long restored;

        TxnCommitter(RunSpec spec, int subtask, int attempt, long restored) {
            this.spec = spec;
            this.task = task(subtask);
            this.attempt = attempt;
            this.restored = restored;
        }

        /**
         * Commits the requests, one checkpoint at a time (Flink asks for one checkpoint's
         * committables per call). A commit of transactions of the restored checkpoint or older is
         * the re-commit of the restore (CommitterOperator#initializeState): no event, it is part of
         * the spec's hidden FailAndRestore. Every other is the sink's NotifyCheckpointComplete.
         */
        @Override
        public void commit(Collection<CommitRequest<String>> requests) throws IOException {
            TraceLog log = TraceLog.current();
            TreeMap<Long, List<String>> byCheckpoint = new TreeMap<>();
            for (CommitRequest<String> r : requests) {
                Long c = log.transactionCheckpoint(r.getCommittable());
                byCheckpoint.computeIfAbsent(c == null ? 0L : c, k -> new ArrayList<>()).add(r.getCommittable());
            }
            for (Map.Entry<Long, List<String>> e : byCheckpoint.entrySet()) {
                long c = e.getKey();
                synchronized (log) {
                    for (String name : e.getValue()) {
                        commitOne(log.sinkDir(), name);
                        log.transactionCommitted(name);
                    }
                    if (restored == 0 || c > restored) {
                        log.event("NotifyCheckpointComplete", task, attempt, "checkpoint", c, "committed", List.of(c),
                                "output", log.committedOutput());
                    }
                }
            }
        }

        private void commitOne(Path dir, String name) throws IOException {
            Path pending = dir.resolve("pending").resolve(name);
            Path committed = dir.resolve("committed");
            if (spec.twin() == RunSpec.Twin.COMMIT_NOT_IDEMPOTENT) {
                // Broken twin: a new copy in the output each time it is asked, the file kept pending.
                int k = 0;
                while (Files.exists(committed.resolve(name + "." + k))) {
                    k++;
                }
                if (Files.exists(pending)) {
                    Files.copy(pending, committed.resolve(name + "." + k));
                }
                return;
            }
            if (Files.exists(pending)) {
                Files.move(pending, committed.resolve(name), StandardCopyOption.ATOMIC_MOVE);
            }
            // else: moved by an earlier commit (a re-commit after restore): committed already
        }

        @Override
        public void close() {
        }
    }

    /** A string as UTF-8 bytes: the committables (transaction file names) and the writer's state entries. */
    static final class Utf8 implements SimpleVersionedSerializer<String> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String deserialize(int version, byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }
}
