-------------------------- MODULE TraceAlternating --------------------------
(***************************************************************************)
(* Trace validation of alternating barriers (AlternatingCheckpoint.tla):   *)
(* TLC follows a trace that the engine recorded in --mode alternating and  *)
(* accepts it iff every event is a step of the protocol.  How:             *)
(* TraceValidation.tla; TraceAligned.tla and TraceUnaligned.tla are the    *)
(* twins for the other modes.  No bad definition is substituted           *)
(* (TraceAlternating.cfg): a trace must be a behaviour of the protocol as  *)
(* it is meant, not of one of its bugs.                                    *)
(*                                                                         *)
(* What the trace must carry besides the other modes' events: barriers in  *)
(* "channels" as {"ckpt": c, "aligned": b}; ReceiveBarrier with "aligned"  *)
(* (the received barrier's type); TimeoutAlignment events (task,           *)
(* checkpoint, "snapshot" if the timeout was active, "persisted" with what *)
(* it persisted per edge, "channels" after it); PrioritizeBarrier events  *)
(* (task, channel, checkpoint, "persisted", "channels"), and a switching   *)
(* ReceiveBarrier's "persisted" holds its inputs' prioritized records too; *)
(* TriggerCheckpoint with "savepoint": true for a savepoint.               *)
(***************************************************************************)
EXTENDS AlternatingCheckpoint, TraceValidation

ASSUME TraceHeader.mode = "alternating"

\* The savepoints: the checkpoints whose TriggerCheckpoint event says "savepoint": true; in a
\* Flink trace (TraceFlinkAlternating.tla), whose snapshots say "savepoint" or "stopWithSavepoint"
\* (Flink takes every savepoint aligned, without a timeout: CheckpointOptions#forConfig).
TraceSavepoints ==
    {Trace[j].checkpoint : j \in {j \in DOMAIN Trace :
        \/ /\ Trace[j].event = "TriggerCheckpoint"
           /\ "savepoint" \in DOMAIN Trace[j]
           /\ Trace[j].savepoint = TRUE
        \/ /\ Trace[j].event = "SnapshotState"
           /\ ("savepoint" \in DOMAIN Trace[j] \/ "stopWithSavepoint" \in DOMAIN Trace[j])}}

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
    CASE ev.event = "TriggerCheckpoint" -> TriggerCheckpoint(ev.checkpoint) /\ UNCHANGED alternatingVars
      [] ev.event = "EmitRecord" -> EmitRecord(ev.task) /\ UNCHANGED alternatingVars
      [] ev.event = "InjectBarrier" -> InjectBarrier(ev.task, ev.checkpoint)
      [] ev.event = "ProcessRecord" -> ProcessRecord(ev.task, ev.channel)
      [] ev.event = "ReceiveBarrier" -> ReceiveBarrier(ev.task, ev.channel)
      [] ev.event = "TimeoutAlignment" -> TimeoutAlignment(ev.task, ev.checkpoint)
      [] ev.event = "PrioritizeBarrier" -> PrioritizeBarrier(ev.task, ev.channel)
      [] ev.event = "CompleteCheckpoint" -> CompleteCheckpoint(ev.checkpoint) /\ UNCHANGED alternatingVars
      [] ev.event = "AbortCheckpoint" -> AbortCheckpoint(ev.checkpoint) /\ UNCHANGED alternatingVars
      [] ev.event = "FailAndRestore" -> FailAndRestoreAlternating
      \* The lifecycle, as in TraceAligned.tla (TraceValidation: NotifiedWithoutStep,
      \* PreludeStep, RunEnded).
      [] ev.event = "NotifyCheckpointAborted" ->
              IF Abandoned(ev) = <<>> THEN NotifiedWithoutStep(ev) /\ UNCHANGED alternatingVars
                                     ELSE NotifyCheckpointAborted(ev.task, ev.checkpoint)
      [] ev.event = "ReceiveCancelBarrier" -> ReceiveCancelBarrier(ev.task, ev.channel)
      [] ev.event = "SendEndOfPartition" -> SendEndOfPartition(ev.task) /\ UNCHANGED alternatingVars
      [] ev.event = "ReceiveEndOfPartition" -> ReceiveEndOfPartition(ev.task, ev.channel)
      [] ev.event = "NotifyCheckpointComplete" -> NotifyCheckpointComplete(ev.task, ev.checkpoint)
      [] ev.event = "RunEnded" -> RunEnded(ENABLED Moves) /\ UNCHANGED alternatingVars

altTraceVars == <<allVars, i>>

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

TraceAlternatingInit == AlternatingInit /\ i = 1

TraceBehavior == TraceAlternatingInit /\ [][TraceNext]_altTraceVars
=============================================================================
