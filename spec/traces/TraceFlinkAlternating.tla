------------------------ MODULE TraceFlinkAlternating ------------------------
(***************************************************************************)
(* Conformance of a Flink run with alternating checkpoints (aligned with   *)
(* an alignment timeout, the header's mode "alternating") to               *)
(* AlternatingCheckpoint.tla with Flink's barriers (below): TLC accepts    *)
(* the trace iff some behaviour of the protocol shows the observed         *)
(* events, with any hidden steps between them.  What is observed, what is  *)
(* hidden and why the check is sound: TraceFlink.tla.  Hidden besides the  *)
(* other modes' steps: the alignment timeout (TimeoutAlignment) and a      *)
(* barrier's prioritization (PrioritizeBarrier), and whether a barrier     *)
(* travels aligned or overtaking; a Flink run has no savepoints            *)
(* (Savepoints is empty).  The protocol's actions and the data events'     *)
(* steps come from TraceAlternating (Act, Moves), the engine's trace       *)
(* module for this mode.                                                   *)
(* TLC tells states apart by FlinkAlternatingView (the end of the module), *)
(* which forgets what no later step or check reads.                        *)
(*                                                                         *)
(* Flink's priority barrier overtakes only what is still in the sender's   *)
(* subpartition, and an ended source still sends the barrier of its final  *)
(* checkpoint (AlternatingCheckpoint.tla, "Flink's barriers"): the .cfg    *)
(* turns both on.  A ProcessRecord event is then the spec's ProcessRecord  *)
(* or, for the record right behind a switched checkpoint's overtaking      *)
(* barrier, ProcessRecordPastBarrier (the receiver took it ahead of the    *)
(* barrier: no hidden step decides it, the event does); the ended source's *)
(* barrier is a hidden step, taken only where an operator's snapshot       *)
(* downstream of it is next.                                               *)
(***************************************************************************)
EXTENDS TraceAlternating, TraceFlink

\* The options of the protocol that Flink's barriers need (TraceFlinkAlternating.cfg).
TraceFlinkBarriers == TRUE

\* The step a Flink event is (TraceFlink's FlinkAct takes it for the events that are spec
\* actions): a record taken is the one at the channel's head or the one right behind a
\* switched checkpoint's barrier in flight, taken ahead of it; every other event as the engine
\* trace module's Act.
FlinkAlternatingAct(ev) ==
    IF ev.event = "ProcessRecord"
      THEN ProcessRecord(ev.task, ev.channel) \/ ProcessRecordPastBarrier(ev.task, ev.channel)
      ELSE Act(ev)

\* An ended source sends checkpoint c's barrier hidden only where the next event is the
\* snapshot of an operator downstream of it, of c or a later checkpoint.
MayInjectAfterEnd(s, c) ==
    LET ev == Trace[i] IN
    ev.event = "SnapshotState" /\ ev.task \in Operators /\ s \in UpstreamTable[ev.task] /\ c <= Named(ev)

\* An observed event that is no step: nothing changes, the alternating state neither.
Observe == UNCHANGED allVars

\* Operator t has taken its snapshot of c: it has acknowledged c (aligned: at the last
\* barrier; an ended task's final snapshot), or it handles c unaligned (it snapshot when it
\* switched or took c's first overtaking barrier).
Snapshotted(t, c) == t \in acked[c] \/ (handling[t] = c /\ HandlesUnaligned(t))

\* TimeoutAlignment(t, c) is needed only where MayMove lets c's barriers move at t.
MayTimeout(t, c) ==
    LET ev == Trace[i] IN
    /\ ev.event = "ProcessRecord" \/ (ev.event = "SnapshotState" /\ ev.task \in Operators)
       => t \in UpstreamTable[ev.task]
    /\ Named(ev) > 0 /\ ev.event # "InitializeState" => c <= Named(ev)

\* The hidden steps, of the kinds the rest of the trace needs (TraceFlink: May*).  An
\* alignment timeout of c, only where a barrier of c may move at t (MayMove's rules).
HiddenAction ==
    \/ \E c \in CheckpointIds : MayTrigger(c) /\ TriggerCheckpoint(c) /\ UNCHANGED alternatingVars
    \/ \E c \in CheckpointIds : MayComplete(c) /\ CompleteCheckpoint(c) /\ UNCHANGED alternatingVars
    \/ \E c \in CheckpointIds : MayAbort(c) /\ AbortCheckpoint(c) /\ UNCHANGED alternatingVars
    \/ MayFail /\ FailAndRestoreAlternating
    \/ \E s \in Sources, c \in CheckpointIds : MayInjectAfterEnd(s, c) /\ InjectBarrierAfterEnd(s, c)
    \/ \E t \in Tasks, c \in CheckpointIds : MayNotify(t, c) /\ NotifyCheckpointAborted(t, c)
    \/ \E t \in Operators : \E e \in InputsOf(t) :
           MayMove(t, e) /\ (\/ ReceiveBarrier(t, e) \/ ReceiveCancelBarrier(t, e)
                             \/ ReceiveEndOfPartition(t, e) \/ PrioritizeBarrier(t, e))
    \/ \E t \in Operators, c \in CheckpointIds :
           MayTimeout(t, c) /\ TimeoutAlignment(t, c)

\* Match the next event, take a hidden step, or (a dead end) print why not.
FlinkNext == \/ FlinkCoveredStep(FlinkAlternatingAct, Observe, Snapshotted)
             \/ HiddenStep(FlinkAlternatingAct, Observe, Snapshotted, HiddenAction)
             \/ FlinkUnexplained(FlinkAlternatingAct, Observe, Snapshotted, HiddenAction)

FlinkBehavior == TraceAlternatingInit /\ [][FlinkNext]_altTraceVars

-----------------------------------------------------------------------------
(* The state view (the .cfg's VIEW): what TLC compares to tell a state it  *)
(* has seen.  Without it, every choice the Flink run does not show (this   *)
(* checkpoint switched at this task or not, at that one or not; which      *)
(* tasks had acknowledged a checkpoint a failure then aborted) stays a     *)
(* state of its own to the end of the trace, long after the runs have      *)
(* converged: switchedAt remembers every switch, and a checkpoint's        *)
(* snapshot data stays after no step or check can read it any more.        *)
(*                                                                         *)
(* Sound: TLC still takes only the spec's steps from its initial state, so *)
(* a state past the last event that it reaches is reached by a behaviour   *)
(* of the protocol; the view only stops it exploring a state equal in view *)
(* to one it explored.  Nothing missed: two states of one view have the    *)
(* same successors up to the forgotten data, because no step or check of   *)
(* this module reads it, then or later.                                    *)
(*                                                                         *)
(* - switchedAt is history: AlternatingCheckpoint.tla reads it only in     *)
(*   invariants, which a trace check does not check.                       *)
(* - The snapshot data of checkpoint c (acked, snapOffset, snapProcessed,  *)
(*   snapChan) is read only by TriggerCheckpoint while c is "none", by     *)
(*   CompleteCheckpoint while c is pending (AllAcked), by the check of a   *)
(*   SnapshotState naming c (FlinkCheck, Snapshotted), by                  *)
(*   ProcessRecordPastBarrier while c is pending (snapChan[c]), and by     *)
(*   FailAndRestore as the latest completed checkpoint's while a failure   *)
(*   is left (failures < MaxFailures).  A step that writes it writes c's   *)
(*   own entry from c's own data or the tasks' state, never another entry  *)
(*   from it.  Once c is completed or aborted, named by no SnapshotState   *)
(*   at event i or later, and not restorable, it stays so: a checkpoint    *)
(*   never leaves "completed" or "aborted", i and failures only grow, and  *)
(*   latest only grows (completing c aborts every older pending one), so c *)
(*   is never the latest again.  Its data is then dead.                    *)
\* Per i: the checkpoint ids a SnapshotState at event i or later names (a constant table).
SnapshotNamedFrom == [k \in 1..(Len(Trace) + 1) |->
    {Trace[j].checkpoint : j \in {j \in k..Len(Trace) : Trace[j].event = "SnapshotState"}}]
\* Some step or check may still read checkpoint c's snapshot data (the comment above).
SnapshotReadLater(c) ==
    \/ ckpt[c] \in {"none", "pending"}
    \/ c \in SnapshotNamedFrom[i]
    \/ c = latest /\ failures < MaxFailures
\* f with the entries of the checkpoints no step or check reads again set to dead.
Live4View(f, dead) == [c \in CheckpointIds |-> IF SnapshotReadLater(c) THEN f[c] ELSE dead]
FlinkAlternatingView ==
    << offset, chan, processed, handling, arrived, ckpt, current, endedInputs, endedSources,
       latest, discardedUpTo, failures, sinkVars, unalignedAt, i,
       Live4View(acked, {}), Live4View(snapOffset, <<>>), Live4View(snapProcessed, <<>>),
       Live4View(snapChan, <<>>) >>
=============================================================================
