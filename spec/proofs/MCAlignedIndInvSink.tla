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
(* IndSinkInit binds the variables of IndInit, then the sink's: the ids of *)
(* the committed and pending transactions, their records, the ids a        *)
(* snapshot recorded; the open transaction and the committed output are    *)
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

\* The records of a transaction that counts and the pending ids of a snapshot the lemmas
\* speak about; elsewhere the one value IndSinkInit gives them.
TxnSeen == [t \in SinkTasks |-> [d \in CheckpointIds |->
               IF d \in CountingTxns(t) THEN txn[t][d] ELSE EmptyBag]]
SnapTxnSeen == [c \in CheckpointIds |-> [t \in SinkTasks |->
                   IF SinkSnapKept(c) /\ SinkSnapped(c, t) THEN snapTxnPending[c][t] ELSE {}]]

\* The state TLC fingerprints: unread sink data replaced by its one value.
IndSinkView ==
    << offset, chan, processed, handling, arrived, ckpt, current, endedInputs, endedSources,
       acked, snapOffset, snapProcessed, snapChan, latest, discardedUpTo, failures,
       txnOpen, TxnSeen, txnPending, SnapTxnSeen, txnCommitted, committed >>

\* The records a transaction of sink t may hold: one that counts holds a record, the others
\* are given the empty one (see IndSinkView).
TxnChoices(t) ==
    Product(CheckpointIds, [d \in CheckpointIds |->
        IF d \in CountingTxns(t) THEN BagsUpTo(MaxCopies) \ {EmptyBag} ELSE {EmptyBag}])
\* The pending ids sink t's snapshot of c may have recorded (SinkSnapshotLemma), or the one
\* value of a snapshot the lemmas do not speak about.
SnapTxnChoices(c, t) ==
    IF SinkSnapKept(c) /\ SinkSnapped(c, t)
      THEN {S \in SUBSET {d \in CountingTxns(t) : d <= c} : {d \in txnPending[t] : d <= c} \subseteq S}
      ELSE {{}}

\* The sink variables, bound after every other variable (the lemmas read processed and the
\* snapshots); each function is built id by id from the choices its lemma allows (Product).
SinkBind ==
    /\ txnCommitted \in [SinkTasks -> SUBSET (1..latest)]
    /\ txnPending \in {p \in [SinkTasks -> SUBSET {d \in CheckpointIds : Live(d)}] :
                          \A t \in SinkTasks : p[t] \cap txnCommitted[t] = {}}
    /\ \A t \in SinkTasks, c \in CheckpointIds :
          Live(c) /\ ~SinkSnapped(c, t) /\ ~Passed(c, t) => \A d \in CountingTxns(t) : d < c
    /\ txn \in Product(SinkTasks, [t \in SinkTasks |-> TxnChoices(t)])
    /\ \A t \in SinkTasks : TxnRecords(t, CountingTxns(t)) \sqsubseteq processed[t]
    /\ txnOpen = [t \in SinkTasks |-> processed[t] (-) TxnRecords(t, CountingTxns(t))]
    /\ committed = BagSum(SinkTasks, [t \in SinkTasks |-> TxnRecords(t, txnCommitted[t])])
    /\ snapTxnPending \in Product(CheckpointIds, [c \in CheckpointIds |->
                            Product(SinkTasks, [t \in SinkTasks |-> SnapTxnChoices(c, t)])])

\* All states of the bounded type that satisfy AlignedIndInv (sink data up to IndSinkView).
IndSinkInit ==
    /\ IndPrefix
    /\ snapProcessed \in [CheckpointIds -> [Operators -> BagsUpTo(MaxCopies)]]
    /\ AckedSnapshotLemma
    /\ snapChan = [c \in CheckpointIds |-> [e \in Edges |-> <<>>]]
    /\ \E f1 \in Product(SourceEdges, [e \in SourceEdges |-> SourceCandidates(e)]) :
          /\ processed \in {p \in [Operators -> BagsUpTo(MaxCopies)] :
                              \A t \in FedBySources : p[t] = FlowBag(t, f1)}
          /\ \E f2 \in Product(OperatorEdges, [e \in OperatorEdges |-> ChanCandidates(e)]) :
                chan = f1 @@ f2
    /\ SinkBind
    /\ AlignedIndInv

IndSinkSpec == IndSinkInit /\ [][Next]_vars

=============================================================================
TLC figures: see docs/inductive-invariant.md and spec/proofs/models.tsv.
