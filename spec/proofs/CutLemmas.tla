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

\* How many cancellation barriers of c / ends of partition the sequence q holds.
CancelsIn(q, c) == CopiesInSeq(CancelBarrier(c), q)
EopsIn(q) == CopiesInSeq(EndOfPartition, q)
\* The position of the end of partition in q; only used when q holds one.
EopPos(q) == CHOOSE i \in 1..Len(q) : q[i] = EndOfPartition

\* The lifecycle's vocabulary.  Task v has gone past checkpoint c without a snapshot of it:
\* it has reached c (current[v] >= c: injected, handled, skipped or abandoned it, or a newer
\* one), does not handle c and has not acknowledged it.  Such a task never acknowledges c
\* (every acknowledgement is of a checkpoint the task handles, or, for an ended task, of one
\* newer than current), so c can never complete: c is Doomed.  A doomed checkpoint's
\* snapshots are never read (only a completed one is restored), so the lemmas about
\* snapshots speak of checkpoints that are not doomed.
Passed(c, v) == /\ c <= current[v]
                /\ v \notin acked[c]
                /\ v \in Operators => handling[v] # c
Doomed(c) == \E v \in Tasks : Passed(c, v)

-----------------------------------------------------------------------------
(* Lemmas both protocols share.                                            *)

\* Lemma (bookkeeping).  Checkpoints are triggered in id order; a failure discards exactly
\* the checkpoints triggered before it, so every pending checkpoint is live; a completed
\* checkpoint was acknowledged by every task and is not newer than the latest, and a pending
\* one is newer (a completion aborts the older pending ones); an
\* untriggered one has no acknowledgement; nothing is discarded before the first failure;
\* no more checkpoints are in flight than MaxConcurrent.
BookkeepingLemma ==
    /\ \A c \in CheckpointIds : Triggered(c) => \A d \in 1..(c - 1) : Triggered(d)
    /\ \A c \in CheckpointIds : c <= discardedUpTo => Triggered(c)
    /\ failures = 0 => discardedUpTo = 0
    /\ \A c \in CheckpointIds : ckpt[c] = "pending" => c > discardedUpTo
    /\ \A c \in CheckpointIds : ckpt[c] = "completed" => acked[c] = Tasks /\ c <= latest
    /\ \A c \in CheckpointIds : ckpt[c] = "pending" => c > latest
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

