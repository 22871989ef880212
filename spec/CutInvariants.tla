---------------------------- MODULE CutInvariants ----------------------------
(***************************************************************************)
(* What a consistent cut is, and what exactly-once recovery means, stated  *)
(* over the variables of Dataflow.tla.  Both protocol modules EXTEND this  *)
(* one and every model checks these invariants.  The Java engine checks    *)
(* the same formulas under the same names in                               *)
(* dev.consistentcut.invariants.CutInvariants.                             *)
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
    /\ handling \in [Operators -> 0..MaxCheckpoints]
    /\ \A t \in Operators : arrived[t] \subseteq InputsOf(t)
                            /\ (handling[t] = 0 <=> arrived[t] = {})
    /\ ckpt \in [CheckpointIds -> {"none", "pending", "completed", "aborted"}]
    /\ acked \in [CheckpointIds -> SUBSET Tasks]
    /\ snapOffset \in [CheckpointIds -> [Sources -> 0..RecordsPerSource]]
    /\ \A c \in CheckpointIds, t \in Operators :
            IsABag(snapProcessed[c][t]) /\ BagToSet(snapProcessed[c][t]) \subseteq Records
    /\ snapChan \in [CheckpointIds -> [Edges -> Seq(Records)]]
    /\ latest \in 0..MaxCheckpoints /\ (latest # 0 => ckpt[latest] = "completed")
    /\ discardedUpTo \in 0..MaxCheckpoints
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

=============================================================================
