---------------------------- MODULE AlignedIndInv ----------------------------
(***************************************************************************)
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
(* ConsistentCutInv.  The lifecycle adds three facts: an ended             *)
(* sender's end of partition stands for its barrier, with its final state *)
(* as its snapshot (FinalStateLemma); a task that went past a checkpoint   *)
(* without a snapshot dooms it (Passed, Doomed in CutLemmas.tla), and the *)
(* snapshot lemmas speak of checkpoints that are not doomed; cancellation  *)
(* barriers carry no data (CancelLemma).                                   *)
(***************************************************************************)
EXTENDS AlignedCheckpoint, CutLemmas

\* Whether the barrier of c on edge e has reached e's receiver: it acknowledged c, or it
\* is aligning c and e is one of the inputs whose barrier arrived.
Received(c, e) == LET w == e[2] IN w \in acked[c] \/ (handling[w] = c /\ e \in arrived[w])

\* Lemma (acknowledgement order).  An operator acknowledges a checkpoint that is not doomed
\* only after every task upstream of it did: it needs the barrier (or the end of partition)
\* of every input, which an aligned sender forwards when it acknowledges (or sends when it
\* ends, acknowledging with its final state).  (Not so for unaligned barriers: a sender
\* forwards at its first barrier and acknowledges at its last.)  Of a doomed checkpoint a
\* sender that went past it never acknowledges, while its receiver may (an ended input
\* counts as arrived): so the lemma is not claimed for it.
\* Of a live c that is doomed, a sender that did not acknowledge c has gone past it (Passed:
\* reached c, and does not align it): it will never put a barrier of c on its output.  (An
\* operator still aligning c would: the sink sample found "c <= current" too weak.)  This
\* second part was found missing by the unaligned check of the whole lifecycle with
\* failures, where the same state breaks UnalignedIndInv: a receiver that acknowledged a
\* doomed c, a sender that has not reached c, and its InjectBarrier putting a barrier of c
\* on an input already received.
AckClosureLemma ==
    \A c \in CheckpointIds, t \in Operators :
        /\ t \in acked[c] /\ ~Doomed(c) => \A e \in InputsOf(t) : e[1] \in acked[c]
        /\ t \in acked[c] /\ Live(c) => \A e \in InputsOf(t) : e[1] \notin acked[c] => Passed(c, e[1])

\* Lemma (alignment in progress).  An operator aligning c is aligning a live checkpoint it
\* has not acknowledged yet, still waits for some input's barrier (the inputs whose barrier
\* arrived and those that ended are not all), and every input whose barrier arrived comes
\* from a task that took its snapshot of c and has not ended since (its end of partition
\* stays behind the blocked input's records).
HandlingLemma ==
    \A t \in Operators : handling[t] # 0 =>
        /\ Live(handling[t])
        /\ t \notin acked[handling[t]]
        /\ arrived[t] \cup endedInputs[t] # InputsOf(t)
        /\ arrived[t] \cap endedInputs[t] = {}
        /\ \A e \in arrived[t] : e[1] \in acked[handling[t]]

\* Lemma (operator snapshots).  An operator's snapshot of c exists only once it has
\* acknowledged c, and then, if c is not doomed, holds of every record exactly what its
\* senders had sent it before their own snapshots of c: the local form of a consistent cut.
AckedSnapshotLemma ==
    \A c \in CheckpointIds, t \in Operators :
        IF t \in acked[c]
          THEN ~Doomed(c) =>
                 \A r \in Records : CopiesIn(r, snapProcessed[c][t]) = SumIn(t, LAMBDA e : SentBefore(c, e, r))
          ELSE snapProcessed[c][t] = EmptyBag

\* Lemma (channel e may hold q), for aligned barriers:
\*  - it holds only routed records, at most Capacity of them;
\*  - it holds the barrier of c at most once, and then c is live, e's sender took its
\*    snapshot of c (and has gone to c), e's receiver has not received it, and no
\*    cancellation of c is queued with it; barriers stand in id order, ahead of any end
\*    of partition;
\*  - SentAfterBarrier: the records behind the barrier of c are exactly those the sender
\*    sent after its snapshot of c;
\*  - BlockedInput: once the barrier of the checkpoint its receiver aligns has arrived, e
\*    holds exactly what the sender sent after its snapshot (the receiver takes nothing).
AlignedChannelLemma(e, q) ==
    /\ RoutedLemma(e, q)
    /\ RecordCount(q) <= Capacity
    /\ EndLemma(e, q)
    /\ CancelLemma(e, q)
    /\ \A c \in CheckpointIds :
          /\ BarriersIn(q, c) <= 1
          /\ BarriersIn(q, c) = 1 =>
                /\ Live(c) /\ e[1] \in acked[c] /\ c <= current[e[1]] /\ ~Received(c, e)
                /\ CancelsIn(q, c) = 0
                /\ EopsIn(q) = 1 => BarrierPos(q, c) < EopPos(q)
                /\ \A r \in Records : BehindOf(q, c, r) = Sent(e, r) - SentBefore(c, e, r)
                /\ \A d \in 1..(c - 1) : BarriersIn(q, d) = 1 => BarrierPos(q, d) < BarrierPos(q, c)
    /\ e \in arrived[e[2]] =>
          \A r \in Records : InSeq(q, r) = Sent(e, r) - SentBefore(handling[e[2]], e, r)

\* Lemma (the final state stands for the barrier).  If e's sender has acknowledged a live
\* checkpoint c whose barrier e's receiver has neither received nor gone past, and e holds
\* no barrier of c, then the sender acknowledged c by ending: its snapshot of c is its final
\* state, everything it ever sends on e (its end of partition is on the way, or taken).
FinalStateLemma(e, q) ==
    \A c \in CheckpointIds :
        /\ Live(c) /\ e[1] \in acked[c] /\ ~Received(c, e) /\ ~Passed(c, e[2])
        /\ BarriersIn(q, c) = 0
        => /\ Ended(e[1])
           /\ \A r \in Records : SentBefore(c, e, r) = Sent(e, r)

\* An aligned sink has taken its snapshot of c when it acknowledged c (the snapshot, the
\* pre-commit and the acknowledgement are one step: Align, or its end: FinalAck).
SinkSnapped(c, t) == t \in acked[c]

\* The inductive invariant: the type, the lemmas, and AlignedNoChannelStateInv (an aligned
\* checkpoint persists no channel state, so a restore leaves every channel empty).
AlignedIndInv ==
    /\ TypeInv
    /\ LifecycleTypeInv
    /\ SinkTypeInv
    /\ BookkeepingLemma
    /\ CurrentLemma
    /\ EndedLemma
    /\ OptionsLemma
    /\ SinkOffLemma
    /\ SinkTxnLemma(SinkSnapped)
    /\ SinkOutputLemma
    /\ SinkSnapshotLemma(SinkSnapped)
    /\ AckClosureLemma
    /\ SourceSnapshotLemma
    /\ HandlingLemma
    /\ AckedSnapshotLemma
    /\ AlignedNoChannelStateInv
    /\ FlowLemma
    /\ \A e \in Edges : AlignedChannelLemma(e, chan[e]) /\ FinalStateLemma(e, chan[e])

=============================================================================
Checked by MCAlignedIndInv.tla (figures after its ====) and docs/inductive-invariant.md.
