------------------------ MODULE DataflowCheckpoints -------------------------
(***************************************************************************)
(* Checkpoint bookkeeping: the state predicates every step reads (which    *)
(* checkpoints are triggered, live, in flight, acknowledged by every task; *)
(* which barrier a source injects next; which task may learn of an abort), *)
(* and the acknowledgement.                                                *)
(***************************************************************************)
EXTENDS DataflowVariables

\* Checkpoint c has been triggered: it is pending, completed or aborted.
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

=============================================================================
