------------------------- MODULE MCAlignedIndInvSink -------------------------
(***************************************************************************)
(* AlignedIndInv with the transactional sink on, checked the               *)
(* standard way as MCAlignedIndInv.tla does: the initial states are all    *)
(* states of the bounded type that satisfy AlignedIndInv, whose sink       *)
(* lemmas (SinkTxnLemma, SinkOutputLemma, SinkSnapshotLemma in             *)
(* CutLemmas.tla) now speak; TLC takes every step of Next from each and    *)
(* checks AlignedIndInv in every successor, and ConsistentCutInv,          *)
(* NoDuplicateOutputInv and OutputExactlyOnceInv in every state: so        *)
(* IndInv => those three, and IndInv is inductive, with the sink's         *)
(* pre-commits, notifications, re-commits and aborts among the steps.      *)
(*                                                                         *)
(* IndSinkInit binds the variables of IndInit, then the sink's (SinkBind   *)
(* in IndInvTypes.tla): the ids of the committed and pending transactions, *)
(* their records, the ids a snapshot recorded; the open transaction and    *)
(* the committed output are                                                *)
(* what SinkOutputLemma pins them to.  Data nothing reads again is given   *)
(* one value and forgotten by the VIEW IndSinkView (the argument of        *)
(* StateView): the records of a transaction that does not count (aborted,  *)
(* or never pre-committed; a later pre-commit of that id overwrites them), *)
(* and the ids recorded in a snapshot the lemmas do not speak about (it    *)
(* is never restored: only the latest completed one is, and latest only    *)
(* grows; a live one the sink has not snapshotted is overwritten when it   *)
(* does).                                                                  *)
(***************************************************************************)
EXTENDS MCAlignedIndInv

\* The state TLC fingerprints: unread sink data replaced by its one value (TxnSeen, SnapTxnSeen
\* in IndInvTypes.tla).
IndSinkView ==
    << offset, chan, processed, handling, arrived, ckpt, current, endedInputs, endedSources,
       acked, snapOffset, snapProcessed, snapChan, latest, discardedUpTo, failures,
       txnOpen, TxnSeen, txnPending, SnapTxnSeen(SinkSnapped), txnCommitted, committed >>

\* All states of the bounded type that satisfy AlignedIndInv (sink data up to IndSinkView).
IndSinkInit == IndInitWith(SinkBind(SinkSnapped))

IndSinkSpec == IndSinkInit /\ [][Next]_vars

=============================================================================
TLC figures: see docs/inductive-invariant.md and spec/proofs/models.tsv.
