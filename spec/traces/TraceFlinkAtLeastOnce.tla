------------------------ MODULE TraceFlinkAtLeastOnce ------------------------
(***************************************************************************)
(* Conformance of a Flink run with at-least-once checkpoints (Flink's      *)
(* CheckpointBarrierTracker, the header's mode "at-least-once") to         *)
(* AtLeastOnceCheckpoint.tla as it is: TLC accepts the trace iff some      *)
(* behaviour of the protocol shows the observed events, with any hidden    *)
(* steps between them.  What is observed, what is hidden and why the check *)
(* is sound: TraceFlink.tla.  The tracker's olderTracked is hidden too:    *)
(* observations leave it unchanged, a hidden failure clears it.  The       *)
(* protocol's actions and the data events' steps come from                 *)
(* TraceAtLeastOnce (Act, Moves), the engine's trace module for this mode. *)
(***************************************************************************)
EXTENDS TraceAtLeastOnce, TraceFlink

\* An observed event that is no step: nothing changes, the tracker neither.
Observe == UNCHANGED <<vars, olderTracked>>

\* Operator t has taken its snapshot of c: a tracker snapshots and acknowledges in one step, on
\* c's last barrier (an ended task's final snapshot is acknowledged when taken, FinalAck).
Snapshotted(t, c) == t \in acked[c]

\* The hidden steps, of the kinds the rest of the trace needs (TraceFlink: May*).
HiddenAction ==
    \/ \E c \in CheckpointIds : MayTrigger(c) /\ TriggerCheckpointAtLeastOnce(c)
    \/ \E c \in CheckpointIds : MayComplete(c) /\ CompleteCheckpointAtLeastOnce(c)
    \/ \E c \in CheckpointIds : MayAbort(c) /\ AbortCheckpointAtLeastOnce(c)
    \/ MayFail /\ FailAndRestoreAtLeastOnce
    \/ \E t \in Tasks, c \in CheckpointIds : MayNotify(t, c) /\ NotifyCheckpointAborted(t, c)
    \/ \E t \in Operators : \E e \in InputsOf(t) :
           MayMove(t, e) /\ (ReceiveBarrier(t, e) \/ ReceiveCancelBarrier(t, e) \/ ReceiveEndOfPartition(t, e))

\* Match the next event, take a hidden step, or (a dead end) print why not.
FlinkNext == \/ FlinkCoveredStep(Act, Observe, Snapshotted)
             \/ HiddenStep(Act, Observe, Snapshotted, HiddenAction)
             \/ FlinkUnexplained(Act, Observe, Snapshotted, HiddenAction)

FlinkBehavior == TraceInit /\ olderTracked = [t \in Operators |-> NothingTracked]
                 /\ [][FlinkNext]_<<traceVars, olderTracked>>
=============================================================================
