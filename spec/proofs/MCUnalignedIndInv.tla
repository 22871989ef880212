--------------------------- MODULE MCUnalignedIndInv ---------------------------
(***************************************************************************)
(* TLC checks that UnalignedIndInv is inductive, the standard way: the       *)
(* initial states are ALL states of a bounded type that satisfy            *)
(* UnalignedIndInv (IndInit), TLC takes every step of Next from each of them *)
(* and checks UnalignedIndInv in every successor, and ConsistentCutInv in   *)
(* every state.  The bounded type: every variable over its TypeInv domain  *)
(* cut to the model's bounds, bags with at most MaxCopies copies of a      *)
(* record and sequences of at most MaxChanLen messages.  The lemmas imply  *)
(* those bounds, so no successor leaves the type: TLC's distinct-state     *)
(* count is the number of UnalignedIndInv states checked.                    *)
(*                                                                         *)
(* IndInit is written so that TLC can enumerate it: variables are bound    *)
(* one after another and each lemma filters as soon as its variables are   *)
(* bound; a channel's candidates (from a table of the shapes the lemmas    *)
(* allow, computed once) are filtered edge by edge                         *)
(* together with its persisted states (EdgeCandidates).  Filtering never  *)
(* changes the set, only the cost.  The data of stale checkpoints (see    *)
(* Stale) is given one value and forgotten by the VIEW IndView: TLC's      *)
(* count is the number of UnalignedIndInv states up to data nothing reads. *)
(***************************************************************************)
EXTENDS MCUnalignedCheckpoint, UnalignedIndInv, IndInvTypes

\* Stale checkpoints: discarded by a failure before they completed.  No action and no lemma
\* reads their acknowledgements or snapshot data again (FailAndRestore reads only the latest
\* completed checkpoint; the snapshot steps write only live ones, and no barrier of a stale
\* checkpoint is left), so their values cannot matter: IndInit gives them one value (none,
\* empty) and the VIEW IndView forgets them, as StateView does in MCDataflow.tla.  Without
\* this, every state after a failure comes in thousands of copies that differ only in data
\* nothing reads.
Stale(c) == Triggered(c) /\ ~Live(c) /\ ckpt[c] # "completed"

\* The state TLC fingerprints: a stale checkpoint's data replaced by none/empty.
IndView ==
    << offset, chan, processed, handling, arrived, ckpt, current, endedInputs, endedSources,
       [c \in CheckpointIds |-> IF Stale(c) THEN {} ELSE acked[c]],
       [c \in CheckpointIds |-> IF Stale(c) THEN <<>> ELSE
           <<snapOffset[c], snapProcessed[c], snapChan[c]>>],
       latest, discardedUpTo, failures >>

\* The messages edge e can carry: the records routed on it, barriers, cancellations, end.
\* A source forwards no cancellation (CancelLemma), so its edges carry none.
Alphabet(e) == {r \in Records : e \in RouteOf(e[1], r)} \cup {Barrier(c) : c \in CheckpointIds}
                 \cup (IF e[1] \in Operators THEN CancelBarriers ELSE {}) \cup {EndOfPartition}
\* The shape the lemmas allow a channel whatever the state: each barrier, cancellation and
\* end of partition at most once, barriers ahead of every record and of the end, after the
\* end only cancellations (UnalignedChannelLemma, EndLemma, CancelLemma).
Shaped(q) ==
    /\ EopsIn(q) <= 1
    /\ EopsIn(q) = 1 => \A i \in (EopPos(q) + 1)..Len(q) : IsCancelBarrier(q[i])
    /\ \A c \in CheckpointIds :
          /\ BarriersIn(q, c) <= 1 /\ CancelsIn(q, c) <= 1
          /\ BarriersIn(q, c) = 1 =>
                \A i \in 1..(BarrierPos(q, c) - 1) : ~IsRecord(q[i]) /\ ~IsEndOfPartition(q[i])
\* The shaped sequences of every edge, tabulated once (a constant definition).
ChanShapes == [e \in Edges |-> {q \in SeqsUpTo(Alphabet(e), MaxChanLen) : Shaped(q)}]
\* The persisted states an edge may have: records routed on it, tabulated once.
PersistShapes == [e \in Edges |-> SeqsUpTo({r \in Records : e \in RouteOf(e[1], r)}, MaxChanLen)]

\* The inputs of t on which record r can come, tabulated once.
CarriersTable == [t \in Operators |-> [r \in Records |-> {e \in InputsOf(t) : e \in RouteOf(e[1], r)}]]
\* FlowLemma for the records that can reach e's receiver on e only: a consequence of
\* FlowLemma that holds edge by edge, so that it can filter a channel's candidates early.
FlowOn(e, q) ==
    \A r \in Records : CarriersTable[e[2]][r] = {e} =>
        CopiesIn(r, processed[e[2]]) + InSeq(q, r) = Sent(e, r)
\* What channel e and its persisted states may be, <<content, [c |-> persisted]>>, given
\* the variables bound before them.
EdgeCandidates(e) ==
    {qp \in {q \in ChanShapes[e] : FlowOn(e, q)} \X [CheckpointIds -> PersistShapes[e]] :
        /\ UnalignedChannelLemmaWith(e, qp[1], qp[2])
        /\ \A c \in CheckpointIds : Stale(c) => qp[2][c] = <<>>}

\* The typed values of the operators' and the lifecycle's functions, tabulated once
\* (constant definitions): arrived and ended inputs are inputs, an operator handles a
\* checkpoint exactly when some barrier has arrived.
SubsetsOfInputs == {f \in [Operators -> SUBSET Edges] : \A t \in Operators : f[t] \subseteq InputsOf(t)}
HandlingArrived == {ha \in [Operators -> 0..MaxCheckpointId] \X SubsetsOfInputs :
                        \A t \in Operators : ha[1][t] = 0 <=> ha[2][t] = {}}

\* The bookkeeping, lifecycle and operator variables, bound first.
IndPrefix ==
    /\ failures \in 0..MaxFailures
    /\ discardedUpTo \in 0..MaxCheckpointId
    /\ latest \in 0..MaxCheckpointId
    /\ ckpt \in [CheckpointIds -> {"none", "pending", "completed", "aborted"}]
    /\ latest # 0 => ckpt[latest] = "completed"
    /\ acked \in [CheckpointIds -> SUBSET Tasks]
    /\ \A c \in CheckpointIds : Stale(c) => acked[c] = {}
    /\ BookkeepingLemma
    /\ MaxConcurrent = 1 => \A c, d \in CheckpointIds : c < d /\ Triggered(d) => ~InFlight(c)
    /\ offset \in [Sources -> 0..RecordsPerSource]
    /\ endedSources \in IF EndOfInput THEN SUBSET Sources ELSE {{}}
    /\ endedInputs \in SubsetsOfInputs
    /\ EndedLemma
    /\ ~AbortEnabled /\ failures = 0 =>
          \A c \in CheckpointIds : ckpt[c] = "aborted" =>
              \E d \in CheckpointIds : d > c /\ ckpt[d] = "completed"
    /\ current \in [Tasks -> 0..MaxCheckpointId]
    /\ \A v \in Tasks : /\ discardedUpTo <= current[v]
                        /\ current[v] \in {0} \cup {c \in CheckpointIds : Triggered(c)}
    /\ \E ha \in HandlingArrived : handling = ha[1] /\ arrived = ha[2]
    /\ CurrentLemma
    /\ MaxConcurrent = 1 =>
          \A c \in CheckpointIds : Live(c) /\ Doomed(c) => AbortsReachTasks /\ ckpt[c] = "aborted"
    /\ HandlingLemma
    /\ AckLemma
    /\ snapOffset \in [CheckpointIds -> [Sources -> 0..RecordsPerSource]]
    /\ SourceSnapshotLemma
    /\ \A c \in CheckpointIds : Stale(c) => snapOffset[c] = [s \in Sources |-> 0]


\* The edges out of sources, and the others.  A source edge's candidates do not depend on
\* any operator's snapshot (SentBefore reads the source's recorded offset), so they are
\* enumerated before snapProcessed, and the snapshots of operators fed by sources only are
\* filtered with them (SnapFits) before the other edges are enumerated.
SourceEdges == {e \in Edges : e[1] \in Sources}
OperatorEdges == Edges \ SourceEdges
FedBySources == {t \in Operators : InputsOf(t) \subseteq SourceEdges}
\* OperatorSnapshotLemma for operator t, with the candidates f[e] = <<content, persisted>> of
\* its inputs.
SnapFits(t, f) ==
    \A c \in CheckpointIds : Kept(c) /\ Snapshotted(c, t) =>
        \A r \in Records :
            CopiesIn(r, snapProcessed[c][t]) =
                SumOver(InputsOf(t), [e \in InputsOf(t) |-> TakenAtSnapshotWith(c, e, r, f[e][1], f[e][2][c])])

\* All states of the bounded type that satisfy UnalignedIndInv, with the sink's variables
\* bound by SinkVars after the others (their lemmas read processed and the snapshots).
IndInitWith(SinkVars) ==
    /\ IndPrefix
    /\ processed \in [Operators -> BagsUpTo(MaxCopies)]
    /\ \E f1 \in Product(SourceEdges, [e \in SourceEdges |-> EdgeCandidates(e)]) :
       /\ snapProcessed \in [CheckpointIds -> [Operators -> BagsUpTo(MaxCopies)]]
       /\ \A c \in CheckpointIds, t \in Operators :
             /\ (Live(c) \/ ~Triggered(c)) /\ ~Snapshotted(c, t) /\ ~Passed(c, t) => snapProcessed[c][t] = EmptyBag
             /\ Stale(c) => snapProcessed[c][t] = EmptyBag
       /\ \A t \in FedBySources : SnapFits(t, f1)
       /\ \E f2 \in Product(OperatorEdges, [e \in OperatorEdges |-> EdgeCandidates(e)]) :
             LET f == f1 @@ f2 IN
             /\ chan = [e \in Edges |-> f[e][1]]
             /\ snapChan = [c \in CheckpointIds |-> [e \in Edges |-> f[e][2][c]]]
    /\ FlowLemma
    /\ SinkVars
    /\ UnalignedIndInv

\* With the transactional sink off (SinkInit); MCUnalignedIndInvSink.tla binds it on.
IndInit == IndInitWith(SinkInit)

IndSpec == IndInit /\ [][Next]_vars

=============================================================================
TLC figures: see docs/inductive-invariant.md and spec/proofs/models.tsv.
