------------------------ MODULE TraceFlinkAlternating ------------------------
(***************************************************************************)
(* Conformance of a Flink run with alternating checkpoints (aligned with   *)
(* an alignment timeout, the header's mode "alternating") to               *)
(* AlternatingCheckpoint.tla as it is: TLC accepts the trace iff some      *)
(* behaviour of the protocol shows the observed events, with any hidden    *)
(* steps between them.  What is observed, what is hidden and why the check *)
(* is sound: TraceFlink.tla.  Hidden besides the other modes' steps: the   *)
(* alignment timeout (TimeoutAlignment) and a barrier's prioritization     *)
(* (PrioritizeBarrier), and whether a barrier travels aligned or          *)
(* overtaking; a Flink run has no savepoints (Savepoints is empty).  The   *)
(* protocol's actions and the data events' steps come from                 *)
(* TraceAlternating (Act, Moves), the engine's trace module for this mode. *)
(***************************************************************************)
EXTENDS TraceAlternating, TraceFlink

\* An observed event that is no step: nothing changes, the alternating state neither.
Observe == UNCHANGED allVars

\* Operator t has taken its snapshot of c: it has acknowledged c (aligned: at the last
\* barrier; an ended task's final snapshot), or it handles c unaligned (it snapshot when it
\* switched or took c's first overtaking barrier).
Snapshotted(t, c) == t \in acked[c] \/ (handling[t] = c /\ HandlesUnaligned(t))

\* TimeoutAlignment(t, c) is needed only where MayMove lets c's barriers move at t.
MayTimeout(t, c) ==
    LET ev == Trace[i] IN
    /\ ev.event = "ProcessRecord" \/ (ev.event = "SnapshotState" /\ ev.task \in Operators)
       => t \in UpstreamTable[ev.task]
    /\ Named(ev) > 0 /\ ev.event # "InitializeState" => c <= Named(ev)

\* The hidden steps, of the kinds the rest of the trace needs (TraceFlink: May*).  An
\* alignment timeout of c, only where a barrier of c may move at t (MayMove's rules).
HiddenAction ==
    \/ \E c \in CheckpointIds : MayTrigger(c) /\ TriggerCheckpoint(c) /\ UNCHANGED alternatingVars
    \/ \E c \in CheckpointIds : MayComplete(c) /\ CompleteCheckpoint(c) /\ UNCHANGED alternatingVars
    \/ \E c \in CheckpointIds : MayAbort(c) /\ AbortCheckpoint(c) /\ UNCHANGED alternatingVars
    \/ MayFail /\ FailAndRestoreAlternating
    \/ \E t \in Tasks, c \in CheckpointIds : MayNotify(t, c) /\ NotifyCheckpointAborted(t, c)
    \/ \E t \in Operators : \E e \in InputsOf(t) :
           MayMove(t, e) /\ (\/ ReceiveBarrier(t, e) \/ ReceiveCancelBarrier(t, e)
                             \/ ReceiveEndOfPartition(t, e) \/ PrioritizeBarrier(t, e))
    \/ \E t \in Operators, c \in CheckpointIds :
           MayTimeout(t, c) /\ TimeoutAlignment(t, c)

\* Match the next event, take a hidden step, or (a dead end) print why not.
FlinkNext == \/ FlinkCoveredStep(Act, Observe, Snapshotted)
             \/ HiddenStep(Act, Observe, Snapshotted, HiddenAction)
             \/ FlinkUnexplained(Act, Observe, Snapshotted, HiddenAction)

FlinkBehavior == TraceAlternatingInit /\ [][FlinkNext]_altTraceVars
=============================================================================
