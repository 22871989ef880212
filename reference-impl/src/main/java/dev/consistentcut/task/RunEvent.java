package dev.consistentcut.task;

import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a run, told to the {@link RunObserver} right after it happened: one record per
 * action of the TLA+ specification, named as the action (docs/vocabulary.md, {@link Action}),
 * carrying the step's parameters and what the step did to the checkpoint besides moving messages,
 * which a trace checks against the spec. Task events name the task instance ({@code task}), and
 * where they take from an input its physical number ({@code input}) and channel id
 * ({@code channel}). Immutable as far as the engine is concerned: collections are handed over
 * and not changed afterwards.
 */
public sealed interface RunEvent {

    /** The spec action this event is a step of. */
    Action action();

    /** The action's spec name, as the trace writes it. */
    default String name() {
        return action().specName();
    }

    /** A task's step (the others are the coordinator's: trigger, complete, abort, fail and restore). */
    sealed interface TaskEvent extends RunEvent {
        /** The task instance id, e.g. {@code count#1}. */
        String task();
    }

    /** {@code TriggerCheckpoint}: the coordinator started {@code checkpoint}, a savepoint if {@code savepoint}. */
    record TriggerCheckpoint(long checkpoint, boolean savepoint) implements RunEvent {
        @Override
        public Action action() {
            return Action.TRIGGER_CHECKPOINT;
        }
    }

    /** {@code CompleteCheckpoint}: the coordinator completed {@code completed}, with its contents. */
    record CompleteCheckpoint(CompletedCheckpoint completed) implements RunEvent {
        public CompleteCheckpoint {
            Objects.requireNonNull(completed, "completed");
        }

        public long checkpoint() {
            return completed.id();
        }

        @Override
        public Action action() {
            return Action.COMPLETE_CHECKPOINT;
        }
    }

    /**
     * {@code AbortCheckpoint}: the coordinator aborted {@code checkpoint}; {@code declinedBy} names
     * the task that declined it (the engine's {@code DeclineCheckpoint}), null for any other abort.
     */
    record AbortCheckpoint(long checkpoint, String declinedBy) implements RunEvent {
        public AbortCheckpoint(long checkpoint) {
            this(checkpoint, null);
        }

        @Override
        public Action action() {
            return Action.ABORT_CHECKPOINT;
        }
    }

    /**
     * {@code FailAndRestore}: every task restored checkpoint {@code restored} (0: the initial
     * state); {@code recommitted}: per transactional sink, the checkpoint ids whose transactions the
     * restore re-committed (empty without sinks).
     */
    record FailAndRestore(long restored, Map<String, List<Long>> recommitted) implements RunEvent {
        public FailAndRestore {
            Objects.requireNonNull(recommitted, "recommitted");
        }

        @Override
        public Action action() {
            return Action.FAIL_AND_RESTORE;
        }
    }

    /** {@code EmitRecord}: source {@code task} sent {@code record} on its route. */
    record EmitRecord(String task, RecordId record) implements TaskEvent {
        @Override
        public Action action() {
            return Action.EMIT_RECORD;
        }
    }

    /**
     * {@code InjectBarrier}: source {@code task} took {@code offset} into {@code checkpoint} and
     * sent its barrier (aligned as {@code aligned} says) on every output; {@code overtaken}: per
     * output channel id, the records the barrier overtook and persisted (empty lists when aligned).
     */
    record InjectBarrier(String task, long checkpoint, long offset, Map<String, List<Record>> overtaken,
                         boolean aligned) implements TaskEvent {
        @Override
        public Action action() {
            return Action.INJECT_BARRIER;
        }
    }

    /** {@code SendEndOfPartition}: source {@code task} ended its partition at {@code offset}. */
    record SendEndOfPartition(String task, long offset) implements TaskEvent {
        @Override
        public Action action() {
            return Action.SEND_END_OF_PARTITION;
        }
    }

    /** {@code ProcessRecord}: {@code task} processed {@code record}; {@code persisted}: also as channel state. */
    record ProcessRecord(String task, int input, String channel, RecordId record, boolean persisted) implements TaskEvent {
        @Override
        public Action action() {
            return Action.PROCESS_RECORD;
        }
    }

