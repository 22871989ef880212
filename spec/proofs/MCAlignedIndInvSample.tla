------------------------ MODULE MCAlignedIndInvSample ------------------------
(***************************************************************************)
(* AlignedIndInv checked by random sampling at bounds too large to         *)
(* enumerate (docs/inductive-invariant.md, "Random sampling").  The       *)
(* initial states are a random sample of the AlignedIndInv states of the   *)
(* bounded type of MCAlignedIndInv.tla: IndInit's bindings, with the       *)
(* variables that make the product large drawn by TLC's Randomization      *)
(* instead of enumerated: RandomSubset draws Draws values of acked,        *)
(* current and snapOffset among those their own lemmas allow, afresh for   *)
(* every binding before them.  The snapshots are computed                  *)
(* (AckedSnapshotLemma pins them), so is the state of an operator fed by   *)
(* sources (FlowLemma pins it), and the channels are enumerated exactly    *)
(* given the rest (the lemmas pin them almost                              *)
(* completely, so a random channel or bag would almost never fit: a first  *)
(* attempt, which drew the pinned bags, sampled nothing).  Every initial   *)
(* state satisfies AlignedIndInv (IndInit's last filter), so TLC's        *)
(* initial-state count is the number of IndInv states checked; TLC checks  *)
(* ConsistentCutInv on each and AlignedIndInv after every step of Next.    *)
(* The sample differs from run to run.                                     *)
(***************************************************************************)
EXTENDS MCAlignedIndInv, Randomization

CONSTANT Draws  \* how many values RandomSubset draws for acked, current and snapOffset (among
                \* those their own lemmas allow), afresh for every binding before them

RECURSIVE SnapCount(_, _, _)
\* How many copies of r operator t's snapshot of c holds if it is the local cut of
\* AckedSnapshotLemma: what its senders had sent it before their own snapshots.
SnapCount(c, t, r) ==
    SumOver(InputsOf(t), [e \in InputsOf(t) |->
        LET v == e[1] IN
        IF e \notin RouteOf(v, r) THEN 0
        ELSE IF v \in Sources THEN (IF r.off < snapOffset[c][v] THEN 1 ELSE 0)
        ELSE SnapCount(c, v, r)])
\* That snapshot, as a bag.
SnapBag(c, t) == [r \in {x \in Records : SnapCount(c, t, x) > 0} |-> SnapCount(c, t, r)]

\* IndPrefix with acked, current and snapOffset drawn at random.
SamplePrefix ==
    /\ failures \in 0..MaxFailures
    /\ discardedUpTo \in 0..MaxCheckpointId
    /\ latest \in 0..MaxCheckpointId
    /\ ckpt \in [CheckpointIds -> {"none", "pending", "completed", "aborted"}]
    /\ latest # 0 => ckpt[latest] = "completed"
    /\ acked \in RandomSubset(Draws, {a \in [CheckpointIds -> SUBSET Tasks] :
                                        \A c \in CheckpointIds : /\ ~Triggered(c) => a[c] = {}
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
    /\ AckClosureLemma
    /\ snapOffset \in RandomSubset(Draws, {so \in [CheckpointIds -> [Sources -> 0..RecordsPerSource]] :
                        \A c \in CheckpointIds, s \in Sources :
                            /\ s \notin acked[c] => so[c][s] = 0
                            /\ Live(c) /\ s \in acked[c] => so[c][s] <= offset[s]})
    /\ SourceSnapshotLemma

\* A random sample of the states of the bounded type that satisfy AlignedIndInv, with the
\* sink's variables bound by SinkVars after the others (SinkInit binds them without a draw, so
\* where it stands does not change the sample).
SampleInitWith(SinkVars) ==
    /\ SamplePrefix
    \* AckedSnapshotLemma pins the snapshot of an acknowledged operator (of a checkpoint that is
    \* not doomed): computed, not drawn.  Of a doomed checkpoint the sample takes the same
    \* value (any value is allowed there; the sample covers this one).
    /\ snapProcessed = [c \in CheckpointIds |-> [t \in Operators |->
                           IF t \in acked[c] THEN SnapBag(c, t) ELSE EmptyBag]]
    /\ AckedSnapshotLemma
    /\ snapChan = [c \in CheckpointIds |-> [e \in Edges |-> <<>>]]
    /\ \E f1 \in Product(SourceEdges, [e \in SourceEdges |-> SourceCandidates(e)]) :
          /\ processed \in {p \in [Operators -> BagsUpTo(MaxCopies)] :
                              \A t \in FedBySources : p[t] = FlowBag(t, f1)}
          /\ \E f2 \in Product(OperatorEdges, [e \in OperatorEdges |-> ChanCandidates(e)]) :
                chan = f1 @@ f2
    /\ SinkVars
    /\ AlignedIndInv

\* With the transactional sink off; MCAlignedIndInvSinkSample.tla binds it on.
SampleInit == SampleInitWith(SinkInit)

\* The sampled states' successors are checked (TLC checks the invariants of a state outside
\* the constraint too) but not explored further: one step of Next from each sampled state,
\* as the exhaustive check takes.
OneStep == TLCGet("level") < 2

SampleSpec == SampleInit /\ [][Next]_vars

=============================================================================
Figures: docs/inductive-invariant.md.
