--------------------------- MODULE MCAlignedIndInv ---------------------------
(***************************************************************************)
(* TLC checks that AlignedIndInv is inductive, the standard way: the       *)
(* initial states are ALL states of a bounded type that satisfy            *)
(* AlignedIndInv (IndInit), TLC takes every step of Next from each of them *)
(* and checks AlignedIndInv in every successor, and ConsistentCutInv in   *)
(* every state.  The bounded type: every variable over its TypeInv and     *)
(* LifecycleTypeInv domains cut to the model's bounds, bags with at most   *)
(* MaxCopies copies of a record and channels of at most MaxChanLen         *)
(* messages.  The lemmas imply those bounds, so no successor leaves the   *)
(* type: TLC's distinct-state count is the number of AlignedIndInv states  *)
(* checked (depth 1: no successor is a new state).                         *)
(*                                                                         *)
(* IndInit is written so that TLC can enumerate it: variables are bound    *)
(* one after another and each lemma filters as soon as its variables are   *)
(* bound; a channel's candidates come from a table, computed once, of the  *)
(* sequences whose shape the lemmas allow (ChanShapes), filtered edge by   *)
(* edge; a variable a lemma pins to one value is bound to it.  None of     *)
(* this changes the set of initial states, only the cost.                  *)
(***************************************************************************)
EXTENDS MCAlignedCheckpoint, AlignedIndInv, IndInvTypes

\* The messages edge e can carry: the records routed on it, barriers, cancellations, end.
\* A source forwards no cancellation (CancelLemma), so its edges carry none.
Alphabet(e) == {r \in Records : e \in RouteOf(e[1], r)} \cup {Barrier(c) : c \in CheckpointIds}
                 \cup (IF e[1] \in Operators THEN CancelBarriers ELSE {}) \cup {EndOfPartition}
\* The shape the lemmas allow a channel whatever the state: at most Capacity records, each
\* barrier, cancellation and end of partition at most once, barriers in id order and ahead
\* of the end, after the end only cancellations, never a barrier and a cancellation of the
\* same checkpoint (AlignedChannelLemma, EndLemma, CancelLemma).
Shaped(q) ==
    /\ RecordCount(q) <= Capacity
    /\ EopsIn(q) <= 1
    /\ EopsIn(q) = 1 => \A i \in (EopPos(q) + 1)..Len(q) : IsCancelBarrier(q[i])
    /\ \A c \in CheckpointIds :
          /\ BarriersIn(q, c) <= 1 /\ CancelsIn(q, c) <= 1
          /\ BarriersIn(q, c) + CancelsIn(q, c) <= 1
          /\ \A d \in 1..(c - 1) : BarriersIn(q, d) = 1 /\ BarriersIn(q, c) = 1
                                      => BarrierPos(q, d) < BarrierPos(q, c)
\* The shaped sequences of every edge, tabulated once (a constant definition).
ChanShapes == [e \in Edges |-> {q \in SeqsUpTo(Alphabet(e), MaxChanLen) : Shaped(q)}]
\* What channel e may hold, given the variables bound before it.
\* The inputs of t on which record r can come, tabulated once.
CarriersTable == [t \in Operators |-> [r \in Records |-> {e \in InputsOf(t) : e \in RouteOf(e[1], r)}]]
\* FlowLemma for the records that can reach e's receiver on e only: a consequence of
\* FlowLemma that holds edge by edge, so that it can filter a channel's candidates early.
FlowOn(e, q) ==
    \A r \in Records : CarriersTable[e[2]][r] = {e} =>
        CopiesIn(r, processed[e[2]]) + InSeq(q, r) = Sent(e, r)
ChanCandidates(e) ==
    {q \in ChanShapes[e] : FlowOn(e, q) /\ AlignedChannelLemma(e, q) /\ FinalStateLemma(e, q)}

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
    /\ AckClosureLemma
    /\ snapOffset \in [CheckpointIds -> [Sources -> 0..RecordsPerSource]]
    /\ SourceSnapshotLemma

\* The edges out of sources, and the others.  A source edge's candidates do not depend on
\* processed (Sent reads the source's offset), so they are enumerated first; FlowLemma then
\* pins processed for the operators fed by sources only (FlowBag), before the other edges.
SourceEdges == {e \in Edges : e[1] \in Sources}
OperatorEdges == Edges \ SourceEdges
FedBySources == {t \in Operators : InputsOf(t) \subseteq SourceEdges}
SourceCandidates(e) == {q \in ChanShapes[e] : AlignedChannelLemma(e, q) /\ FinalStateLemma(e, q)}
\* processed[t] as FlowLemma pins it, given the contents f[e] of t's inputs.
FlowCount(t, f, r) == SumOver(InputsOf(t), [e \in InputsOf(t) |-> Sent(e, r) - InSeq(f[e], r)])
FlowBag(t, f) == [r \in {x \in Records : FlowCount(t, f, x) > 0} |-> FlowCount(t, f, r)]

\* All states of the bounded type that satisfy AlignedIndInv, with the sink's variables bound
\* by SinkVars after the others (their lemmas read processed and the snapshots).
IndInitWith(SinkVars) ==
    /\ IndPrefix
    /\ snapProcessed \in [CheckpointIds -> [Operators -> BagsUpTo(MaxCopies)]]
    /\ AckedSnapshotLemma
    \* AlignedNoChannelStateInv pins snapChan to one value: bind it (the same set of states).
    /\ snapChan = [c \in CheckpointIds |-> [e \in Edges |-> <<>>]]
    \* The source edges first, then processed (pinned by FlowLemma for the operators fed by
    \* sources only), then the other edges: the same set as binding processed first.
    /\ \E f1 \in Product(SourceEdges, [e \in SourceEdges |-> SourceCandidates(e)]) :
          /\ processed \in {p \in [Operators -> BagsUpTo(MaxCopies)] :
                              \A t \in FedBySources : p[t] = FlowBag(t, f1)}
          /\ \E f2 \in Product(OperatorEdges, [e \in OperatorEdges |-> ChanCandidates(e)]) :
                chan = f1 @@ f2
    /\ SinkVars
    /\ AlignedIndInv

\* With the transactional sink off (SinkInit); MCAlignedIndInvSink.tla binds it on.
IndInit == IndInitWith(SinkInit)

IndSpec == IndInit /\ [][Next]_vars

\* A weakened lemma, for the broken twin of the whole lifecycle with failures
\* (MCAlignedIndInv_LifecycleWeakCancelLemma.cfg: CancelLemma <- CancelLemmaForgetsHandling):
\* CancelLemma without its last part, that the operator which forwarded a cancellation of c
\* no longer handles c.  The check found that part missing; without it AlignedIndInv is not
\* inductive (NotifyCheckpointAborted forwards a second cancellation), and TLC must say so.
CancelLemmaForgetsHandling(e, q) ==
    \A c \in CheckpointIds :
        /\ CancelsIn(q, c) <= 1
        /\ CancelsIn(q, c) = 1 => Live(c) /\ c <= current[e[1]] /\ e[1] \in Operators

=============================================================================
TLC figures: see docs/inductive-invariant.md and spec/proofs/models.tsv.
