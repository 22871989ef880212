--------------------------- MODULE UnalignedIndInv ---------------------------
(***************************************************************************)
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
(* ConsistentCutInv.  The lifecycle: an ended sender's final               *)
(* state is its snapshot and its end of partition puts no barrier on the  *)
(* channel (so the receiver keeps persisting until it takes the end:       *)
(* BarrierPlaced decides which mark applies); a checkpoint some task went *)
(* past without a snapshot is Doomed and its data never read again.       *)
(***************************************************************************)
EXTENDS UnalignedCheckpoint, CutLemmas

\* Whether operator t has taken its snapshot of c: on the first barrier of c (it is then
\* handling c), or by ending (its final state); it stays so once it has acknowledged c.
Snapshotted(c, t) == t \in acked[c] \/ handling[t] = c
\* Whether the sender of edge e has taken its snapshot of c.
SenderSnapshotted(c, e) == IF e[1] \in Sources THEN e[1] \in acked[c] ELSE Snapshotted(c, e[1])
\* Whether the barrier of c on edge e has reached e's receiver.
Received(c, e) == LET w == e[2] IN w \in acked[c] \/ (handling[w] = c /\ e \in arrived[w])
\* Whether e's sender has put the barrier of c on e (it stands at e's head or has been
\* received).  A sender that acknowledged c by ending puts none: its end of partition
\* follows the records it sent, and the receiver persists them until it takes the end.
BarrierPlaced(c, e) == BarriersIn(chan[e], c) = 1 \/ Received(c, e)

\* Whether the lemmas speak about checkpoint c: live, completed or not triggered, and not
\* doomed.  Of a checkpoint a failure discarded before it completed ("stale"), a task may
\* have lost the fact that it snapshotted (the failure resets handling), and of a doomed one
\* (some task went past it without a snapshot, Passed in CutLemmas.tla) the snapshots will
\* never be completed: nothing is claimed about either, and no action reads their data.
Kept(c) == (Live(c) \/ ckpt[c] = "completed" \/ ~Triggered(c)) /\ ~Doomed(c)

\* Lemma (handling in progress).  An operator handling c handles a live checkpoint it has
\* not acknowledged, still waits for some input's barrier (the inputs whose barrier arrived
\* and those that ended are not all), and every input whose barrier arrived comes from a
\* task that took its snapshot of c.
HandlingLemma ==
    \A t \in Operators : handling[t] # 0 =>
        /\ Live(handling[t])
        /\ t \notin acked[handling[t]]
        /\ arrived[t] \cup endedInputs[t] # InputsOf(t)
        /\ \A e \in arrived[t] : SenderSnapshotted(handling[t], e)

\* Lemma (acknowledgement).  An operator acknowledges c only after every sender of its
\* inputs took its snapshot of c (their barriers all arrived, or their inputs ended).  Of a
\* live c that is doomed, a sender may instead have gone past c (it skipped c and then
\* ended, and its ended input counts as arrived): either way it will never put a barrier
\* of c on its output.  (That second part was missing until the whole lifecycle with
\* failures was checked, MCUnalignedIndInvSample_LifecycleJoin.cfg: without it a receiver
\* that acknowledged a doomed c whose sender has not reached c is an IndInv state, and the
\* sender's InjectBarrier then puts a barrier of c on an input already received.)
AckLemma ==
    \A c \in CheckpointIds, t \in Operators :
        /\ Kept(c) /\ t \in acked[c] => \A e \in InputsOf(t) : SenderSnapshotted(c, e)
        /\ Live(c) /\ t \in acked[c] =>
              \A e \in InputsOf(t) : ~SenderSnapshotted(c, e) => c <= current[e[1]]

\* What input e of an operator contributes to its snapshot of c: what it had taken from e
\* when it snapshotted.  If e's sender has placed its barrier (at e's head, or it has
\* arrived), that is SentBefore minus what c persists on e; otherwise the receiver persists
\* everything it takes from e since its snapshot, so it is what it has taken
\* (Sent - InChan) minus what c persists on e.
\* The same, for channel content q and persisted state pq of e (MCUnalignedIndInv.tla
\* evaluates it on candidates).
TakenAtSnapshotWith(c, e, r, q, pq) ==
    IF BarriersIn(q, c) = 1 \/ Received(c, e) THEN SentBefore(c, e, r) - InSeq(pq, r)
    ELSE Sent(e, r) - InSeq(q, r) - InSeq(pq, r)
TakenAtSnapshot(c, e, r) == TakenAtSnapshotWith(c, e, r, chan[e], snapChan[c][e])

\* Lemma (operator snapshots).  An operator's snapshot of a kept checkpoint it has taken
\* holds of every record what it had taken from its inputs when it snapshotted; with
\* everything acknowledged that is: its snapshot plus the persisted state of its inputs
\* equals what its senders had sent before their own snapshots.  An operator that has not
\* taken its snapshot of c has none in c, unless a failure discarded c (it forgot).
OperatorSnapshotLemma ==
    \A c \in CheckpointIds, t \in Operators :
        /\ Kept(c) /\ Snapshotted(c, t) =>
              \A r \in Records : CopiesIn(r, snapProcessed[c][t]) = SumIn(t, LAMBDA e : TakenAtSnapshot(c, e, r))
        /\ (Live(c) \/ ~Triggered(c)) /\ ~Snapshotted(c, t) /\ ~Passed(c, t) => snapProcessed[c][t] = EmptyBag

