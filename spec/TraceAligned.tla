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

\* Match the next event, or (no successor, so TLC reports a deadlock) explain why not.
TraceNext == TraceStep(Act) \/ Unexplained(Act)

TraceBehavior == TraceInit /\ [][TraceNext]_traceVars
=============================================================================
