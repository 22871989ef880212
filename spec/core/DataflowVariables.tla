------------------------- MODULE DataflowVariables --------------------------
(***************************************************************************)
(* The state every protocol shares, one variable per part of it (sources,  *)
(* channels, operators, the coordinator and its checkpoints, failures, the *)
(* lifecycle of the tasks, the transactional sink), and its initial state. *)
(* In a module of its own because TLA+ needs a variable declared before a  *)
(* definition uses it: every module that reads the state EXTENDS this one. *)
(***************************************************************************)
EXTENDS DataflowMessages, Bags

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

\* The variables by part, as the steps name what they leave UNCHANGED.
sourceVars == <<offset>>
operatorVars == <<processed, handling, arrived>>
coordinatorVars == <<ckpt, acked, snapOffset, snapProcessed, snapChan, latest, discardedUpTo>>
lifecycleVars == <<current, endedInputs, endedSources>>
sinkVars == <<txnOpen, txn, txnPending, snapTxnPending, txnCommitted, committed>>
vars == <<sourceVars, chan, operatorVars, coordinatorVars, failures, lifecycleVars, sinkVars>>

-----------------------------------------------------------------------------
(* The initial state: nothing read, sent, processed or triggered.          *)

\* The processed bags of the operators before they process anything.
NoSnapshot == [p \in Operators |-> EmptyBag]

\* The initial state.
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

=============================================================================
