---------------------------- MODULE IndInvTypes ----------------------------
(***************************************************************************)
(* What the inductive-invariant checks of both protocols share             *)
(* (MCAlignedIndInv.tla, MCUnalignedIndInv.tla and their sample and sink   *)
(* modules): the bounded type they enumerate (bags with at most MaxCopies  *)
(* copies of a record, sequences of at most MaxChanLen messages, functions *)
(* built from per-argument candidate sets), the binding of the             *)
(* transactional sink's variables, off (SinkInit) or on (SinkBind), the    *)
(* VIEW's forms of the sink data nothing reads again, the smallest         *)
(* topology with a sink, and the lemma a broken twin leaves out.           *)
(***************************************************************************)
EXTENDS CutLemmas

CONSTANTS
    MaxCopies,   \* the type's bound on copies of a record in a bag
    MaxChanLen   \* the type's bound on the messages in a channel

\* Bags over Records with at most k copies of each record.
BagsUpTo(k) == UNION {[S -> 1..k] : S \in SUBSET Records}
\* Sequences over M of length at most n.
SeqsUpTo(M, n) == UNION {[1..i -> M] : i \in 0..n}
RECURSIVE Product(_, _)
\* The functions f on the set E with f[e] \in cands[e] for every e, built argument by
\* argument (so TLC enumerates only the product of the candidate sets).
Product(E, cands) ==
    IF E = {} THEN {<<>>}
    ELSE LET e == CHOOSE x \in E : TRUE
         IN  {f @@ (e :> q) : f \in Product(E \ {e}, cands), q \in cands[e]}

(* Topology "Line": one source straight into the sink.  The smallest graph *)
(* with a transactional sink: every step of the sink (write, pre-commit in *)
(* the snapshot, notification, re-commit and abort on restore, the final   *)
(* checkpoint) happens on it, at bounds an enumeration reaches with a      *)
(* regular checkpoint.                                                     *)
LineSources == {"src"}
LineOperators == {"sink"}
LineEdges == {<<"src", "sink">>}

-----------------------------------------------------------------------------
(* The transactional sink's variables.  Snap(c, t) is the protocol's "t   *)
(* has taken its snapshot of c" (aligned: acknowledged it; unaligned:      *)
(* Snapshotted).                                                           *)

\* With the transactional sink off, its variables are bound to their initial values, which
\* SinkOffLemma says they keep.
SinkInit ==
    /\ txnOpen = [t \in SinkTasks |-> EmptyBag]
    /\ txn = [t \in SinkTasks |-> [c \in CheckpointIds |-> EmptyBag]]
    /\ txnPending = [t \in SinkTasks |-> {}]
    /\ snapTxnPending = [c \in CheckpointIds |-> [t \in SinkTasks |-> {}]]
    /\ txnCommitted = [t \in SinkTasks |-> {}]
    /\ committed = EmptyBag

\* The records of a transaction that counts and the pending ids of a snapshot the lemmas
\* speak about; elsewhere the one value SinkBind gives them (a VIEW forgets them: the
\* records of a transaction that does not count are overwritten by a later pre-commit of its
\* id; a snapshot the lemmas do not speak about is never restored, only the latest completed
\* one is, and latest only grows, and a live one the sink has not taken is overwritten when
\* it does).
TxnSeen == [t \in SinkTasks |-> [d \in CheckpointIds |->
               IF d \in CountingTxns(t) THEN txn[t][d] ELSE EmptyBag]]
SnapTxnSeen(Snap(_, _)) == [c \in CheckpointIds |-> [t \in SinkTasks |->
                              IF SinkSnapKept(c) /\ Snap(c, t) THEN snapTxnPending[c][t] ELSE {}]]

\* The records a transaction of sink t may hold: one that counts holds a record, the others
\* are given the empty one (see TxnSeen).
TxnChoices(t) ==
    Product(CheckpointIds, [d \in CheckpointIds |->
        IF d \in CountingTxns(t) THEN BagsUpTo(MaxCopies) \ {EmptyBag} ELSE {EmptyBag}])
\* The pending ids sink t's snapshot of c may have recorded (SinkSnapshotLemma), or the one
\* value of a snapshot the lemmas do not speak about.
SnapTxnChoices(c, t, Snap(_, _)) ==
    IF SinkSnapKept(c) /\ Snap(c, t)
      THEN {S \in SUBSET {d \in CountingTxns(t) : d <= c} : {d \in txnPending[t] : d <= c} \subseteq S}
      ELSE {{}}

\* The sink variables with the option on, bound after every other variable (the lemmas read
\* processed and the snapshots); each function is built id by id from the choices its lemma
\* allows (Product).
SinkBind(Snap(_, _)) ==
    /\ txnCommitted \in [SinkTasks -> SUBSET (1..latest)]
    /\ txnPending \in {p \in [SinkTasks -> SUBSET {d \in CheckpointIds : Live(d)}] :
                          \A t \in SinkTasks : p[t] \cap txnCommitted[t] = {}}
    /\ \A t \in SinkTasks, c \in CheckpointIds :
          Live(c) /\ ~Snap(c, t) /\ ~Passed(c, t) => \A d \in CountingTxns(t) : d < c
    /\ txn \in Product(SinkTasks, [t \in SinkTasks |-> TxnChoices(t)])
    /\ \A t \in SinkTasks : TxnRecords(t, CountingTxns(t)) \sqsubseteq processed[t]
    /\ txnOpen = [t \in SinkTasks |-> processed[t] (-) TxnRecords(t, CountingTxns(t))]
    /\ committed = BagSum(SinkTasks, [t \in SinkTasks |-> TxnRecords(t, txnCommitted[t])])
    /\ snapTxnPending \in Product(CheckpointIds, [c \in CheckpointIds |->
                            Product(SinkTasks, [t \in SinkTasks |-> SnapTxnChoices(c, t, Snap)])])

\* The broken twins' weakened invariant (`SinkSnapshotLemma <- SinkSnapshotLemmaOmitted`):
\* no claim about what a sink's snapshot holds.  Then a sink's snapshot of the latest
\* completed checkpoint may hold records its counting transactions up to that checkpoint do
\* not (a record pre-committed later, or in no transaction), and FailAndRestore, which
\* restores that snapshot and re-commits only what it recorded, breaks SinkOutputLemma: the
\* invariant is not inductive, and TLC must say so.
SinkSnapshotLemmaOmitted(Snap(_, _)) == TRUE

=============================================================================
