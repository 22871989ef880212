---------------------------- MODULE TraceAligned ----------------------------
(***************************************************************************)
(* Trace validation of aligned barriers (AlignedCheckpoint.tla): TLC       *)
(* follows a trace that the engine recorded and accepts it iff every event *)
(* is a step of the protocol. How: TraceValidation.tla; TraceUnaligned.tla *)
(* is the twin for the other mode. The dials have their correct            *)
(* definitions (TraceAligned.cfg): a trace must be a behaviour of the      *)
(* protocol as it is meant, not of one of its bugs.                        *)
(***************************************************************************)
EXTENDS AlignedCheckpoint, TraceValidation

ASSUME TraceHeader.mode = "aligned"

\* The aligned lifecycle dials, correct: an abandoned alignment unblocks every input, and a
\* subsuming barrier starts the newer checkpoint with only its own input arrived.
CorrectArrivedAfterAbort(blocked) == {}
CorrectArrivedOnSubsume(olderArrived, e) == {e}

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
TraceNext == TraceStep(Act) \/ PreludeStep(NotifyCheckpointAborted) \/ Unexplained(Act, NotifyCheckpointAborted)

TraceBehavior == TraceInit /\ [][TraceNext]_traceVars
=============================================================================
