---------------------------- MODULE AlignedIndInv ----------------------------
(***************************************************************************)
(* STATUS: for the protocols before the lifecycle merge (commit 093a978);  *)
(* see docs/inductive-invariant.md.                                        *)
(*                                                                         *)
(* An inductive invariant for aligned barriers: AlignedIndInv holds        *)
(* initially, every step of AlignedCheckpoint's Next keeps it, and it      *)
(* implies ConsistentCutInv.  So every completed checkpoint is a           *)
(* consistent cut in every reachable state, whatever the bounds, as far as *)
(* TLC's check of the two implications (MCAlignedIndInv.tla) reaches.      *)
(*                                                                         *)
(* The argument in one paragraph (docs/inductive-invariant.md goes lemma   *)
(* by lemma): a channel's barrier of c splits its records into those its   *)
(* sender sent before its snapshot of c (ahead) and after (behind:         *)
(* SentAfterBarrier).  The receiver takes only records ahead of the        *)
(* barrier, and once the barrier has arrived it takes nothing more from    *)
(* that input (BlockedInput): so when the last barrier arrives, it has     *)
(* processed, from every input, exactly what the sender had sent before    *)
(* its snapshot (Flow), and that is what it snapshots (AckedSnapshot).     *)
(* Unfolding these local equations along the DAG from the sources gives    *)
(* ConsistentCutInv.                                                       *)
(***************************************************************************)
EXTENDS AlignedCheckpoint, CutLemmas

\* Whether the barrier of c on edge e has reached e's receiver: it acknowledged c, or it
\* is aligning c and e is one of the inputs whose barrier arrived.
Received(c, e) == LET w == e[2] IN w \in acked[c] \/ (handling[w] = c /\ e \in arrived[w])

\* Lemma (acknowledgement order).  An operator acknowledges a checkpoint only after every
\* task upstream of it did: it needs the barrier of every input, which an aligned sender
\* forwards when it acknowledges.  (Not so for unaligned barriers: a sender forwards at its
\* first barrier and acknowledges at its last.)
AckClosureLemma ==
    \A c \in CheckpointIds, t \in Operators :
        t \in acked[c] => \A e \in InputsOf(t) : e[1] \in acked[c]

\* Lemma (alignment in progress).  An operator aligning c is aligning a live checkpoint it
\* has not acknowledged yet, still waits for some input's barrier, and every input whose
\* barrier arrived comes from a task that took its snapshot of c.
HandlingLemma ==
    \A t \in Operators : handling[t] # 0 =>
        /\ Live(handling[t])
        /\ t \notin acked[handling[t]]
        /\ arrived[t] # InputsOf(t)
        /\ \A e \in arrived[t] : e[1] \in acked[handling[t]]

\* Lemma (operator snapshots).  An operator's snapshot of c exists only once it has
\* acknowledged c, and then holds, of every record, exactly what its senders had sent it
\* before their own snapshots of c: the local form of a consistent cut.
AckedSnapshotLemma ==
    \A c \in CheckpointIds, t \in Operators :
        IF t \in acked[c]
          THEN \A r \in Records : CopiesIn(r, snapProcessed[c][t]) = SumIn(t, LAMBDA e : SentBefore(c, e, r))
          ELSE snapProcessed[c][t] = EmptyBag

\* Lemma (channel e may hold q), for aligned barriers:
\*  - it holds only routed records, at most Capacity of them;
\*  - it holds the barrier of c exactly once if c is live, e's sender took its snapshot of c
\*    and e's receiver has not received it, else never; barriers stand in id order;
\*  - SentAfterBarrier: the records behind the barrier of c are exactly those the sender
\*    sent after its snapshot of c;
\*  - BlockedInput: once the barrier of the checkpoint its receiver aligns has arrived, e
\*    holds exactly what the sender sent after its snapshot (the receiver takes nothing).
AlignedChannelLemma(e, q) ==
    /\ RoutedLemma(e, q)
    /\ RecordCount(q) <= Capacity
    /\ \A c \in CheckpointIds :
          /\ BarriersIn(q, c) = IF Live(c) /\ e[1] \in acked[c] /\ ~Received(c, e) THEN 1 ELSE 0
          /\ BarriersIn(q, c) = 1 =>
                /\ \A r \in Records : BehindOf(q, c, r) = Sent(e, r) - SentBefore(c, e, r)
                /\ \A d \in 1..(c - 1) : BarriersIn(q, d) = 1 => BarrierPos(q, d) < BarrierPos(q, c)
    /\ e \in arrived[e[2]] =>
          \A r \in Records : InSeq(q, r) = Sent(e, r) - SentBefore(handling[e[2]], e, r)

\* The inductive invariant: the type, the lemmas, and AlignedNoChannelStateInv (an aligned
\* checkpoint persists no channel state, so a restore leaves every channel empty).
AlignedIndInv ==
    /\ TypeInv
    /\ BookkeepingLemma
    /\ AckClosureLemma
    /\ SourceSnapshotLemma
    /\ HandlingLemma
    /\ AckedSnapshotLemma
    /\ AlignedNoChannelStateInv
    /\ FlowLemma
    /\ \A e \in Edges : AlignedChannelLemma(e, chan[e])

=============================================================================
Checked by MCAlignedIndInv.tla (figures after its ====) and docs/inductive-invariant.md.
