---------------------------- MODULE DataflowSink ----------------------------
(***************************************************************************)
(* The transactional sink's parts of the steps. Each is a conjunct of a    *)
(* shared or protocol action and leaves the sink variables unchanged with  *)
(* the option off. Flink: TwoPhaseCommitSinkFunction (snapshotState pre-   *)
(* commits and begins a new transaction, notifyCheckpointComplete commits  *)
(* every pending transaction up to the checkpoint, initializeState re-     *)
(* commits the restored pending ones and aborts the rest). One             *)
(* simplification: an empty open transaction is not pre-committed (it      *)
(* would commit nothing). Its own step is NotifyCheckpointComplete.        *)
(***************************************************************************)
EXTENDS DataflowVariables

\* Given the ids of the transactions a commit step commits and those already committed, the
\* ids whose records the commit adds to the output: commit is idempotent.
NewlyCommitted(ids, done) == ids \ done

RECURSIVE BagSum(_, _)
\* The bag sum of f[x] over the finite set S.
BagSum(S, f) == IF S = {} THEN EmptyBag
                ELSE LET x == CHOOSE x \in S : TRUE IN f[x] (+) BagSum(S \ {x}, f)
\* The least element of the finite, non-empty set of numbers S.
SetMin(S) == CHOOSE m \in S : \A n \in S : m <= n

\* The pre-commit of SinkSnapshot(T, C) (below), when it has sinks and checkpoints.  A sink
\* commits nothing in its snapshot: only when told that a checkpoint holding the
\* transaction completed (NotifyCheckpointComplete), or on restore (SinkRestore).
PreCommitTransactions(T, C) ==
    LET c0 == SetMin(C)
        \* the sinks with a transaction to pre-commit
        S == {t \in T \cap SinkTasks : txnOpen[t] # EmptyBag}
        pend == [t \in SinkTasks |-> IF t \in S THEN txnPending[t] \cup {c0} ELSE txnPending[t]]
    IN
    /\ txnOpen' = [t \in SinkTasks |-> IF t \in S THEN EmptyBag ELSE txnOpen[t]]
    /\ txn' = [t \in SinkTasks |-> IF t \in S THEN [txn[t] EXCEPT ![c0] = txnOpen[t]] ELSE txn[t]]
    /\ txnPending' = pend
    /\ snapTxnPending' = [d \in CheckpointIds |->
                            IF d \in C THEN [t \in SinkTasks |-> IF t \in T THEN pend[t]
                                                                  ELSE snapTxnPending[d][t]]
                            ELSE snapTxnPending[d]]

\* The sinks in T snapshot every checkpoint in C in this step (one state for all of them: C
\* has more than one member only when a sink ends while several checkpoints are live).
\* Each pre-commits its open transaction, if it holds a record, as the transaction of the
\* oldest checkpoint in C, opens a new (empty) one, and records its pending transactions in
\* its snapshot of every checkpoint in C.  Implemented by TransactionalFileSink.preCommit(c),
\* called in the sink task's snapshot (for an ended sink: TransactionalFileSink.endOfInput()).
SinkSnapshot(T, C) ==
    IF ~TransactionalSink \/ T \cap SinkTasks = {} \/ C = {} THEN UNCHANGED sinkVars
    ELSE PreCommitTransactions(T, C) /\ UNCHANGED <<committed, txnCommitted>>

\* Sink t writes record r into its open transaction (part of ProcessRecord).
\* Implemented by TransactionalFileSink.process(input, r).
SinkWrite(t, r) ==
    IF t \in SinkTasks THEN /\ txnOpen' = [txnOpen EXCEPT ![t] = @ (+) SetToBag({r})]
                             /\ UNCHANGED <<txn, txnPending, snapTxnPending, txnCommitted, committed>>
    ELSE UNCHANGED sinkVars

\* The transactions sink t re-commits on restore: those pending in its snapshot in the
\* restored checkpoint (none without one).
Recommitted(t) == IF latest = 0 THEN {} ELSE snapTxnPending[latest][t]

\* The sinks' part of a global failure (in FailAndRestore): every sink re-commits the
\* pending transactions of its snapshot in the restored checkpoint (their notification
\* may have been lost; commit is idempotent) and aborts the rest: its open transaction
\* and every transaction pre-committed after that snapshot (their records are replayed).
\* Implemented by TransactionalFileSink.initializeState(task, restored) (re-commit, then
\* abort the leftovers).
SinkRestore ==
    IF ~TransactionalSink THEN UNCHANGED sinkVars
    ELSE
    LET again == [t \in SinkTasks |-> Recommitted(t)]
    IN
    /\ committed' = committed (+) BagSum(SinkTasks, [t \in SinkTasks |->
                        BagSum(NewlyCommitted(again[t], txnCommitted[t]), txn[t])])
    /\ txnCommitted' = [t \in SinkTasks |-> txnCommitted[t] \cup again[t]]
    /\ txnOpen' = [t \in SinkTasks |-> EmptyBag]
    /\ txnPending' = [t \in SinkTasks |-> {}]
    /\ UNCHANGED <<txn, snapTxnPending>>

