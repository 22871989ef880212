-------------------------- MODULE MCAlternatingIndInv --------------------------
(***************************************************************************)
(* TLC checks that AlternatingIndInv is inductive as MCUnalignedIndInv.tla *)
(* checks UnalignedIndInv: the initial states are ALL states of a bounded  *)
(* type that satisfy AlternatingIndInv (IndInit), TLC takes every step of  *)
(* Next from each and checks AlternatingIndInv in every successor, and     *)
(* ConsistentCutInv and the family's channel-state invariants in every     *)
(* state.  The bounded type is MCUnalignedIndInv's with this protocol's    *)
(* barriers (aligned or overtaking) and its two variables: unalignedAt     *)
(* bound with the handler states, switchedAt with the checkpoint's         *)
(* bookkeeping; the channels are filtered edge by edge with their          *)
(* persisted states, the edges out of sources first.  The data of stale    *)
(* checkpoints gets one value and the VIEW IndView forgets it.             *)
(* AltSpec, for the other direction (Init implies the invariant), is the   *)
(* protocol's Spec: a normal model checks AlternatingIndInv in every       *)
(* reachable state.                                                        *)
(***************************************************************************)
EXTENDS MCAlternatingCheckpoint, AlternatingIndInv, IndInvTypes

\* Stale checkpoints: discarded by a failure before they completed (MCUnalignedIndInv's).
\* No action and no lemma reads their data, nor who switched them, again.
Stale(c) == Triggered(c) /\ ~Live(c) /\ ckpt[c] # "completed"

\* The state TLC fingerprints: a stale checkpoint's data replaced by none/empty.
IndView ==
    << offset, chan, processed, handling, arrived, ckpt, current, endedInputs, endedSources,
       [c \in CheckpointIds |-> IF Stale(c) THEN {} ELSE acked[c]],
       [c \in CheckpointIds |-> IF Stale(c) THEN <<>> ELSE
           <<snapOffset[c], snapProcessed[c], snapChan[c], switchedAt[c]>>],
       latest, discardedUpTo, failures, unalignedAt >>

\* The messages edge e can carry under the model's options: the records routed on it,
\* barriers of both kinds (an overtaking one only of a checkpoint that may switch),
\* cancellations only from an operator and with AbortsReachTasks (CancelLemma,
\* OptionsLemma), the end of partition only with EndOfInput (OptionsLemma, EndedLemma,
\* EndLemma).  The lemmas rule the rest out, so leaving it out changes the cost of IndInit,
\* not its set.
Alphabet(e) == {r \in Records : e \in RouteOf(e[1], r)}
                 \cup {AlignedBarrier(c) : c \in CheckpointIds}
                 \cup {OvertakingBarrier(c) : c \in {d \in CheckpointIds : MaySwitch(d)}}
                 \cup (IF e[1] \in Operators /\ AbortsReachTasks THEN CancelBarriers ELSE {})
                 \cup (IF EndOfInput THEN {EndOfPartition} ELSE {})
\* Sequences over M of length at most n in which no element repeats more than k times.
SeqsUpToCopies(M, n, k) == {q \in SeqsUpTo(M, n) : \A m \in M : CopiesInSeq(m, q) <= k}
\* The shape the lemmas allow a channel whatever the state: each checkpoint's barrier,
\* cancellation and the end of partition at most once, barriers ahead of the end and an
\* overtaking one ahead of every record, after the end only cancellations.
Shaped(q) ==
    /\ EopsIn(q) <= 1
    /\ EopsIn(q) = 1 => \A i \in (EopPos(q) + 1)..Len(q) : IsCancelBarrier(q[i])
    /\ \A c \in CheckpointIds :
          /\ AltBarriersIn(q, c) <= 1 /\ CancelsIn(q, c) <= 1
          /\ AltBarriersIn(q, c) = 1 /\ EopsIn(q) = 1 => AltBarrierPos(q, c) < EopPos(q)
          /\ AltBarriersIn(q, c) = 1 /\ ~AlignedIn(q, c) =>
                \A i \in 1..(AltBarrierPos(q, c) - 1) : ~IsRecord(q[i])
\* The shaped sequences of every edge with at most MaxCopies copies of a record (RoutedLemma:
\* Sent is at most MaxCopies in the type), tabulated once (a constant definition).
ChanShapes == [e \in Edges |-> {q \in SeqsUpToCopies(Alphabet(e), MaxChanLen, MaxCopies) : Shaped(q)}]
\* The persisted states an edge may have: records routed on it, at most MaxCopies copies of
\* each (PersistedLemma bounds them by Sent or SentBefore), tabulated once.
PersistShapes ==
    [e \in Edges |-> SeqsUpToCopies({r \in Records : e \in RouteOf(e[1], r)}, MaxChanLen, MaxCopies)]

\* The inputs of t on which record r can come, tabulated once.
CarriersTable == [t \in Operators |-> [r \in Records |-> {e \in InputsOf(t) : e \in RouteOf(e[1], r)}]]
\* FlowLemma for the records that can reach e's receiver on e only (MCUnalignedIndInv's).
FlowOn(e, q) ==
    \A r \in Records : CarriersTable[e[2]][r] = {e} =>
        CopiesIn(r, processed[e[2]]) + InSeq(q, r) = Sent(e, r)
\* What channel e and its persisted states may be, <<content, [c |-> persisted]>>, given
\* the variables bound before them.
EdgeCandidates(e) ==
    {qp \in {q \in ChanShapes[e] : FlowOn(e, q)} \X [CheckpointIds -> PersistShapes[e]] :
        /\ AltChannelLemmaWith(e, qp[1], qp[2])
        /\ \A c \in CheckpointIds : Stale(c) => qp[2][c] = <<>>}

\* The typed values of the operators' functions, tabulated once (constant definitions).
SubsetsOfInputs == {f \in [Operators -> SUBSET Edges] : \A t \in Operators : f[t] \subseteq InputsOf(t)}
HandlingArrived == {ha \in [Operators -> 0..MaxCheckpointId] \X SubsetsOfInputs :
                        \A t \in Operators : ha[1][t] = 0 <=> ha[2][t] = {}}

\* The bookkeeping, lifecycle, operator and switch variables, bound first (MCUnalignedIndInv's
\* IndPrefix with unalignedAt and switchedAt).
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
    /\ unalignedAt \in [Operators -> {0} \cup {c \in CheckpointIds : Live(c) /\ MaySwitch(c)}]
    /\ switchedAt \in [CheckpointIds -> SUBSET Operators]
    /\ \A c \in CheckpointIds : Stale(c) \/ ~Triggered(c) => switchedAt[c] = {}
    /\ SwitchLemma
    /\ HandlingLemma
    /\ AckLemma
    /\ snapOffset \in [CheckpointIds -> [Sources -> 0..RecordsPerSource]]
    /\ SourceSnapshotLemma
    /\ \A c \in CheckpointIds : Stale(c) => snapOffset[c] = [s \in Sources |-> 0]

\* The edges out of sources, and the others (MCUnalignedIndInv's two stages).
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

\* All states of the bounded type that satisfy AlternatingIndInv, the transactional sink off.
IndInit ==
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
    /\ SinkInit
    /\ AlternatingIndInv

IndSpec == IndInit /\ [][Next]_allVars

=============================================================================
TLC figures: see docs/inductive-invariant.md and spec/proofs/models.tsv.
