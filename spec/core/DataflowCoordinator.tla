------------------------ MODULE DataflowCoordinator -------------------------
(***************************************************************************)
(* The checkpoint coordinator and global failure: triggering, completing   *)
(* and aborting checkpoints, a source told of an abort, and the failure    *)
(* that restores every task from the latest completed checkpoint. With the *)
(* liveness properties of the checkpoints.                                 *)
(***************************************************************************)
EXTENDS DataflowCheckpoints, DataflowChannels, DataflowSink

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

\* The coordinator triggers the final checkpoint when it is due.  Not a step of its own (a
\* TriggerCheckpoint): named for the fairness condition of each protocol's FairSpec.
TriggerFinalCheckpoint == \E c \in CheckpointIds : FinalCheckpointDue /\ TriggerCheckpoint(c)

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

\* A task that handles an aborted checkpoint eventually stops handling it (unblocks its
\* inputs, stops persisting): aborts reach the tasks (models with AbortsReachTasks).
AbortReleasesProp ==
    \A t \in Operators, c \in CheckpointIds :
        (handling[t] = c /\ ckpt[c] = "aborted") ~> handling[t] # c

=============================================================================