    /**
     * {@code ReceiveBarrier}: {@code task} took the barrier of {@code checkpoint} (its alignment
     * flag {@code aligned}) from {@code input}. What the step did: {@code abandoned}, the
     * checkpoints it gave up (a cancellation barrier of each forwarded), in order;
     * {@code snapshot}, the processed ledger taken, null when it took none; {@code overtaken}, per
     * output channel id the records an overtaking barrier persisted, null when none was forwarded
     * so; {@code prioritized}, per input channel id what the pending inputs' barriers jumped over in
     * a switch to unaligned, empty when none.
     */
    record ReceiveBarrier(String task, int input, String channel, long checkpoint, boolean aligned,
                          List<Long> abandoned, Map<RecordId, Integer> snapshot, Map<String, List<Record>> overtaken,
                          Map<String, List<Record>> prioritized) implements TaskEvent {
        @Override
        public Action action() {
            return Action.RECEIVE_BARRIER;
        }
    }

    /**
     * {@code TimeoutAlignment}: {@code task} switched {@code checkpoint} to unaligned; passive (no
     * snapshot yet: {@code snapshot} null) or active. {@code overtaken} and {@code prioritized} as
     * in {@link ReceiveBarrier}.
     */
    record TimeoutAlignment(String task, long checkpoint, Map<RecordId, Integer> snapshot,
                            Map<String, List<Record>> overtaken, Map<String, List<Record>> prioritized)
            implements TaskEvent {
        /** Whether the switch came before the task took any barrier of the checkpoint. */
        public boolean passive() {
            return snapshot == null;
        }

        @Override
        public Action action() {
            return Action.TIMEOUT_ALIGNMENT;
        }
    }

    /**
     * {@code PrioritizeBarrier}: the barrier of {@code checkpoint} jumped ahead on {@code input};
     * {@code prioritized} as in {@link ReceiveBarrier}.
     */
    record PrioritizeBarrier(String task, int input, String channel, long checkpoint,
                             Map<String, List<Record>> prioritized) implements TaskEvent {
        @Override
        public Action action() {
            return Action.PRIORITIZE_BARRIER;
        }
    }

    /**
     * {@code ReceiveCancelBarrier}: {@code task} took the cancellation barrier of {@code checkpoint};
     * {@code abandoned} as in {@link ReceiveBarrier}.
     */
    record ReceiveCancelBarrier(String task, int input, String channel, long checkpoint, List<Long> abandoned)
            implements TaskEvent {
        @Override
        public Action action() {
            return Action.RECEIVE_CANCEL_BARRIER;
        }
    }

    /**
     * {@code NotifyCheckpointAborted}: {@code task} heard that {@code checkpoint} was aborted and
     * abandoned {@code abandoned}, or {@code remembered} it for its first barrier (the engine's
     * deferral, docs/vocabulary.md), or did nothing (it had gone past it).
     */
    record NotifyCheckpointAborted(String task, long checkpoint, List<Long> abandoned, boolean remembered)
            implements TaskEvent {
        @Override
        public Action action() {
            return Action.NOTIFY_CHECKPOINT_ABORTED;
        }
    }

    /**
     * {@code NotifyCheckpointComplete}: sink {@code task} heard of {@code checkpoint} and committed
     * the transactions of the checkpoints {@code committed}.
     */
    record NotifyCheckpointComplete(String task, long checkpoint, List<Long> committed) implements TaskEvent {
        @Override
        public Action action() {
            return Action.NOTIFY_CHECKPOINT_COMPLETE;
        }
    }

    /**
     * {@code ReceiveEndOfPartition}: {@code task} took end of partition from {@code input};
     * {@code ended}: it was the last open input. When the step completed the alignment of
     * {@code checkpoint}, {@code snapshot} is the ledger taken (else null, and {@code checkpoint} 0).
     */
    record ReceiveEndOfPartition(String task, int input, String channel, boolean ended, long checkpoint,
                                 Map<RecordId, Integer> snapshot) implements TaskEvent {
        @Override
        public Action action() {
            return Action.RECEIVE_END_OF_PARTITION;
        }
    }
}
