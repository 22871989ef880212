-------------------------- MODULE AlternatingIndInv --------------------------
(***************************************************************************)
(* An inductive invariant for alternating checkpoints: AlternatingIndInv   *)
(* holds initially, every step of AlternatingCheckpoint's Next keeps it,   *)
(* and it implies ConsistentCutInv and the family's channel-state          *)
(* invariants (checked by MCAlternatingIndInv.tla).                        *)
(*                                                                         *)
(* The argument is UnalignedIndInv's, with the aligned part as a special   *)
(* case (docs/inductive-invariant.md goes lemma by lemma).  On an edge e   *)
(* from v to w, v's snapshot of c marks what v had sent on e (SentBefore)  *)
(* and w's snapshot marks what w had taken from e; what lies between the  *)
(* marks is what c persists as e's state.  How a checkpoint is handled     *)
(* decides where the marks fall:                                           *)
(*  - aligned (no switch): v's barrier stands behind the records v sent    *)
(*    before its snapshot (SentAfterBarrier, AlignedIndInv's), w takes     *)
(*    them all before the barrier and nothing after it (BlockedInput), so  *)
(*    the marks meet and nothing is persisted;                             *)
(*  - switched: an overtaking barrier (the sender switched, or the         *)
(*    receiver prioritized it) stands ahead of every record, and the       *)
(*    records it overtook or jumped over are persisted (OvertakenLemma,    *)
(*    UnalignedIndInv's PersistedLemma for a placed barrier); a switched   *)
(*    receiver persists what it takes from a pending input until the       *)
(*    barrier comes, aligned or overtaking.                                *)
(* Both give the local cut of every operator (OperatorSnapshotLemma):      *)
(* its snapshot plus its inputs' persisted state equals what its senders   *)
(* had sent before their snapshots, which unfolds along the DAG into       *)
(* ConsistentCutInv.  SwitchLemma ties the handler states (unalignedAt)    *)
(* to the history (switchedAt) and the barriers: a switch propagates only  *)
(* by overtaking barriers, and channel state lies only next to a task      *)
(* that switched.                                                          *)
(***************************************************************************)
EXTENDS AlternatingCheckpoint, CutLemmas

\* How many barriers of c (aligned or overtaking) the sequence q holds, and where the first
\* stands (only used when q holds one).  CutLemmas' BarriersIn counts the barrier without an
\* alignment field, which this protocol never sends.
AltBarriersIn(q, c) == Len(SelectSeq(q, LAMBDA m : IsBarrierOf(m, c)))
AltBarrierPos(q, c) == CHOOSE i \in 1..Len(q) : IsBarrierOf(q[i], c)
\* Copies of record r in q ahead of / behind the barrier of c.
AltAheadOf(q, c, r) == InSeq(SubSeq(q, 1, AltBarrierPos(q, c) - 1), r)
AltBehindOf(q, c, r) == InSeq(SubSeq(q, AltBarrierPos(q, c) + 1, Len(q)), r)
\* q holds the barrier of c and it is aligned.
AlignedIn(q, c) == AltBarriersIn(q, c) = 1 /\ q[AltBarrierPos(q, c)].aligned

\* Whether operator t has taken its snapshot of c: handling c unaligned (it snapshotted at
\* the switch or at the first overtaking barrier), or acknowledged c (aligned: the
\* snapshot and the acknowledgement are one step; or by ending, its final state).  An
\* operator aligning c has not: it snapshots when the last barrier comes.
Snapshotted(c, t) == t \in acked[c] \/ (handling[t] = c /\ unalignedAt[t] = c)
\* Whether the sender of edge e has taken its snapshot of c.
SenderSnapshotted(c, e) == IF e[1] \in Sources THEN e[1] \in acked[c] ELSE Snapshotted(c, e[1])
\* Whether the barrier of c on edge e has reached e's receiver.
Received(c, e) == LET w == e[2] IN w \in acked[c] \/ (handling[w] = c /\ e \in arrived[w])

\* The checkpoints the lemmas speak about (UnalignedIndInv's Kept): live, completed or not
\* triggered, and not doomed.
Kept(c) == (Live(c) \/ ckpt[c] = "completed" \/ ~Triggered(c)) /\ ~Doomed(c)

\* Lemma (handling in progress), UnalignedIndInv's with the aligned part: an operator handling
\* c handles a live checkpoint it has not acknowledged and still waits for some input; every
\* input whose barrier arrived comes from a task that took its snapshot of c; and while it
\* aligns c (it has not switched), that task acknowledged c without switching it (its barrier
\* was aligned: an overtaking one would have switched the receiver), and no blocked input has
\* ended (AlignedIndInv's: the end of partition stays behind the blocked records).
HandlingLemma ==
    \A t \in Operators : handling[t] # 0 =>
        LET c == handling[t] IN
        /\ Live(c)
        /\ t \notin acked[c]
        /\ arrived[t] \cup endedInputs[t] # InputsOf(t)
        /\ \A e \in arrived[t] : SenderSnapshotted(c, e)
        /\ ~HandlesUnaligned(t) =>
              /\ arrived[t] \cap endedInputs[t] = {}
              /\ \A e \in arrived[t] : e[1] \in acked[c] /\ e[1] \notin switchedAt[c]

\* Lemma (acknowledgement), UnalignedIndInv's AckLemma with AlignedIndInv's second part: an
\* operator acknowledges a kept c only after every sender took its snapshot of c; of a live c,
\* a sender that did not has gone past c (Passed) and will never put a barrier of c on its
\* output.  (c <= current is too weak here: an operator aligning c has reached c and will
\* still forward it.)
AckLemma ==
    \A c \in CheckpointIds, t \in Operators :
        /\ Kept(c) /\ t \in acked[c] => \A e \in InputsOf(t) : SenderSnapshotted(c, e)
        /\ Live(c) /\ t \in acked[c] =>
              \A e \in InputsOf(t) : ~SenderSnapshotted(c, e) => Passed(c, e[1])

\* What input e of an operator contributed to its snapshot of c, for channel content q and
\* persisted state pq of e: with the barrier of c received, what the sender had sent before
\* its snapshot minus what c persists on e; with the barrier queued, minus also the records
\* ahead of it (an aligned barrier's, which a switched receiver persists as it takes them);
\* with no barrier placed yet, what the receiver has taken minus what it persisted.
TakenAtSnapshotWith(c, e, r, q, pq) ==
    IF AltBarriersIn(q, c) = 1 THEN SentBefore(c, e, r) - InSeq(pq, r) - AltAheadOf(q, c, r)
    ELSE IF Received(c, e) THEN SentBefore(c, e, r) - InSeq(pq, r)
    ELSE Sent(e, r) - InSeq(q, r) - InSeq(pq, r)
TakenAtSnapshot(c, e, r) == TakenAtSnapshotWith(c, e, r, chan[e], snapChan[c][e])

\* Lemma (operator snapshots), UnalignedIndInv's with this protocol's TakenAtSnapshot: the
\* local form of a consistent cut for every operator that snapshotted a kept c; none before.
OperatorSnapshotLemma ==
    \A c \in CheckpointIds, t \in Operators :
        /\ Kept(c) /\ Snapshotted(c, t) =>
              \A r \in Records : CopiesIn(r, snapProcessed[c][t]) = SumIn(t, LAMBDA e : TakenAtSnapshot(c, e, r))
        /\ (Live(c) \/ ~Triggered(c)) /\ ~Snapshotted(c, t) /\ ~Passed(c, t) => snapProcessed[c][t] = EmptyBag

\* Lemma (what an overtaking barrier overtook), for edge e, a kept, live c whose overtaking
\* barrier is queued on e, content q and persisted state pq, the receiver not snapshotted:
\* c persists on e exactly the records the sender had sent before its snapshot that the
\* receiver has not taken, i.e. those the barrier overtook (the sender switched) or jumped
\* over (the receiver prioritized it), which now queue behind it.  The switched part of
\* UnalignedIndInv's PersistedLemma; the broken twin leaves it out (OvertakenLemmaOmitted).
OvertakenLemma(c, e, q, pq) ==
    \A r \in Records : InSeq(pq, r) = SentBefore(c, e, r) - Sent(e, r) + InSeq(q, r)

\* The twin's weakened lemma: no claim about what a switched checkpoint persists ahead of an
\* overtaking barrier its receiver has not taken.  The receiver's snapshot at that barrier
\* then counts a persisted state that need not be what the barrier overtook
\* (OperatorSnapshotLemma breaks): the invariant is not inductive, and TLC must say so.
OvertakenLemmaOmitted(c, e, q, pq) == TRUE

\* Lemma (persisted channel state), UnalignedIndInv's PersistedLemmaWith for both kinds of
\* barrier.  For a kept c:
\*  - c untriggered, or live with no barrier placed on e and the receiver not snapshotted:
\*    nothing persisted;
\*  - live, an aligned barrier queued or received, the receiver not snapshotted: nothing
\*    persisted (the cut lies at the barrier);
\*  - live, an overtaking barrier queued, the receiver not snapshotted: OvertakenLemma;
\*  - live, no barrier placed, the receiver snapshotted: what it persisted, plus what is
\*    queued, is at most what the sender sent;
\*  - sender and receiver snapshotted: at most what the sender had sent before its snapshot.
PersistedLemmaWith(c, e, q, pq) ==
    LET inq == AltBarriersIn(q, c) = 1
        placed == inq \/ Received(c, e)
        snapV == SenderSnapshotted(c, e)
        snapW == Snapshotted(c, e[2])
    IN
    Kept(c) =>
    /\ ~Triggered(c) \/ (Live(c) /\ ~placed /\ ~snapW) => pq = <<>>
    /\ Live(c) /\ (AlignedIn(q, c) \/ (~inq /\ Received(c, e))) /\ ~snapW => pq = <<>>
    /\ Live(c) /\ inq /\ ~AlignedIn(q, c) /\ ~snapW => OvertakenLemma(c, e, q, pq)
    /\ Live(c) /\ ~placed /\ snapW =>
          \A r \in Records : InSeq(pq, r) + InSeq(q, r) <= Sent(e, r)
    /\ snapV /\ snapW =>
          \A r \in Records : InSeq(pq, r) <= SentBefore(c, e, r)

\* Lemma (the final state stands for the barrier), UnalignedIndInv's: a sender that
\* snapshotted a kept, live c but placed no barrier of c on e acknowledged c by ending.
FinalStateLemmaWith(c, e, q) ==
    /\ Kept(c) /\ Live(c) /\ SenderSnapshotted(c, e)
    /\ AltBarriersIn(q, c) = 0 /\ ~Received(c, e)
    => /\ Ended(e[1]) /\ e[1] \in acked[c]
       /\ \A r \in Records : SentBefore(c, e, r) = Sent(e, r)

\* Lemma (channel e may hold q, with persisted states p[c]): only routed records; the end of
\* partition and cancellations as in EndLemma and CancelLemma; the barrier of c at most once,
\* and then c is live, the sender snapshotted or went past c after forwarding it, has gone to
\* c, the receiver has not received it, and it stands ahead of the end of partition; an
\* aligned barrier comes from a sender that acknowledged c, and behind it are exactly the
\* records the sender sent after its snapshot (AlignedIndInv's SentAfterBarrier); an
\* overtaking one stands ahead of every record, belongs to a checkpoint that may switch, and
\* its sender or receiver switched c (the sender's switch sent it, the receiver's
\* prioritized it).  BlockedInput (AlignedIndInv's): once the barrier of the checkpoint its
\* receiver aligns has arrived, e holds exactly what the sender sent after its snapshot.
\* And c persists a state on e only if e's sender or receiver switched c (the sender persisted
\* what its barrier overtook, the receiver what it took or what its prioritized barrier
\* jumped over).
AltChannelLemmaWith(e, q, p) ==
    /\ RoutedLemma(e, q)
    /\ EndLemma(e, q)
    /\ CancelLemma(e, q)
    /\ \A c \in CheckpointIds :
          /\ AltBarriersIn(q, c) <= 1
          /\ AltBarriersIn(q, c) = 1 =>
                /\ Live(c) /\ (~SenderSnapshotted(c, e) => Passed(c, e[1]))
                /\ c <= current[e[1]] /\ ~Received(c, e)
                /\ EopsIn(q) = 1 => AltBarrierPos(q, c) < EopPos(q)
                /\ IF AlignedIn(q, c)
                     THEN /\ e[1] \in acked[c]
                          /\ \A r \in Records : AltBehindOf(q, c, r) = Sent(e, r) - SentBefore(c, e, r)
                     ELSE /\ \A i \in 1..(AltBarrierPos(q, c) - 1) : ~IsRecord(q[i])
                          /\ MaySwitch(c)
                          /\ {e[1], e[2]} \cap switchedAt[c] # {}
          /\ FinalStateLemmaWith(c, e, q)
          /\ PersistedLemmaWith(c, e, q, p[c])
          /\ p[c] # <<>> => {e[1], e[2]} \cap switchedAt[c] # {}
    /\ e \in arrived[e[2]] /\ ~HandlesUnaligned(e[2]) =>
          \A r \in Records : InSeq(q, r) = Sent(e, r) - SentBefore(handling[e[2]], e, r)

AltChannelLemma(e, q) == AltChannelLemmaWith(e, q, [c \in CheckpointIds |-> snapChan[c][e]])

\* Lemma (the switch).  The handler states and the history agree: a task whose unalignedAt
\* is set has switched that checkpoint, a live one that may switch; a task that switched a
\* live c and has neither acknowledged nor gone past it handles c unaligned or will (after
\* a passive timeout); a checkpoint that may not switch (a savepoint) never did.
SwitchLemma ==
    /\ AlternatingTypeInv
    /\ \A t \in Operators : unalignedAt[t] # 0 =>
          /\ t \in switchedAt[unalignedAt[t]]
          /\ Live(unalignedAt[t])
          /\ MaySwitch(unalignedAt[t])
    /\ \A c \in CheckpointIds :
          /\ ~MaySwitch(c) => switchedAt[c] = {}
          /\ \A t \in switchedAt[c] : Live(c) /\ t \notin acked[c] /\ ~Passed(c, t) => unalignedAt[t] = c

\* The inductive invariant.  (An alternating sink takes its snapshot as the protocol says:
\* Snapshotted is the sink lemmas' "has taken its snapshot".)
AlternatingIndInv ==
    /\ TypeInv
    /\ LifecycleTypeInv
    /\ SinkTypeInv
    /\ BookkeepingLemma
    /\ CurrentLemma
    /\ EndedLemma
    /\ OptionsLemma
    /\ SinkOffLemma
    /\ SinkTxnLemma(Snapshotted)
    /\ SinkOutputLemma
    /\ SinkSnapshotLemma(Snapshotted)
    /\ SwitchLemma
    /\ AckLemma
    /\ SourceSnapshotLemma
    /\ HandlingLemma
    /\ OperatorSnapshotLemma
    /\ FlowLemma
    /\ \A e \in Edges : AltChannelLemma(e, chan[e])

=============================================================================
Checked by MCAlternatingIndInv.tla (figures in spec/proofs/models.tsv) and docs/inductive-invariant.md.
