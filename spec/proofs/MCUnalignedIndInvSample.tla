----------------------- MODULE MCUnalignedIndInvSample -----------------------
(***************************************************************************)
(* UnalignedIndInv checked by random sampling at bounds too large to       *)
(* enumerate (docs/inductive-invariant.md, "Random sampling"), as          *)
(* MCAlignedIndInvSample.tla does for aligned barriers.  The initial       *)
(* states are a random sample of the UnalignedIndInv states of the bounded *)
(* type of MCUnalignedIndInv.tla: RandomSubset draws Draws values of       *)
(* acked, current and snapOffset among those their own lemmas allow,       *)
(* afresh for every binding before them; the channels and their persisted  *)
(* states are enumerated exactly given the rest (a channel's content       *)
(* first, then, checkpoint by checkpoint, the persisted states             *)
(* PersistedLemma allows with it); processed and the operator snapshots    *)
(* are computed, because FlowLemma and OperatorSnapshotLemma pin them      *)
(* (a random bag would almost never fit, as the first aligned sample       *)
(* showed).  Every initial state satisfies UnalignedIndInv (SampleInit's   *)
(* last filter), so TLC's initial-state count is the number of sampled     *)
(* IndInv states; TLC checks ConsistentCutInv on each and UnalignedIndInv  *)
(* after every step of Next from it.  With TLC's -seed fixed (model-       *)
(* check.sh passes one for the ...Sample models) and one worker, the       *)
(* sample is the same from run to run.                                     *)
(*                                                                         *)
(* What the sample leaves out, as the exhaustive model's conventions do:   *)
(* the data of stale checkpoints is one value (empty; VIEW IndView         *)
(* forgets it); the data of a doomed checkpoint, which the lemmas leave    *)
(* free and no step reads, is empty too (one variant of many).             *)
(***************************************************************************)
EXTENDS MCUnalignedIndInv, Randomization

CONSTANT Draws  \* how many values RandomSubset draws for acked, current and snapOffset (among
                \* those their own lemmas allow), afresh for every binding before them

\* The lemmas with processed and snapProcessed replaced by values computed before those
\* variables are bound: the channels of operator edges are filtered with the state of their
\* senders (Sent, SentBefore), which the sample computes from the source edges' channels.
With(p, sp) == INSTANCE UnalignedIndInv WITH processed <- p, snapProcessed <- sp

\* The sample computes an operator's state from its inputs in two stages: the operators fed
\* by sources only, then the others, whose senders must all be of the first kind (Join and
\* Diamond are).
ASSUME \A t \in Operators \ FedBySources : \A e \in InputsOf(t) : e[1] \in FedBySources

\* The messages edge e can carry under the model's options: no cancellation barrier without
\* AbortsReachTasks (OptionsLemma), no end of partition without EndOfInput.
SampleAlphabet(e) ==
    {r \in Records : e \in RouteOf(e[1], r)} \cup {Barrier(c) : c \in CheckpointIds}
      \cup (IF AbortsReachTasks THEN CancelBarriers ELSE {})
      \cup (IF EndOfInput THEN {EndOfPartition} ELSE {})
\* Sequences over M of length at most n in which no element repeats more than k times.
SeqsUpToCopies(M, n, k) == {q \in SeqsUpTo(M, n) : \A m \in M : CopiesInSeq(m, q) <= k}
\* The shaped channel contents of every edge (MCUnalignedIndInv's Shaped) with at most
\* MaxCopies copies of a record (RoutedLemma: Sent is at most MaxCopies in the type),
\* tabulated once.
SampleChanShapes == [e \in Edges |-> {q \in SeqsUpToCopies(SampleAlphabet(e), MaxChanLen, MaxCopies) : Shaped(q)}]
\* The persisted states an edge may have, with at most MaxCopies copies of a record
\* (PersistedLemma bounds them by Sent or SentBefore), tabulated once.
SamplePersistShapes ==
    [e \in Edges |-> SeqsUpToCopies({r \in Records : e \in RouteOf(e[1], r)}, MaxChanLen, MaxCopies)]

\* The channel content q edge e may have (UnalignedChannelLemmaWith but PersistedLemma), with
\* the senders' state p, sp.
ChanFits(p, sp, e, q) ==
    /\ With(p, sp)!RoutedLemma(e, q)
    /\ With(p, sp)!EndLemma(e, q)
    /\ With(p, sp)!CancelLemma(e, q)
    /\ \A c \in CheckpointIds :
          /\ BarriersIn(q, c) = 1 =>
                /\ Live(c) /\ (~With(p, sp)!SenderSnapshotted(c, e) => Passed(c, e[1]))
                /\ c <= current[e[1]]
                /\ ~With(p, sp)!Received(c, e)
          /\ With(p, sp)!FinalStateLemmaWith(c, e, q)
\* The persisted states of e in c that PersistedLemma allows with content q: a stale or doomed
\* checkpoint gets the empty one (see the header).
PersistFits(p, sp, c, e, q) ==
    IF With(p, sp)!Kept(c)
      THEN {pq \in SamplePersistShapes[e] : With(p, sp)!PersistedLemmaWith(c, e, q, pq)}
      ELSE {<<>>}
\* What edge e and its persisted states may be, <<content, [c |-> persisted]>>: each content
\* that fits, with every choice of the persisted states checkpoint by checkpoint.
SampleEdgeCandidates(p, sp, e) ==
    UNION {{<<q, ps>> : ps \in Product(CheckpointIds, [c \in CheckpointIds |-> PersistFits(p, sp, c, e, q)])} :
               q \in {x \in SampleChanShapes[e] : ChanFits(p, sp, e, x)}}

\* processed[t] as FlowLemma pins it, given the candidates f[e] = <<content, persisted>> of
\* t's inputs and the senders' state p, sp (a negative count makes no bag: the last filter
\* then rejects the state).
FlowCountWith(p, sp, t, f, r) ==
    SumOver(InputsOf(t), [e \in InputsOf(t) |-> With(p, sp)!Sent(e, r) - InSeq(f[e][1], r)])
FlowBagWith(p, sp, t, f) ==
    [r \in {x \in Records : FlowCountWith(p, sp, t, f, x) > 0} |-> FlowCountWith(p, sp, t, f, r)]
\* snapProcessed[c][t] as OperatorSnapshotLemma pins it (empty where the lemma does, and for
\* stale and doomed checkpoints: see the header).
SnapCountWith(p, sp, c, t, f, r) ==
    SumOver(InputsOf(t), [e \in InputsOf(t) |-> With(p, sp)!TakenAtSnapshotWith(c, e, r, f[e][1], f[e][2][c])])
SnapBagWith(p, sp, c, t, f) ==
    IF Kept(c) /\ Snapshotted(c, t)
      THEN [r \in {x \in Records : SnapCountWith(p, sp, c, t, f, x) > 0} |-> SnapCountWith(p, sp, c, t, f, r)]
      ELSE EmptyBag
\* No operator state: what the sample passes for the operators not computed yet (nothing reads it).
NoBags == [t \in Operators |-> EmptyBag]
NoSnaps == [c \in CheckpointIds |-> NoBags]

\* IndPrefix with acked, current and snapOffset drawn at random.
SamplePrefix ==
    /\ failures \in 0..MaxFailures
    /\ discardedUpTo \in 0..MaxCheckpointId
    /\ latest \in 0..MaxCheckpointId
    /\ ckpt \in [CheckpointIds -> {"none", "pending", "completed", "aborted"}]
    /\ latest # 0 => ckpt[latest] = "completed"
    /\ acked \in RandomSubset(Draws, {a \in [CheckpointIds -> SUBSET Tasks] :
                                        \A c \in CheckpointIds : /\ ~Triggered(c) => a[c] = {}
                                                                 /\ Stale(c) => a[c] = {}
                                                                 /\ ckpt[c] = "completed" => a[c] = Tasks})
    /\ BookkeepingLemma
    /\ offset \in [Sources -> 0..RecordsPerSource]
    /\ endedSources \in IF EndOfInput THEN SUBSET Sources ELSE {{}}
    /\ endedInputs \in SubsetsOfInputs
    /\ EndedLemma
    /\ ~AbortEnabled /\ failures = 0 =>
          \A c \in CheckpointIds : ckpt[c] = "aborted" =>
              \E d \in CheckpointIds : d > c /\ ckpt[d] = "completed"
    /\ current \in RandomSubset(Draws, {cur \in [Tasks -> 0..MaxCheckpointId] :
                        \A v \in Tasks : /\ discardedUpTo <= cur[v]
                                        /\ cur[v] \in {0} \cup {c \in CheckpointIds : Triggered(c)}
                                        /\ \A c \in CheckpointIds : Live(c) /\ c > cur[v] =>
                                               (v \in acked[c] <=> Ended(v))})
    /\ \E ha \in HandlingArrived : handling = ha[1] /\ arrived = ha[2]
    /\ CurrentLemma
    /\ MaxConcurrent = 1 =>
          \A c \in CheckpointIds : Live(c) /\ Doomed(c) => AbortsReachTasks /\ ckpt[c] = "aborted"
    /\ HandlingLemma
    /\ AckLemma
    /\ snapOffset \in RandomSubset(Draws, {so \in [CheckpointIds -> [Sources -> 0..RecordsPerSource]] :
                        \A c \in CheckpointIds, s \in Sources :
                            /\ s \notin acked[c] => so[c][s] = 0
                            /\ Live(c) /\ s \in acked[c] => so[c][s] <= offset[s]
                            /\ Stale(c) => so[c][s] = 0})
    /\ SourceSnapshotLemma

\* A random sample of the states of the bounded type that satisfy UnalignedIndInv, with the
\* sink's variables bound by SinkVars after the others (SinkInit binds them without a draw, so
\* where it stands does not change the sample).
SampleInitWith(SinkVars) ==
    /\ SamplePrefix
    \* The source edges first (their lemmas read no operator state), then the state of the
    \* operators fed by them, computed (p1, sp1), then the other edges, then the state of
    \* their receivers, computed.
    /\ \E f1 \in Product(SourceEdges, [e \in SourceEdges |-> SampleEdgeCandidates(NoBags, NoSnaps, e)]) :
       LET p1 == [t \in Operators |-> IF t \in FedBySources THEN FlowBagWith(NoBags, NoSnaps, t, f1) ELSE EmptyBag]
           sp1 == [c \in CheckpointIds |-> [t \in Operators |->
                     IF t \in FedBySources THEN SnapBagWith(NoBags, NoSnaps, c, t, f1) ELSE EmptyBag]]
       IN
       \E f2 \in Product(OperatorEdges, [e \in OperatorEdges |-> SampleEdgeCandidates(p1, sp1, e)]) :
          LET f == f1 @@ f2 IN
          /\ chan = [e \in Edges |-> f[e][1]]
          /\ snapChan = [c \in CheckpointIds |-> [e \in Edges |-> f[e][2][c]]]
          /\ processed = [t \in Operators |->
                            IF t \in FedBySources THEN p1[t] ELSE FlowBagWith(p1, sp1, t, f)]
          /\ snapProcessed = [c \in CheckpointIds |-> [t \in Operators |->
                                IF t \in FedBySources THEN sp1[c][t] ELSE SnapBagWith(p1, sp1, c, t, f)]]
    /\ processed \in [Operators -> BagsUpTo(MaxCopies)]
    /\ snapProcessed \in [CheckpointIds -> [Operators -> BagsUpTo(MaxCopies)]]
    /\ SinkVars
    /\ UnalignedIndInv

\* With the transactional sink off; MCUnalignedIndInvSinkSample.tla binds it on.
SampleInit == SampleInitWith(SinkInit)

\* The sampled states' successors are checked (TLC checks the invariants of a state outside
\* the constraint too) but not explored further: one step of Next from each sampled state.
OneStep == TLCGet("level") < 2

SampleSpec == SampleInit /\ [][Next]_vars

=============================================================================
Figures: docs/inductive-invariant.md.
