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

\* The dials, with their correct definitions (as the comments in Dataflow.tla state them and the
\* MC modules define them): a trace must be a behaviour of the protocol as meant, not of a bug.
\* Defined here rather than taken from the MC modules, whose model values are not a trace's.
CorrectRecordedOffset(n) == n
CorrectRestoredChannel(q) == q
CorrectArrivedWithEnded(barrierArrived, ended) == barrierArrived \cup ended

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

\* The event's parameters name things the spec has (else TLC would fail evaluating the action).
WellFormed(ev) ==
    CASE ev.event \in {"TriggerCheckpoint", "CompleteCheckpoint", "AbortCheckpoint"} ->
              ev.checkpoint \in CheckpointIds
      [] ev.event = "EmitRecord" -> ev.task \in Sources
      [] ev.event = "InjectBarrier" -> ev.task \in Sources /\ ev.checkpoint \in CheckpointIds
      [] ev.event \in {"ProcessRecord", "ReceiveBarrier"} ->
              ev.task \in Operators /\ ev.channel \in InputsOf(ev.task)
      [] ev.event = "FailAndRestore" -> TRUE
      \* Alternating mode only (TraceAlternating.tla): operator task, checkpoint.
      [] ev.event = "TimeoutAlignment" -> ev.task \in Operators /\ ev.checkpoint \in CheckpointIds
      [] OTHER -> FALSE

\* What each event records besides its parameters: the names of its checks (its JSON fields).
CheckNames(ev) ==
    CASE ev.event = "EmitRecord" -> <<"record", "offset", "channels">>
      [] ev.event = "InjectBarrier" -> <<"offset", "persisted", "channels">>
      [] ev.event = "ProcessRecord" -> <<"record", "persisted", "channels">>
      \* Alternating mode: the received barrier's alignment type too (field "aligned").
      [] ev.event = "ReceiveBarrier" ->
              IF TraceHeader.mode = "alternating"
                THEN <<"checkpoint", "aligned", "snapshot", "persisted", "channels">>
                ELSE <<"checkpoint", "snapshot", "persisted", "channels">>
      [] ev.event = "TimeoutAlignment" -> <<"snapshot", "persisted", "channels">>
      [] ev.event = "CompleteCheckpoint" -> <<"offsets", "processed", "channelState">>
      [] ev.event = "FailAndRestore" -> <<"restored", "offsets", "processed", "channels">>
      [] OTHER -> <<>>

\* Check k of event ev: the recorded value agrees with the spec's (before or after the step).
Check(ev, k) ==
    CASE k = "channels" -> \A p \in Range(ev.channels) : chan'[p[1]] = p[2]
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
      [] ev.event = "CompleteCheckpoint" /\ k = "offsets" -> snapOffset[ev.checkpoint] = FunOf(ev.offsets)
      [] ev.event = "CompleteCheckpoint" /\ k = "processed" -> snapProcessed[ev.checkpoint] = BagsOf(ev.processed)
      [] ev.event = "CompleteCheckpoint" /\ k = "channelState" -> snapChan[ev.checkpoint] = FunOf(ev.channelState)
      [] ev.event = "FailAndRestore" /\ k = "restored" -> latest = ev.restored
      [] ev.event = "FailAndRestore" /\ k = "offsets" -> offset' = FunOf(ev.offsets)
      [] ev.event = "FailAndRestore" /\ k = "processed" -> processed' = BagsOf(ev.processed)

Matches(ev) == \A j \in DOMAIN CheckNames(ev) : Check(ev, CheckNames(ev)[j])

\* The step that matches event i: the action Act(ev) it names, with its parameters, and every check.
TraceStep(Act(_)) ==
    /\ i <= Len(Trace)
    /\ WellFormed(Trace[i])
    /\ Act(Trace[i])
    /\ Matches(Trace[i])
    /\ i' = i + 1

\* Why event i is not explained: whether its parameters make sense, whether the action it names
\* is enabled with them, and which checks fail.  Printed as one line the validator parses.
Explain(Act(_)) ==
    LET ev == Trace[i]
        ok == WellFormed(ev)
        enabled == ok /\ ENABLED Act(ev)
    IN <<"TRACE-UNEXPLAINED", i, ev.event, ok, enabled,
         IF enabled THEN {CheckNames(ev)[j] : j \in {j \in DOMAIN CheckNames(ev) :
                                ~ENABLED (Act(ev) /\ Check(ev, CheckNames(ev)[j]))}}
                    ELSE {}>>

\* No successor: TLC then reports a deadlock in the state before event i, after this print.
Unexplained(Act(_)) ==
    /\ i <= Len(Trace)
    /\ ~ENABLED TraceStep(Act)
    /\ PrintT(Explain(Act))
    /\ FALSE

TraceInit == Init /\ i = 1

\* Violated exactly when TLC has matched every event: the trace is accepted.
TraceNotFullyMatchedInv == i <= Len(Trace)

=============================================================================
