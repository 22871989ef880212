------------------------------ MODULE CutLemmas ------------------------------
(***************************************************************************)
(* The vocabulary of the inductive invariants AlignedIndInv.tla and        *)
(* UnalignedIndInv.tla: what a sender has sent on an edge, what it had     *)
(* sent when it took its snapshot of a checkpoint, where a barrier stands  *)
(* in a channel, and the lemmas both protocols share (bookkeeping of       *)
(* checkpoints, flow conservation).  Each lemma is a state predicate; the  *)
(* inductive invariants are conjunctions of them.  docs/inductive-         *)
(* invariant.md reads them as the proof of why barriers give a consistent  *)
(* cut.                                                                    *)
(***************************************************************************)
EXTENDS CutInvariants

\* Copies of record r in the sequence q (a channel's content or a persisted state).
InSeq(q, r) == CopiesInSeq(r, q)
\* Copies of record r queued in channel e now.
InChan(e, r) == InSeq(chan[e], r)
\* The barrier of checkpoint c, as a message.
Barrier(c) == [ckpt |-> c]
\* How many barriers of c the sequence q holds.
BarriersIn(q, c) == CopiesInSeq(Barrier(c), q)
\* The position of the (first) barrier of c in q; only used when q holds one.
BarrierPos(q, c) == CHOOSE i \in 1..Len(q) : q[i] = Barrier(c)
\* Copies of r in q ahead of / behind the barrier of c.
AheadOf(q, c, r) == InSeq(SubSeq(q, 1, BarrierPos(q, c) - 1), r)
BehindOf(q, c, r) == InSeq(SubSeq(q, BarrierPos(q, c) + 1, Len(q)), r)

\* How many copies of r the sender of e has sent on e so far: a source sends each of its
\* records below its offset on the edges of the record's route, an operator sends each
\* record it processed on the edges of its route.
Sent(e, r) ==
    LET v == e[1] IN
    IF e \notin RouteOf(v, r) THEN 0
    ELSE IF v \in Sources THEN (IF r.off < offset[v] THEN 1 ELSE 0)
    ELSE CopiesIn(r, processed[v])

\* The same, as the sender's own snapshot in checkpoint c records it: what the sender had
\* sent on e when it took its snapshot of c.
SentBefore(c, e, r) ==
    LET v == e[1] IN
    IF e \notin RouteOf(v, r) THEN 0
    ELSE IF v \in Sources THEN (IF r.off < snapOffset[c][v] THEN 1 ELSE 0)
    ELSE CopiesIn(r, snapProcessed[c][v])

\* Copies of r that checkpoint c persisted as channel e's state.
Persisted(c, e, r) == InSeq(snapChan[c][e], r)

\* The sum of F(e) over the inputs of operator t.
SumIn(t, F(_)) == SumOver(InputsOf(t), [e \in InputsOf(t) |-> F(e)])

-----------------------------------------------------------------------------
(* Lemmas both protocols share.                                            *)

\* Lemma (bookkeeping).  Checkpoints are triggered in id order; a failure discards exactly
\* the checkpoints triggered before it, so every pending checkpoint is live; a completed
\* checkpoint was acknowledged by every task and is not newer than the latest; an
\* untriggered one has no acknowledgement; nothing is discarded before the first failure;
\* no more checkpoints are in flight than MaxConcurrent.
BookkeepingLemma ==
    /\ \A c \in CheckpointIds : Triggered(c) => \A d \in 1..(c - 1) : Triggered(d)
    /\ \A c \in CheckpointIds : c <= discardedUpTo => Triggered(c)
    /\ failures = 0 => discardedUpTo = 0
    /\ \A c \in CheckpointIds : ckpt[c] = "pending" => c > discardedUpTo
    /\ \A c \in CheckpointIds : ckpt[c] = "completed" => acked[c] = Tasks /\ c <= latest
    /\ \A c \in CheckpointIds : ~Triggered(c) => acked[c] = {}
    /\ Cardinality({c \in CheckpointIds : InFlight(c)}) <= MaxConcurrent

\* Lemma (a source's snapshot).  A source's recorded offset in a checkpoint it has not
\* acknowledged is still the initial 0, and in a live one it has, it is at most where the
\* source is now (sources only go back on a failure, which kills every live checkpoint).
SourceSnapshotLemma ==
    \A c \in CheckpointIds, s \in Sources :
        /\ s \notin acked[c] => snapOffset[c][s] = 0
        /\ Live(c) /\ s \in acked[c] => snapOffset[c][s] <= offset[s]

\* Lemma (flow conservation).  Every copy of a record an operator's senders have sent it
\* has either been processed or is still queued: nothing is lost or made up in transit.
\* After a restore this holds because the restored checkpoint is a consistent cut.
FlowLemma ==
    \A t \in Operators, r \in Records :
        CopiesIn(r, processed[t]) + SumIn(t, LAMBDA e : InChan(e, r)) = SumIn(t, LAMBDA e : Sent(e, r))

\* Lemma (channels carry routed records).  A channel holds a record no more often than its
\* sender has sent it there.
RoutedLemma(e, q) == \A r \in Records : InSeq(q, r) <= Sent(e, r)

=============================================================================
Used by AlignedIndInv.tla and UnalignedIndInv.tla; figures there.
