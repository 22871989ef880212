--------------------------- MODULE UnalignedIndInv ---------------------------
(***************************************************************************)
(* STATUS: for the protocols before the lifecycle merge (commit 093a978);  *)
(* see docs/inductive-invariant.md.                                        *)
(*                                                                         *)
(* An inductive invariant for unaligned barriers: UnalignedIndInv holds    *)
(* initially, every step of UnalignedCheckpoint's Next keeps it, and it    *)
(* implies ConsistentCutInv (checked by MCUnalignedIndInv.tla).            *)
(*                                                                         *)
(* The argument (docs/inductive-invariant.md goes lemma by lemma): on an   *)
(* edge e from v to w, let v's snapshot of c mark what v had sent on e     *)
(* (SentBefore) and w's snapshot mark what w had taken from e.  The        *)
(* records between the two marks are exactly what c persists as e's       *)
(* state: w persists what it takes from e after its snapshot until v's     *)
(* barrier comes (the receiver side), and v's barrier, put at the head of  *)
(* e, persists what it overtakes (the sender side).  So for every          *)
(* operator, its snapshot plus the persisted state of its inputs equals    *)
(* what its senders had sent before their snapshots (OperatorSnapshot):    *)
(* the local form of a consistent cut, which unfolds along the DAG into    *)
(* ConsistentCutInv.                                                       *)
(***************************************************************************)
EXTENDS UnalignedCheckpoint, CutLemmas

\* Whether operator t has taken its snapshot of c: on the first barrier of c (it is then
\* handling c) and it stays so once it has acknowledged c.
Snapshotted(c, t) == t \in acked[c] \/ handling[t] = c
\* Whether the sender of edge e has taken its snapshot of c (and put c's barrier on e).
SenderSnapshotted(c, e) == IF e[1] \in Sources THEN e[1] \in acked[c] ELSE Snapshotted(c, e[1])
\* Whether the barrier of c on edge e has reached e's receiver.
Received(c, e) == LET w == e[2] IN w \in acked[c] \/ (handling[w] = c /\ e \in arrived[w])

\* Whether the lemmas speak about checkpoint c: live, completed or not triggered.  Of a
\* checkpoint a failure discarded before it completed ("stale"), a task may have lost the
\* fact that it snapshotted (the failure resets handling), so nothing is claimed about it:
\* no action reads a stale checkpoint's data again.
Kept(c) == Live(c) \/ ckpt[c] = "completed" \/ ~Triggered(c)

\* Lemma (handling in progress).  An operator handling c handles a live checkpoint it has
\* not acknowledged, still waits for some input's barrier, and every input whose barrier
\* arrived comes from a task that took its snapshot of c.
HandlingLemma ==
    \A t \in Operators : handling[t] # 0 =>
        /\ Live(handling[t])
        /\ t \notin acked[handling[t]]
        /\ arrived[t] # InputsOf(t)
        /\ \A e \in arrived[t] : SenderSnapshotted(handling[t], e)

\* Lemma (acknowledgement).  An operator acknowledges c only after every sender of its
\* inputs took its snapshot of c (their barriers all arrived).
AckLemma ==
    \A c \in CheckpointIds, t \in Operators :
        Kept(c) /\ t \in acked[c] => \A e \in InputsOf(t) : SenderSnapshotted(c, e)

\* What input e of an operator contributes to its snapshot of c: what it had taken from e
\* when it snapshotted.  If e's sender has snapshotted too (its barrier stands at e's head
\* or has arrived), that is SentBefore minus what c persists on e; otherwise the receiver
\* persists everything it takes from e since its snapshot, so it is what it has taken
\* (Sent - InChan) minus what c persists on e.
TakenAtSnapshot(c, e, r) ==
    IF SenderSnapshotted(c, e) THEN SentBefore(c, e, r) - Persisted(c, e, r)
    ELSE Sent(e, r) - InChan(e, r) - Persisted(c, e, r)

\* Lemma (operator snapshots).  An operator's snapshot of a live checkpoint, or of any
\* checkpoint it acknowledged, holds of every record what it had taken from its inputs when
\* it snapshotted; with everything acknowledged that is: its snapshot plus the persisted state
\* of its inputs equals what its senders had sent before their own snapshots.  A live or
\* untriggered checkpoint has no snapshot of an operator that has not taken one.
OperatorSnapshotLemma ==
    \A c \in CheckpointIds, t \in Operators : Kept(c) =>
        /\ Snapshotted(c, t) =>
              \A r \in Records : CopiesIn(r, snapProcessed[c][t]) = SumIn(t, LAMBDA e : TakenAtSnapshot(c, e, r))
        /\ (Live(c) \/ ~Triggered(c)) /\ ~Snapshotted(c, t) => snapProcessed[c][t] = EmptyBag

\* Lemma (persisted channel state), for edge e from v to w, checkpoint c, channel content q
\* and persisted state pq (PersistedLemma below passes snapChan[c][e]; MCUnalignedIndInv.tla
\* enumerates a channel and its persisted states together):
\*  - c untriggered, or live and neither v nor w has snapshotted: nothing persisted;
\*  - live, v snapshotted, w not: exactly what v's barrier overtook, i.e. what v had sent
\*    before its snapshot and w has not taken (still queued behind the barrier);
\*  - live, w snapshotted, v not: what w persisted, plus what is queued, is at most what v sent;
\*  - v snapshotted and w acknowledged or snapshotted: at most what v had sent before its snapshot.
PersistedLemmaWith(c, e, q, pq) ==
    LET snapV == SenderSnapshotted(c, e)
        snapW == Snapshotted(c, e[2])
    IN
    /\ ~Triggered(c) \/ (Live(c) /\ ~snapV /\ ~snapW) => pq = <<>>
    /\ Live(c) /\ snapV /\ ~snapW =>
          \A r \in Records : InSeq(pq, r) = SentBefore(c, e, r) - Sent(e, r) + InSeq(q, r)
    /\ Live(c) /\ ~snapV /\ snapW =>
          \A r \in Records : InSeq(pq, r) + InSeq(q, r) <= Sent(e, r)
    /\ Kept(c) /\ snapV /\ snapW =>
          \A r \in Records : InSeq(pq, r) <= SentBefore(c, e, r)

\* PersistedLemma, for the persisted state of e in c as it is.
PersistedLemma(c, e, q) == PersistedLemmaWith(c, e, q, snapChan[c][e])

\* Lemma (channel e may hold q), for unaligned barriers: only routed records; the barrier
\* of c exactly once if c is live, e's sender has snapshotted and e's receiver has not
\* received it, else never; and then at the head (it overtook everything queued, and the
\* one checkpoint in flight is the only one with barriers); and the persisted state of e,
\* p[c] for checkpoint c (UnalignedChannelLemma below passes snapChan[c][e]).
UnalignedChannelLemmaWith(e, q, p) ==
    /\ RoutedLemma(e, q)
    /\ \A c \in CheckpointIds :
          /\ BarriersIn(q, c) = IF Live(c) /\ SenderSnapshotted(c, e) /\ ~Received(c, e) THEN 1 ELSE 0
          /\ BarriersIn(q, c) = 1 => Head(q) = Barrier(c)
          /\ PersistedLemmaWith(c, e, q, p[c])

\* UnalignedChannelLemma, for the persisted states of e as they are.
UnalignedChannelLemma(e, q) == UnalignedChannelLemmaWith(e, q, [c \in CheckpointIds |-> snapChan[c][e]])

\* The inductive invariant.
UnalignedIndInv ==
    /\ TypeInv
    /\ BookkeepingLemma
    /\ AckLemma
    /\ SourceSnapshotLemma
    /\ HandlingLemma
    /\ OperatorSnapshotLemma
    /\ FlowLemma
    /\ \A e \in Edges : UnalignedChannelLemma(e, chan[e])

=============================================================================
Checked by MCUnalignedIndInv.tla (figures after its ====) and docs/inductive-invariant.md.
