------------------------- MODULE AtLeastOnceCheckpoint -------------------------
(***************************************************************************)
(* At-least-once barriers, as Flink's AT_LEAST_ONCE mode implements them   *)
(* (CheckpointBarrierTracker).  A task never blocks an input: it counts    *)
(* the barriers of a checkpoint as they arrive, keeps reading every input, *)
(* and snapshots when the last input's barrier has arrived (an ended input *)
(* counts as arrived).  Records that arrive on an input after its barrier  *)
(* and before the snapshot are in the snapshot although their sources will *)
(* replay them after a restore: nothing is lost (NoSkipInv,                *)
(* AtLeastOnceInv), some records are counted twice (NoDoubleCountInv      *)
(* fails, MCAtLeastOnceCheckpoint_AtLeastOnce.cfg).  The cost of the cut   *)
(* is paid in duplicates, neither in latency nor in storage.              *)
(*                                                                         *)
(* The tracker follows several checkpoints per task at once, as Flink's    *)
(* does: per checkpoint, the inputs whose barrier has arrived.  A barrier  *)
(* of a checkpoint newer than every one the task knows starts tracking it  *)
(* and leaves the older ones tracked (it subsumes nothing yet); when every *)
(* input of a tracked checkpoint has delivered its barrier or ended, the   *)
(* task snapshots it and drops every older one (subsumed); a barrier of a  *)
(* checkpoint older than the newest one the task knows that it does not    *)
(* track is dropped; a cancellation barrier or an abort notification of a  *)
(* tracked (or newer) checkpoint drops it and every older one and forwards *)
(* the cancellation.  Two checkpoints are tracked at once when a newer     *)
(* barrier comes first on some input: concurrent checkpoints              *)
(* (MaxConcurrent > 1), or, with aborts reaching the tasks, a source that  *)
(* skipped an aborted checkpoint.  Flink: CheckpointBarrierTracker        *)
(* (processBarrier, processCancellationBarrier,                           *)
(* checkAlignmentOnEndOfPartitionIfEnabled); CheckpointBarrierTrackerTest *)
(* (testCompleteCheckpointsOnLateBarriers: the barriers of a later         *)
(* checkpoint come before the last one of an earlier one and both         *)
(* complete; testMultiChannelSkippingCheckpoints: a completed newer        *)
(* checkpoint drops the older pending one; testInterleavedCancellation-    *)
(* Barriers; testTriggerCheckpointsWithEndOfPartition: end of partition   *)
(* completes the newest pending checkpoint it completes).  Where the       *)
(* engine differs from Flink (it declines the dropped older checkpoints,  *)
(* and forwards one cancellation per abort): docs/flink-scenarios.md.      *)
(*                                                                         *)
(* Why several: a tracker of one checkpoint per task                       *)
(* (AlignedCheckpoint.tla without blocking, a newer barrier subsuming the  *)
(* older one) agrees with this one only while at most one checkpoint's     *)
(* barriers travel at a time.  With aborts reaching the tasks two travel   *)
(* at once, and Flink's tracker, like the engine, tracks both: trace       *)
(* validation rejected 5 of 50 seeded engine runs against the              *)
(* one-checkpoint tracker (docs/trace-validation.md).                      *)
(*                                                                         *)
(* The state of the tracker: handling[t] and arrived[t] (Dataflow.tla) are *)
(* the newest checkpoint t tracks and its arrived inputs; the older ones   *)
(* are in olderTracked[t], a variable of this module only (the other       *)
(* protocols never track more than one).                                  *)
(*                                                                         *)
(* Place in the whole: the third mode beside AlignedCheckpoint.tla and     *)
(* UnalignedCheckpoint.tla; MCAtLeastOnceCheckpoint.tla gives the models.  *)
(* Java: BarrierMode at-least-once (--mode at-least-once), the handler     *)
(* states AtLeastOnceIdle and AtLeastOnceTracking.                         *)
(***************************************************************************)
EXTENDS Dataflow, CutInvariants

VARIABLE
    olderTracked   \* olderTracked[t]: the checkpoints older than handling[t] that task t still
                   \* tracks, each mapped to the inputs whose barrier of it has arrived
                   \* (Java: AtLeastOnceTracking's pending map without its newest entry)

alVars == <<vars, olderTracked>>

\* The aligned step rules that are the tracker's too: a source's barrier, a record (the
\* aligned ProcessRecord's ForwardRecord: a tracker never blocks an input).
Tracker == INSTANCE AlignedCheckpoint

NothingTracked == [d \in {} |-> {}]

\* Given the tracker m and a checkpoint c it tracks whose barrier arrived: the checkpoint the
\* arrival counts for, c itself (a bug model substitutes another, MCAtLeastOnceCheckpoint.tla).
ArrivalCountsFor(m, c) == c

AtLeastOnceInit == Init /\ olderTracked = [t \in Operators |-> NothingTracked]

\* The largest element of the finite, non-empty set of numbers S.
SetMax(S) == CHOOSE m \in S : \A n \in S : n <= m

\* The checkpoints operator t tracks, each with its arrived inputs (Java: AtLeastOnceTracking's
\* pending map; empty: AtLeastOnceIdle).
Tracked(t) == [d \in DOMAIN olderTracked[t] \cup (IF handling[t] # 0 THEN {handling[t]} ELSE {}) |->
                  IF d = handling[t] THEN arrived[t] ELSE olderTracked[t][d]]

\* The tracker of t is m after this step: its newest checkpoint in handling and arrived,
\* the others in olderTracked.
Store(t, m) ==
    LET n == IF DOMAIN m = {} THEN 0 ELSE SetMax(DOMAIN m) IN
    /\ handling' = [handling EXCEPT ![t] = n]
    /\ arrived' = [arrived EXCEPT ![t] = IF n = 0 THEN {} ELSE m[n]]
    /\ olderTracked' = [olderTracked EXCEPT ![t] = [d \in DOMAIN m \ {n} |-> m[d]]]

\* The entries of tracker m newer than c.
NewerThan(m, c) == [d \in {d \in DOMAIN m : d > c} |-> m[d]]

\* Given arrived inputs a and ended inputs x, every input of t has delivered the barrier or
\* ended (FLIP-147, ArrivedWithEnded).
AllArrived(t, a, x) == ArrivedWithEnded(a, x) = InputsOf(t)

\* The checkpoints of tracker m that t can snapshot with ended inputs x.
Complete(t, m, x) == {d \in DOMAIN m : AllArrived(t, m[d], x)}

\* Operator t's tracker becomes m (ended inputs x), after the channels ch: if a tracked
\* checkpoint has every input arrived, t snapshots the newest such d, forwards barrier d
\* behind its output, acknowledges d and drops d and every older one (subsumed; Flink:
\* processBarrier polls the prior pending checkpoints); else it keeps tracking m.
Track(t, m, x, ch) ==
    IF Complete(t, m, x) # {}
      THEN LET d == SetMax(Complete(t, m, x)) IN
           /\ snapProcessed' = [snapProcessed EXCEPT ![d][t] = processed[t]]
           /\ chan' = Enqueue(ch, OutputsOf(t), [ckpt |-> d])
           /\ Store(t, NewerThan(m, d))
           /\ Acknowledge(t, d)
           /\ SinkSnapshot({t}, {d})
      ELSE /\ chan' = ch
           /\ Store(t, m)
           /\ UNCHANGED <<snapProcessed, acked, sinkVars>>

\* Source s records its offset in the oldest due checkpoint c, appends barrier c behind
\* the records it has sent, and acknowledges c.
\* Implemented by SourceTask.injectBarrier(c).
InjectBarrier(s, c) == Tracker!InjectBarrier(s, c) /\ UNCHANGED olderTracked

\* Operator t takes the record at the head of input e (never blocked), counts it and
\* sends it on.  Implemented by OperatorTask.processRecord(e).
ProcessRecord(t, e) == Tracker!ForwardRecord(t, e) /\ UNCHANGED olderTracked

\* Operator t takes barrier c from input e.
\* - c is tracked: e has arrived for c (Track).
\* - c is newer than every checkpoint t knows: t tracks it too, with e arrived; the older
\*   ones stay tracked (Flink: a new CheckpointBarrierCount behind the pending ones).
\* - otherwise c is obsolete at t (finished, dropped, abandoned or skipped): dropped.
\* Implemented by OperatorTask.receiveBarrier(e) (AtLeastOnceTracking.barrierReceived).
ReceiveBarrier(t, e) ==
    LET c == Head(chan[e]).ckpt
        m == Tracked(t)
        taken == [chan EXCEPT ![e] = Tail(@)]
    IN
    /\ chan[e] # <<>>
    /\ IsBarrier(Head(chan[e]))
    /\ CASE c \in DOMAIN m ->
              /\ Track(t, [m EXCEPT ![ArrivalCountsFor(m, c)] = @ \cup {e}], endedInputs[t], taken)
              /\ UNCHANGED current
         [] c > current[t] ->
              /\ current' = [current EXCEPT ![t] = c]
              /\ Track(t, [d \in DOMAIN m \cup {c} |-> IF d = c THEN {e} ELSE m[d]],
                       endedInputs[t], taken)
         [] OTHER ->
              /\ chan' = taken
              /\ UNCHANGED <<handling, arrived, olderTracked, current, snapProcessed, acked,
                             sinkVars>>
    /\ UNCHANGED <<sourceVars, processed, ckpt, snapOffset, snapChan, latest,
                   discardedUpTo, failures, endedInputs, endedSources>>

\* Operator t gives up checkpoint c, with the channels ch before: it drops c and every older
\* tracked checkpoint, goes past c (later barriers of c are obsolete) and forwards a
\* cancellation barrier of c; newer tracked checkpoints stay.  Flink:
\* processCancellationBarrier removes every pending checkpoint up to c.
Abandon(t, c, ch) ==
    /\ current' = [current EXCEPT ![t] = IF c > @ THEN c ELSE @]
    /\ Store(t, NewerThan(Tracked(t), c))
    /\ chan' = Enqueue(ch, OutputsOf(t), CancelBarrier(c))

\* Task t may learn that c is aborted: c is aborted, its barriers live, and t tracks c or has
\* not seen it yet (Dataflow's AbortNews, with every tracked checkpoint).
TrackerAbortNews(t, c) ==
    /\ AbortsReachTasks
    /\ ckpt[c] = "aborted" /\ Live(c)
    /\ c > current[t] \/ c \in DOMAIN Tracked(t)

\* The coordinator tells task t that c is aborted: a source that has not injected c never
\* will (SkipBarrier); an operator abandons it.
\* Implemented by SourceTask.notifyCheckpointAborted(c) and
\* OperatorTask.notifyCheckpointAborted(c).
NotifyCheckpointAborted(t, c) ==
    IF t \in Sources THEN SkipBarrier(t, c) /\ UNCHANGED olderTracked
    ELSE /\ TrackerAbortNews(t, c)
         /\ Abandon(t, c, chan)
         /\ UNCHANGED <<sourceVars, processed, coordinatorVars, failures, endedInputs,
                        endedSources, sinkVars>>

\* Operator t takes a cancellation barrier of c from input e: if t tracks c or has not gone
\* past it, it abandons c; otherwise the cancellation is dropped (Flink: a trailing
\* cancellation barrier of a checkpoint already cancelled).
\* Implemented by OperatorTask.receiveCancelBarrier(e).
ReceiveCancelBarrier(t, e) ==
    LET c == Head(chan[e]).cancel
        taken == [chan EXCEPT ![e] = Tail(@)]
    IN
    /\ chan[e] # <<>>
    /\ IsCancelBarrier(Head(chan[e]))
    /\ IF c > current[t] \/ c \in DOMAIN Tracked(t)
         THEN Abandon(t, c, taken)
         ELSE /\ chan' = taken
              /\ UNCHANGED <<handling, arrived, olderTracked, current>>
    /\ UNCHANGED <<sourceVars, processed, coordinatorVars, failures, endedInputs,
                   endedSources, sinkVars>>

\* Operator t takes end of partition from input e: e has ended and counts as arrived for
\* every tracked checkpoint and every later one.  If that completes a tracked checkpoint, t
\* snapshots the newest one it completes and drops the older ones (Flink:
\* checkAlignmentOnEndOfPartitionIfEnabled); if every input has ended, t ends: the live
\* checkpoints it has not reached record its final state, and it forwards end of partition
\* on its outputs (behind everything it sent).
\* Implemented by OperatorTask.receiveEndOfPartition(e).
ReceiveEndOfPartition(t, e) ==
    LET x == endedInputs[t] \cup {e}
        taken == [chan EXCEPT ![e] = Tail(@)]
        m == Tracked(t)
        done == Complete(t, m, x)
        d == SetMax(done)
        \* after completing d (if any): channels, snapshots and acknowledgements
        ch1 == IF done # {} THEN Enqueue(taken, OutputsOf(t), [ckpt |-> d]) ELSE taken
        sp1 == IF done # {} THEN [snapProcessed EXCEPT ![d][t] = processed[t]] ELSE snapProcessed
        ak1 == IF done # {} THEN [acked EXCEPT ![d] = @ \cup {t}] ELSE acked
        ends == x = InputsOf(t)
        \* the checkpoints t snapshots in this step (a sink pre-commits in the oldest)
        snaps == (IF done # {} THEN {d} ELSE {})
                   \cup (IF ends THEN {k \in CheckpointIds : Live(k) /\ k > current[t]} ELSE {})
    IN
    /\ chan[e] # <<>>
    /\ IsEndOfPartition(Head(chan[e]))
    /\ endedInputs' = [endedInputs EXCEPT ![t] = x]
    /\ chan' = IF ends THEN Enqueue(ch1, OutputsOf(t), EndOfPartition) ELSE ch1
    /\ snapProcessed' = IF ends THEN FinalSnapshot(sp1, t, current[t]) ELSE sp1
    /\ acked' = IF ends THEN FinalAck(ak1, t, current[t]) ELSE ak1
    /\ SinkSnapshot({t}, snaps)
    /\ IF done # {} THEN Store(t, NewerThan(m, d))
                    ELSE UNCHANGED <<handling, arrived, olderTracked>>
    /\ UNCHANGED <<sourceVars, processed, ckpt, snapOffset, snapChan, latest, discardedUpTo,
                   failures, current, endedSources>>

\* The shared steps of Dataflow.tla, framed for the tracker (which they leave alone; a failure
\* clears it), as AlternatingCheckpoint.tla frames them for its variables.  Each is the step of
\* Dataflow.tla of the same name without the suffix (docs/vocabulary.md).
TriggerCheckpointAtLeastOnce(c) == TriggerCheckpoint(c) /\ UNCHANGED olderTracked
EmitRecordAtLeastOnce(s) == EmitRecord(s) /\ UNCHANGED olderTracked
CompleteCheckpointAtLeastOnce(c) == CompleteCheckpoint(c) /\ UNCHANGED olderTracked
AbortCheckpointAtLeastOnce(c) == AbortCheckpoint(c) /\ UNCHANGED olderTracked
SendEndOfPartitionAtLeastOnce(s) == SendEndOfPartition(s) /\ UNCHANGED olderTracked
NotifyCheckpointCompleteAtLeastOnce(t, c) == NotifyCheckpointComplete(t, c) /\ UNCHANGED olderTracked
FailAndRestoreAtLeastOnce == FailAndRestore /\ olderTracked' = [t \in Operators |-> NothingTracked]

\* The steps that move data, barriers and news of aborts forward.
Progress ==
    \/ \E c \in CheckpointIds : CompleteCheckpointAtLeastOnce(c)
    \/ \E s \in Sources : \/ EmitRecordAtLeastOnce(s) \/ SendEndOfPartitionAtLeastOnce(s)
                         \/ \E c \in CheckpointIds : InjectBarrier(s, c)
    \/ \E t \in Tasks, c \in CheckpointIds : NotifyCheckpointAborted(t, c)
    \/ \E t \in Operators : \E e \in InputsOf(t) :
           \/ ProcessRecord(t, e) \/ ReceiveBarrier(t, e)
           \/ ReceiveCancelBarrier(t, e) \/ ReceiveEndOfPartition(t, e)
    \/ \E t \in SinkTasks, c \in CheckpointIds : NotifyCheckpointCompleteAtLeastOnce(t, c)

Next ==
    \/ Progress
    \/ \E c \in CheckpointIds : TriggerCheckpointAtLeastOnce(c) \/ AbortCheckpointAtLeastOnce(c)
    \/ FailAndRestoreAtLeastOnce
    \/ Terminating /\ UNCHANGED olderTracked

Spec == AtLeastOnceInit /\ [][Next]_alVars

\* Weak fairness on progress as a whole, as in the other two modes.
FairSpec == Spec /\ WF_alVars(Progress)
                 /\ WF_alVars(TriggerFinalCheckpoint /\ UNCHANGED olderTracked)

-----------------------------------------------------------------------------
\* At-least-once checkpoints persist no channel state: the cut lies at the barriers.
AtLeastOnceNoChannelStateInv ==
    \A c \in CheckpointIds, e \in Edges : snapChan[c][e] = <<>>

\* The tracker has its type: every older tracked checkpoint is older than the newest
\* (handling[t], which is then not 0) and has at least one input arrived.
\* Spec only (AtLeastOnceTracking holds it by construction: its pending map).
AtLeastOnceTrackerTypeInv ==
    \A t \in Operators :
        /\ DOMAIN olderTracked[t] \subseteq 1..MaxCheckpointId
        /\ \A d \in DOMAIN olderTracked[t] :
              /\ d < handling[t]
              /\ olderTracked[t][d] # {}
              /\ olderTracked[t][d] \subseteq InputsOf(t)

\* An aborted checkpoint the tracker follows is eventually dropped: the news of the abort, a
\* cancellation barrier from upstream, or the snapshot of a newer checkpoint reaches the task.
\* The guarantee of the mode does not need it (a tracker that kept an aborted checkpoint would
\* skip nothing); Flink's tracker does it, and without it the tracker's memory only grows.
\* Checked under FairSpec.
TrackerReleasesProp ==
    \A t \in Operators, c \in CheckpointIds :
        (c \in DOMAIN Tracked(t) /\ ckpt[c] = "aborted") ~> c \notin DOMAIN Tracked(t)

=============================================================================
Models and TLC figures: MCAtLeastOnceCheckpoint.tla (after its ====).
