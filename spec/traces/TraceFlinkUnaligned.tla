------------------------- MODULE TraceFlinkUnaligned -------------------------
(***************************************************************************)
(* Conformance of a Flink run with unaligned checkpoints (the header's     *)
(* mode "unaligned") to UnalignedCheckpoint.tla as it is: TLC accepts the  *)
(* trace iff some behaviour of the protocol shows the observed events,     *)
(* with any hidden steps between them.  What is observed, what is hidden   *)
(* and why the check is sound: TraceFlink.tla.  Flink's channel state (the *)
(* records a barrier overtook) is not observed: the spec's snapChan is     *)
(* hidden, checked only through what a restore gives back to the tasks.    *)
(* The protocol's actions and the data events' steps come from             *)
(* TraceUnaligned (Act, Moves), the engine's trace module for this mode.   *)
(***************************************************************************)
EXTENDS TraceUnaligned, TraceFlink

\* An observed event that is no step: nothing changes.
Observe == UNCHANGED vars

\* Operator t has taken its snapshot of c: at c's first barrier, while it handles c, or it has
\* acknowledged c (the last barrier; an ended task's final snapshot, FinalAck).
Snapshotted(t, c) == t \in acked[c] \/ handling[t] = c

\* The hidden steps, of the kinds the rest of the trace needs (TraceFlink: May*).
HiddenAction ==
    \/ \E c \in CheckpointIds : MayTrigger(c) /\ TriggerCheckpoint(c)
    \/ \E c \in CheckpointIds : MayComplete(c) /\ CompleteCheckpoint(c)
    \/ \E c \in CheckpointIds : MayAbort(c) /\ AbortCheckpoint(c)
    \/ MayFail /\ FailAndRestore
    \/ \E t \in Tasks, c \in CheckpointIds : MayNotify(t, c) /\ NotifyCheckpointAborted(t, c)
    \/ \E t \in Operators : \E e \in InputsOf(t) :
           MayMove(t, e) /\ (ReceiveBarrier(t, e) \/ ReceiveCancelBarrier(t, e) \/ ReceiveEndOfPartition(t, e))

\* Match the next event, take a hidden step, or (a dead end) print why not.
FlinkNext == \/ FlinkCoveredStep(Act, Observe, Snapshotted)
             \/ HiddenStep(Act, Observe, Snapshotted, HiddenAction)
             \/ FlinkUnexplained(Act, Observe, Snapshotted, HiddenAction)

FlinkBehavior == TraceInit /\ [][FlinkNext]_traceVars
=============================================================================
