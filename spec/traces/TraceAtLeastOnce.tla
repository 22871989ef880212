-------------------------- MODULE TraceAtLeastOnce --------------------------
(***************************************************************************)
(* Trace validation of at-least-once barriers (AtLeastOnceCheckpoint.tla,  *)
(* the engine's BarrierMode at-least-once, Flink's CheckpointBarrierTracker): *)
(* TLC follows a trace that the engine recorded and accepts it iff every   *)
(* event is a step of the protocol.  How: TraceValidation.tla; the twins   *)
(* for the other modes are TraceAligned.tla and TraceUnaligned.tla.  The   *)
(* protocol is checked as it is, with no bad definition substituted.       *)
(*                                                                         *)
(* The spec's tracker follows several checkpoints per task, as the        *)
(* engine's (AtLeastOnceTracking) and Flink's CheckpointBarrierTracker do: *)
(* a run in which a newer checkpoint's barrier reaches a task before the   *)
(* last barrier of an older one it tracks (a source skipped an aborted     *)
(* checkpoint; concurrent checkpoints) is a behaviour of the spec too.     *)
(* The tracker's variable olderTracked (AtLeastOnceCheckpoint.tla) is not  *)
(* one of Dataflow's: the shared steps leave it unchanged (the            *)
(* ...AtLeastOnce steps), a failure clears it.                             *)
(***************************************************************************)
EXTENDS AtLeastOnceCheckpoint, TraceValidation

ASSUME TraceHeader.mode = "at-least-once"

\* What RunEnded (TraceValidation) requires the spec cannot do either when the engine stopped.
Moves ==
    \/ \E c \in CheckpointIds : CompleteCheckpointAtLeastOnce(c)
    \/ \E s \in Sources : EmitRecordAtLeastOnce(s) \/ SendEndOfPartitionAtLeastOnce(s)
    \* news of the abort of any checkpoint t tracks (the engine notifies every task of every abort)
    \/ \E t \in Operators : \/ \E c \in DOMAIN Tracked(t) : NotifyCheckpointAborted(t, c)
                           \/ \E e \in InputsOf(t) : \/ ProcessRecord(t, e) \/ ReceiveBarrier(t, e)
                                                   \/ ReceiveCancelBarrier(t, e)
                                                   \/ ReceiveEndOfPartition(t, e)
    \/ SinkCommitDue

\* A notification that changed nothing in the engine (TraceValidation's NotifiedWithoutStep):
\* the engine's tracker does not hold c, so the spec's must not track it either.
NotifiedWithoutStepAtLeastOnce(ev) ==
    /\ NotifiedWithoutStep(ev)
    /\ ev.task \in Operators => ev.checkpoint \notin DOMAIN Tracked(ev.task)
    /\ UNCHANGED olderTracked

\* The action event ev names, with its parameters.  Its checks are in TraceValidation.
Act(ev) ==
    CASE ev.event = "TriggerCheckpoint" -> TriggerCheckpointAtLeastOnce(ev.checkpoint)
      [] ev.event = "EmitRecord" -> EmitRecordAtLeastOnce(ev.task)
      [] ev.event = "InjectBarrier" -> InjectBarrier(ev.task, ev.checkpoint)
      [] ev.event = "ProcessRecord" -> ProcessRecord(ev.task, ev.channel)
      [] ev.event = "ReceiveBarrier" -> ReceiveBarrier(ev.task, ev.channel)
      [] ev.event = "CompleteCheckpoint" -> CompleteCheckpointAtLeastOnce(ev.checkpoint)
      [] ev.event = "AbortCheckpoint" -> AbortCheckpointAtLeastOnce(ev.checkpoint)
      [] ev.event = "FailAndRestore" -> FailAndRestoreAtLeastOnce
      [] ev.event = "NotifyCheckpointAborted" ->
              IF Abandoned(ev) = <<>> THEN NotifiedWithoutStepAtLeastOnce(ev)
                                     ELSE NotifyCheckpointAborted(ev.task, ev.checkpoint)
      [] ev.event = "ReceiveCancelBarrier" -> ReceiveCancelBarrier(ev.task, ev.channel)
      [] ev.event = "SendEndOfPartition" -> SendEndOfPartitionAtLeastOnce(ev.task)
      [] ev.event = "ReceiveEndOfPartition" -> ReceiveEndOfPartition(ev.task, ev.channel)
      [] ev.event = "NotifyCheckpointComplete" -> NotifyCheckpointCompleteAtLeastOnce(ev.task, ev.checkpoint)
      [] ev.event = "RunEnded" -> RunEnded(ENABLED Moves) /\ UNCHANGED olderTracked

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

TraceBehavior == TraceInit /\ olderTracked = [t \in Operators |-> NothingTracked]
                 /\ [][TraceNext]_<<traceVars, olderTracked>>
=============================================================================
