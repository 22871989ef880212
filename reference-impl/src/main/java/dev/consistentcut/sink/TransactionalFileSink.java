package dev.consistentcut.sink;

import dev.consistentcut.annotation.TestSeam;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * The two-phase-commit file sink: each transaction is a temporary file in the output
 * directory, committed by an atomic rename to a part file (names in {@link SinkFiles}).
 *
 * <ul>
 *   <li><b>Write</b>: a record is appended to the open transaction's temp file (created with the
 *       first record; a transaction without records has no file and nothing to commit).
 *   <li><b>Pre-commit</b> ({@link #preCommit}, in the task's snapshot for checkpoint {@code c}):
 *       the temp file and the directory (the file's name) are fsynced, the file is closed, and
 *       the transaction is recorded as pending for {@code c} in the sink's state, which goes into
 *       the snapshot (so into the durable checkpoint). A new transaction opens with the next
 *       record.
 *   <li><b>Commit</b> ({@link #notifyCheckpointComplete}): every pending transaction of a
 *       checkpoint up to {@code c} is renamed into place (atomic, then the directory is fsynced:
 *       a restore of a later checkpoint, which no longer lists the transaction, would abort it).
 *       Idempotent: a transaction whose temp file is gone and whose part file exists was committed
 *       already, and is left alone.
 *   <li><b>Recover</b> ({@link #initializeState}): the restored state's pending
 *       transactions are re-committed (their checkpoint is complete: it is the one restored, or
 *       older), and every other temp file of this task instance is deleted (aborted): the open
 *       transaction of the failed run, and those pre-committed for checkpoints that never
 *       completed.
 *   <li><b>End of input</b> ({@link #endOfInput}): the open transaction is pre-committed for the
 *       checkpoint after the last one this sink took part in; the task's final state carries it,
 *       and the final checkpoint commits it (FLIP-147).
 * </ul>
 *
 * Why commits happen only on notification: a part file is visible to readers at once and never
 * taken back, so a transaction may be committed only once its records belong to a completed
 * checkpoint, i.e. will never be replayed. A lost notification is made up for on restore.
 *
 * <p>Broken twins override the {@code protected} steps (test sources, {@code BrokenSinks}).
 * Threading: confined to the task's thread (see {@link TransactionalSink}).
 */
public class TransactionalFileSink implements TransactionalSink {

    @TestSeam
    protected final SinkDirectory dir;
    private final long delayNanosPerRecord;
    /** Draws the transaction ids, which only need to be unique: see {@link #TransactionalFileSink(SinkDirectory, long, RandomGenerator)}. */
    private final RandomGenerator transactionIds;

    private String task;
    /** The checkpoint of the last pre-commit (restored with the state); the end-of-input transaction takes the next id. */
    private long lastCheckpoint;
    /** Pre-committed, not yet committed: checkpoint id to transaction id. Part of the state. */
    @TestSeam
    protected final TreeMap<Long, String> pending = new TreeMap<>();
    private boolean restored;

    private String openTxn;
    private SinkDirectory.TempFile openFile;

    /** The default source of transaction ids: unseeded, and usable from any thread. */
    private static final RandomGenerator UNSEEDED = () -> ThreadLocalRandom.current().nextLong();

    public TransactionalFileSink(SinkDirectory dir) {
        this(dir, 0);
    }

    /** A slow sink: the threaded runtime spends {@code delayNanosPerRecord} on each record. */
    public TransactionalFileSink(SinkDirectory dir, long delayNanosPerRecord) {
        this(dir, delayNanosPerRecord, UNSEEDED);
    }

    /**
     * As {@link #TransactionalFileSink(SinkDirectory, long)}, with the transaction ids drawn from
     * {@code transactionIds} (one {@code nextLong()} per transaction). The default is unseeded on
     * purpose: a job resumed after a crash must not draw the ids of the killed process's
     * leftover transactions again.
     */
    public TransactionalFileSink(SinkDirectory dir, long delayNanosPerRecord, RandomGenerator transactionIds) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.transactionIds = Objects.requireNonNull(transactionIds, "transactionIds");
        if (delayNanosPerRecord < 0) {
            throw new IllegalArgumentException("delayNanosPerRecord must be >= 0, got " + delayNanosPerRecord);
        }
        this.delayNanosPerRecord = delayNanosPerRecord;
    }

    @Override
    public long delayNanosPerRecord() {
        return delayNanosPerRecord;
    }

    @Override
    public Record process(int input, Record record) {
        requireInitialized("process");
        if (openFile == null) {
            openTxn = newTransactionId();
            openFile = dir.create(SinkFiles.tempName(task, openTxn));
        }
        openFile.append(SinkFiles.line(record));
        return record;
    }

    @Override
    public List<Long> initializeState(String taskId, boolean restored) {
        if (task != null) {
            throw new IllegalStateException("sink " + task + ": initializeState called twice");
        }
        if (restored != this.restored) {
            throw new IllegalStateException("sink " + taskId + ": initializeState(restored " + restored + ") but state "
                    + (this.restored ? "was" : "was not") + " restored");
        }
        task = Objects.requireNonNull(taskId, "taskId");
        List<Long> recommitted = restored ? recommitRestored() : List.of();
        abortLeftovers();
        return recommitted;
    }

    /** Re-commits every restored pending transaction (idempotent commits). */
    @TestSeam
    protected List<Long> recommitRestored() {
        List<Long> keys = new ArrayList<>(pending.keySet());
        for (Map.Entry<Long, String> e : pending.entrySet()) {
            commit(e.getKey(), e.getValue());
        }
        pending.clear();
        return keys;
    }

    /** Aborts every transaction of this task instance that is not pending: deletes its temp file. */
    private void abortLeftovers() {
        for (String name : dir.list()) {
            if (SinkFiles.isTempOf(name, task) && !pending.containsValue(txnOf(name))) {
                dir.delete(name);
            }
        }
    }

    private String txnOf(String tempName) {
        String prefix = SinkFiles.TEMP_PREFIX + SinkFiles.fileSafe(task) + "-";
        return tempName.substring(prefix.length(), tempName.length() - SinkFiles.TEMP_SUFFIX.length());
    }

    @Override
    public void preCommit(long checkpointId) {
        requireInitialized("preCommit");
        if (openFile != null) {
            openFile.sync(); // fsync before the snapshot refers to it: the checkpoint may be restored in another process
            // The file's name too: an fsync of a file does not make its directory entry durable
            // (fsync(2)), and a restore that finds neither the temp file nor the part file has lost
            // the transaction.
            dir.syncDirectory();
            openFile.close();
            openFile = null;
            onPreCommitted(checkpointId, openTxn);
            openTxn = null;
        }
        lastCheckpoint = Math.max(lastCheckpoint, checkpointId);
    }

    /** A pre-committed transaction becomes pending for {@code checkpointId}. */
    @TestSeam
    protected void onPreCommitted(long checkpointId, String txn) {
        pending.put(checkpointId, txn);
    }

    @Override
    public List<Long> notifyCheckpointComplete(long checkpointId) {
        requireInitialized("notifyCheckpointComplete");
        List<Long> keys = new ArrayList<>();
        while (!pending.isEmpty() && pending.firstKey() <= checkpointId) {
            Map.Entry<Long, String> e = pending.pollFirstEntry();
            commit(e.getKey(), e.getValue());
            keys.add(e.getKey());
        }
        return keys;
    }

    /**
     * Commits one transaction: renames its temp file to its part file. Idempotent: if the temp file
     * is gone and the part file exists, the transaction was committed already.
     *
     * @throws IllegalStateException if neither file exists: the transaction is lost
     */
    @TestSeam
    protected void commit(long checkpointId, String txn) {
        String temp = SinkFiles.tempName(task, txn);
        String part = SinkFiles.partName(task, checkpointId, txn);
        if (dir.exists(temp)) {
            if (dir.exists(part)) {
                throw new IllegalStateException("sink " + task + ": transaction " + txn + " of checkpoint " + checkpointId
                        + " is both pending (" + temp + ") and committed (" + part + ") in " + dir.describe());
            }
            dir.rename(temp, part);
            dir.syncDirectory(); // the commit is durable: a restore of a later checkpoint no longer holds this transaction
        } else if (!dir.exists(part)) {
            throw new IllegalStateException("sink " + task + ": transaction " + txn + " of checkpoint " + checkpointId
                    + " is lost: neither " + temp + " nor " + part + " is in " + dir.describe());
        }
    }

    @Override
    public void endOfInput() {
        requireInitialized("endOfInput");
        preCommit(lastCheckpoint + 1);
    }

    @Override
    public boolean settled() {
        return pending.isEmpty() && openFile == null;
    }

    @Override
    public Map<RecordId, Integer> committed() {
        requireInitialized("committed");
        Map<RecordId, Integer> out = new HashMap<>();
        for (String name : dir.list()) {
            if (SinkFiles.isPartOf(name, task)) {
                for (Record r : SinkFiles.parse(name, dir.read(name))) {
                    out.merge(r.id(), 1, Integer::sum);
                }
            }
        }
        return out;
    }

    /** The task instance this sink runs in (null before {@link #initializeState}). */
    @TestSeam
    protected final String taskId() {
        return task;
    }

    /** Pre-committed transactions not yet committed (read-only copy): checkpoint id to transaction id. */
    public Map<Long, String> pendingTransactions() {
        return Map.copyOf(pending);
    }

    @Override
    public byte[] snapshotState() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(lastCheckpoint);
            out.writeInt(pending.size());
            for (Map.Entry<Long, String> e : pending.entrySet()) {
                out.writeLong(e.getKey());
                out.writeUTF(e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    @Override
    public void restoreState(byte[] state) {
        if (task != null) {
            throw new IllegalStateException("sink " + task + ": restoreState after initializeState");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(state));
        try {
            long last = in.readLong();
            int n = in.readInt();
            if (n < 0) {
                throw new IOException("negative transaction count " + n);
            }
            TreeMap<Long, String> p = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                long key = in.readLong();
                String txn = in.readUTF();
                if (!txn.matches("[0-9a-f]{16}")) {
                    throw new IOException("bad transaction id '" + txn + "'");
                }
                p.put(key, txn);
            }
            if (in.available() > 0) {
                throw new IOException(in.available() + " unexpected trailing bytes");
            }
            lastCheckpoint = last;
            pending.clear();
            pending.putAll(p);
            restored = true;
        } catch (IOException e) {
            throw new IllegalArgumentException("TransactionalFileSink: state of " + state.length
                    + " bytes is truncated or malformed: " + e.getMessage(), e);
        }
    }

    private String newTransactionId() {
        return String.format("%016x", transactionIds.nextLong());
    }

    private void requireInitialized(String what) {
        if (task == null) {
            throw new IllegalStateException("TransactionalFileSink: " + what + " before initializeState");
        }
    }

    @Override
    public String toString() {
        return "TransactionalFileSink[" + task + " -> " + dir.describe() + ", pending " + pending.keySet()
                + (openFile != null ? ", open " + openTxn : "") + "]";
    }
}
