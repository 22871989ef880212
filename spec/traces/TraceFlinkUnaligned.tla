------------------------- MODULE TraceFlinkUnaligned -------------------------
(***************************************************************************)
(* Conformance of a Flink run with unaligned checkpoints (the header's     *)
(* mode "unaligned") to UnalignedCheckpoint.tla with Flink's barriers      *)
(* (below): TLC accepts the trace iff some behaviour of the protocol shows *)
(* the observed events, with any hidden steps between them.  What is       *)
(* observed, what is hidden and why the check is sound: TraceFlink.tla.    *)
(* Flink's channel state (the records a barrier overtook) is not observed: *)
(* the spec's snapChan is hidden, checked only through what a restore      *)
(* gives back to the tasks.  The protocol's actions and the data events'   *)
(* steps come from TraceUnaligned (Act, Moves), the engine's trace module  *)
(* for this mode.                                                          *)
(*                                                                         *)
(* Flink's priority barrier overtakes only what is still in the sender's   *)
(* subpartition, and an ended source still injects the barrier of its      *)
(* final checkpoint (UnalignedCheckpoint.tla, "The barrier in flight" and  *)
(* "The final barrier of an ended source"): the .cfg turns both on.  A     *)
(* ProcessRecord event is then the spec's ProcessRecord or, for a record   *)
(* behind a barrier, ProcessRecordPastBarrier (the receiver took it ahead  *)
(* of the barrier: no hidden step decides it, the event does); the ended   *)
(* source's barrier is a hidden step, taken only where an operator's       *)
(* snapshot downstream of it is next.                                      *)
(***************************************************************************)
EXTENDS TraceUnaligned, TraceFlink

\* The options of the protocol that Flink's barriers need (TraceFlinkUnaligned.cfg).
TraceFlinkBarriers == TRUE

\* The step a Flink event is (TraceFlink's FlinkAct takes it for the events that are spec
\* actions): a record taken is the one at the channel's head or the first behind a barrier in
\* flight, taken ahead of it; every other event as the engine trace module's Act.
FlinkUnalignedAct(ev) ==
    IF ev.event = "ProcessRecord"
      THEN ProcessRecord(ev.task, ev.channel) \/ ProcessRecordPastBarrier(ev.task, ev.channel)
      ELSE Act(ev)

\* An ended source injects checkpoint c's barrier hidden only where the next event is the
\* snapshot of an operator downstream of it, of c or a later checkpoint.
MayInjectAfterEnd(s, c) ==
    LET ev == Trace[i] IN
    ev.event = "SnapshotState" /\ ev.task \in Operators /\ s \in UpstreamTable[ev.task] /\ c <= Named(ev)

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
    \/ \E s \in Sources, c \in CheckpointIds : MayInjectAfterEnd(s, c) /\ InjectBarrierAfterEnd(s, c)
    \/ \E t \in Tasks, c \in CheckpointIds : MayNotify(t, c) /\ NotifyCheckpointAborted(t, c)
    \/ \E t \in Operators : \E e \in InputsOf(t) :
           MayMove(t, e) /\ (ReceiveBarrier(t, e) \/ ReceiveCancelBarrier(t, e) \/ ReceiveEndOfPartition(t, e))

\* Match the next event, take a hidden step, or (a dead end) print why not.
FlinkNext == \/ FlinkCoveredStep(FlinkUnalignedAct, Observe, Snapshotted)
             \/ HiddenStep(FlinkUnalignedAct, Observe, Snapshotted, HiddenAction)
             \/ FlinkUnexplained(FlinkUnalignedAct, Observe, Snapshotted, HiddenAction)

FlinkBehavior == TraceInit /\ [][FlinkNext]_traceVars
=============================================================================