\* Lemma (persisted channel state), for edge e from v to w, checkpoint c, channel content q
\* and persisted state pq (PersistedLemma below passes snapChan[c][e]; MCUnalignedIndInv.tla
\* enumerates a channel and its persisted states together).  For a kept c:
\*  - c untriggered, or live with no barrier placed on e and w not snapshotted: nothing
\*    persisted (an ended sender's final state places none: nothing overtaken);
\*  - live, barrier placed, w not snapshotted: exactly what v's barrier overtook, i.e. what v
\*    had sent before its snapshot and w has not taken (still queued behind the barrier);
\*  - live, no barrier placed, w snapshotted: what w persisted, plus what is queued, is at
\*    most what v sent;
\*  - v and w both snapshotted: at most what v had sent before its snapshot.
\* BarrierPlaced is evaluated with q for e's content (Placed).
PersistedLemmaWith(c, e, q, pq) ==
    LET placed == BarriersIn(q, c) = 1 \/ Received(c, e)
        snapV == SenderSnapshotted(c, e)
        snapW == Snapshotted(c, e[2])
    IN
    Kept(c) =>
    /\ ~Triggered(c) \/ (Live(c) /\ ~placed /\ ~snapW) => pq = <<>>
    /\ Live(c) /\ placed /\ ~snapW =>
          \A r \in Records : InSeq(pq, r) = SentBefore(c, e, r) - Sent(e, r) + InSeq(q, r)
    /\ Live(c) /\ ~placed /\ snapW =>
          \A r \in Records : InSeq(pq, r) + InSeq(q, r) <= Sent(e, r)
    /\ snapV /\ snapW =>
          \A r \in Records : InSeq(pq, r) <= SentBefore(c, e, r)

\* Lemma (the final state stands for the barrier).  If e's sender has snapshotted a kept,
\* live c but placed no barrier of c on e, it acknowledged c by ending: its snapshot of c
\* is its final state, everything it ever sends on e.
FinalStateLemmaWith(c, e, q) ==
    /\ Kept(c) /\ Live(c) /\ SenderSnapshotted(c, e)
    /\ BarriersIn(q, c) = 0 /\ ~Received(c, e)
    => /\ Ended(e[1]) /\ e[1] \in acked[c]
       /\ \A r \in Records : SentBefore(c, e, r) = Sent(e, r)

\* Lemma (channel e may hold q), for unaligned barriers: only routed records; the barrier
\* of c at most once, and then c is live, e's sender has snapshotted or, after forwarding
\* it, abandoned c (Passed: the barrier it forwarded stays in the channel; found by the
\* sample of the whole lifecycle with failures, where a NotifyCheckpointAborted of the join
\* left its forwarded barrier of a doomed c behind), has gone to c, and
\* e's receiver has not received it; and then ahead of every record (it overtook everything
\* queued, and later records queue behind it) and of the end of partition; and exactly once
\* if c is kept and the sender snapshotted by a barrier; the end of partition and
\* cancellation barriers as in EndLemma and CancelLemma; and the persisted state of e,
\* p[c] for checkpoint c (UnalignedChannelLemma below passes snapChan[c][e]).
UnalignedChannelLemmaWith(e, q, p) ==
    /\ RoutedLemma(e, q)
    /\ EndLemma(e, q)
    /\ CancelLemma(e, q)
    /\ \A c \in CheckpointIds :
          /\ BarriersIn(q, c) <= 1
          /\ BarriersIn(q, c) = 1 =>
                /\ Live(c) /\ (~SenderSnapshotted(c, e) => Passed(c, e[1]))
                /\ c <= current[e[1]] /\ ~Received(c, e)
                /\ \A i \in 1..(BarrierPos(q, c) - 1) : ~IsRecord(q[i]) /\ ~IsEndOfPartition(q[i])
          /\ FinalStateLemmaWith(c, e, q)
          /\ PersistedLemmaWith(c, e, q, p[c])

\* UnalignedChannelLemma, for the persisted states of e as they are.
UnalignedChannelLemma(e, q) == UnalignedChannelLemmaWith(e, q, [c \in CheckpointIds |-> snapChan[c][e]])

\* The inductive invariant.  (An unaligned sink takes its snapshot of c, and pre-commits in
\* it, at the first barrier of c: Snapshotted is the sink lemmas' "has taken its snapshot".)
UnalignedIndInv ==
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
    /\ AckLemma
    /\ SourceSnapshotLemma
    /\ HandlingLemma
    /\ OperatorSnapshotLemma
    /\ FlowLemma
    /\ UnalignedChannelStateBoundInv
    /\ \A e \in Edges : UnalignedChannelLemma(e, chan[e])

=============================================================================
Checked by MCUnalignedIndInv.tla (figures after its ====) and docs/inductive-invariant.md.
