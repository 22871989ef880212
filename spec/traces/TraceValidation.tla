--------------------------- MODULE TraceValidation ---------------------------
(***************************************************************************)
(* Trace validation, the part both protocols share: how a recorded trace  *)
(* of the Java engine is read, and what each of its events claims about    *)
(* the state after it.                                                     *)
(*                                                                         *)
(* Place in the whole: the engine's TraceRecorder writes a trace (NDJSON,  *)
(* one event per spec action); dev.consistentcut.trace.TraceToTla turns it *)
(* into the module TraceData (TraceHeader, the topology; Trace, the        *)
(* events).  TraceAligned.tla and TraceUnaligned.tla EXTEND this module    *)
(* and their protocol's module, and let TLC follow the trace: event i      *)
(* may only be matched by the action it names, with its parameters, and    *)
(* only if the recorded values agree with the spec's state (Check).  The   *)
(* trace is accepted iff TLC reaches its end (TraceNotFullyMatchedInv is   *)
(* then violated); otherwise TLC stops in the state before the first event *)
(* that no action explains (a deadlock) after printing Explain.            *)
(*                                                                         *)
(* Maps in the trace (channel contents by edge, offsets by source, bags    *)
(* by operator) are sequences of <<key, value>> pairs: JSON cannot key a   *)
(* map by an edge, and TLA+ record fields cannot be task ids.              *)
(***************************************************************************)
EXTENDS Dataflow, TraceData, TLC

Range(s) == {s[j] : j \in DOMAIN s}
\* The function a sequence of <<key, value>> pairs describes.
FunOf(pairs) == [k \in {p[1] : p \in Range(pairs)} |-> (CHOOSE p \in Range(pairs) : p[1] = k)[2]]
\* Per operator, the bag a sequence of <<record, count>> pairs describes.
BagsOf(pairs) == [t \in DOMAIN FunOf(pairs) |-> FunOf(FunOf(pairs)[t])]
Max(S) == CHOOSE m \in S : \A n \in S : n <= m
Min(S) == CHOOSE m \in S : \A n \in S : m <= n
\* What event ev says its barrier persisted on edge d (nothing if it does not say).
PersistedOn(ev, d) == IF "persisted" \in DOMAIN ev /\ d \in DOMAIN FunOf(ev.persisted)
                        THEN FunOf(ev.persisted)[d] ELSE <<>>
\* snapChan of checkpoint c grew on every edge by exactly what event ev says it persisted there.
PersistedAsRecorded(ev, c) == snapChan'[c] = [d \in Edges |-> snapChan[c][d] \o PersistedOn(ev, d)]

-----------------------------------------------------------------------------
(* The constants of Dataflow, as the trace's header records them (the     *)
(* .cfg files substitute them: Sources <- TraceSources, ...).              *)

TraceSources == Range(TraceHeader.sources)
TraceOperators == Range(TraceHeader.operators)
TraceEdges == Range(TraceHeader.edges)
TraceRecordsPerSource == Max({p[2] : p \in Range(TraceHeader.records)})
TraceCapacity == TraceHeader.capacity
TraceMaxConcurrent == TraceHeader.maxConcurrent
\* Checkpoint ids and failures: as many as the trace uses, so none is refused for lack of budget.
TraceMaxCheckpoints ==
    Max({0} \cup {Trace[j].checkpoint : j \in {j \in DOMAIN Trace : Trace[j].event = "TriggerCheckpoint"}})
TraceMaxFailures == Cardinality({j \in DOMAIN Trace : Trace[j].event = "FailAndRestore"})
TraceAbortEnabled == TRUE
\* The lifecycle options the run used (off when the header has no such field).
TraceAbortsReachTasks == "abortsReachTasks" \in DOMAIN TraceHeader /\ TraceHeader.abortsReachTasks
TraceEndOfInput == "endOfInput" \in DOMAIN TraceHeader /\ TraceHeader.endOfInput
\* The job's sinks are two-phase-commit sinks (TransactionalFileSink); off when the header
\* has no such field.
TraceTransactionalSink == "transactionalSink" \in DOMAIN TraceHeader /\ TraceHeader.transactionalSink

\* <<node, source>> -> for each offset of that source, the out-edges of node its record takes.
RouteFun == FunOf(TraceHeader.routes)
\* Route(n, r) as the engine's partitioners computed it for every node and record.
TraceRoute(n, r) ==
    IF <<n, r.src>> \in DOMAIN RouteFun /\ r.off < Len(RouteFun[<<n, r.src>>])
      THEN Range(RouteFun[<<n, r.src>>][r.off + 1])
      ELSE {}

-----------------------------------------------------------------------------
(* Events.                                                                 *)

VARIABLE i   \* the next event of the trace to match

traceVars == <<vars, i>>

\* The checkpoints the engine's step abandoned, in order: a cancellation barrier of each went on
\* every output (NotifyCheckpointAborted, ReceiveBarrier, ReceiveCancelBarrier record it).
Abandoned(ev) == IF "abandoned" \in DOMAIN ev THEN ev.abandoned ELSE <<>>

\* The event's parameters name things the spec has (else TLC would fail evaluating the action).
WellFormed(ev) ==
    CASE ev.event \in {"TriggerCheckpoint", "CompleteCheckpoint", "AbortCheckpoint"} ->
              ev.checkpoint \in CheckpointIds
      [] ev.event = "EmitRecord" -> ev.task \in Sources
      [] ev.event = "InjectBarrier" -> ev.task \in Sources /\ ev.checkpoint \in CheckpointIds
      [] ev.event \in {"ProcessRecord", "ReceiveBarrier"} ->
              ev.task \in Operators /\ ev.channel \in InputsOf(ev.task)
              /\ Range(Abandoned(ev)) \subseteq CheckpointIds
              \* (a barrier of a checkpoint never triggered: rejected here, not an evaluation error;
              \* found by the trace mutants)
              /\ (ev.event = "ReceiveBarrier" => ev.checkpoint \in CheckpointIds)
      [] ev.event = "ReceiveCancelBarrier" ->
              ev.task \in Operators /\ ev.channel \in InputsOf(ev.task)
              /\ ev.checkpoint \in CheckpointIds /\ Range(Abandoned(ev)) \subseteq CheckpointIds
      [] ev.event = "ReceiveEndOfPartition" -> ev.task \in Operators /\ ev.channel \in InputsOf(ev.task)
              /\ ("snapshot" \in DOMAIN ev => ev.checkpoint \in CheckpointIds)
      [] ev.event = "NotifyCheckpointAborted" -> ev.task \in Operators /\ ev.checkpoint \in CheckpointIds
              /\ Range(Abandoned(ev)) \subseteq CheckpointIds
      [] ev.event = "SendEndOfPartition" -> ev.task \in Sources
      [] ev.event \in {"FailAndRestore", "RunEnded"} -> TRUE
      \* A transactional sink, a checkpoint.
      [] ev.event = "NotifyCheckpointComplete" -> ev.task \in SinkTasks /\ ev.checkpoint \in CheckpointIds
      \* Alternating mode only (TraceAlternating.tla): operator task, checkpoint.
      [] ev.event = "TimeoutAlignment" -> ev.task \in Operators /\ ev.checkpoint \in CheckpointIds
      [] ev.event = "PrioritizeBarrier" ->
              ev.task \in Operators /\ ev.channel \in InputsOf(ev.task) /\ ev.checkpoint \in CheckpointIds
      [] OTHER -> FALSE

\* What each event records besides its parameters: the names of its checks (its JSON fields).
CheckNames(ev) ==
    CASE ev.event = "EmitRecord" -> <<"record", "offset", "channels">>
      [] ev.event = "InjectBarrier" -> <<"offset", "persisted", "channels">>
      [] ev.event = "ProcessRecord" -> <<"record", "persisted", "channels">>
      \* Alternating mode: the received barrier's alignment type too (field "aligned").
      \* A sink's events (and restores) with a transactional sink: the committed output too ("output").
      [] ev.event = "ReceiveBarrier" ->
              IF TraceHeader.mode = "alternating"
                THEN <<"checkpoint", "aligned", "snapshot", "persisted", "output", "channels">>
                ELSE <<"checkpoint", "snapshot", "persisted", "output", "channels">>
      [] ev.event = "TimeoutAlignment" -> <<"snapshot", "persisted", "channels">>
      [] ev.event = "PrioritizeBarrier" -> <<"checkpoint", "persisted", "channels">>
      [] ev.event = "CompleteCheckpoint" -> <<"offsets", "processed", "channelState">>
      [] ev.event = "FailAndRestore" -> <<"restored", "offsets", "processed", "output", "channels">>
      [] ev.event = "NotifyCheckpointComplete" -> <<"committed", "output", "channels">>
      [] ev.event = "NotifyCheckpointAborted" -> <<"remembered", "channels">>
      [] ev.event = "ReceiveCancelBarrier" -> <<"checkpoint", "channels">>
      [] ev.event = "SendEndOfPartition" -> <<"offset", "channels">>
      [] ev.event = "ReceiveEndOfPartition" -> <<"ended", "snapshot", "output", "channels">>
      [] ev.event = "RunEnded" -> <<"finished">>
      [] OTHER -> <<>>

\* Check k of event ev: the recorded value agrees with the spec's (before or after the step).
\* An event without "channels" (a causal trace's task, which cannot see the other end of its
\* channels race with it) leaves them to the spec: the receiver's events check what
\* it takes (Head(chan[e]) is the record or barrier it names).
Check(ev, k) ==
    CASE k = "channels" -> "channels" \in DOMAIN ev => \A p \in Range(ev.channels) : chan'[p[1]] = p[2]
      \* What an external reader sees after the step is the spec's committed output (an
      \* event without the field: a job without a transactional sink, or not a sink's step).
      [] k = "output" -> "output" \in DOMAIN ev => committed' = FunOf(ev.output)
      \* The engine's sink committed something iff the spec's has a transaction pending up to c.
      [] ev.event = "NotifyCheckpointComplete" /\ k = "committed" ->
              (ev.committed # <<>>) = (\E d \in txnPending[ev.task] : d <= ev.checkpoint)
      [] ev.event = "EmitRecord" /\ k = "record" -> ev.record = [src |-> ev.task, off |-> offset[ev.task]]
      [] ev.event = "EmitRecord" /\ k = "offset" -> offset'[ev.task] = ev.offset
      [] ev.event = "InjectBarrier" /\ k = "offset" -> snapOffset'[ev.checkpoint][ev.task] = ev.offset
      [] ev.event = "InjectBarrier" /\ k = "persisted" -> PersistedAsRecorded(ev, ev.checkpoint)
      [] ev.event = "ProcessRecord" /\ k = "persisted" -> ev.persisted = (snapChan' # snapChan)
      \* No "snapshot" field: the step took none, so the spec's must not change either.
      [] ev.event = "ReceiveBarrier" /\ k = "snapshot" ->
              snapProcessed'[ev.checkpoint][ev.task] =
                  IF "snapshot" \in DOMAIN ev THEN FunOf(ev.snapshot) ELSE snapProcessed[ev.checkpoint][ev.task]
      [] ev.event = "ReceiveBarrier" /\ k = "persisted" -> PersistedAsRecorded(ev, ev.checkpoint)
      [] ev.event = "ProcessRecord" /\ k = "record" ->
              chan[ev.channel] # <<>> /\ Head(chan[ev.channel]) = ev.record
      [] ev.event = "ReceiveBarrier" /\ k = "checkpoint" ->
              chan[ev.channel] # <<>> /\ IsBarrier(Head(chan[ev.channel]))
              /\ Head(chan[ev.channel]).ckpt = ev.checkpoint
      [] ev.event = "ReceiveBarrier" /\ k = "aligned" ->
              chan[ev.channel] # <<>> /\ "aligned" \in DOMAIN Head(chan[ev.channel])
              /\ Head(chan[ev.channel]).aligned = ev.aligned
      \* A passive timeout takes no snapshot (no "snapshot" field); an active one does.
      [] ev.event = "TimeoutAlignment" /\ k = "snapshot" ->
              snapProcessed'[ev.checkpoint][ev.task] =
                  IF "snapshot" \in DOMAIN ev THEN FunOf(ev.snapshot) ELSE snapProcessed[ev.checkpoint][ev.task]
      [] ev.event = "TimeoutAlignment" /\ k = "persisted" -> PersistedAsRecorded(ev, ev.checkpoint)
      \* The barrier the engine pulled ahead is the spec's: of that checkpoint, queued on the channel.
      [] ev.event = "PrioritizeBarrier" /\ k = "checkpoint" ->
              \E j \in 1..Len(chan[ev.channel]) : IsBarrier(chan[ev.channel][j]) /\ chan[ev.channel][j].ckpt = ev.checkpoint
      [] ev.event = "PrioritizeBarrier" /\ k = "persisted" -> PersistedAsRecorded(ev, ev.checkpoint)
      [] ev.event = "CompleteCheckpoint" /\ k = "offsets" -> snapOffset[ev.checkpoint] = FunOf(ev.offsets)
      [] ev.event = "CompleteCheckpoint" /\ k = "processed" -> snapProcessed[ev.checkpoint] = BagsOf(ev.processed)
      [] ev.event = "CompleteCheckpoint" /\ k = "channelState" -> snapChan[ev.checkpoint] = FunOf(ev.channelState)
      [] ev.event = "FailAndRestore" /\ k = "restored" -> latest = ev.restored
      [] ev.event = "FailAndRestore" /\ k = "offsets" -> offset' = FunOf(ev.offsets)
      [] ev.event = "FailAndRestore" /\ k = "processed" -> processed' = BagsOf(ev.processed)
      \* The engine remembered the abort (c newer than every checkpoint t knows) or ignored it
      \* (t had gone past c); when it abandoned c the spec's Abandon ran, remembered is FALSE.
      [] ev.event = "NotifyCheckpointAborted" /\ k = "remembered" ->
              ev.remembered = (Abandoned(ev) = <<>> /\ ev.checkpoint > current[ev.task])
      [] ev.event = "ReceiveCancelBarrier" /\ k = "checkpoint" ->
              chan[ev.channel] # <<>> /\ Head(chan[ev.channel]) = CancelBarrier(ev.checkpoint)
      [] ev.event = "SendEndOfPartition" /\ k = "offset" -> offset[ev.task] = ev.offset
      \* A run that finished has read every log and left no record in a channel.
      [] ev.event = "RunEnded" /\ k = "finished" -> ev.finished => Drained
      [] ev.event = "ReceiveEndOfPartition" /\ k = "ended" ->
              ev.ended = (endedInputs'[ev.task] = InputsOf(ev.task))
      \* With a snapshot: the alignment of ev.checkpoint completed in this step, with that ledger
      \* (the task handled it, or, at-least-once, it acknowledged it now: an older tracked one).
      \* Without: the checkpoint the task handles (if any) got no snapshot of it in this step.
      [] ev.event = "ReceiveEndOfPartition" /\ k = "snapshot" ->
              IF "snapshot" \in DOMAIN ev
                THEN /\ \/ handling[ev.task] = ev.checkpoint
                        \/ ev.task \notin acked[ev.checkpoint] /\ ev.task \in acked'[ev.checkpoint]
                     /\ snapProcessed'[ev.checkpoint][ev.task] = FunOf(ev.snapshot)
                ELSE IF handling[ev.task] = 0 THEN TRUE
                     ELSE snapProcessed'[handling[ev.task]][ev.task] = snapProcessed[handling[ev.task]][ev.task]

Matches(ev) == \A j \in DOMAIN CheckNames(ev) : Check(ev, CheckNames(ev)[j])

-----------------------------------------------------------------------------
(* Where the engine differs from the spec on purpose (docs/trace-validation.md, "The lifecycle"). *)

\* An abort notification that changed nothing in the engine: the task had gone past c, or c is
\* newer than every checkpoint the task knows and the task only remembered it (the engine defers
\* the spec's NotifyCheckpointAborted to c's first barrier, see PreludeDue).  No spec step; but
\* the coordinator must have aborted c, and a task the spec has handling c must have abandoned it.
NotifiedWithoutStep(ev) ==
    /\ ckpt[ev.checkpoint] = "aborted"
    /\ handling[ev.task] # ev.checkpoint
    /\ UNCHANGED vars

\* A sink has a transaction that a notification would commit now (a pending one of a
\* checkpoint completed since the last failure).  Part of each trace module's Moves: a run that
\* ended must not have one left.  (SinkProgress is not: a notification that commits nothing is
\* a step of the spec too.)
SinkCommitDue == \E t \in SinkTasks, c \in CheckpointIds :
                    ckpt[c] = "completed" /\ c > discardedUpTo /\ \E d \in txnPending[t] : d <= c

\* RunEnded (the recorder's last event when the engine stopped because none of its steps was
\* enabled): no spec step, but the spec must have none left either that moves data, barriers,
\* news of an abort to a task handling it, or checkpoints on (Moves, per protocol), and no
\* source may owe the barrier of a pending checkpoint.  Left out: triggers, timeouts and
\* failures (the environment's), notifications to tasks not handling the checkpoint (the
\* engine's deferral) and barriers of aborted checkpoints (the engine never hands one out).
\* Without this event a run that stalls would be accepted: a prefix of a behaviour is one.
BarrierOwed == \E s \in Sources, c \in CheckpointIds :
                   ckpt[c] = "pending" /\ c > current[s] /\ c > discardedUpTo /\ s \notin endedSources
RunEnded(MovesEnabled) == ~MovesEnabled /\ ~BarrierOwed /\ UNCHANGED vars

\* One engine step that is several spec actions: the spec's NotifyCheckpointAborted(t, c) of
\* each checkpoint c the step abandoned before its own action, which then follows.
\* - InjectBarrier(s, d): the engine's coordinator never hands a source the barrier of a
\*   checkpoint aborted before the source injected it; the spec's source skips it explicitly
\*   (SkipBarrier, the source part of NotifyCheckpointAborted): so first every live checkpoint
\*   between the last one s injected or skipped and d, oldest first (each must be aborted).
\* - ReceiveBarrier of a checkpoint c the task was told is aborted (the engine remembered it):
\*   the engine abandons c on its first barrier (and, first, the older one the task handled):
\*   NotifyCheckpointAborted of each, then the barrier is obsolete and dropped.
\* - ReceiveCancelBarrier of c newer than the checkpoint h the task handles: the engine abandons
\*   h (forwarding its cancellation, and declining it) and then c; the spec's Abandon forwards
\*   only c's: NotifyCheckpointAborted(t, h) first (h is aborted: the decline, recorded before
\*   as AbortCheckpoint(h), or an earlier abort).
\* The checkpoints still to abandon first, in the spec's state now (none left: the action).
PreludeIds(ev) ==
    LET a == Abandoned(ev)
        first == IF ev.event = "ReceiveBarrier" /\ a # <<>> /\ a[Len(a)] = ev.checkpoint THEN a
                 ELSE IF ev.event = "ReceiveCancelBarrier" /\ Len(a) > 1 THEN SubSeq(a, 1, Len(a) - 1)
                 ELSE <<>>
        t == ev.task
    IN IF ev.event = "InjectBarrier"
         THEN {d \in (current[t] + 1)..(ev.checkpoint - 1) : Live(d)}
         ELSE {first[j] : j \in {j \in DOMAIN first :
                                   first[j] > current[t] \/ (first[j] = handling[t] /\ first[j] # 0)}}
PreludeDue(ev) == PreludeIds(ev) # {}

\* The step that matches event i: the action Act(ev) it names, with its parameters, and every check.
TraceStep(Act(_)) ==
    /\ i <= Len(Trace)
    /\ WellFormed(Trace[i])
    /\ ~PreludeDue(Trace[i])
    /\ Act(Trace[i])
    /\ Matches(Trace[i])
    /\ i' = i + 1

\* A spec step that is part of event i's engine step, before its action (PreludeIds): the
\* protocol's NotifyCheckpointAborted(t, c), oldest c first; i stays.
PreludeStep(Notify(_, _)) ==
    /\ i <= Len(Trace)
    /\ WellFormed(Trace[i])
    /\ PreludeDue(Trace[i])
    /\ Notify(Trace[i].task, Min(PreludeIds(Trace[i])))
    /\ UNCHANGED i

\* Why event i is not explained: whether its parameters make sense, whether the action it names
\* is enabled with them, and which checks fail (or, when a NotifyCheckpointAborted of c must come
\* first and cannot, "first:c").  Printed as one line the validator parses.
Explain(Act(_)) ==
    LET ev == Trace[i]
        ok == WellFormed(ev)
        due == ok /\ PreludeDue(ev)
        enabled == ok /\ ~due /\ ENABLED Act(ev)
    IN <<"TRACE-UNEXPLAINED", i, ev.event, ok, enabled,
         IF due THEN {"first:" \o ToString(Min(PreludeIds(ev)))}
         ELSE IF enabled THEN {CheckNames(ev)[j] : j \in {j \in DOMAIN CheckNames(ev) :
                                ~ENABLED (Act(ev) /\ Check(ev, CheckNames(ev)[j]))}}
                    ELSE {}>>

\* No successor: TLC then reports a deadlock in the state before event i, after this print.
Unexplained(Act(_), Notify(_, _)) ==
    /\ i <= Len(Trace)
    /\ ~ENABLED TraceStep(Act)
    /\ ~ENABLED PreludeStep(Notify)
    /\ PrintT(Explain(Act))
    /\ FALSE

-----------------------------------------------------------------------------
(* Coverage: which branch of its action each matched event                 *)
(* took, named from the spec's state before the step.  The protocol        *)
(* modules name the branches of their own actions (ProtocolBranch) and     *)
(* list every branch there is (BranchTable), so that the validator can say *)
(* how often each was taken over a set of traces and which none reached.   *)
(* TLC prints <<"TRACE-STEP", i, event, branch>> when it matches event i   *)
(* and <<"TRACE-PRELUDE", i, c, action, branch>> for a prelude step (the   *)
(* ENABLED in Unexplained does not print; TLC may print a step more than   *)
(* once, and again when it rebuilds its error trace: the validator counts  *)
(* each i, and each <<i, c>>, once).  The branch conditions restate the    *)
(* guards of the IF and CASE arms of each action, in the spec's operators. *)

\* The branches of the shared actions (Dataflow.tla) and of the trace-only events.
SharedBranch(ev) ==
    CASE ev.event = "TriggerCheckpoint" ->
              IF FinalCheckpointDue THEN "final checkpoint (every task ended)"
              ELSE IF \E t \in Tasks : Ended(t) THEN "some tasks ended (they acknowledge at once)"
              ELSE "every task takes part"
      [] ev.event = "EmitRecord" -> "emit"
      [] ev.event = "CompleteCheckpoint" ->
              IF \E d \in CheckpointIds : d < ev.checkpoint /\ ckpt[d] = "pending"
                THEN "subsumes an older pending checkpoint" ELSE "no older pending checkpoint"
      [] ev.event = "AbortCheckpoint" ->
              IF "declinedBy" \in DOMAIN ev THEN "declined by a task" ELSE "timeout or abort"
      [] ev.event = "FailAndRestore" ->
              IF latest = 0 THEN "restore the initial state" ELSE "restore the latest checkpoint"
      [] ev.event = "SendEndOfPartition" ->
              IF \E d \in CheckpointIds : Live(d) /\ d > current[ev.task]
                THEN "final offset for live checkpoints it has not injected" ELSE "no live checkpoint ahead"
      [] ev.event = "NotifyCheckpointComplete" ->
              IF \E d \in txnPending[ev.task] : d <= ev.checkpoint THEN "commits" ELSE "nothing to commit"
      [] ev.event = "RunEnded" -> IF ev.finished THEN "finished" ELSE "stopped, not finished"
      [] ev.event = "NotifyCheckpointAborted" /\ Abandoned(ev) = <<>> ->
              IF ev.remembered THEN "no spec step: remembered for the first barrier"
              ELSE "no spec step: the task went past it"
      [] OTHER -> "step"

SharedBranchTable ==
    {<<"TriggerCheckpoint", b>> : b \in {"final checkpoint (every task ended)",
                                         "some tasks ended (they acknowledge at once)", "every task takes part"}}
    \cup {<<"EmitRecord", "emit">>}
    \cup {<<"CompleteCheckpoint", b>> : b \in {"subsumes an older pending checkpoint", "no older pending checkpoint"}}
    \cup {<<"AbortCheckpoint", b>> : b \in {"declined by a task", "timeout or abort"}}
    \cup {<<"FailAndRestore", b>> : b \in {"restore the initial state", "restore the latest checkpoint"}}
    \cup {<<"SendEndOfPartition", b>> : b \in {"final offset for live checkpoints it has not injected",
                                               "no live checkpoint ahead"}}
    \cup {<<"NotifyCheckpointComplete", b>> : b \in {"commits", "nothing to commit"}}
    \cup {<<"RunEnded", b>> : b \in {"finished", "stopped, not finished"}}
    \cup {<<"NotifyCheckpointAborted", b>> : b \in {"no spec step: remembered for the first barrier",
                                                    "no spec step: the task went past it"}}

\* The branch of a prelude step NotifyCheckpointAborted(t, c), c = Min(PreludeIds(ev)).
PreludeBranch(ev) ==
    LET c == Min(PreludeIds(ev)) IN
    IF ev.task \in Sources THEN "prelude: a source skips the barrier of an aborted checkpoint"
    ELSE IF c = handling[ev.task] THEN "prelude: abandons the alignment"
    ELSE "prelude: abandons a checkpoint it has not seen"

PreludeBranchTable ==
    {<<"NotifyCheckpointAborted", b>> : b \in {"prelude: a source skips the barrier of an aborted checkpoint",
                                               "prelude: abandons the alignment",
                                               "prelude: abandons a checkpoint it has not seen"}}

\* TraceStep and PreludeStep, printing the branch each took (for the coverage report).
CoveredStep(Act(_), Branch(_)) ==
    TraceStep(Act) /\ PrintT(<<"TRACE-STEP", i, Trace[i].event, Branch(Trace[i])>>)
CoveredPrelude(Notify(_, _)) ==
    PreludeStep(Notify)
    /\ PrintT(<<"TRACE-PRELUDE", i, Min(PreludeIds(Trace[i])), "NotifyCheckpointAborted", PreludeBranch(Trace[i])>>)

TraceInit == Init /\ i = 1

\* Violated exactly when TLC has matched every event: the trace is accepted.
TraceNotFullyMatchedInv == i <= Len(Trace)

=============================================================================
