----------------------------- MODULE TraceFlink -----------------------------
(***************************************************************************)
(* Conformance of a real Flink run: the part the four modes share.  TLC    *)
(* decides whether a trace that the conformance harness recorded from a    *)
(* Flink job (docs/conformance.md; the format is TraceValidation's NDJSON  *)
(* with the header's "runtime": "flink") is a behaviour of a protocol     *)
(* spec when only what Flink's user functions see is observed.            *)
(* TraceFlinkAligned.tla, TraceFlinkUnaligned.tla, TraceFlinkAtLeastOnce   *)
(* and TraceFlinkAlternating.tla EXTEND this module and their engine trace *)
(* module (TraceAligned.tla, ..., which EXTENDS the protocol as it is,     *)
(* nothing substituted).                                                   *)
(*                                                                         *)
(* Observed (each event carries the task's Flink attempt number, which     *)
(* must equal the spec's failures when the event is matched):              *)
(* - EmitRecord, ProcessRecord, SendEndOfPartition: the spec's actions of  *)
(*   those names, with TraceValidation's checks (the record at the         *)
(*   source's offset, the offset) and the record the step took (unaligned: *)
(*   the channel's head, or the first record behind a barrier in flight).  *)
(* - SnapshotState of a source that has not ended: the spec's             *)
(*   InjectBarrier (Flink broadcasts a source task's barrier and calls     *)
(*   SourceReader.snapshotState in one mailbox action, with no record in  *)
(*   between), checked against the offset it recorded.                     *)
(* - NotifyCheckpointAborted: the spec's NotifyCheckpointAborted where it  *)
(*   is enabled (the task learns of the abort now), else an observation;   *)
(*   both check that the coordinator aborted the checkpoint.               *)
(* - Every other event is an observation of the state, no step:            *)
(*   SnapshotState of an operator (or of an ended source: FLIP-147's final  *)
(*   checkpoints) says the task has taken its snapshot of the checkpoint   *)
(*   with exactly that bag (offset); NotifyCheckpointComplete that the     *)
(*   coordinator has completed it; InitializeState that the restored      *)
(*   state is the spec's (the restored checkpoint is `latest`, the offset  *)
(*   or processed bag the task's); FailTask only pins its attempt, and so  *)
(*   does StopWithSavepoint (the harness, once a job stopped with a        *)
(*   synchronous savepoint: to the spec that savepoint is a checkpoint,    *)
(*   completed and notified, and the stop a failure, whose hidden          *)
(*   FailAndRestore restores it when the next job's events come);          *)
(*   RunEnded with "finished"                                              *)
(*   that the spec has nothing left to move (TraceValidation's RunEnded).  *)
(* - With a two-phase-commit sink (header transactionalSink: the spec's    *)
(*   TransactionalSink): the sink's NotifyCheckpointComplete is the spec's *)
(*   action of that name (Flink's committer committed the transactions of *)
(*   that checkpoint), checked as the engine's: committed, output.  Any    *)
(*   event with "output" (the sink's snapshots, its commits, RunEnded)     *)
(*   says what a reader of the output sees after it: the spec's committed. *)
(*                                                                         *)
(* Hidden: every step no user function sees: TriggerCheckpoint,           *)
(* CompleteCheckpoint, AbortCheckpoint, FailAndRestore, the spec's        *)
(* NotifyCheckpointAborted where no notification shows it (a source's      *)
(* SkipBarrier), ReceiveBarrier, ReceiveCancelBarrier,                     *)
(* ReceiveEndOfPartition and, alternating, TimeoutAlignment and            *)
(* PrioritizeBarrier.  Between two                                         *)
(* observed events TLC may take any number of them (HiddenStep), so it     *)
(* searches every behaviour of the spec that shows what Flink showed.      *)
(*                                                                         *)
(* Why that is still sound: every step TLC takes, hidden or observed, is   *)
(* a step of the protocol's own actions (the mode module's HiddenAction    *)
(* and the engine trace module's Act), from its Init: a trace is accepted  *)
(* only if some behaviour of the protocol shows, in order, exactly the     *)
(* observed events with the recorded values.  Hiding makes the check       *)
(* weaker than the engine's (a wrong step Flink takes in a hidden place    *)
(* is caught only where it changes what is observed: a snapshot, an       *)
(* offset, a record at a channel's head, a restored state), never unsound. *)
(*                                                                         *)
(* Bounded search: the hidden steps would multiply the states (every      *)
(* interleaving of every barrier's way through the graph), so TLC takes    *)
(* them lazily and only of the kinds the remaining events need:            *)
(* - lazily: only in a state where the next observed event cannot be      *)
(*   matched (HiddenAllowed).  Complete for a correct run because a hidden *)
(*   step that changes what a task observes is followed, in that task's    *)
(*   own thread, by an observation (a barrier that snapshots: the task's   *)
(*   SnapshotState; a record behind a barrier: its ProcessRecord can match *)
(*   only after the barrier), and the others commute with the observed     *)
(*   step that comes first;                                                *)
(* - of the kinds needed: a checkpoint is triggered only up to the id the  *)
(*   next event names, completed only if a later event says it completed   *)
(*   (a notification, a restore from it) or at the run's end, never if it  *)
(*   is a savepoint, aborted only if a later event says it was aborted, no *)
(*   event names it at all or it is a savepoint (Flink completes one but   *)
(*   tells no task and never restores it: to the spec, an abort), and the  *)
(*   job fails only when the next event's attempt is newer; a barrier      *)
(*   moves only at (or upstream of) the task whose record or snapshot is   *)
(*   next, and only if its id is no newer than the one the next event      *)
(*   names (MayMove); a source skips a barrier hidden only before its own  *)
(*   next snapshot (MayNotify).                                            *)
(*                                                                         *)
(* Verdict: a trace is accepted iff TLC reaches a state past its last      *)
(* event (TraceNotFullyMatchedInv violated, exit 12).  Dead ends are       *)
(* normal here (a hidden step taken in the wrong place), so the deadlock   *)
(* check is off: a rejected trace ends TLC with no error (exit 0) after    *)
(* it printed, for each new furthest event, the line                       *)
(* <<"TRACE-UNEXPLAINED", i, ...>> of a dead end before event i (Explain)  *)
(* and <<"TRACE-STATE", i, ...>> with that state; the largest i is the     *)
(* first event no behaviour explains (TraceValidator reports it).          *)
(***************************************************************************)
EXTENDS TraceValidation

-----------------------------------------------------------------------------
(* The constants the trace does not give as the engine's do.               *)

\* The checkpoint id event ev names: its checkpoint, or the one it restored from (0: none).
Named(ev) == IF "checkpoint" \in DOMAIN ev THEN ev.checkpoint
             ELSE IF "restored" \in DOMAIN ev THEN ev.restored ELSE 0
\* Checkpoint ids: up to the largest any event names (ids no event names are triggered and
\* aborted hidden, as Flink's coordinator may do before a task sees them).
FlinkMaxCheckpoints == Max({0} \cup {Named(Trace[j]) : j \in DOMAIN Trace})
\* Failures: the largest attempt any event has (every failure restarts every task).
FlinkMaxFailures == Max({0} \cup {Trace[j].attempt : j \in {j \in DOMAIN Trace : "attempt" \in DOMAIN Trace[j]}})

-----------------------------------------------------------------------------
(* What the trace says of the hidden steps still to come (constant tables, *)
(* indexed by the next event i; TLC evaluates them once).                  *)

\* Every checkpoint id some event names.
NamedIds == {Named(Trace[j]) : j \in DOMAIN Trace} \ {0}
\* Per i: the ids an event at i or later says completed (a notification, a restore from it).
CompletedFrom == [k \in 1..(Len(Trace) + 1) |->
    {Named(Trace[j]) : j \in {j \in k..Len(Trace) : Trace[j].event \in {"NotifyCheckpointComplete", "InitializeState"}}}]
\* Per i: the ids an event at i or later says were aborted.
AbortedFrom == [k \in 1..(Len(Trace) + 1) |->
    {Trace[j].checkpoint : j \in {j \in k..Len(Trace) : Trace[j].event = "NotifyCheckpointAborted"}}]
\* The savepoints: ids whose snapshots say "savepoint": TRUE.  Flink completes a savepoint but
\* keeps it out of its completed-checkpoint store (a failover never restores it) and tells no
\* task (CheckpointCoordinator#completePendingCheckpoint): to the spec, a checkpoint its
\* coordinator aborts, hidden, with no notification.
SavepointIds == {Trace[j].checkpoint : j \in {j \in DOMAIN Trace :
                    "savepoint" \in DOMAIN Trace[j] /\ Trace[j].event = "SnapshotState"}}

\* The tasks upstream of each task (a record or barrier reaches it from them), and itself.
UpstreamTable == [t \in Tasks |-> {t} \cup {u \in Tasks : t \in Downstream(u, Cardinality(Tasks))}]

\* The hidden steps of each kind the rest of the trace needs (the module comment).
MayTrigger(c) == c <= Named(Trace[i])
\* A checkpoint a later event says completed, once the next event names it or a newer one (its
\* notification, a restore from it, a snapshot of a newer one that needs its slot) or says an
\* older one was aborted (completing c subsumes older pending ones).
\* Never a savepoint: Flink never restores one on failover, nor notifies its completion.
MayComplete(c) == /\ c \notin SavepointIds
                  /\ \/ Trace[i].event = "RunEnded"
                     \/ /\ c \in CompletedFrom[i]
                        /\ Named(Trace[i]) >= c \/ Trace[i].event = "NotifyCheckpointAborted"
\* A checkpoint a later event says was aborted, that no event names, or a savepoint, once the
\* next event names it or a newer one (its notification, a snapshot of a newer one that needs
\* its slot).
MayAbort(c) == \/ Trace[i].event = "RunEnded"
               \/ (c \in AbortedFrom[i] \/ c \notin NamedIds \/ c \in SavepointIds) /\ Named(Trace[i]) >= c
MayFail == Trace[i].attempt > failures
\* The spec's NotifyCheckpointAborted(t, c) of a task whose notification Flink showed is that
\* event's step (FlinkAct); hidden, only where nothing else would show it: a source skipping
\* the barrier of an aborted checkpoint before its next snapshot, and any at the run's end.
MayNotify(t, c) == \/ Trace[i].event = "RunEnded"
                   \/ Trace[i].event = "SnapshotState" /\ Trace[i].task = t /\ t \in Sources
                      /\ c < Trace[i].checkpoint
\* Operator t may take a message from input e hidden: t is (upstream of) the task whose record
\* or snapshot is next, if the next event is one, and a barrier at e's head is of a checkpoint
\* no newer than the one the next event names, if it names one (a restore names none: the
\* barriers before a failure are lost with it).
MayMove(t, e) ==
    LET ev == Trace[i] IN
    /\ ev.event = "ProcessRecord" \/ (ev.event = "SnapshotState" /\ ev.task \in Operators)
       => t \in UpstreamTable[ev.task]
    /\ chan[e] # <<>> /\ IsBarrier(Head(chan[e])) /\ Named(ev) > 0 /\ ev.event # "InitializeState"
       => Head(chan[e]).ckpt <= Named(ev)

-----------------------------------------------------------------------------
(* The observed events.                                                    *)

Observed == {"EmitRecord", "ProcessRecord", "SnapshotState", "NotifyCheckpointComplete",
             "NotifyCheckpointAborted", "InitializeState", "FailTask", "SendEndOfPartition", "RunEnded",
             "StopWithSavepoint"}

\* The event's parameters name things the spec has (else TLC would fail evaluating the step).
FlinkWellFormed(ev) ==
    /\ ev.event \in Observed
    /\ "attempt" \in DOMAIN ev /\ ev.attempt \in 0..MaxFailures
    /\ CASE ev.event \in {"EmitRecord", "SendEndOfPartition"} -> ev.task \in Sources
         [] ev.event = "ProcessRecord" -> ev.task \in Operators /\ ev.channel \in InputsOf(ev.task)
         [] ev.event \in {"SnapshotState", "NotifyCheckpointComplete", "NotifyCheckpointAborted"} ->
                 ev.task \in Tasks /\ ev.checkpoint \in CheckpointIds
         [] ev.event = "InitializeState" -> ev.task \in Tasks /\ ev.restored \in 0..MaxCheckpointId
         [] OTHER -> TRUE

\* A source's snapshot that is the spec's InjectBarrier: the source has not ended.
Injects(ev) == ev.event = "SnapshotState" /\ ev.task \in Sources /\ ev.task \notin endedSources

\* A two-phase-commit sink's commit (SinkTasks is empty without TransactionalSink): the spec's
\* NotifyCheckpointComplete(t, c), the engine trace module's Act of that event.
Commits(ev) == ev.event = "NotifyCheckpointComplete" /\ ev.task \in SinkTasks

\* The engine trace event whose action (the engine trace module's Act) event ev is: the
\* same for the data events and RunEnded, InjectBarrier for a snapshot that injects.
\* Observations have none (ObservationOnly).
AsSpecEvent(ev) == IF Injects(ev) THEN [event |-> "InjectBarrier", task |-> ev.task, checkpoint |-> ev.checkpoint]
                   ELSE ev
IsSpecAction(ev) == ev.event \in {"EmitRecord", "ProcessRecord", "SendEndOfPartition"} \/ Injects(ev)
                    \/ (ev.event = "RunEnded" /\ ev.finished) \/ Commits(ev)

\* What each event records besides its parameters: the names of its checks.
FlinkEventCheckNames(ev) ==
    CASE Commits(ev) -> <<"attempt", "checkpoint", "committed">>
      [] ev.event = "EmitRecord" -> <<"attempt", "record", "offset">>
      [] ev.event = "ProcessRecord" -> <<"attempt", "record">>
      [] ev.event = "SendEndOfPartition" -> <<"attempt", "offset">>
      [] ev.event = "SnapshotState" -> IF ev.task \in Sources THEN <<"attempt", "offset">> ELSE <<"attempt", "snapshot">>
      [] ev.event \in {"NotifyCheckpointComplete", "NotifyCheckpointAborted"} -> <<"attempt", "checkpoint">>
      [] ev.event = "InitializeState" ->
              IF ev.task \in Sources THEN <<"attempt", "restored", "offset">> ELSE <<"attempt", "restored", "processed">>
      [] ev.event = "RunEnded" -> <<"attempt", "finished">>
      [] OTHER -> <<"attempt">>
\* ... and "output" of an event that has it (a two-phase-commit sink's snapshot or commit,
\* RunEnded).
FlinkCheckNames(ev) == IF "output" \in DOMAIN ev THEN FlinkEventCheckNames(ev) \o <<"output">>
                       ELSE FlinkEventCheckNames(ev)

\* Check k of event ev (Snapshotted(t, c): the mode's "t has taken its snapshot of c").
\* - attempt: the task runs in the spec's current attempt.
\* - SnapshotState: a source recorded that offset in c (InjectBarrier's, or its final offset
\*   if it has ended) and acknowledged c; an operator has taken its snapshot of c, that bag.
\* - InitializeState: the restored checkpoint is the latest completed one (0: none), and the
\*   task starts from the spec's state (FailAndRestore's offsets and bags; Init's if none).
\* - the notifications: the coordinator completed / aborted c.
\* - output: the spec's committed output after the step is the one recorded; committed (a
\*   commit): as the engine's (TraceValidation's Check), something is committed iff the spec's
\*   sink had a transaction pending up to c.
FlinkCheck(ev, k, Snapshotted(_, _)) ==
    CASE k = "attempt" -> failures = ev.attempt
      [] k \in {"output", "committed"} -> Check(ev, k)
      \* The step took that record (at the channel's head; in unaligned mode it may be the first
      \* behind a barrier in flight: TraceFlinkUnaligned.tla).
      [] ev.event = "ProcessRecord" /\ k = "record" -> processed'[ev.task] = processed[ev.task] (+) SetToBag({ev.record})
      [] ev.event \in {"EmitRecord", "ProcessRecord", "SendEndOfPartition", "RunEnded"} -> Check(ev, k)
      [] ev.event = "SnapshotState" /\ k = "offset" ->
              snapOffset'[ev.checkpoint][ev.task] = ev.offset /\ ev.task \in acked'[ev.checkpoint]
      [] ev.event = "SnapshotState" /\ k = "snapshot" ->
              Snapshotted(ev.task, ev.checkpoint) /\ snapProcessed[ev.checkpoint][ev.task] = FunOf(ev.snapshot)
      [] ev.event = "InitializeState" /\ k = "restored" -> latest = ev.restored
      [] ev.event = "InitializeState" /\ k = "offset" -> offset[ev.task] = ev.offset
      [] ev.event = "InitializeState" /\ k = "processed" -> processed[ev.task] = FunOf(ev.processed)
      [] ev.event = "NotifyCheckpointComplete" /\ k = "checkpoint" -> ckpt[ev.checkpoint] = "completed"
      [] ev.event = "NotifyCheckpointAborted" /\ k = "checkpoint" -> ckpt[ev.checkpoint] = "aborted"

FlinkMatches(ev, Snapshotted(_, _)) ==
    \A j \in DOMAIN FlinkCheckNames(ev) : FlinkCheck(ev, FlinkCheckNames(ev)[j], Snapshotted)

\* The step event ev is: its spec action (Act, the engine trace module's) or, for an
\* observation, a step that changes nothing (Observe: the mode's variables unchanged).  A
\* notification of an abort is the spec's NotifyCheckpointAborted where it is enabled (the
\* task learns of it now: an operator abandons the checkpoint, a source skips its barrier;
\* Flink's task remembers the abort and drops the checkpoint's barrier), else nothing (the
\* task had gone past it).  Taking it whenever it can keeps the search from doubling at
\* every notification.
FlinkAct(ev, Act(_), Observe) ==
    IF IsSpecAction(ev) THEN Act(AsSpecEvent(ev))
    ELSE IF ev.event = "NotifyCheckpointAborted"
      THEN LET learn == Act([event |-> "NotifyCheckpointAborted", task |-> ev.task, checkpoint |-> ev.checkpoint,
                             abandoned |-> <<ev.checkpoint>>])
           IN IF ENABLED learn THEN learn ELSE Observe
    ELSE Observe

\* The step that matches event i.
FlinkStep(Act(_), Observe, Snapshotted(_, _)) ==
    /\ i <= Len(Trace)
    /\ FlinkWellFormed(Trace[i])
    /\ FlinkAct(Trace[i], Act, Observe)
    /\ FlinkMatches(Trace[i], Snapshotted)
    /\ i' = i + 1

\* A hidden step (HiddenAction, the mode's), only where event i cannot be matched.
HiddenStep(Act(_), Observe, Snapshotted(_, _), HiddenAction) ==
    /\ i <= Len(Trace)
    /\ FlinkWellFormed(Trace[i])
    /\ ~ENABLED FlinkStep(Act, Observe, Snapshotted)
    /\ HiddenAction
    /\ UNCHANGED i

-----------------------------------------------------------------------------
(* Rejection and coverage.                                                 *)

\* Why event i is not explained in this state: as TraceValidation's Explain, one line the
\* validator parses (an observation is always "enabled": its failed checks say why).
FlinkExplain(Act(_), Observe, Snapshotted(_, _)) ==
    LET ev == Trace[i]
        ok == FlinkWellFormed(ev)
        enabled == ok /\ ENABLED FlinkAct(ev, Act, Observe)
    IN <<"TRACE-UNEXPLAINED", i, ev.event, ok, enabled,
         IF enabled THEN {FlinkCheckNames(ev)[j] : j \in {j \in DOMAIN FlinkCheckNames(ev) :
                             ~ENABLED (FlinkAct(ev, Act, Observe) /\ FlinkCheck(ev, FlinkCheckNames(ev)[j], Snapshotted))}}
                    ELSE {}>>

\* The spec's state, printed beside the explanation (TLC gives no error trace: no error).
StateRecord == [offset |-> offset, chan |-> chan, processed |-> processed, handling |-> handling,
                arrived |-> arrived, ckpt |-> ckpt, acked |-> acked, latest |-> latest,
                failures |-> failures, current |-> current, endedInputs |-> endedInputs,
                endedSources |-> endedSources, committed |-> committed, txnPending |-> txnPending]

\* TLC register 1: the furthest event a dead end has been printed for.
ASSUME TLCSet(1, 0)

\* A dead end before event i, further than any printed so far: print why (no successor).
FlinkUnexplained(Act(_), Observe, Snapshotted(_, _), HiddenAction) ==
    /\ i <= Len(Trace)
    /\ i > TLCGet(1)
    /\ ~ENABLED FlinkStep(Act, Observe, Snapshotted)
    /\ ~ENABLED HiddenStep(Act, Observe, Snapshotted, HiddenAction)
    /\ TLCSet(1, i)
    /\ PrintT(FlinkExplain(Act, Observe, Snapshotted))
    /\ PrintT(<<"TRACE-STATE", i, StateRecord>>)
    /\ FALSE

\* The branch of each matched event (the coverage report's TRACE-STEP lines).
FlinkBranch(ev) ==
    CASE Injects(ev) -> "a source injects its barrier"
      [] Commits(ev) -> "a sink commits"
      [] ev.event = "SnapshotState" /\ ev.task \in Sources -> "an ended source's final offset"
      [] ev.event = "SnapshotState" -> "an operator's snapshot"
      [] ev.event = "InitializeState" -> IF ev.restored = 0 THEN "fresh start" ELSE "restored"
      [] ev.event = "RunEnded" -> IF ev.finished THEN "finished" ELSE "stopped, not finished"
      [] OTHER -> "step"

\* FlinkStep, printing the branch it took.
FlinkCoveredStep(Act(_), Observe, Snapshotted(_, _)) ==
    FlinkStep(Act, Observe, Snapshotted) /\ PrintT(<<"TRACE-STEP", i, Trace[i].event, FlinkBranch(Trace[i])>>)

=============================================================================
