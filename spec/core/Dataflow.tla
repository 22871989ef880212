------------------------------ MODULE Dataflow ------------------------------
(***************************************************************************)
(* The part both barrier protocols share: the dataflow graph, the records, *)
(* the bounded FIFO channels, the operator state, the checkpoint           *)
(* coordinator and global failure with recovery.                           *)
(*                                                                         *)
(* Place in the whole: AlignedCheckpoint.tla and UnalignedCheckpoint.tla   *)
(* EXTEND this module (and CutInvariants.tla, which states what a          *)
(* consistent cut is) and add the steps in which they differ:              *)
(* InjectBarrier, ProcessRecord, ReceiveBarrier and the lifecycle steps of *)
(* a task (NotifyCheckpointAborted, ReceiveCancelBarrier,                  *)
(* ReceiveEndOfPartition); AtLeastOnceCheckpoint.tla is the third mode.    *)
(* MC*.tla give the topologies and bounds.  Every action is named after    *)
(* the Java method of reference-impl that performs it                      *)
(* (docs/vocabulary.md).                                                   *)
(*                                                                         *)
(* The lifecycle follows Flink: an aborted checkpoint leaves               *)
(* flight at once, tasks learn of it (the coordinator's notification, or a *)
(* cancellation barrier from upstream), a newer barrier subsumes an older  *)
(* checkpoint inside a task, barriers of a checkpoint a task has left      *)
(* behind are dropped, and sources end their partitions (FLIP-147).  Two   *)
(* model options keep the older, smaller world for the first models:       *)
(* AbortsReachTasks = FALSE (aborted checkpoints stay in flight until      *)
(* their barriers have passed every task; no task ever learns of an        *)
(* abort) and EndOfInput = FALSE (no source ever ends its partition).      *)
(*                                                                         *)
(* End-to-end exactly-once is a third model option,                        *)
(* TransactionalSink (off unless a .cfg turns it on): every operator       *)
(* without outputs is a two-phase-commit sink (Flink's                     *)
(* TwoPhaseCommitSinkFunction, Sink V2 committer).  It writes what it      *)
(* processes into an open transaction, pre-commits that transaction in its *)
(* snapshot of a checkpoint and opens a new one, commits every             *)
(* pre-committed transaction up to c when told that c completed            *)
(* (NotifyCheckpointComplete, a step of its own that a failure can         *)
(* pre-empt), and on restore re-commits the restored checkpoint's          *)
(* transactions and aborts the rest.  With end of input, the job finishes  *)
(* only after a final checkpoint has completed and been committed.         *)
(* `committed` is what an external reader of the output sees.              *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, Bags

CONSTANTS
    Sources,          \* source tasks; each reads its own replayable input log
    Operators,        \* operator tasks (multi-input, multi-output; sinks have no output)
    Edges,            \* directed acyclic edges <<from, to>>, from a task to an operator
    Route(_, _),      \* Route(n, r): the out-edges of node n that record r takes
    RecordsPerSource, \* length of every source's input log
    Capacity,         \* records (not barriers) a channel holds at most: backpressure
    MaxCheckpoints,   \* checkpoint ids are 1..MaxCheckpoints, never reused
    MaxConcurrent,    \* checkpoints in flight at once, at most
    MaxFailures,      \* global failures, at most
    AbortEnabled,     \* whether the coordinator may time a pending checkpoint out
    AbortsReachTasks, \* TRUE (Flink): an aborted checkpoint leaves flight at once and tasks
                      \* learn of it; FALSE (model option): it stays in flight until every
                      \* task has acknowledged it, and no task learns of it
    EndOfInput        \* whether sources end their partitions (FLIP-147) once their log is read

Tasks == Sources \cup Operators

-----------------------------------------------------------------------------
(* The transactional sink: a model option, a definition rather than a     *)
(* CONSTANT so that the models and trace configurations without it need    *)
(* not bind it; a .cfg turns it on with `TransactionalSink <- SinkOn`      *)
(* (MCDataflow.tla).  With the option off every sink variable keeps its    *)
(* initial value and the checkpoint ids are 1..MaxCheckpoints: the models  *)
(* without the sink have the same states as before the option existed.    *)

\* The model option: operators without outputs are two-phase-commit sinks.
TransactionalSink == FALSE
\* Given the ids of the transactions a commit step commits and those already committed, the
\* ids whose records the commit adds to the output: commit is idempotent.
NewlyCommitted(ids, done) == ids \ done

\* The sinks: the operators without outputs (none with the option off).
SinkTasks == IF TransactionalSink THEN {t \in Operators : \A e \in Edges : e[1] # t} ELSE {}
\* Checkpoint ids beyond MaxCheckpoints are final checkpoints: triggered only when every task
\* has ended and a sink has a transaction no live checkpoint will commit.  One per failure
\* (a failure can abort it) and one more suffice when timeouts are off.
FinalCheckpoints == IF TransactionalSink THEN MaxFailures + 1 ELSE 0
MaxCheckpointId == MaxCheckpoints + FinalCheckpoints
CheckpointIds == 1..MaxCheckpointId
\* The in- and out-edges of every node, tabulated once (TLC evaluates a constant
\* definition once, not in every state; the same holds for RouteTable and PathTable).
InputTable == [n \in Tasks |-> {e \in Edges : e[2] = n}]
OutputTable == [n \in Tasks |-> {e \in Edges : e[1] = n}]
InputsOf(t) == InputTable[t]
OutputsOf(n) == OutputTable[n]

\* A record is identified by its source and offset; operators keep that identity.
Records == [src : Sources, off : 0..RecordsPerSource - 1]
\* A barrier of checkpoint c travels in the channels between the records.  In
\* AlternatingCheckpoint.tla it also says whether it is aligned or overtaking (Flink's
\* CheckpointOptions alignment type); the other protocols' barriers carry no such field.
Barriers == [ckpt : CheckpointIds] \cup [ckpt : CheckpointIds, aligned : BOOLEAN]
\* A cancellation barrier of checkpoint c (Flink's CancelCheckpointMarker): c is abandoned.
CancelBarriers == [cancel : CheckpointIds]
CancelBarrier(c) == [cancel |-> c]
\* End of partition (Flink's EndOfPartitionEvent): nothing follows it on its channel.
EndOfPartition == [eop |-> TRUE]
Messages == Records \cup Barriers \cup CancelBarriers \cup {EndOfPartition}
IsBarrier(m) == "ckpt" \in DOMAIN m
IsCancelBarrier(m) == DOMAIN m = {"cancel"}
IsEndOfPartition(m) == DOMAIN m = {"eop"}
IsRecord(m) == DOMAIN m = {"src", "off"}

ASSUME /\ Sources \cap Operators = {}
       /\ Edges \subseteq Tasks \X Operators
       /\ \A n \in Tasks, r \in Records : Route(n, r) \subseteq OutputsOf(n)
       /\ \A s \in Sources, r \in Records : r.src # s => Route(s, r) = {}
       /\ RecordsPerSource \in Nat /\ Capacity \in Nat \ {0}
       /\ MaxCheckpoints \in Nat /\ MaxConcurrent \in Nat \ {0}
       /\ MaxFailures \in Nat /\ AbortEnabled \in BOOLEAN
       /\ AbortsReachTasks \in BOOLEAN /\ EndOfInput \in BOOLEAN
       \* A final checkpoint needs the end of input.
       /\ TransactionalSink => EndOfInput

RECURSIVE Downstream(_, _)
\* The nodes reachable from node n in 1..k steps.
Downstream(n, k) ==
    IF k = 0 THEN {}
    ELSE LET next == {e[2] : e \in OutputsOf(n)}
         IN  next \cup UNION {Downstream(m, k - 1) : m \in next}

\* The graph is acyclic (Paths counts routes by recursion over it).
ASSUME \A n \in Tasks : n \notin Downstream(n, Cardinality(Tasks))

RECURSIVE SumOver(_, _)
\* The sum of f[x] over the finite set S.
SumOver(S, f) == IF S = {} THEN 0
                 ELSE LET x == CHOOSE x \in S : TRUE IN f[x] + SumOver(S \ {x}, f)

\* The routes of every record from every node, tabulated once.
RouteTable == [n \in Tasks |-> [r \in Records |-> Route(n, r)]]
\* The out-edges of node n that record r takes (Route, looked up).
RouteOf(n, r) == RouteTable[n][r]

RECURSIVE CountPaths(_, _, _)
\* The number of routes record r takes from node n to operator t (the graph is a DAG).
CountPaths(n, r, t) ==
    IF n = t THEN 1
    ELSE SumOver(RouteOf(n, r), [e \in RouteOf(n, r) |-> CountPaths(e[2], r, t)])

\* CountPaths, tabulated once.
PathTable == [n \in Tasks |-> [r \in Records |-> [t \in Operators |-> CountPaths(n, r, t)]]]

\* Paths(n, r, t): the number of routes from node n to operator t for record r.
\* Implemented by PhysicalGraph.paths(n, r, t).
Paths(n, r, t) == PathTable[n][r][t]

\* How many records (barriers not counted) the sequence q holds.
RecordCount(q) == Len(SelectSeq(q, IsRecord))
\* How many copies of record r the sequence q holds.
CopiesInSeq(r, q) == Len(SelectSeq(q, LAMBDA m : m = r))

VARIABLES
    offset,        \* offset[s]: the next offset source s reads
    chan,          \* chan[e]: the messages (records, barriers) in channel e, head first
    processed,     \* processed[t]: bag of the records operator t has processed
    handling,      \* handling[t]: the checkpoint whose barriers task t is handling, 0 if none
    arrived,       \* arrived[t]: the inputs of t whose barrier of handling[t] has arrived
    ckpt,          \* ckpt[c]: "none", "pending", "completed" or "aborted"
    acked,         \* acked[c]: the tasks that have acknowledged checkpoint c
    snapOffset,    \* snapOffset[c][s]: the offset source s recorded in checkpoint c
    snapProcessed, \* snapProcessed[c][t]: operator t's processed bag in checkpoint c
    snapChan,      \* snapChan[c][e]: the records persisted as channel e's state in c
    latest,        \* the latest completed checkpoint, 0 if none
    discardedUpTo, \* checkpoints with id <= discardedUpTo lost their barriers to a failure
    failures,      \* the number of global failures so far
    current,       \* current[t]: the newest checkpoint task t has injected, handled, skipped
                   \* or abandoned, 0 if none (Flink's currentCheckpointId of a barrier handler);
                   \* a barrier of c <= current[t] that t is not handling is obsolete at t
    endedInputs,   \* endedInputs[t]: the inputs of operator t whose end of partition t has taken
    endedSources,  \* the sources that have sent end of partition
    \* The transactional sink; functions over SinkTasks, empty with the option off.
    txnOpen,       \* txnOpen[t]: bag of the records sink t wrote into its open transaction
    txn,           \* txn[t][c]: bag of the records of the transaction t pre-committed in its
                   \* snapshot of checkpoint c (empty if none; written once)
    txnPending,    \* txnPending[t]: the ids of t's pre-committed transactions not yet committed
    snapTxnPending, \* snapTxnPending[c][t]: txnPending[t] as t's snapshot of c recorded it
                   \* (with c's own transaction): what a restore from c re-commits
    txnCommitted,  \* txnCommitted[t]: the ids of t's transactions committed to the output
    committed      \* bag of the records in the committed output: what an external reader sees
                   \* (Java: TransactionalFileSink.committed(), read from the output directory)

sourceVars == <<offset>>
operatorVars == <<processed, handling, arrived>>
coordinatorVars == <<ckpt, acked, snapOffset, snapProcessed, snapChan, latest, discardedUpTo>>
lifecycleVars == <<current, endedInputs, endedSources>>
sinkVars == <<txnOpen, txn, txnPending, snapTxnPending, txnCommitted, committed>>
vars == <<sourceVars, chan, operatorVars, coordinatorVars, failures, lifecycleVars, sinkVars>>

-----------------------------------------------------------------------------
(* Checkpoint bookkeeping.                                                 *)

Triggered(c) == ckpt[c] # "none"
\* c's barriers exist or are still to be injected: triggered, not discarded by a failure.
Live(c) == Triggered(c) /\ c > discardedUpTo
\* Task t has ended: a source that sent end of partition, an operator all of whose inputs ended.
Ended(t) == IF t \in Sources THEN t \in endedSources ELSE endedInputs[t] = InputsOf(t)
\* Every task has acknowledged c.  A task that has ended acknowledges, with its final
\* state, every live checkpoint it had not reached when it ended, and every later one
\* when triggered (FLIP-147: ended tasks take no part); a task that went past c without
\* a snapshot of c never acknowledges it, ended or not.
AllAcked(c) == acked[c] = Tasks
\* In flight.  AbortsReachTasks (Flink): pending.  Otherwise (the model option): live and
\* not yet acknowledged by every task, aborted ones too (their barriers still travel, so
\* the unaligned one-at-a-time rule counts them).
InFlight(c) == IF AbortsReachTasks THEN ckpt[c] = "pending" ELSE Live(c) /\ ~AllAcked(c)
\* Checkpoint c's barrier is due at source s: c is the oldest live checkpoint newer than
\* every one s has injected or skipped.  Sources inject barriers in id order, so every
\* channel carries them in id order.  With AbortsReachTasks, a source may still inject the
\* barrier of a checkpoint aborted meanwhile (the trigger and the abort travel apart) unless
\* it has been told (NotifyCheckpointAborted).  A source that has read its whole log takes
\* part like any other (as Flink does since FLIP-147) until it ends its partition.
BarrierDue(s, c) == /\ Live(c)
                    /\ c > current[s]
                    /\ \A d \in (current[s] + 1)..(c - 1) : ~Live(d)
                    /\ AbortsReachTasks \/ InFlight(c)
                    /\ s \notin endedSources
\* Task t may learn that c is aborted: c is aborted, its barriers live, and t has not gone
\* past it (t handles c, or has not seen c yet).
AbortNews(t, c) == /\ AbortsReachTasks
                   /\ ckpt[c] = "aborted" /\ Live(c)
                   /\ c > current[t] \/ (t \in Operators /\ c = handling[t] /\ c # 0)

\* The offset source s records in a checkpoint: its next offset, so that the barrier it
\* appends follows exactly the records below it.
RecordedOffset(s) == offset[s]

\* Given the inputs of a task whose barrier arrived and the inputs that ended: the inputs
\* it counts as arrived.  An ended input counts as having delivered every barrier (FLIP-147).
ArrivedWithEnded(barrierArrived, ended) == barrierArrived \cup ended

\* Acknowledge checkpoint c for task t: part of InjectBarrier and ReceiveBarrier.
\* Implemented by CheckpointCoordinator.acknowledge(ack) (an Acknowledgement of t and c).
Acknowledge(t, c) == acked' = [acked EXCEPT ![c] = @ \cup {t}]

-----------------------------------------------------------------------------
(* Channel helpers.                                                        *)

\* Every channel that r is routed on from n has room for one more record.
HasRoom(n, r) == \A d \in RouteOf(n, r) : RecordCount(chan[d]) < Capacity
\* ch with message m appended to every channel in es (FIFO: behind everything queued).
Enqueue(ch, es, m) == [d \in DOMAIN ch |-> IF d \in es THEN Append(ch[d], m) ELSE ch[d]]
\* ch with message m put at the head of every channel in es (the priority lane).
EnqueueAhead(ch, es, m) == [d \in DOMAIN ch |-> IF d \in es THEN <<m>> \o ch[d] ELSE ch[d]]
\* The operator t can take the head of input e unless its routes are full:
\* the statement of "never blocks" (UnalignedNeverBlocksInv) is about these inputs.
Takeable(t, e) == /\ chan[e] # <<>>
                  /\ IsRecord(Head(chan[e])) => HasRoom(t, Head(chan[e]))

-----------------------------------------------------------------------------
(* The transactional sink's parts of the steps.  Each is a                 *)
(* conjunct of a shared or protocol action and leaves the sink variables   *)
(* unchanged with the option off.  Flink: TwoPhaseCommitSinkFunction       *)
(* (snapshotState pre-commits and begins a new transaction,                *)
(* notifyCheckpointComplete commits every pending transaction up to the    *)
(* checkpoint, initializeState re-commits the restored pending ones and    *)
(* aborts the rest).  One simplification: an empty open transaction is    *)
(* not pre-committed (it would commit nothing).                            *)

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

-----------------------------------------------------------------------------
(* Initial state and the shared actions.                                   *)

NoSnapshot == [p \in Operators |-> EmptyBag]

Init == /\ offset = [s \in Sources |-> 0]
        /\ chan = [e \in Edges |-> <<>>]
        /\ processed = NoSnapshot
        /\ handling = [t \in Operators |-> 0]
        /\ arrived = [t \in Operators |-> {}]
        /\ ckpt = [c \in CheckpointIds |-> "none"]
        /\ acked = [c \in CheckpointIds |-> {}]
        /\ snapOffset = [c \in CheckpointIds |-> [s \in Sources |-> 0]]
        /\ snapProcessed = [c \in CheckpointIds |-> NoSnapshot]
        /\ snapChan = [c \in CheckpointIds |-> [e \in Edges |-> <<>>]]
        /\ latest = 0
        /\ discardedUpTo = 0
        /\ failures = 0
        /\ current = [t \in Tasks |-> 0]
        /\ endedInputs = [t \in Operators |-> {}]
        /\ endedSources = {}
        /\ txnOpen = [t \in SinkTasks |-> EmptyBag]
        /\ txn = [t \in SinkTasks |-> [c \in CheckpointIds |-> EmptyBag]]
        /\ txnPending = [t \in SinkTasks |-> {}]
        /\ snapTxnPending = [c \in CheckpointIds |-> [t \in SinkTasks |-> {}]]
        /\ txnCommitted = [t \in SinkTasks |-> {}]
        /\ committed = EmptyBag

\* The coordinator starts checkpoint c, the next unused id, while fewer than
\* MaxConcurrent checkpoints are in flight.  The tasks that have ended take no part
\* (FLIP-147): c records their final state now (it no longer changes), and they count as
\* having acknowledged it; an ended sink pre-commits its last transaction in it.  An id
\* beyond MaxCheckpoints is a final checkpoint, triggered only when it is due.
\* Implemented by CheckpointCoordinator.triggerCheckpoint().
TriggerCheckpoint(c) ==
    /\ ckpt[c] = "none"
    /\ \A d \in 1..(c - 1) : Triggered(d)
    /\ Cardinality({d \in CheckpointIds : InFlight(d)}) < MaxConcurrent
    /\ c <= MaxCheckpoints \/ FinalCheckpointDue
    /\ ckpt' = [ckpt EXCEPT ![c] = "pending"]
    /\ snapOffset' = [snapOffset EXCEPT ![c] =
                          [s \in Sources |-> IF Ended(s) THEN offset[s] ELSE @[s]]]
    /\ snapProcessed' = [snapProcessed EXCEPT ![c] =
                             [t \in Operators |-> IF Ended(t) THEN processed[t] ELSE @[t]]]
    /\ acked' = [acked EXCEPT ![c] = {t \in Tasks : Ended(t)}]
    /\ SinkSnapshot({t \in SinkTasks : Ended(t)}, {c})
    /\ UNCHANGED <<sourceVars, chan, operatorVars, snapChan, latest, discardedUpTo,
                   failures, lifecycleVars>>

\* Source s reads the record at offset[s] and sends it on its routes; it waits while one is full.
\* Implemented by SourceTask.emitRecord().
EmitRecord(s) ==
    LET r == [src |-> s, off |-> offset[s]] IN
    /\ offset[s] < RecordsPerSource
    /\ HasRoom(s, r)
    /\ chan' = Enqueue(chan, RouteOf(s, r), r)
    /\ offset' = [offset EXCEPT ![s] = @ + 1]
    /\ UNCHANGED <<operatorVars, coordinatorVars, failures, lifecycleVars, sinkVars>>

\* Every task has acknowledged pending checkpoint c: it becomes the latest completed one.
\* Older pending checkpoints are subsumed (aborted), as Flink's coordinator does.
\* Implemented by CheckpointCoordinator.completeCheckpoint(c).
CompleteCheckpoint(c) ==
    /\ ckpt[c] = "pending"
    /\ AllAcked(c)
    /\ ckpt' = [d \in CheckpointIds |-> IF d = c THEN "completed"
                                        ELSE IF d < c /\ ckpt[d] = "pending" THEN "aborted"
                                        ELSE ckpt[d]]
    /\ latest' = c
    /\ UNCHANGED <<sourceVars, chan, operatorVars, acked, snapOffset, snapProcessed,
                   snapChan, discardedUpTo, failures, lifecycleVars, sinkVars>>

\* A pending checkpoint times out (or a task declined it).  Its barriers still travel;
\* its acks no longer matter.  With AbortsReachTasks it leaves flight at once (the next
\* one may start) and the tasks learn of it (NotifyCheckpointAborted).
\* Implemented by CheckpointCoordinator.abortCheckpoint(c).
AbortCheckpoint(c) ==
    /\ AbortEnabled
    /\ ckpt[c] = "pending"
    /\ ckpt' = [ckpt EXCEPT ![c] = "aborted"]
    /\ UNCHANGED <<sourceVars, chan, operatorVars, acked, snapOffset, snapProcessed,
                   snapChan, latest, discardedUpTo, failures, lifecycleVars, sinkVars>>

\* Source s is told that c is aborted before it injected c's barrier: it never injects it
\* (nor any older one).  The source part of NotifyCheckpointAborted(s, c).
\* Implemented by SourceTask.notifyCheckpointAborted(c).
SkipBarrier(s, c) ==
    /\ AbortNews(s, c)
    /\ BarrierDue(s, c)
    /\ current' = [current EXCEPT ![s] = c]
    /\ UNCHANGED <<sourceVars, chan, operatorVars, coordinatorVars, failures, endedInputs,
                   endedSources, sinkVars>>

\* Task t ends: it acknowledges every live checkpoint newer than k (the newest it has
\* reached), whose snapshot of t is its final state.  ak: acked before.
FinalAck(ak, t, k) == [d \in CheckpointIds |-> IF Live(d) /\ d > k THEN ak[d] \cup {t} ELSE ak[d]]

\* Source s has read its whole log: it sends end of partition on every output, once, and
\* ends.  End of partition stands for the barrier of every checkpoint s has not injected:
\* the live ones among them record s's final offset now and count s as acknowledged,
\* later ones do so when triggered.
\* Implemented by SourceTask.sendEndOfPartition().
SendEndOfPartition(s) ==
    /\ EndOfInput
    /\ offset[s] = RecordsPerSource
    /\ s \notin endedSources
    /\ endedSources' = endedSources \cup {s}
    /\ chan' = Enqueue(chan, OutputsOf(s), EndOfPartition)
    /\ snapOffset' = [d \in CheckpointIds |-> IF Live(d) /\ d > current[s]
                                               THEN [snapOffset[d] EXCEPT ![s] = offset[s]]
                                               ELSE snapOffset[d]]
    /\ acked' = FinalAck(acked, s, current[s])
    /\ UNCHANGED <<sourceVars, operatorVars, ckpt, snapProcessed, snapChan, latest,
                   discardedUpTo, failures, current, endedInputs, sinkVars>>

\* Operator t ends (every input has ended): the live checkpoints t has not reached record
\* its final state (what it would have snapshot; nothing more reaches it); FinalAck counts
\* t as having acknowledged them.  A helper of ReceiveEndOfPartition; sp: snapProcessed
\* before, k: the newest checkpoint t has reached.
FinalSnapshot(sp, t, k) ==
    [d \in CheckpointIds |-> IF Live(d) /\ d > k THEN [sp[d] EXCEPT ![t] = processed[t]]
                                                ELSE sp[d]]

\* What recovery puts back into channel e: its persisted state in the checkpoint restored,
\* in order, ahead of any new record.
RestoredChannel(e) == snapChan[latest][e]

\* A global failure: pending checkpoints abort, every barrier is lost, and every task
\* restarts from the latest completed checkpoint (the initial state if none): operator
\* state restored, sources rewound, each channel refilled with its persisted state.
\* Every task restarts past the checkpoints triggered so far, and no input has ended (a
\* source restored at the end of its log ends its partition again).  Every sink re-commits
\* the restored checkpoint's transactions and aborts the rest (SinkRestore).
\* Implemented by JobRuntime.failAndRestore().
FailAndRestore ==
    /\ failures < MaxFailures
    /\ failures' = failures + 1
    /\ ckpt' = [c \in CheckpointIds |-> IF ckpt[c] = "pending" THEN "aborted" ELSE ckpt[c]]
    /\ discardedUpTo' = Cardinality({c \in CheckpointIds : Triggered(c)})
    /\ IF latest = 0
         THEN /\ processed' = NoSnapshot
              /\ offset' = [s \in Sources |-> 0]
              /\ chan' = [e \in Edges |-> <<>>]
         ELSE /\ processed' = snapProcessed[latest]
              /\ offset' = snapOffset[latest]
              /\ chan' = [e \in Edges |-> RestoredChannel(e)]
    /\ handling' = [t \in Operators |-> 0]
    /\ arrived' = [t \in Operators |-> {}]
    /\ current' = [t \in Tasks |-> discardedUpTo']
    /\ endedInputs' = [t \in Operators |-> {}]
    /\ endedSources' = {}
    /\ SinkRestore
    /\ UNCHANGED <<acked, snapOffset, snapProcessed, snapChan, latest>>

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

\* The coordinator triggers the final checkpoint when it is due.  Not a step of its own (a
\* TriggerCheckpoint): named for the fairness condition of each protocol's FairSpec.
TriggerFinalCheckpoint == \E c \in CheckpointIds : FinalCheckpointDue /\ TriggerCheckpoint(c)

-----------------------------------------------------------------------------
(* The end of a run.                                                       *)

\* Every source is exhausted and no channel holds a record.
Drained == /\ \A s \in Sources : offset[s] = RecordsPerSource
           /\ \A e \in Edges : RecordCount(chan[e]) = 0
\* Drained, no checkpoint left in flight or pending, (with EndOfInput) every task ended, and
\* (with TransactionalSink) every transaction committed: nothing more can happen but
\* triggers.  The job has finished.
Terminated == /\ Drained
              /\ \A c \in CheckpointIds : ~InFlight(c) /\ ckpt[c] # "pending"
              /\ EndOfInput => \A t \in Tasks : Ended(t)
              /\ TransactionalSink => SinksCommitted
\* A finished run stutters, so that TLC's deadlock check stays on for real deadlocks.
Terminating == Terminated /\ UNCHANGED vars

-----------------------------------------------------------------------------
(* Liveness, checked under each protocol's FairSpec in models without      *)
(* failures and without timeouts (MaxFailures = 0, AbortEnabled = FALSE).  *)

\* Every triggered checkpoint eventually completes, or a newer one completes and subsumes it.
CheckpointCompletesProp ==
    \A c \in CheckpointIds :
        ckpt[c] = "pending" ~> \/ ckpt[c] = "completed"
                               \/ \E d \in CheckpointIds : d > c /\ ckpt[d] = "completed"

\* Every source eventually reads its whole log and every record reaches the end of its routes.
DrainsProp == <>[]Drained

\* No checkpoint stays pending for ever: it completes, is subsumed or is aborted (models
\* with timeouts, where CheckpointCompletesProp does not hold: an abort is not forced).
CheckpointEndsProp == \A c \in CheckpointIds : ckpt[c] = "pending" ~> ckpt[c] # "pending"

\* Every task eventually ends (models with EndOfInput).
EndsProp == <>[](\A t \in Tasks : Ended(t))

\* Every task eventually ends and every transaction of every sink is committed: the final
\* checkpoint eventually completes and is committed (models with TransactionalSink).
FinalCheckpointProp == <>[](\A t \in Tasks : Ended(t)) /\ <>[]SinksCommitted

\* A task that handles an aborted checkpoint eventually stops handling it (unblocks its
\* inputs, stops persisting): aborts reach the tasks (models with AbortsReachTasks).
AbortReleasesProp ==
    \A t \in Operators, c \in CheckpointIds :
        (handling[t] = c /\ ckpt[c] = "aborted") ~> handling[t] # c

-----------------------------------------------------------------------------
\* The lifecycle variables have their types (TypeInv in CutInvariants.tla has the others).
LifecycleTypeInv ==
    /\ current \in [Tasks -> 0..MaxCheckpointId]
    /\ \A t \in Operators : endedInputs[t] \subseteq InputsOf(t)
                            /\ (handling[t] # 0 => handling[t] = current[t])
    /\ endedSources \subseteq Sources

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

=============================================================================
Models and TLC figures: MCAlignedCheckpoint.tla and MCUnalignedCheckpoint.tla (after
their ====), and spec/models.tsv.  The transactional sink: the models Sink*
and the four broken sinks (Bug* of MCDataflow.tla), figures in the same places; the
option is off in every other model.
