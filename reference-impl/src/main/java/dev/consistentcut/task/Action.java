package dev.consistentcut.task;

/**
 * The actions of the TLA+ specification, with their spec names (see {@code docs/vocabulary.md}).
 * Each is performed by exactly one Java method of the same name.
 */
public enum Action {
    TRIGGER_CHECKPOINT("TriggerCheckpoint"),
    EMIT_RECORD("EmitRecord"),
    INJECT_BARRIER("InjectBarrier"),
    PROCESS_RECORD("ProcessRecord"),
    RECEIVE_BARRIER("ReceiveBarrier"),
    COMPLETE_CHECKPOINT("CompleteCheckpoint"),
    ABORT_CHECKPOINT("AbortCheckpoint"),
    FAIL_AND_RESTORE("FailAndRestore"),
    NOTIFY_CHECKPOINT_ABORTED("NotifyCheckpointAborted"),
    RECEIVE_CANCEL_BARRIER("ReceiveCancelBarrier"),
    SEND_END_OF_PARTITION("SendEndOfPartition"),
    RECEIVE_END_OF_PARTITION("ReceiveEndOfPartition"),
    TIMEOUT_ALIGNMENT("TimeoutAlignment"),
    PRIORITIZE_BARRIER("PrioritizeBarrier"),
    NOTIFY_CHECKPOINT_COMPLETE("NotifyCheckpointComplete");

    private final String specName;

    Action(String specName) {
        this.specName = specName;
    }

    /** The action's name in the spec, the vocabulary and (later) the trace. */
    public String specName() {
        return specName;
    }
}