\* Sink t has neither an open transaction holding a record nor a pending one: everything
\* it wrote is in the committed output.  Java: TransactionalFileSink.settled().
SinkIdle(t) == txnOpen[t] = EmptyBag /\ txnPending[t] = {}
SinksCommitted == \A t \in SinkTasks : SinkIdle(t)

\* A transaction pre-committed as d needs no new checkpoint: some live checkpoint with id
\* >= d is pending (it may still complete) or completed (its notification commits every
\* pending id up to it).
Covered(d) == \E c \in CheckpointIds : c >= d /\ c > discardedUpTo /\ ckpt[c] \in {"pending", "completed"}

\* The final checkpoint is due: every task has ended, and a sink holds a transaction that
\* no live checkpoint will commit (FLIP-147: the job waits for one more checkpoint).
FinalCheckpointDue ==
    /\ TransactionalSink
    /\ \A t \in Sources : t \in endedSources
    /\ \A t \in Operators : endedInputs[t] = InputsOf(t)
    /\ \E t \in SinkTasks : txnOpen[t] # EmptyBag \/ \E d \in txnPending[t] : ~Covered(d)

\* Sink t is told that checkpoint c has completed: it commits every pending transaction up
\* to c (Flink: notifyCheckpointComplete).  A separate step after CompleteCheckpoint(c):
\* a failure before it pre-empts it (the notification of a checkpoint completed before
\* the last failure is lost: c > discardedUpTo), and then the restore re-commits.  A later
\* notification commits the earlier transactions too.  A notification with nothing to commit
\* (ids = {}) is allowed and changes nothing, as in the engine, which notifies every sink of
\* every completion.
\* Implemented by OperatorTask.notifyCheckpointComplete(c) and
\* TransactionalFileSink.notifyCheckpointComplete(c).
NotifyCheckpointComplete(t, c) ==
    LET ids == {d \in txnPending[t] : d <= c} IN
    /\ t \in SinkTasks
    /\ ckpt[c] = "completed" /\ c > discardedUpTo
    /\ txnPending' = [txnPending EXCEPT ![t] = @ \ ids]
    /\ committed' = committed (+) BagSum(NewlyCommitted(ids, txnCommitted[t]), txn[t])
    /\ txnCommitted' = [txnCommitted EXCEPT ![t] = @ \cup ids]
    /\ UNCHANGED <<sourceVars, chan, operatorVars, coordinatorVars, failures, lifecycleVars,
                   txnOpen, txn, snapTxnPending>>

\* The sinks' steps that are progress: the notifications (part of each protocol's Progress).
SinkProgress == \E t \in SinkTasks, c \in CheckpointIds : NotifyCheckpointComplete(t, c)

\* The sink variables have their types.
SinkTypeInv ==
    /\ DOMAIN txnOpen = SinkTasks /\ DOMAIN txnPending = SinkTasks
    /\ \A t \in SinkTasks :
          /\ IsABag(txnOpen[t]) /\ BagToSet(txnOpen[t]) \subseteq Records
          /\ \A c \in CheckpointIds : IsABag(txn[t][c]) /\ BagToSet(txn[t][c]) \subseteq Records
          /\ txnPending[t] \subseteq CheckpointIds
          /\ txnCommitted[t] \subseteq CheckpointIds
          /\ \A c \in CheckpointIds : snapTxnPending[c][t] \subseteq 1..c
    /\ IsABag(committed) /\ BagToSet(committed) \subseteq Records

\* A transaction a sink held pending in its snapshot of the restore point, and holds pending
\* no longer, is recorded as committed: only a commit takes it out of pending (the
\* notification, or the restore's re-commit), and that record is what keeps a later restore
\* from the same checkpoint from committing it again (NewlyCommitted).
RestorePointTxnCommittedInv ==
    latest # 0 => \A t \in SinkTasks : snapTxnPending[latest][t] \ txnPending[t] \subseteq txnCommitted[t]

=============================================================================
