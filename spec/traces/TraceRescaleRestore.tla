------------------------- MODULE TraceRescaleRestore -------------------------
(***************************************************************************)
(* Trace validation of the rescaled restore: TLC follows a rescale trace   *)
(* that the engine's Rescaling recorded (RescaleTraceRecorder, the         *)
(* header's mode "rescale") and accepts it iff it is a behaviour of        *)
(* RescaleRestore.tla, the design spec, with nothing substituted.  The     *)
(* constants come from the header: the senders, the operators (Ops, one    *)
(* route: the sources feed the first, each the next; the last one keyed,   *)
(* the ones before it stateless), their old and new parallelism, and per   *)
(* source the key group of each record in its log (the spec's key of a     *)
(* record is its key group, so KeyGroupOf is the identity; MaxParallelism  *)
(* is the engine's, 128 by default).  At most two operators: the join (a   *)
(* keyed count fed by the sources) and the map chain (a stateless map      *)
(* between two keyed exchanges, then the count).                           *)
(*                                                                         *)
(* Observed: the checkpoint the restore read (the header: its offsets, its *)
(* old tasks' processed records, its stored in-flight records per old      *)
(* channel) and the three steps of the restore, each with what the engine  *)
(* computed: AssignKeyGroups (per new task the processed records and the   *)
(* key groups of its state), RedistributeChannelState (per new channel its *)
(* stored records, in order), RestoreRescaled (the offsets restored).      *)
(*                                                                         *)
(* Hidden: the run that took the checkpoint and its failure.  Before the   *)
(* first event the trace spec takes, by spec actions, the one path that   *)
(* ends in the recorded checkpoint (Hidden): every source emits up to the  *)
(* checkpoint's offset, then each channel's head is processed while it is  *)
(* a record the checkpoint counts as processed (or, into the map, one it   *)
(* stores further on: below), then TakeCheckpoint stores                   *)
(* what is left in flight, then FailJob.  TakeCheckpoint must produce      *)
(* exactly the recorded checkpoint (CheckpointAsRecorded): per old task    *)
(* the same processed records, per old channel the same stored records in  *)
(* the same order, with the split k = 0 (everything the sender's part; the *)
(* engine stores a channel's two parts concatenated in FIFO order, and the *)
(* restore reads only that concatenation, StoredParts).  Emitting first    *)
(* loses no generality: a channel from a source is that source's records   *)
(* in read order, and what it holds at the cut is what was sent on it less *)
(* the prefix its receiver processed.  A channel out of the map holds the  *)
(* records in the order the map forwarded them, interleaving its input     *)
(* channels: the hidden run forwards a record the count processed whenever *)
(* it is at the head of its input channel, and a record the checkpoint     *)
(* stores on the map's output channel only when it is that channel's next  *)
(* stored record and no record the count processed through that channel    *)
(* is still before the count (in a cut the count processed those first,    *)
(* the channel being FIFO).  Any of these choices can be taken in any      *)
(* order:                                                                  *)
(* if the recorded checkpoint is a cut of some run, the hidden run reaches *)
(* it, whichever order TLC picks.                                          *)
(*                                                                         *)
(* Why that is still sound: the hidden prefix is a behaviour of the spec,  *)
(* so a trace is accepted only if its checkpoint is a cut the spec can     *)
(* take (else no hidden path reaches it, and the trace is rejected at its  *)
(* first event); from there AssignKeyGroups, RedistributeChannelState and  *)
(* RestoreRescaled are deterministic, so each event's checks compare the   *)
(* engine's result with the only one the spec allows.  What the trace      *)
(* does not show: how the engine took the checkpoint (the protocol traces  *)
(* check that), the keyed state beyond its processed records (the engine's *)
(* ExactlyOnceInv after the restore checks the counts), and the run after  *)
(* the restore.                                                            *)
(*                                                                         *)
(* Event i is matched only by the action it names, and only if the values  *)
(* it recorded agree with the spec (Check).  Verdict as for the protocol   *)
(* traces (TraceValidation.tla): TraceNotFullyMatchedInv violated is       *)
(* accepted; a deadlock after <<"TRACE-UNEXPLAINED", ...>> is rejected.    *)
(***************************************************************************)
EXTENDS RescaleRestore, TraceData, TLC

ASSUME TraceHeader.mode = "rescale"

Range(s) == {s[j] : j \in DOMAIN s}
\* The function a sequence of <<key, value>> pairs describes.
FunOf(pairs) == [k \in {p[1] : p \in Range(pairs)} |-> (CHOOSE p \in Range(pairs) : p[1] = k)[2]]

-----------------------------------------------------------------------------
(* The constants, as the trace has them (TraceRescaleRestore.cfg).         *)

TraceSenders == Range(TraceHeader.senders)
TraceLog == FunOf(TraceHeader.log)
TraceKeyGroupOf(k) == k
TraceMaxParallelism == TraceHeader.maxParallelism
TraceOps == TraceHeader.ops
TraceOldPar == FunOf(TraceHeader.oldPar)
TraceNewPar == FunOf(TraceHeader.newPar)

-----------------------------------------------------------------------------
(* The checkpoint the restore read.                                        *)

Ck == TraceHeader.checkpoint
CkOffset == FunOf(Ck.offsets)
\* Per old task of the last operator, its processed records (a bag: record -> count).
CkProcessed == [t \in {p[1] : p \in Range(Ck.processed)} |-> FunOf(FunOf(Ck.processed)[t])]
\* Per old channel, its stored records, head first.
CkChan == FunOf(Ck.channelState)
CkRecordsProcessed == UNION {DOMAIN CkProcessed[t] : t \in DOMAIN CkProcessed}

\* The checkpoint names the spec's sources, tasks and channels (else TLC could not follow it);
\* one route of at most two operators (the hidden run below forwards through one stateless one).
ASSUME /\ Len(Ops) <= 2
       /\ DOMAIN CkOffset = Senders
       /\ DOMAIN CkProcessed = TasksAt(Last, OldPar[Last])
       /\ DOMAIN CkChan \subseteq Channels

\* The bag of the records in key-group states ks of the key groups owner gives to task index j.
BagOn(ks, owner, j) ==
    LET R == UNION {Range(ks[g]) : g \in {h \in KeyGroups : owner[h] = j}}
    IN [r \in R |-> Copies(r, ks[KeyGroup(r)])]

\* The checkpoint TakeCheckpoint just took (ck') is the recorded one: the same processed records
\* per old task, the same stored records per old channel, all as the sender's part (split 0).
CheckpointAsRecorded ==
    /\ ck'.inputState = [ch \in Channels |-> <<>>]
    /\ \A ch \in Channels : ck'.outputState[ch] = IF ch \in DOMAIN CkChan THEN CkChan[ch] ELSE <<>>
    /\ \A j \in 0..(OldPar[Last] - 1) : BagOn(ck'.kstate, kgTask, j) = CkProcessed[Task(Last, j)]

-----------------------------------------------------------------------------
(* Events.                                                                 *)

VARIABLE i   \* the next event of the trace to match

traceVars == <<vars, i>>

WellFormed(ev) == ev.event \in {"AssignKeyGroups", "RedistributeChannelState", "RestoreRescaled"}

\* The action event ev names (none has parameters).
Act(ev) ==
    CASE ev.event = "AssignKeyGroups" -> AssignKeyGroups
      [] ev.event = "RedistributeChannelState" -> RedistributeChannelState
      [] ev.event = "RestoreRescaled" -> RestoreRescaled

\* What each event records: the names of its checks (its JSON fields).
CheckNames(ev) ==
    CASE ev.event = "AssignKeyGroups" -> <<"assigned", "keyGroups">>
      [] ev.event = "RedistributeChannelState" -> <<"channels">>
      [] ev.event = "RestoreRescaled" -> <<"offsets">>

\* Check k of event ev: the recorded value agrees with the spec's.
\* - assigned: every new task of the last operator holds exactly the processed records of the
\*   key groups it owns at the new parallelism (kgTask').
\* - keyGroups: the key groups whose keys a new task's state holds are exactly those it owns that
\*   have processed records (the engine's keyed count holds a key iff it processed a record of it);
\*   a new task of a rescaled stateless operator holds none.
\* - channels: every new channel holds exactly the stored records the spec routes to it, in the
\*   spec's order; every other channel (one of a task that is gone) none.
\* - offsets: the sources rewind to the spec's offsets (the checkpoint's).
Check(ev, k) ==
    CASE k = "assigned" ->
              LET a == FunOf(ev.assigned) IN
              /\ DOMAIN a = TasksAt(Last, NewPar[Last])
              /\ \A j \in 0..(NewPar[Last] - 1) : BagOn(kstate', kgTask', j) = FunOf(a[Task(Last, j)])
      [] k = "keyGroups" ->
              LET kg == FunOf(ev.keyGroups) IN
              /\ DOMAIN kg = UNION {TasksAt(op, NewPar[op]) : op \in {o \in OpSet : OldPar[o] # NewPar[o]}}
              /\ \A t \in DOMAIN kg :
                    Range(kg[t]) = IF t[1] = Last
                                   THEN {g \in KeyGroups : kgTask'[g] = t[2] /\ kstate'[g] # <<>>}
                                   ELSE {}
      [] k = "channels" ->
              LET c == FunOf(ev.channels) IN
              /\ DOMAIN c \subseteq Channels
              /\ \A nc \in Channels : chan'[nc] = IF nc \in DOMAIN c THEN c[nc] ELSE <<>>
      [] k = "offsets" ->
              LET o == FunOf(ev.offsets) IN
              /\ DOMAIN o = Senders
              /\ \A s \in Senders : offset'[s] = o[s]

Matches(ev) == \A j \in DOMAIN CheckNames(ev) : Check(ev, CheckNames(ev)[j])

\* The step that matches event i.
TraceStep ==
    /\ i <= Len(Trace)
    /\ WellFormed(Trace[i])
    /\ Act(Trace[i])
    /\ Matches(Trace[i])
    /\ i' = i + 1

\* A spec step the trace does not show, before its first event: the run up to the recorded
\* checkpoint, the checkpoint, the failure (the module comment).  One choice in each state.
ToEmit == {s \in Senders : offset[s] < CkOffset[s]}
\* The records the checkpoint stores on channel ch.
CkStored(ch) == IF ch \in DOMAIN CkChan THEN Range(CkChan[ch]) ELSE {}
\* Channel ch's head goes on: into the last operator, a record it processed (and not yet);
\* into the map (before the last operator), a record stored further on or processed by the count
\* (ToForward).
ToConsume == {ch \in ChannelsAt(par) : /\ ch[2][1] = Last
                                       /\ chan[ch] # <<>>
                                       /\ Head(chan[ch]) \in CkRecordsProcessed
                                       /\ Copies(Head(chan[ch]), kstate[KeyGroup(Head(chan[ch]))]) = 0}
\* The map forwards the head r of ch onto channel out: r processed by the count through out, or
\* r the next record the checkpoint stores on out once no record the count processed through out
\* is still in a channel into the map or on out.
Out(ch) == NextChannel(ch[2], Head(chan[ch]), par)
InToMap(ch) == ch \in ChannelsAt(par) /\ ch[2][1] # Last
ProcessedThrough(out) ==
    \E ch \in Channels : /\ InToMap(ch)
                         /\ \E j \in 1..Len(chan[ch]) :
                               /\ chan[ch][j] \in CkRecordsProcessed
                               /\ NextChannel(ch[2], chan[ch][j], par) = out
ToForward == {ch \in Channels : /\ InToMap(ch)
                                /\ chan[ch] # <<>>
                                /\ Head(chan[ch]) \notin CkStored(ch)
                                /\ \/ Head(chan[ch]) \in CkRecordsProcessed
                                   \/ /\ Out(ch) \in DOMAIN CkChan
                                      /\ Range(chan[Out(ch)]) \cap CkRecordsProcessed = {}
                                      /\ Len(chan[Out(ch)]) < Len(CkChan[Out(ch)])
                                      /\ CkChan[Out(ch)][Len(chan[Out(ch)]) + 1] = Head(chan[ch])
                                      /\ ~ProcessedThrough(Out(ch))}
ToProcess == ToConsume \cup ToForward
Hidden ==
    /\ i = 1
    /\ i <= Len(Trace)
    /\ CASE phase = "run" /\ ~taken /\ ToEmit # {} -> EmitRecord(CHOOSE s \in ToEmit : TRUE)
         [] phase = "run" /\ ~taken /\ ToProcess # {} -> ProcessRecord(CHOOSE ch \in ToProcess : TRUE)
         [] phase = "run" /\ ~taken -> TakeCheckpoint /\ CheckpointAsRecorded
         [] phase = "run" -> FailJob
         [] OTHER -> FALSE
    /\ UNCHANGED i

\* Why event i is not explained: whether it names an action, whether the action is enabled, and
\* which checks fail.  Printed as one line the validator parses.  (Before the first event with
\* the action not enabled: the hidden run could not reach the recorded checkpoint.)
Explain ==
    LET ev == Trace[i]
        ok == WellFormed(ev)
        enabled == ok /\ ENABLED Act(ev)
    IN <<"TRACE-UNEXPLAINED", i, ev.event, ok, enabled,
         IF enabled THEN {CheckNames(ev)[j] : j \in {j \in DOMAIN CheckNames(ev) :
                              ~ENABLED (Act(ev) /\ Check(ev, CheckNames(ev)[j]))}}
                    ELSE {}>>

\* No successor: TLC then reports a deadlock in the state before event i, after this print.
Unexplained ==
    /\ i <= Len(Trace)
    /\ ~ENABLED TraceStep
    /\ ~ENABLED Hidden
    /\ PrintT(Explain)
    /\ FALSE

-----------------------------------------------------------------------------
(* Coverage: the branch each matched event took, named from the state     *)
(* before it (TraceValidation.tla, "Coverage", for the format).            *)

Branch(ev) ==
    CASE ev.event = "AssignKeyGroups" ->
              IF NewPar[Last] > OldPar[Last] THEN "scale up" ELSE "scale down"
      [] ev.event = "RedistributeChannelState" ->
              IF \E ch \in Channels : StoredParts(ch) # <<>>
                THEN "stored records redistributed" ELSE "no stored records"
      [] OTHER -> "step"

BranchTable ==
    {<<"AssignKeyGroups", b>> : b \in {"scale up", "scale down"}}
    \cup {<<"RedistributeChannelState", b>> : b \in {"stored records redistributed", "no stored records"}}
    \cup {<<"RestoreRescaled", "step">>}
ASSUME PrintT(<<"TRACE-BRANCHES", BranchTable>>)

CoveredStep == TraceStep /\ PrintT(<<"TRACE-STEP", i, Trace[i].event, Branch(Trace[i])>>)

TraceNext == CoveredStep \/ Hidden \/ Unexplained

TraceInit == Init /\ i = 1

TraceBehavior == TraceInit /\ [][TraceNext]_traceVars

\* Violated exactly when TLC has matched every event: the trace is accepted.
TraceNotFullyMatchedInv == i <= Len(Trace)
=============================================================================
\* Trace validation of the rescaled restore (RescaleRestore.tla, as it is): the constants come
\* from the trace (TraceData.tla, made by dev.consistentcut.trace.TraceToTla from a rescale trace,
\* header mode "rescale").  Run by ./model-check.sh --trace FILE.  Exit 12
\* (TraceNotFullyMatchedInv violated): accepted; exit 11 (deadlock): rejected, after a line
\* <<"TRACE-UNEXPLAINED", i, ...>>.  No broadcast input (the engine refuses to rescale an operator
\* with a BROADCAST in-edge); one failure, the one before the restore.
