package dev.consistentcut.task;

import java.util.Map;

/**
 * Observes every action right after it happened: the hook for trace recording (issue 5). Each
 * action method calls it in exactly one place. Parameters use the keys {@code task},
 * {@code channel} (a channel id), {@code input} (a physical input number), {@code record} (a
 * {@link dev.consistentcut.message.RecordId}), {@code checkpoint} and {@code offset}, where they apply;
 * and what the step did to the checkpoint, which the trace checks against the spec:
 * {@code persisted} ({@code ProcessRecord}: whether the record was persisted as channel state),
 * {@code overtaken} ({@code InjectBarrier} always, {@code ReceiveBarrier} when it forwarded an
 * overtaking barrier: per output channel id, the records the barrier overtook and persisted) and
 * {@code snapshot} ({@code ReceiveBarrier} when it snapshotted: the processed ledger taken).
 *
 * <p>The default {@link #NONE} costs nothing: callers build the parameter map only when the
 * listener is not {@code NONE}. In the threaded runtime a listener is called from every task
 * thread and the coordinator thread concurrently, so it must be thread-safe.
 */
@FunctionalInterface
public interface ActionListener {

    /** The listener that does nothing; callers skip building parameters for it. */
    ActionListener NONE = (action, params) -> { };

    /** {@code action} (a spec name such as {@code EmitRecord}) happened with {@code params}. */
    void onAction(String action, Map<String, Object> params);
}
