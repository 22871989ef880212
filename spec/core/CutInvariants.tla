---------------------------- MODULE CutInvariants ----------------------------
(***************************************************************************)
(* What a consistent cut is, and what exactly-once recovery means, stated  *)
(* over the variables of Dataflow.tla.  Both protocol modules EXTEND this  *)
(* one and every model checks these invariants.  The Java engine checks    *)
(* the same formulas under the same names in                               *)
(* dev.consistentcut.check.CutInvariants.                                  *)
(*                                                                         *)
(* The seed example, in these terms: a source has read to offset 1,000     *)
(* and the count operator t has processed records 0..999.  A checkpoint    *)
(* with snapOffset = 1,000 and those 1,000 records in snapProcessed[c][t]  *)
(* restores correctly.  snapOffset = 950 would replay 950..999 into a      *)
(* state that already counts them (NoDoubleCountInv fails); snapOffset =   *)
(* 1,050 would never replay 1,000..1,049 (NoSkipInv fails).                *)
(***************************************************************************)
EXTENDS Dataflow

\* Every variable has its type.
TypeInv ==
    /\ offset \in [Sources -> 0..RecordsPerSource]
    /\ chan \in [Edges -> Seq(Messages)]
    /\ \A t \in Operators : IsABag(processed[t]) /\ BagToSet(processed[t]) \subseteq Records
    /\ handling \in [Operators -> 0..MaxCheckpointId]
    /\ \A t \in Operators : arrived[t] \subseteq InputsOf(t)
                            /\ (handling[t] = 0 <=> arrived[t] = {})
    /\ ckpt \in [CheckpointIds -> {"none", "pending", "completed", "aborted"}]
    /\ acked \in [CheckpointIds -> SUBSET Tasks]
    /\ snapOffset \in [CheckpointIds -> [Sources -> 0..RecordsPerSource]]
    /\ \A c \in CheckpointIds, t \in Operators :
            IsABag(snapProcessed[c][t]) /\ BagToSet(snapProcessed[c][t]) \subseteq Records
    /\ snapChan \in [CheckpointIds -> [Edges -> Seq(Records)]]
    /\ latest \in 0..MaxCheckpointId /\ (latest # 0 => ckpt[latest] = "completed")
    /\ discardedUpTo \in 0..MaxCheckpointId
    /\ failures \in 0..MaxFailures

-----------------------------------------------------------------------------
(* The consistent cut.  After a restore from c, operator t holds r         *)
(* snapProcessed[c][t][r] times already, and each copy of r put back into  *)
(* channel e will reach t along Paths(e[2], r, t) routes; that must add up *)
(* to what a failure-free run gives t for the prefix c recorded: one per   *)
(* route from r's source if r lies below the recorded offset, else none.   *)

\* How often operator t reflects record r after a restore from checkpoint c.
CutCount(c, t, r) ==
    CopiesIn(r, snapProcessed[c][t])
      + SumOver(Edges, [e \in Edges |-> CopiesInSeq(r, snapChan[c][e]) * Paths(e[2], r, t)])

\* How often operator t must reflect record r if c is a consistent cut.
CutTarget(c, t, r) ==
    IF r.off < snapOffset[c][r.src] THEN Paths(r.src, r, t) ELSE 0

\* In every completed checkpoint, no operator would count a record more often than it
\* has routes to it after a restore.
NoDoubleCountInv ==
    \A c \in CheckpointIds : ckpt[c] = "completed" =>
        \A t \in Operators, r \in Records : CutCount(c, t, r) <= CutTarget(c, t, r)

\* In every completed checkpoint, no operator would miss a record of the cut after a restore.
NoSkipInv ==
    \A c \in CheckpointIds : ckpt[c] = "completed" =>
        \A t \in Operators, r \in Records : CutCount(c, t, r) >= CutTarget(c, t, r)

\* Every completed checkpoint is a consistent cut: nothing counted twice, nothing skipped.
ConsistentCutInv == NoDoubleCountInv /\ NoSkipInv

\* Once every source is exhausted and no channel holds a record, every operator has
\* processed every record exactly once per route to it, whatever failures happened.
ExactlyOnceInv ==
    Drained => \A t \in Operators, r \in Records :
                   CopiesIn(r, processed[t]) = Paths(r.src, r, t)

\* Once every source is exhausted and no channel holds a record, every operator has
\* processed every record at least once per route to it: what at-least-once mode promises.
AtLeastOnceInv ==
    Drained => \A t \in Operators, r \in Records :
                   CopiesIn(r, processed[t]) >= Paths(r.src, r, t)

-----------------------------------------------------------------------------
(* The blind spots of the counting invariants closed.  Each                *)
(* claim below fails on a named bad definition in an MC module (see        *)
(* spec/*/models.tsv); docs/spec.md lists which model shows which.         *)

\* In the sequence q, the records of each source appear in strictly increasing offset order.
InSourceOrder(q) ==
    \A i, j \in 1..Len(q) :
        (i < j /\ IsRecord(q[i]) /\ IsRecord(q[j]) /\ q[i].src = q[j].src) => q[i].off < q[j].off

\* (1) Order.  Every channel is FIFO per source at every moment, across restores: after a
\* restore from c, channel e holds c's persisted state of e (receiver-side part, then
\* sender-side part, each in the order it was sent), and every record of source s that
\* follows is a replay from s's recorded offset, above every persisted record of s.  So
\* restoring a channel's state in the wrong order fails here.
FifoChannelInv == \A e \in Edges : InSourceOrder(chan[e])

\* (1) Order of what is persisted: the channel state of every checkpoint, on every edge, is
\* in the order its records were sent (per source).  Storing the receiver-side and the
\* sender-side parts in the wrong order fails here.
FifoChannelStateInv == \A c \in CheckpointIds, e \in Edges : InSourceOrder(snapChan[c][e])

\* The newest completed checkpoint, 0 if none.
NewestCompleted ==
    IF \E c \in CheckpointIds : ckpt[c] = "completed"
      THEN CHOOSE c \in CheckpointIds : ckpt[c] = "completed" /\
                                        \A d \in CheckpointIds : ckpt[d] = "completed" => d <= c
      ELSE 0

\* (2) The restore point is the newest completed checkpoint.  With CheckpointStatusProp
\* (a completed checkpoint stays completed) it never moves backwards.
RestorePointInv == latest = NewestCompleted

\* (2) The restore point never moves backwards (an action property).
RestorePointMonotoneProp == [][latest' >= latest]_latest

\* (3) A checkpoint's status only moves forward: none -> pending -> completed or aborted.
\* In particular an aborted checkpoint never completes and a completed one never aborts.
CheckpointStatusProp ==
    [][\A c \in CheckpointIds :
          \/ ckpt'[c] = ckpt[c]
          \/ <<ckpt[c], ckpt'[c]>> \in {<<"none", "pending">>, <<"pending", "completed">>,
                                        <<"pending", "aborted">>}]_ckpt

\* (3) A failure aborts every pending checkpoint: a pending checkpoint's barriers are live
\* (a checkpoint whose barriers a failure destroyed is never pending).
FailureAbortsPendingInv == \A c \in CheckpointIds : ckpt[c] = "pending" => c > discardedUpTo

\* (4) The coordinator keeps checkpointing: every checkpoint id is eventually used (checked
\* under fairness on triggering, with timeouts and failures allowed).
KeepsCheckpointingProp == \A c \in CheckpointIds : <>(ckpt[c] # "none")

\* (6) Unaligned barriers overtake: no checkpoint barrier ever waits behind a record in a
\* channel (it goes to the head).  Holds for UnalignedCheckpoint only; classic
\* Chandy-Lamport placement (the barrier behind the records) fails it.
BarrierOvertakesInv ==
    \A e \in Edges : \A i \in 1..Len(chan[e]) :
        IsBarrier(chan[e][i]) => \A j \in 1..(i - 1) : ~IsRecord(chan[e][j])

-----------------------------------------------------------------------------
(* End-to-end exactly-once, over what an external reader sees             *)
(* (committed, the transactional sinks' committed output; models with     *)
(* TransactionalSink).                                                    *)

\* How often record r must be in the committed output: once per route to each sink.
SinkRoutes(r) == SumOver(SinkTasks, [t \in SinkTasks |-> Paths(r.src, r, t)])

\* At every moment, no record is in the committed output more often than its routes to the
\* sinks: a reader never sees a duplicate, whatever failures happen.
NoDuplicateOutputInv == \A r \in Records : CopiesIn(r, committed) <= SinkRoutes(r)

\* When the job has finished (Terminated: the run has ended and, with the sink's final
\* checkpoint, that checkpoint has completed and been committed), the committed output holds
\* every record exactly as often as its routes to the sinks, whatever failures happened.
OutputExactlyOnceInv ==
    Terminated => \A r \in Records : CopiesIn(r, committed) = SinkRoutes(r)

\* At-least-once mode's promise for the output: when the job has finished, the committed output
\* holds every record at least as often as its routes to the sinks (a restore may commit a
\* record again, never lose one), whatever failures happened.
OutputAtLeastOnceInv ==
    Terminated => \A r \in Records : CopiesIn(r, committed) >= SinkRoutes(r)

=============================================================================
Every model checks these invariants (or, for a model that must fail, names the one
TLC must report): MCAlignedCheckpoint.tla and MCUnalignedCheckpoint.tla record the figures.
NoDuplicateOutputInv and OutputExactlyOnceInv are checked by the models with the
transactional sink (Sink*, and the broken sinks that must violate them): same files.
OutputAtLeastOnceInv is checked by the at-least-once models with the sink (AtLeastOnceSink*, and
AtLeastOnceBugNoRecommitOnRestore, which must violate it): spec/sink/models.tsv.
