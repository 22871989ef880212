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
SampleSinkInit == SampleInitWith(SinkBind(SinkSnapped))

SampleSinkSpec == SampleSinkInit /\ [][Next]_vars

=============================================================================
Figures: docs/inductive-invariant.md.
