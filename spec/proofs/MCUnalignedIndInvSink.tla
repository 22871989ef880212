------------------------ MODULE MCUnalignedIndInvSink ------------------------
(***************************************************************************)
(* UnalignedIndInv with the transactional sink on, checked the standard   *)
(* way as MCUnalignedIndInv.tla does: the initial states are all states of *)
(* the bounded type that satisfy UnalignedIndInv, whose sink lemmas        *)
(* (SinkTxnLemma, SinkOutputLemma, SinkSnapshotLemma in CutLemmas.tla,     *)
(* with Snapshotted: an unaligned sink pre-commits at the first barrier)  *)
(* now speak; TLC takes every step of Next from each and checks            *)
(* UnalignedIndInv in every successor, and ConsistentCutInv,               *)
(* NoDuplicateOutputInv and OutputExactlyOnceInv in every state.           *)
(*                                                                         *)
(* IndSinkInit binds the variables of IndInit, then the sink's as          *)
(* MCAlignedIndInvSink.tla does (SinkBind in IndInvTypes.tla).  The VIEW   *)
(* IndSinkView forgets what IndView forgets (stale checkpoints' data) and  *)
(* the sink data nothing reads again.                                      *)
(***************************************************************************)
EXTENDS MCUnalignedIndInv

\* The state TLC fingerprints: IndView's, and the sink's with unread data replaced by its
\* one value (TxnSeen, SnapTxnSeen in IndInvTypes.tla).
IndSinkView ==
    << IndView, txnOpen, TxnSeen, txnPending, SnapTxnSeen(Snapshotted), txnCommitted, committed >>

\* All states of the bounded type that satisfy UnalignedIndInv (data up to IndSinkView).
IndSinkInit == IndInitWith(SinkBind(Snapshotted))

IndSinkSpec == IndSinkInit /\ [][Next]_vars

=============================================================================
TLC figures: see docs/inductive-invariant.md and spec/proofs/models.tsv.
