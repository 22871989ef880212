---------------------------- MODULE TraceAligned ----------------------------
(***************************************************************************)
(* Trace validation of aligned barriers (AlignedCheckpoint.tla): TLC       *)
(* follows a trace that the engine recorded and accepts it iff every event *)
(* is a step of the protocol. How: TraceValidation.tla; TraceUnaligned.tla *)
(* is the twin for the other mode. No bad definition is substituted        *)
(* (TraceAligned.cfg): a trace must be a behaviour of the protocol as it   *)
(* is meant, not of one of its bugs.                                       *)
(***************************************************************************)
EXTENDS AlignedCheckpoint, TraceValidation

ASSUME TraceHeader.mode = "aligned"

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
\* Coverage (TraceValidation, "Coverage"): the branches of this protocol's actions, named from
\* the state before the step; the guards are those of the IF and CASE arms in AlignedCheckpoint.tla.
ProtocolBranch(ev) ==
    LET t == ev.task IN
    CASE ev.event = "InjectBarrier" -> "inject behind the records"
      [] ev.event = "ProcessRecord" ->
              IF t \in SinkTasks THEN "a sink writes it into its transaction" ELSE "process and forward"
      [] ev.event = "ReceiveBarrier" ->
              LET e == ev.channel
                  c == Head(chan[e]).ckpt
                  h == handling[t]
              IN CASE c = h /\ h # 0 ->
                        IF AllArrived(t, arrived[t] \cup {e}, endedInputs[t])
                          THEN "arrival completes the alignment (snapshot)" ELSE "arrival, alignment goes on"
                   [] c > current[t] /\ h # 0 ->
                        IF AllArrived(t, {e}, endedInputs[t])
                          THEN "subsumes the older alignment, completes at once"
                          ELSE "subsumes the older alignment, aligns"
                   [] c > current[t] ->
                        IF AllArrived(t, {e}, endedInputs[t])
                          THEN "first barrier completes at once (snapshot)" ELSE "first barrier starts the alignment"
                   [] OTHER -> "obsolete barrier dropped"
      [] ev.event = "NotifyCheckpointAborted" /\ Abandoned(ev) # <<>> -> "abandons the alignment"
      [] ev.event = "ReceiveCancelBarrier" ->
              LET c == Head(chan[ev.channel]).cancel IN
              IF c = handling[t] /\ c # 0 THEN "abandons the alignment"
              ELSE IF c > current[t] THEN "abandons a checkpoint it has not seen"
              ELSE "dropped (gone past it)"
      [] ev.event = "ReceiveEndOfPartition" ->
              LET x == endedInputs[t] \cup {ev.channel}
                  done == handling[t] # 0 /\ AllArrived(t, arrived[t], x)
                  ends == x = InputsOf(t)
              IN CASE done /\ ends -> "completes the alignment, the task ends"
                   [] done -> "completes the alignment"
                   [] ends -> IF \E d \in CheckpointIds : Live(d) /\ d > current[t]
                                THEN "the task ends, final state for live checkpoints" ELSE "the task ends"
                   [] OTHER -> "an input ends"
      [] OTHER -> SharedBranch(ev)

\* Every branch there is: the coverage report lists those no trace reached.
ProtocolActionBranches ==
    {<<"InjectBarrier", "inject behind the records">>}
    \cup {<<"ProcessRecord", b>> : b \in {"a sink writes it into its transaction", "process and forward"}}
    \cup {<<"ReceiveBarrier", b>> : b \in {"arrival completes the alignment (snapshot)", "arrival, alignment goes on",
              "subsumes the older alignment, completes at once", "subsumes the older alignment, aligns",
              "first barrier completes at once (snapshot)", "first barrier starts the alignment",
              "obsolete barrier dropped"}}
    \cup {<<"NotifyCheckpointAborted", "abandons the alignment">>}
    \cup {<<"ReceiveCancelBarrier", b>> : b \in {"abandons the alignment", "abandons a checkpoint it has not seen",
              "dropped (gone past it)"}}
    \cup {<<"ReceiveEndOfPartition", b>> : b \in {"completes the alignment, the task ends", "completes the alignment",
              "the task ends, final state for live checkpoints", "the task ends", "an input ends"}}

BranchTable == SharedBranchTable \cup PreludeBranchTable \cup ProtocolActionBranches
ASSUME PrintT(<<"TRACE-BRANCHES", BranchTable>>)

TraceNext == CoveredStep(Act, ProtocolBranch) \/ CoveredPrelude(NotifyCheckpointAborted)
             \/ Unexplained(Act, NotifyCheckpointAborted)

TraceBehavior == TraceInit /\ [][TraceNext]_traceVars
=============================================================================