\* Lemma (current).  A task's current checkpoint is one triggered since the last failure's
\* discarding point, or that point itself (a failure sets every task's current to it); it
\* is the one an operator handles, if any.  A task that acknowledged a live checkpoint it
\* has not reached has ended (its final state stands for its snapshot), and an ended task
\* counts as having acknowledged every live checkpoint it has not reached (FLIP-147).
CurrentLemma ==
    /\ \A v \in Tasks : /\ discardedUpTo <= current[v]
                        /\ current[v] \in {0} \cup {c \in CheckpointIds : Triggered(c)}
    /\ \A t \in Operators : handling[t] # 0 => handling[t] = current[t]
    /\ \A c \in CheckpointIds, v \in Tasks : Live(c) /\ c > current[v] =>
          (v \in acked[c] <=> Ended(v))

\* Lemma (ended tasks).  A source ends only once it has read its whole log, and an input of
\* an operator has ended only if its sender has (the end of partition comes from it).
EndedLemma ==
    /\ \A s \in endedSources : offset[s] = RecordsPerSource
    /\ \A t \in Operators : \A e \in endedInputs[t] : Ended(e[1])

\* Lemma (what the model options rule out).  Each part is a fact about every reachable
\* state under the options, and inductive with the other lemmas:
\*  - EndOfInput = FALSE: no source ever ends its partition;
\*  - without timeouts and before any failure, a checkpoint is aborted only by the
\*    completion of a newer one (CompleteCheckpoint subsumes the older pending ones);
\*  - one checkpoint in flight at a time: a checkpoint older than a triggered one is no
\*    longer in flight (the newer one was triggered only once nothing was in flight, and a
\*    checkpoint out of flight never returns to it); and a live checkpoint some task went past without
\*    a snapshot, or whose cancellation barrier travels, has been aborted (a task skips,
\*    abandons or subsumes only an aborted checkpoint: a newer one starts only once the
\*    older one is no longer in flight, and a checkpoint a task has not acknowledged is not
\*    completed); and with AbortsReachTasks = FALSE no task learns of an abort, so there is
\*    no such checkpoint at all.
OptionsLemma ==
    /\ ~EndOfInput => endedSources = {}
    /\ ~AbortEnabled /\ failures = 0 =>
          \A c \in CheckpointIds : ckpt[c] = "aborted" =>
              \E d \in CheckpointIds : d > c /\ ckpt[d] = "completed"
    /\ MaxConcurrent = 1 =>
          \A c, d \in CheckpointIds : c < d /\ Triggered(d) => ~InFlight(c)
    /\ MaxConcurrent = 1 =>
          \A c \in CheckpointIds :
              Live(c) /\ (Doomed(c) \/ \E e \in Edges : CancelsIn(chan[e], c) > 0) =>
                  AbortsReachTasks /\ ckpt[c] = "aborted"

\* Lemma (the transactional sink off).  With TransactionalSink off (every model of the
\* inductive invariants), the sink variables keep their initial values: no step writes them.
SinkOffLemma ==
    ~TransactionalSink =>
        /\ txnOpen = [t \in SinkTasks |-> EmptyBag]
        /\ txn = [t \in SinkTasks |-> [c \in CheckpointIds |-> EmptyBag]]
        /\ txnPending = [t \in SinkTasks |-> {}]
        /\ snapTxnPending = [c \in CheckpointIds |-> [t \in SinkTasks |-> {}]]
        /\ txnCommitted = [t \in SinkTasks |-> {}]
        /\ committed = EmptyBag

-----------------------------------------------------------------------------
(* The transactional sink, with the option on.  A sink's                   *)
(* transactions are named by checkpoint ids: it pre-commits its open       *)
(* transaction in its snapshot of c0 (the oldest checkpoint of the         *)
(* snapshot) as txn[t][c0].  The ones that count are the committed and the *)
(* pending ones (a failure aborts the others, and their records are        *)
(* replayed).  Snap(c, t): the protocol's "t has taken its snapshot of c"  *)
(* (aligned: acknowledged it).                                             *)

\* The transactions of sink t that count: committed to the output, or pre-committed and pending.
CountingTxns(t) == txnCommitted[t] \cup txnPending[t]
\* The records of sink t's transactions with ids in D.
TxnRecords(t, D) == BagSum(D, txn[t])
\* Whether the lemmas speak about sink t's snapshot of c: c is live and not doomed (it may
\* complete), or c is the latest completed checkpoint (a failure restores it).
SinkSnapKept(c) == (Live(c) /\ ~Doomed(c)) \/ c = latest

\* Lemma (transaction ids).  A sink's pending and committed transactions are distinct, each
\* holds a record (an empty open transaction is not pre-committed), a pending one belongs to
\* a live checkpoint (a failure aborts every pending one), a committed one to a checkpoint
\* not newer than the latest completed one (it is committed when a checkpoint at least as
\* new completes, or restored with the latest); and every counting transaction is older
\* than every live checkpoint the sink has neither snapshotted nor passed: so the
\* pre-commit of such a checkpoint names a fresh transaction, which overwrites nothing
\* that counts, and the sink's snapshot of it holds every counting transaction.
SinkTxnLemma(Snap(_, _)) ==
    TransactionalSink =>
    \A t \in SinkTasks :
        /\ txnPending[t] \cap txnCommitted[t] = {}
        /\ \A d \in CountingTxns(t) : txn[t][d] # EmptyBag
        /\ \A d \in txnPending[t] : Live(d)
        /\ \A d \in txnCommitted[t] : d <= latest
        /\ \A c \in CheckpointIds : Live(c) /\ ~Snap(c, t) /\ ~Passed(c, t) =>
              \A d \in CountingTxns(t) : d < c

\* Lemma (the sink's output).  What a sink has processed is exactly its counting
\* transactions plus its open one: every record it takes goes into the open transaction,
\* which its snapshot pre-commits; a failure restores its snapshot of the latest completed
\* checkpoint and aborts every transaction after it.  The committed output is exactly the
\* committed transactions of every sink (a commit adds a transaction once: NewlyCommitted).
\* With FlowLemma this bounds the output by what reached the sinks: NoDuplicateOutputInv.
SinkOutputLemma ==
    TransactionalSink =>
    /\ \A t \in SinkTasks : processed[t] = TxnRecords(t, CountingTxns(t)) (+) txnOpen[t]
    /\ committed = BagSum(SinkTasks, [t \in SinkTasks |-> TxnRecords(t, txnCommitted[t])])

\* Lemma (the sink's snapshot).  A sink's snapshot of a checkpoint the lemmas speak about
\* (SinkSnapKept) holds exactly its counting transactions up to that checkpoint, and the
\* pending ids it recorded are counting transactions up to it, among them every one still
\* pending: so a restore that re-commits the recorded ones (SinkRestore) leaves the sink's
\* counting transactions equal to what its restored state processed.
SinkSnapshotLemma(Snap(_, _)) ==
    TransactionalSink =>
    \A t \in SinkTasks, c \in CheckpointIds :
        SinkSnapKept(c) /\ Snap(c, t) =>
            /\ snapTxnPending[c][t] \subseteq {d \in CountingTxns(t) : d <= c}
            /\ {d \in txnPending[t] : d <= c} \subseteq snapTxnPending[c][t]
            /\ snapProcessed[c][t] = TxnRecords(t, {d \in CountingTxns(t) : d <= c})

\* Lemma (end of input).  Nothing follows an end of partition on its channel but
\* cancellation barriers (an ended operator may still learn of an abort); a channel holds
\* its end of partition exactly while its sender has ended and its receiver has not taken
\* it; an input that has ended holds nothing but cancellation barriers.  So a receiver
\* takes no record from an input after it counts as arrived by having ended.
EndLemma(e, q) ==
    LET v == e[1]
        w == e[2]
    IN
    /\ EopsIn(q) = IF Ended(v) /\ e \notin endedInputs[w] THEN 1 ELSE 0
    /\ EopsIn(q) = 1 => \A i \in (EopPos(q) + 1)..Len(q) : IsCancelBarrier(q[i])
    /\ e \in endedInputs[w] => Ended(v) /\ \A i \in 1..Len(q) : IsCancelBarrier(q[i])

\* Lemma (cancellation barriers).  A channel holds the cancellation barrier of c at most
\* once, and only of a live c its sender, an operator, has gone to or past (it forwards it
\* when it abandons c, and abandons c once; a source never forwards one) and no longer
\* handles: abandoning c ends its handling of c, and it never handles c again (a later
\* barrier of c is obsolete).  The last part was missing until the whole lifecycle with
\* failures was checked (MCAlignedIndInv_LifecycleJoin.cfg): without it an operator
\* aligning c with a cancellation of c already on its output is an IndInv state, and
\* NotifyCheckpointAborted then forwards a second one.
CancelLemma(e, q) ==
    \A c \in CheckpointIds :
        /\ CancelsIn(q, c) <= 1
        /\ CancelsIn(q, c) = 1 => /\ Live(c) /\ c <= current[e[1]] /\ e[1] \in Operators
                                  /\ handling[e[1]] # c

\* Lemma (channels carry routed records).  A channel holds a record no more often than its
\* sender has sent it there.
RoutedLemma(e, q) == \A r \in Records : InSeq(q, r) <= Sent(e, r)

=============================================================================
Used by AlignedIndInv.tla and UnalignedIndInv.tla; figures there.
