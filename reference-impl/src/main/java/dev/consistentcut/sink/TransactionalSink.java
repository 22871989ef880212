package dev.consistentcut.sink;

import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.Operator;
import java.util.List;
import java.util.Map;

/**
 * A sink that takes part in checkpoints with a two-phase commit (Flink's
 * {@code TwoPhaseCommitSinkFunction}, Sink V2's committer): what it receives goes into an open
 * transaction; the task's snapshot <em>pre-commits</em> it (durable, not visible) and opens a new
 * one; {@code NotifyCheckpointComplete(t, c)} <em>commits</em> every transaction pre-committed up
 * to {@code c}; on restore the sink <em>re-commits</em> the transactions of the restored
 * checkpoint (idempotently: some may have been committed before the failure, whose notification
 * may have been lost) and <em>aborts</em> the rest. Its {@link #committed()} output is what an
 * external reader sees. The spec's transactional sink and {@code docs/vocabulary.md}.
 *
 * <p>The task ({@link dev.consistentcut.task.OperatorTask}) calls, in this order:
 * {@link #restoreState} (when restoring a checkpoint), {@link #initializeState} (always,
 * once per operator instance), then {@link #process} per record, {@link #preCommit} right before
 * each {@link #snapshotState} of a checkpoint, {@link #notifyCheckpointComplete}, and
 * {@link #endOfInput} when every input has ended (before the final snapshot).
 *
 * <p>Threading: like every operator, confined to its task's thread, except {@link #settled()}
 * and {@link #committed()}, which the task's owner reads only while the task does not run.
 */
public interface TransactionalSink extends Operator {

    /**
     * Called once per instance, after {@link #restoreState} if the task restores a checkpoint:
     * re-commits the restored checkpoint's transactions and aborts every other transaction this
     * task instance left behind (an open one, and those pre-committed for checkpoints that never
     * completed).
     *
     * @param taskId the task instance this sink runs in (names its files)
     * @param restored whether {@link #restoreState} gave it a checkpoint's state (else: the initial state)
     * @return the checkpoint ids (transaction keys) re-committed, ascending
     */
    List<Long> initializeState(String taskId, boolean restored);

    /** Pre-commits the open transaction for checkpoint {@code checkpointId} and opens a new one (part of the snapshot). */
    void preCommit(long checkpointId);

    /**
     * {@code NotifyCheckpointComplete(t, c)}: commits every transaction pre-committed for a
     * checkpoint up to {@code checkpointId}.
     *
     * @return the checkpoint ids (transaction keys) committed, ascending
     */
    List<Long> notifyCheckpointComplete(long checkpointId);

    /**
     * Every input has ended (FLIP-147): pre-commits the open transaction for the next checkpoint,
     * which the final checkpoint completes (the task's final state is in it).
     */
    void endOfInput();

    /** Nothing left to commit: no pre-committed transaction and an empty open one. */
    boolean settled();

    /** The committed output of this task instance: record id to the times it occurs there. */
    Map<RecordId, Integer> committed();
}
