------------------------------ MODULE MCDataflow ------------------------------
(***************************************************************************)
(* Model values the MC modules share: the topologies, the routes, the bad  *)
(* definitions a bug model substitutes for those of Dataflow.tla, and the  *)
(* state view.  The .cfg files pick them by substitution, e.g.             *)
(* `Edges <- JoinEdges` or `RecordedOffset <- OffsetEarly`.                *)
(*                                                                         *)
(* Place in the whole: MCAlignedCheckpoint.tla and                         *)
(* MCUnalignedCheckpoint.tla EXTEND this module and their protocol module. *)
(***************************************************************************)
EXTENDS Dataflow, TLC

\* The two sources of Join are model values, so that TLC can exploit their symmetry.
CONSTANTS s1, s2

(* Topology "Join": two sources into a two-input join, followed by a sink. *)
JoinSources == {s1, s2}
JoinOperators == {"join", "sink"}
JoinEdges == {<<s1, "join">>, <<s2, "join">>, <<"join", "sink">>}
\* Swapping s1 and s2 maps every Join model to itself: both feed the join alike, read
\* logs of the same length, and every route, definition and invariant treats them alike (the
\* keyed route keys on offsets, never on a source's name).  So symmetry reduction is
\* sound for the safety models of Join.  Not used with liveness, where it is not.
JoinSymmetry == Permutations(JoinSources)

(* Topology "Diamond": one source fans out to two operators, which join.   *)
DiamondSources == {"src"}
DiamondOperators == {"left", "right", "join"}
DiamondEdges == {<<"src", "left">>, <<"src", "right">>, <<"left", "join">>, <<"right", "join">>}

(* Topology "Join3": three sources into one three-input operator (with two inputs,
   an alignment that forgets its earlier arrivals still completes; with three it does not). *)
Join3Sources == {"a", "b", "c"}
Join3Operators == {"join3"}
Join3Edges == {<<"a", "join3">>, <<"b", "join3">>, <<"c", "join3">>}

(* Topology "Shortcut": the Diamond with an edge from the source straight to the join, so
   that a task with three inputs has two operators upstream (in the alternating protocol an
   operator may switch a checkpoint and forward its barrier overtaking). *)
ShortcutSources == DiamondSources
ShortcutOperators == DiamondOperators
ShortcutEdges == DiamondEdges \cup {<<"src", "join">>}

\* Broadcast: a record takes every out-edge of its node (a source: only its own records).
BroadcastRoute(n, r) ==
    IF n \in Sources /\ r.src # n THEN {} ELSE OutputsOf(n)

\* Keyed (Diamond): the source sends even offsets left and odd offsets right, one edge each.
KeyedRoute(n, r) ==
    IF n \in Sources
      THEN IF r.src # n THEN {}
           ELSE {e \in OutputsOf(n) : e[2] = IF r.off % 2 = 0 THEN "left" ELSE "right"}
      ELSE OutputsOf(n)

-----------------------------------------------------------------------------
(* Bad sources and bad recovery: a .cfg substitutes one for the definition *)
(* of Dataflow.tla it names, e.g. `RecordedOffset <- OffsetEarly`.         *)

\* Bug 1: the source records its offset one record early (the seed's 950 of 1,000).  The
\* record just before the barrier is in downstream state and is also replayed after a
\* restore: it is counted twice.  TLC must report NoDoubleCountInv.
OffsetEarly(s) == IF offset[s] = 0 THEN 0 ELSE offset[s] - 1

\* Bug 2: the source records its offset one record late (the seed's 1,050 of 1,000).  The
\* record just after the barrier is in no state and is never replayed: it is skipped.
\* TLC must report NoSkipInv.
OffsetLate(s) == IF offset[s] = RecordsPerSource THEN offset[s] ELSE offset[s] + 1

\* Bug 6 (`RestoredChannel <- DropChannelState`): recovery drops the persisted channel
\* state.  The records it held are in no operator state and lie below the sources' recorded
\* offsets: nobody replays them.  Caught by ExactlyOnceInv (the cut itself was consistent;
\* the restore loses it).
DropChannelState(e) == <<>>

\* Recovery puts the persisted records back in reverse order.  Every
\* record is restored once, so every counting invariant holds; FifoChannelInv fails.
ReverseChannelState(e) ==
    LET q == snapChan[latest][e] IN [i \in 1..Len(q) |-> q[Len(q) - i + 1]]

\* Bug 8, as Flink before FLIP-147 (FLINK-2491), `BarrierDue <- BarrierDueUntilFinished`: a
\* finished source no longer takes part in checkpoints (BarrierDue with one conjunct more,
\* the last).  A checkpoint triggered after it finished waits forever for its barrier:
\* TLC must refute CheckpointCompletesProp; with blocking inputs (aligned) the run also
\* stops dead before it drains: a deadlock.  Its models run with EndOfInput = FALSE, the
\* world before FLIP-147: no end of partition reaches a barrier handler (with it, the
\* receivers would count the ended input as arrived: BugEndedInputNotCountedAsArrived is the
\* receiving side's version of this bug).
BarrierDueUntilFinished(s, c) ==
    /\ Live(c)
    /\ c > current[s]
    /\ \A d \in (current[s] + 1)..(c - 1) : ~Live(d)
    /\ AbortsReachTasks \/ InFlight(c)
    /\ s \notin endedSources
    /\ offset[s] < RecordsPerSource

\* BugEndedInputNotCountedAsArrived (`ArrivedWithEnded <- ...`): only real barriers count.
\* A checkpoint triggered after one input of a task ended never aligns at that task; an
\* aligned task blocks the inputs whose barrier arrived for ever.  TLC must report a
\* deadlock (aligned Join).
BugEndedInputNotCountedAsArrived(barrierArrived, ended) == barrierArrived

\* BugEndedTaskNoAck (`FinalAck <- BugEndedTaskNoAck`): a task that ends does not acknowledge
\* the live checkpoints it has not reached (Flink before FLIP-147 waited for acknowledgements
\* from finished tasks, which never came: FLINK-2491, as bug 8).  A checkpoint that is live
\* when a task ends, and that the task has not reached, stays pending for ever while
\* everything else finishes.  TLC must report a deadlock: a run with a checkpoint pending has not
\* finished (Terminated), however drained and ended it is.
BugEndedTaskNoAck(ak, t, k) == ak

\* BugSourceNeverEnds (`SendEndOfPartition <- BugSourceNeverEnds`): a source that has read its
\* whole log never ends its partition (a bounded source that never signals the end of its
\* input), so no task ever ends.  With end of input on, TLC must report a deadlock: a drained
\* run whose tasks have not all ended has not finished (Terminated).
BugSourceNeverEnds(s) == FALSE

-----------------------------------------------------------------------------
(* Bad coordinators: whole actions of Dataflow.tla replaced by             *)
(* a .cfg line such as `CompleteCheckpoint <- CompleteKeepsOlder`.  Each   *)
(* differs from the action it replaces in one place, named in its comment. *)

\* The variables the coordinator's completion leaves alone (shared by the bad completions).
CompletionFrame == UNCHANGED <<sourceVars, chan, operatorVars, acked, snapOffset, snapProcessed,
                               snapChan, discardedUpTo, failures, lifecycleVars, sinkVars>>

\* Restore point (2): the coordinator keeps the first completed checkpoint as the one to
\* restore (latest' = latest once set).  Every restore is still from a consistent cut, so
\* the counting invariants hold; RestorePointInv fails.
CompleteKeepsOlder(c) ==
    /\ ckpt[c] = "pending"
    /\ AllAcked(c)
    /\ ckpt' = [ckpt EXCEPT ![c] = "completed"]
    /\ latest' = IF latest = 0 THEN c ELSE latest
    /\ CompletionFrame

\* Restore point (2): completing c does not subsume older pending checkpoints, so an older
\* one may complete after a newer one and become the restore point.  Needs two checkpoints
\* in flight; RestorePointInv (and RestorePointMonotoneProp) fail.
CompleteWithoutSubsuming(c) ==
    /\ ckpt[c] = "pending"
    /\ AllAcked(c)
    /\ ckpt' = [ckpt EXCEPT ![c] = "completed"]
    /\ latest' = c
    /\ CompletionFrame

\* Resurrection (3): the coordinator completes a checkpoint whose acknowledgements are all
\* in even though it was aborted (by a timeout) meanwhile.  CheckpointStatusProp fails.
CompleteAborted(c) ==
    /\ ckpt[c] \in {"pending", "aborted"}
    /\ AllAcked(c)
    /\ ckpt' = [d \in CheckpointIds |-> IF d = c THEN "completed"
                                        ELSE IF d < c /\ ckpt[d] = "pending" THEN "aborted"
                                        ELSE ckpt[d]]
    /\ latest' = c
    /\ CompletionFrame

\* Resurrection (3): a failure leaves pending checkpoints pending (ckpt' = ckpt), though
\* their barriers are gone.  FailureAbortsPendingInv fails.
FailKeepsPending ==
    /\ failures < MaxFailures
    /\ failures' = failures + 1
    /\ UNCHANGED ckpt
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

\* Checkpointing that stops (4): after one timeout the coordinator never triggers again
\* (an extra guard: no checkpoint is aborted).  Under fairness on triggering,
\* KeepsCheckpointingProp fails.
TriggerStopsAfterAbort(c) ==
    /\ \A d \in CheckpointIds : ckpt[d] # "aborted"
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

-----------------------------------------------------------------------------
(* The transactional sink: the option on, and bad sinks.  A .cfg turns   *)
(* the sink on with `TransactionalSink <- SinkOn` and picks a bad          *)
(* definition with e.g. `SinkSnapshot <- BugCommitOnSnapshot`.             *)

SinkOn == TRUE

\* BugCommitOnSnapshot (`SinkSnapshot <- BugCommitOnSnapshot`): the sink commits its
\* transaction in the snapshot that pre-commits it, before the checkpoint has completed.  A
\* failure before the checkpoint completes restores an older one: the sources replay the
\* committed records, the sink writes them again and commits them again.  TLC must report
\* NoDuplicateOutputInv.
BugCommitOnSnapshot(T, C) ==
    IF ~TransactionalSink \/ T \cap SinkTasks = {} \/ C = {} THEN UNCHANGED sinkVars
    ELSE
    LET c0 == SetMin(C)
        S == {t \in T \cap SinkTasks : txnOpen[t] # EmptyBag}
        now == [t \in SinkTasks |-> IF t \in S THEN {c0} ELSE {}]
        txn1 == [t \in SinkTasks |-> IF t \in S THEN [txn[t] EXCEPT ![c0] = txnOpen[t]] ELSE txn[t]]
    IN
    /\ PreCommitTransactions(T, C)
    /\ committed' = committed (+) BagSum(SinkTasks, [t \in SinkTasks |->
                        BagSum(NewlyCommitted(now[t], txnCommitted[t]), txn1[t])])
    /\ txnCommitted' = [t \in SinkTasks |-> txnCommitted[t] \cup now[t]]

\* BugNoRecommitOnRestore (`Recommitted <- BugNoRecommitOnRestore`): on restore the sink
\* does not re-commit the transactions of the restored checkpoint.  When the failure comes
\* after CompleteCheckpoint(c) and before NotifyCheckpointComplete(t, c), the notification
\* is lost with it, and c's transaction (whose records lie in the restored state, so nothing
\* replays them) is never committed.  TLC must report OutputExactlyOnceInv.
BugNoRecommitOnRestore(t) == {}

\* BugCommitNotIdempotent: a commit adds the transaction's records to the output even if
\* they are there already (an append instead of a rename).  The notification of c commits
\* c's transaction; a failure then restores c and the restore re-commits it: every record
\* of it twice.  TLC must report NoDuplicateOutputInv.
BugCommitNotIdempotent(ids, done) == ids

\* BugNoFinalCheckpoint (`Terminated <- BugNoFinalCheckpoint`): the job finishes as soon as
\* every task has ended, without a final checkpoint (Flink before FLIP-147): Terminated
\* without its last conjunct.  The sink's last transaction, holding what it wrote after its
\* last snapshot, is never pre-committed nor committed.  TLC must report
\* OutputExactlyOnceInv.
BugNoFinalCheckpoint == /\ Drained
                        /\ \A c \in CheckpointIds : ~InFlight(c) /\ ckpt[c] # "pending"
                        /\ EndOfInput => \A t \in Tasks : Ended(t)

\* BugFinalCheckpointNeverTriggered (liveness twin of the final checkpoint): the coordinator
\* never triggers a final checkpoint (`FinalCheckpointDue <- BugFinalCheckpointNeverDue`), so
\* nothing makes it trigger one once every task has ended (fairness covers the final trigger
\* only): the sink's last transaction stays open for ever and the job never finishes.  Under
\* FairSpec, with deadlock checking off (a run whose ids are used up has no successor), TLC
\* must refute FinalCheckpointProp.
BugFinalCheckpointNeverDue == FALSE

\* A bound of the models with the transactional sink and timeouts (an ACTION_CONSTRAINT):
\* no final checkpoint times out.  The ids are bounded (MaxFailures + 1 final ones) and a
\* final checkpoint that timed out would need another id (Flink triggers another); without
\* the bound the job could not finish and TLC would report the bound's deadlock, not the
\* protocol's.  A regular checkpoint may still time out with its transaction pre-committed.
NoFinalCheckpointTimeout == ~ \E c \in CheckpointIds : c > MaxCheckpoints /\ AbortCheckpoint(c)

-----------------------------------------------------------------------------
(* The engine's rule for aborts at tasks, for the spec-to-engine replay    *)
(* (tests/spec-replay.sh, docs/trace-validation.md): an ACTION_CONSTRAINT  *)
(* of the replay models with AbortsReachTasks, given the mode's            *)
(* InjectBarrier and NotifyCheckpointAborted.  The spec allows more than   *)
(* the engine does, on purpose (docs/vocabulary.md): the engine's          *)
(* coordinator never hands a source the barrier of a checkpoint that is no *)
(* longer pending, and an operator told of the abort of a checkpoint it    *)
(* has not seen only remembers it and acts at its first barrier (that      *)
(* deferral is checked by trace validation).  The replay follows the       *)
(* spec's steps within this rule.                                          *)
EngineAbortRule(Inject(_, _), Notify(_, _)) ==
    /\ ~ \E s \in Sources, c \in CheckpointIds : ckpt[c] = "aborted" /\ Inject(s, c)
    /\ ~ \E t \in Operators, c \in CheckpointIds : c > current[t] /\ Notify(t, c)

(* The engine's rule for completion notifications, for the replay models   *)
(* with the transactional sink (an ACTION_CONSTRAINT): the coordinator     *)
(* tells a sink of the newest completed checkpoint only.                   *)
(* NotifyCheckpointComplete allows an older one after a newer one too,     *)
(* which commits a subset of what the newer one commits (Flink's           *)
(* TwoPhaseCommitSinkFunction commits every pending transaction up to the  *)
(* checkpoint it is told of).  The replay follows the spec's steps within  *)
(* this rule.                                                              *)
ReplayNotifyRule == ~ \E t \in SinkTasks, c \in CheckpointIds : c # latest /\ NotifyCheckpointComplete(t, c)

-----------------------------------------------------------------------------
(* The state view TLC uses to recognise states it has already seen.        *)
(* Soundness: the view forgets only data no action reads and no checked    *)
(* invariant reads again.  (1) The snapshot data of a checkpoint that is   *)
(* neither pending nor the latest completed one: aborted data is never     *)
(* read, and a completed checkpoint's data never changes after it          *)
(* completes, in a state where it is the latest and so kept in the view:   *)
(* TLC checked it there.  Only the latest completed one is read            *)
(* (FailAndRestore).  (2) The acknowledgements of a checkpoint that is     *)
(* no longer live: no action reads them (InFlight, BarrierDue and          *)
(* CompleteCheckpoint all require a live or pending checkpoint, and a      *)
(* failure turns every pending one into an aborted one).  Two states with  *)
(* the same view therefore have the same successors up to forgotten data,  *)
(* and every invariant of the models reads only what the view keeps or     *)
(* what it kept when that data was last written.  Not used with liveness.  *)
StateView ==
    LET kept(c) == ckpt[c] = "pending" \/ c = latest
        \* (3) The transactions of sink t a step may still read: the pending ones and those a
        \* restore from a kept checkpoint re-commits.  A transaction committed or aborted
        \* otherwise never joins either set again (ids are not reused), so its records and
        \* whether it was committed are read by no action and no invariant.
        readable(t) == txnPending[t] \cup UNION {snapTxnPending[c][t] : c \in {d \in CheckpointIds : kept(d)}}
    IN
    << offset, chan, processed, handling, arrived, ckpt, current, endedInputs, endedSources,
       [c \in CheckpointIds |-> IF Live(c) THEN acked[c] ELSE {}],
       [c \in CheckpointIds |-> IF kept(c) THEN <<snapOffset[c], snapProcessed[c], snapChan[c]>>
                                          ELSE <<>>],
       latest, discardedUpTo, failures,
       \* the transactional sink (constant with the option off); snapTxnPending as snapshot data
       txnOpen, txnPending, committed,
       [t \in SinkTasks |-> [d \in readable(t) |-> txn[t][d]]],
       [t \in SinkTasks |-> txnCommitted[t] \cap readable(t)],
       [c \in CheckpointIds |-> IF kept(c) THEN snapTxnPending[c] ELSE <<>>] >>

=============================================================================
No models of its own; the figures of the models that use it are in MCAlignedCheckpoint.tla
and MCUnalignedCheckpoint.tla.
The bad sinks are used by MCAlignedCheckpoint_Bug{CommitOnSnapshot,
NoRecommitOnRestore,CommitNotIdempotent,NoFinalCheckpoint}.cfg; figures in MCAlignedCheckpoint.tla.
