---------------------- MODULE MCAlignedIndInvSinkSample ----------------------
(***************************************************************************)
(* AlignedIndInv with the transactional sink on, by random                 *)
(* sampling: MCAlignedIndInvSample.tla's initial states (acked, current    *)
(* and snapOffset drawn by RandomSubset, the snapshots and the state of    *)
(* the operators fed by sources computed, the channels enumerated) with    *)
(* the sink's variables bound as MCAlignedIndInvSink.tla binds them       *)
(* (SinkBind: every choice the sink lemmas allow).  TLC checks            *)
(* AlignedIndInv, ConsistentCutInv, NoDuplicateOutputInv and               *)
(* OutputExactlyOnceInv on every sampled state and AlignedIndInv after    *)
(* every step from it (OneStep).                                           *)
(***************************************************************************)
EXTENDS MCAlignedIndInvSample, MCAlignedIndInvSink

\* A random sample of the states of the bounded type that satisfy AlignedIndInv, sink on.
SampleSinkInit ==
    /\ SamplePrefix
    /\ snapProcessed = [c \in CheckpointIds |-> [t \in Operators |->
                           IF t \in acked[c] THEN SnapBag(c, t) ELSE EmptyBag]]
    /\ AckedSnapshotLemma
    /\ snapChan = [c \in CheckpointIds |-> [e \in Edges |-> <<>>]]
    /\ \E f1 \in Product(SourceEdges, [e \in SourceEdges |-> SourceCandidates(e)]) :
          /\ processed \in {p \in [Operators -> BagsUpTo(MaxCopies)] :
                              \A t \in FedBySources : p[t] = FlowBag(t, f1)}
          /\ \E f2 \in Product(OperatorEdges, [e \in OperatorEdges |-> ChanCandidates(e)]) :
                chan = f1 @@ f2
    /\ SinkBind
    /\ AlignedIndInv

SampleSinkSpec == SampleSinkInit /\ [][Next]_vars

=============================================================================
Figures: docs/inductive-invariant.md.
