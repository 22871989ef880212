--------------------- MODULE MCUnalignedIndInvSinkSample ---------------------
(***************************************************************************)
(* UnalignedIndInv with the transactional sink on, by random sampling:     *)
(* MCUnalignedIndInvSample.tla's initial states (acked, current and        *)
(* snapOffset drawn by RandomSubset, the operators' state and snapshots    *)
(* computed, the channels and persisted states enumerated) with the sink's *)
(* variables bound as MCUnalignedIndInvSink.tla binds them (SinkBind with  *)
(* Snapshotted: every choice the sink lemmas allow).  TLC checks           *)
(* UnalignedIndInv, ConsistentCutInv, NoDuplicateOutputInv and             *)
(* OutputExactlyOnceInv on every sampled state and UnalignedIndInv after   *)
(* every step from it (OneStep).                                           *)
(***************************************************************************)
EXTENDS MCUnalignedIndInvSample, MCUnalignedIndInvSink

\* A random sample of the states of the bounded type that satisfy UnalignedIndInv, sink on.
SampleSinkInit == SampleInitWith(SinkBind(Snapshotted))

SampleSinkSpec == SampleSinkInit /\ [][Next]_vars

=============================================================================
Figures: docs/inductive-invariant.md.
