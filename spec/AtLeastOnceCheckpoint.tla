------------------------- MODULE AtLeastOnceCheckpoint -------------------------
(***************************************************************************)
(* At-least-once barriers, as Flink's AT_LEAST_ONCE mode implements them   *)
(* (CheckpointBarrierTracker).  A task never blocks an input: it counts    *)
(* the barriers of a checkpoint as they arrive, keeps reading every input, *)
(* and snapshots when the last input's barrier has arrived (an ended input *)
(* counts as arrived).  Records that arrive on an input after its barrier  *)
(* and before the snapshot are in the snapshot although their sources will *)
(* replay them after a restore: nothing is lost (NoSkipInv,                *)
(* AtLeastOnceInv), some records are counted twice (NoDoubleCountInv      *)
(* fails, MCAtLeastOnceCheckpoint_AtLeastOnce.cfg).  The cost of the cut   *)
(* is paid in duplicates, neither in latency nor in storage.              *)
(*                                                                         *)
(* The step rules are those of AlignedCheckpoint.tla with no input ever    *)
(* blocked (and its lifecycle dials correct): the tracker is an aligned    *)
(* handler that does not block.  One simplification: the tracker keeps     *)
(* one checkpoint per task at a time (a newer barrier subsumes the older   *)
(* one), where Flink's tracker counts several at once.  They agree while   *)
(* no barrier of a newer checkpoint reaches a task before the last barrier *)
(* of an older one it tracks.  With AbortsReachTasks that happens (a       *)
(* source skips an aborted checkpoint, so the next one's barrier comes     *)
(* first on its channels): the engine, as Flink, keeps tracking both, this *)
(* spec subsumes the older one; trace validation rejects such engine runs  *)
(* (docs/trace-validation.md, "The lifecycle").                            *)
(*                                                                         *)
(* Place in the whole: the third mode beside AlignedCheckpoint.tla and     *)
(* UnalignedCheckpoint.tla; MCAtLeastOnceCheckpoint.tla gives the models.  *)
(* Java: BarrierMode at-least-once (--mode at-least-once).                 *)
(***************************************************************************)
EXTENDS Dataflow, CutInvariants

\* The aligned step rules with no blocking, an abandoned checkpoint releasing nothing
\* (nothing is blocked) and a subsuming barrier starting afresh.
Tracker == INSTANCE AlignedCheckpoint
               WITH BlocksOnBarrier <- FALSE,
                    ArrivedAfterAbort <- LAMBDA blocked : {},
                    ArrivedOnSubsume <- LAMBDA olderArrived, e : {e}

\* Source s records its offset in the oldest due checkpoint c, appends barrier c behind
\* the records it has sent, and acknowledges c.
\* Implemented by SourceTask.injectBarrier(c).
InjectBarrier(s, c) == Tracker!InjectBarrier(s, c)

\* Operator t takes the record at the head of input e (never blocked), counts it and
\* sends it on.  Implemented by OperatorTask.processRecord(e).
ProcessRecord(t, e) == Tracker!ProcessRecord(t, e)

\* Operator t takes barrier c from input e and counts it; on the last input's barrier of c
\* it snapshots, forwards c and acknowledges it.  A newer barrier subsumes an older
\* checkpoint; an obsolete one is dropped.  Implemented by OperatorTask.receiveBarrier(e).
ReceiveBarrier(t, e) == Tracker!ReceiveBarrier(t, e)

\* The coordinator tells task t that c is aborted: a source skips c, an operator abandons
\* it and forwards a cancellation barrier.  Implemented by notifyCheckpointAborted(c).
NotifyCheckpointAborted(t, c) == Tracker!NotifyCheckpointAborted(t, c)

\* Operator t takes a cancellation barrier from input e.
\* Implemented by OperatorTask.receiveCancelBarrier(e).
ReceiveCancelBarrier(t, e) == Tracker!ReceiveCancelBarrier(t, e)

\* Operator t takes end of partition from input e.
\* Implemented by OperatorTask.receiveEndOfPartition(e).
ReceiveEndOfPartition(t, e) == Tracker!ReceiveEndOfPartition(t, e)

\* The steps that move data, barriers and news of aborts forward.
Progress == Tracker!Progress

Next == Tracker!Next

Spec == Init /\ [][Next]_vars

\* Weak fairness on progress as a whole, as in the other two modes.
FairSpec == Spec /\ WF_vars(Progress) /\ WF_vars(TriggerFinalCheckpoint)

-----------------------------------------------------------------------------
\* At-least-once checkpoints persist no channel state: the cut lies at the barriers.
AtLeastOnceNoChannelStateInv ==
    \A c \in CheckpointIds, e \in Edges : snapChan[c][e] = <<>>

=============================================================================
Models and TLC figures: MCAtLeastOnceCheckpoint.tla (after its ====).
