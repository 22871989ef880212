------------------------ MODULE TraceIncrementalStore ------------------------
(***************************************************************************)
(* Trace validation of the durable checkpoint store: TLC follows a store  *)
(* trace that DirectoryCheckpointStore recorded (StoreTraceRecorder, the   *)
(* header's mode "store") and accepts it iff it is a behaviour of          *)
(* IncrementalCheckpointStore.tla, the design spec, with nothing           *)
(* substituted.  The trace is projected onto one task: the segments of its *)
(* operator-state chain are the spec's local files, numbered in the order  *)
(* the store first saw them; remote file <<f, c>> is segment f as stored   *)
(* in the shared file checkpoint c uploaded; <<0, c>> is c's private file. *)
(*                                                                         *)
(* Event i is matched only by the action it names, with its parameters,   *)
(* and only if the values it recorded agree with the spec (Check).  The    *)
(* store does not see every step of the spec, so the trace spec takes the *)
(* ones it cannot see before a TriggerCheckpoint event, as the engine must *)
(* have taken them (Hidden): the task's WriteState and CompactState that   *)
(* bring its state to the one the checkpoint's handle holds (a             *)
(* CompactState of the files the handle no longer holds: all of them, or   *)
(* the prefix a background materialisation merged), and the                *)
(* checkpoints the store never received (aborted, or lost in a failure),   *)
(* triggered and aborted with nothing uploaded.  Hidden takes one choice   *)
(* in each state, so TLC follows a single path.  Verdict as for the        *)
(* protocol traces (TraceValidation.tla): TraceNotFullyMatchedInv violated *)
(* is accepted; a deadlock after <<"TRACE-UNEXPLAINED", ...>> is rejected. *)
(***************************************************************************)
EXTENDS IncrementalCheckpointStore, TraceData, Sequences, TLC

ASSUME TraceHeader.mode = "store"

Range(s) == {s[j] : j \in DOMAIN s}
MaxOf(S) == CHOOSE m \in S : \A n \in S : n <= m
MinOf(S) == CHOOSE m \in S : \A n \in S : m <= n
\* The positions of the events named e.
EventsNamed(e) == {j \in DOMAIN Trace : Trace[j].event = e}

-----------------------------------------------------------------------------
(* The constants, as the trace has them (TraceIncrementalStore.cfg).       *)

\* As many local files and checkpoint ids as the trace names, so none is refused for lack of budget.
TraceMaxFiles ==
    MaxOf({1} \cup {o[1] : o \in UNION {Range(Trace[j].handle) : j \in EventsNamed("TriggerCheckpoint")}})
TraceMaxCheckpoints == MaxOf({1} \cup {Trace[j].checkpoint : j \in EventsNamed("TriggerCheckpoint")})
TraceRetained == TraceHeader.retained
TraceMaxFailures == Cardinality(EventsNamed("RestoreCheckpoint"))

-----------------------------------------------------------------------------
(* Events.                                                                 *)

VARIABLE i   \* the next event of the trace to match

traceVars == <<vars, i>>

\* The event's parameters name things the spec has (else TLC would fail evaluating the action).
WellFormed(ev) ==
    CASE ev.event \in {"TriggerCheckpoint", "AcknowledgeCheckpoint", "CompleteCheckpoint", "AbortCheckpoint",
                       "SubsumeCheckpoint", "UnregisterCheckpoint"} -> ev.checkpoint \in CheckpointIds
      [] ev.event = "UploadFile" -> ev.checkpoint \in CheckpointIds /\ ev.file \in SharedFiles
      [] ev.event = "DeleteFile" -> ev.file \in RemoteFiles
      [] ev.event = "RestoreCheckpoint" -> TRUE
      [] OTHER -> FALSE

\* The action event ev names, with its parameters.
Act(ev) ==
    CASE ev.event = "TriggerCheckpoint" -> TriggerCheckpoint(ev.checkpoint)
      [] ev.event = "UploadFile" -> UploadFile(ev.checkpoint, ev.file)
      [] ev.event = "AcknowledgeCheckpoint" -> AcknowledgeCheckpoint(ev.checkpoint)
      [] ev.event = "CompleteCheckpoint" -> CompleteCheckpoint(ev.checkpoint)
      [] ev.event = "AbortCheckpoint" -> AbortCheckpoint(ev.checkpoint)
      [] ev.event = "SubsumeCheckpoint" -> SubsumeCheckpoint(ev.checkpoint)
      [] ev.event = "UnregisterCheckpoint" -> UnregisterCheckpoint(ev.checkpoint)
      [] ev.event = "DeleteFile" -> DeleteFile(ev.file)
      [] ev.event = "RestoreCheckpoint" -> RestoreCheckpoint

\* What each event records besides its parameters: the names of its checks (its JSON fields).
CheckNames(ev) ==
    CASE ev.event = "TriggerCheckpoint" -> <<"handle">>
      [] ev.event \in {"CompleteCheckpoint", "SubsumeCheckpoint"} -> <<"store">>
      [] ev.event = "RestoreCheckpoint" -> <<"restored">>
      [] OTHER -> <<>>

\* Check k of event ev: the recorded value agrees with the spec's.
\* - handle: the remote files the store planned for the checkpoint (reused, uploaded, private) are
\*   the spec's Handle: the engine reuses exactly the files of the newest checkpoint in the store.
\* - store: the private files in the directory after the step are the spec's store.
\* - restored: the store read back the newest checkpoint of the spec's store (0: none).
Check(ev, k) ==
    CASE k = "handle" -> refs'[ev.checkpoint] = Range(ev.handle)
      [] k = "store" -> store' = Range(ev.store)
      [] k = "restored" -> ev.restored = IF store = {} THEN 0 ELSE Newest(store)

Matches(ev) == \A j \in DOMAIN CheckNames(ev) : Check(ev, CheckNames(ev)[j])

\* The local files the handle of a TriggerCheckpoint event holds: the task's state at the trigger.
HandleState(ev) == Content(Range(ev.handle))

\* The step that matches event i.
TraceStep ==
    /\ i <= Len(Trace)
    /\ WellFormed(Trace[i])
    /\ Act(Trace[i])
    /\ Matches(Trace[i])
    /\ i' = i + 1

\* A spec step the store cannot see, before TriggerCheckpoint event i; i stays.  In this order:
\* a checkpoint in flight that the store never received fails (AbortCheckpoint: it uploaded
\* nothing); an id the store skipped is triggered (it fails next); the task's state moves to the
\* handle's: a compaction of the files the handle no longer holds (all of them, or the prefix a
\* materialisation merged: a rebase keeps the files written after it) if there are any, else a
\* write.  Each step adds the file the handle holds next (local files are numbered in the order
\* the store first saw them: the merged file comes before the segments written after it), so
\* none is a guess.
Hidden ==
    /\ i <= Len(Trace)
    /\ Trace[i].event = "TriggerCheckpoint"
    /\ WellFormed(Trace[i])
    /\ LET c == Trace[i].checkpoint
           skipped == {d \in CheckpointIds : d < c /\ ckpt[d] = "none"}
           target == HandleState(Trace[i])
       IN CASE InFlight # {} -> AbortCheckpoint(MinOf(InFlight))
            [] skipped # {} -> TriggerCheckpoint(MinOf(skipped))
            [] db # target /\ nextFile \in target ->
                   IF db \ target # {} THEN CompactState(db \ target) ELSE WriteState
            [] OTHER -> FALSE
    /\ UNCHANGED i

\* Why event i is not explained: whether its parameters make sense, whether the action it names
\* is enabled with them, and which checks fail.  Printed as one line the validator parses.
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
    CASE ev.event = "TriggerCheckpoint" ->
              IF \E o \in Range(ev.handle) : o[2] # ev.checkpoint
                THEN "reuses shared files of the newest checkpoint" ELSE "uploads every file"
      [] ev.event = "DeleteFile" -> IF ev.file[1] = 0 THEN "a private file" ELSE "a shared file"
      [] ev.event = "UnregisterCheckpoint" ->
              IF \E o \in SharedRefs(ev.checkpoint) : refCount[o] = 1
                THEN "some shared files unreferenced" ELSE "every shared file still referenced"
      [] ev.event = "RestoreCheckpoint" ->
              IF store = {} THEN "from nothing" ELSE "from the newest checkpoint"
      [] OTHER -> "step"

BranchTable ==
    {<<"TriggerCheckpoint", b>> : b \in {"reuses shared files of the newest checkpoint", "uploads every file"}}
    \cup {<<"DeleteFile", b>> : b \in {"a private file", "a shared file"}}
    \cup {<<"UnregisterCheckpoint", b>> : b \in {"some shared files unreferenced", "every shared file still referenced"}}
    \cup {<<"RestoreCheckpoint", b>> : b \in {"from nothing", "from the newest checkpoint"}}
    \cup {<<e, "step">> : e \in {"UploadFile", "AcknowledgeCheckpoint", "CompleteCheckpoint", "AbortCheckpoint",
                                 "SubsumeCheckpoint"}}
ASSUME PrintT(<<"TRACE-BRANCHES", BranchTable>>)

CoveredStep == TraceStep /\ PrintT(<<"TRACE-STEP", i, Trace[i].event, Branch(Trace[i])>>)

TraceNext == CoveredStep \/ Hidden \/ Unexplained

TraceInit == Init /\ i = 1

TraceBehavior == TraceInit /\ [][TraceNext]_traceVars

\* Violated exactly when TLC has matched every event: the trace is accepted.
TraceNotFullyMatchedInv == i <= Len(Trace)
=============================================================================
