-------------------------- MODULE TraceFlinkAligned --------------------------
(***************************************************************************)
(* Conformance of a Flink run with aligned checkpoints (Flink's exactly-   *)
(* once mode, the header's mode "aligned") to AlignedCheckpoint.tla as it  *)
(* is: TLC accepts the trace iff some behaviour of the protocol shows the  *)
(* observed events, with any hidden steps between them.  What is observed, *)
(* what is hidden and why the check is sound: TraceFlink.tla.  The         *)
(* protocol's actions and the data events' steps come from TraceAligned    *)
(* (Act, Moves), the engine's trace module for this mode.                  *)
(***************************************************************************)
EXTENDS TraceAligned, TraceFlink

\* An observed event that is no step: nothing changes.
Observe == UNCHANGED vars

\* Operator t has taken its snapshot of c: aligned, it snapshots and acknowledges in one step
\* (Align; an ended task's final snapshot is acknowledged when it is taken, FinalAck).
Snapshotted(t, c) == t \in acked[c]

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
