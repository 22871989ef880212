------------------------- MODULE DataflowEndOfInput -------------------------
(***************************************************************************)
(* End of input (FLIP-147): a source that has read its whole log sends end *)
(* of partition and ends; an operator ends when every input has ended; an  *)
(* ended task acknowledges, with its final state, every checkpoint it has  *)
(* not reached. And the end of a run: when the job has finished.           *)
(***************************************************************************)
EXTENDS DataflowCheckpoints, DataflowChannels, DataflowSink

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

-----------------------------------------------------------------------------
(* The end of a run.                                                       *)

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
(* Liveness of the end of input, checked under each protocol's FairSpec.   *)

\* Every task eventually ends (models with EndOfInput).
EndsProp == <>[](\A t \in Tasks : Ended(t))

\* Every task eventually ends and every transaction of every sink is committed: the final
\* checkpoint eventually completes and is committed (models with TransactionalSink).
FinalCheckpointProp == <>[](\A t \in Tasks : Ended(t)) /\ <>[]SinksCommitted

-----------------------------------------------------------------------------
\* The lifecycle variables have their types (TypeInv in CutInvariants.tla has the others).
LifecycleTypeInv ==
    /\ current \in [Tasks -> 0..MaxCheckpointId]
    /\ \A t \in Operators : endedInputs[t] \subseteq InputsOf(t)
                            /\ (handling[t] # 0 => handling[t] = current[t])
    /\ endedSources \subseteq Sources

\* A task ends each output once: no channel holds two ends of partition (a channel is
\* emptied only by a failure, after which no input has ended).
EndOfPartitionOnceInv == \A e \in Edges : Len(SelectSeq(chan[e], IsEndOfPartition)) <= 1

=============================================================================
