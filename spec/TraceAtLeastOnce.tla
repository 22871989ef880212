-------------------------- MODULE TraceAtLeastOnce --------------------------
(***************************************************************************)
(* Trace validation of at-least-once barriers (AtLeastOnceCheckpoint.tla,  *)
(* the engine's BarrierMode at-least-once, Flink's CheckpointBarrierTracker): *)
(* TLC follows a trace that the engine recorded and accepts it iff every   *)
(* event is a step of the protocol.  How: TraceValidation.tla; the twins   *)
(* for the other modes are TraceAligned.tla and TraceUnaligned.tla.  The   *)
(* dials have their correct definitions (TraceAtLeastOnce.cfg).            *)
(*                                                                         *)
(* The spec's tracker handles one checkpoint per task at a time (a newer   *)
(* barrier subsumes the older one); the engine's, like Flink's, tracks     *)
(* several.  They agree while every channel carries the barriers in id     *)
(* order and each checkpoint's barrier reaches every input: one checkpoint *)
(* in flight.  Where they part (docs/trace-validation.md, "The lifecycle"), *)
(* the trace is rejected, as it should be: the spec does not say what the  *)
(* engine did.                                                             *)
(***************************************************************************)
EXTENDS AtLeastOnceCheckpoint, TraceValidation

ASSUME TraceHeader.mode = "at-least-once"

\* What RunEnded (TraceValidation) requires the spec cannot do either when the engine stopped.
Moves ==
    \/ \E c \in CheckpointIds : CompleteCheckpoint(c)
    \/ \E s \in Sources : EmitRecord(s) \/ SendEndOfPartition(s)
    \/ \E t \in Operators : \/ handling[t] # 0 /\ NotifyCheckpointAborted(t, handling[t])
                           \/ \E e \in InputsOf(t) : \/ ProcessRecord(t, e) \/ ReceiveBarrier(t, e)
                                                   \/ ReceiveCancelBarrier(t, e)
                                                   \/ ReceiveEndOfPartition(t, e)
    \/ SinkCommitDue

\* The action event ev names, with its parameters.  Its checks are in TraceValidation.
Act(ev) ==
    CASE ev.event = "TriggerCheckpoint" -> TriggerCheckpoint(ev.checkpoint)
      [] ev.event = "EmitRecord" -> EmitRecord(ev.task)
      [] ev.event = "InjectBarrier" -> InjectBarrier(ev.task, ev.checkpoint)
      [] ev.event = "ProcessRecord" -> ProcessRecord(ev.task, ev.channel)
      [] ev.event = "ReceiveBarrier" -> ReceiveBarrier(ev.task, ev.channel)
      [] ev.event = "CompleteCheckpoint" -> CompleteCheckpoint(ev.checkpoint)
      [] ev.event = "AbortCheckpoint" -> AbortCheckpoint(ev.checkpoint)
      [] ev.event = "FailAndRestore" -> FailAndRestore
      [] ev.event = "NotifyCheckpointAborted" ->
              IF Abandoned(ev) = <<>> THEN NotifiedWithoutStep(ev)
                                     ELSE NotifyCheckpointAborted(ev.task, ev.checkpoint)
      [] ev.event = "ReceiveCancelBarrier" -> ReceiveCancelBarrier(ev.task, ev.channel)
      [] ev.event = "SendEndOfPartition" -> SendEndOfPartition(ev.task)
      [] ev.event = "ReceiveEndOfPartition" -> ReceiveEndOfPartition(ev.task, ev.channel)
      [] ev.event = "NotifyCheckpointComplete" -> NotifyCheckpointComplete(ev.task, ev.checkpoint)
      [] ev.event = "RunEnded" -> RunEnded(ENABLED Moves)

\* Match the next event (after the spec steps its engine step includes first, PreludeStep), or
\* (no successor, so TLC reports a deadlock) explain why not.
\* Coverage (TraceValidation, "Coverage"): this mode's own actions are counted, not split into
\* branches (the aligned and unaligned trace modules name theirs).
ProtocolBranch(ev) == SharedBranch(ev)
ProtocolActionBranches == {}

BranchTable == SharedBranchTable \cup PreludeBranchTable \cup ProtocolActionBranches
ASSUME PrintT(<<"TRACE-BRANCHES", BranchTable>>)

TraceNext == CoveredStep(Act, ProtocolBranch) \/ CoveredPrelude(NotifyCheckpointAborted)
             \/ Unexplained(Act, NotifyCheckpointAborted)

TraceBehavior == TraceInit /\ [][TraceNext]_traceVars
=============================================================================
