-------------------------- MODULE UnalignedCheckpoint --------------------------
(***************************************************************************)
(* Unaligned barriers, as Flink's unaligned checkpoints implement them     *)
(* (FLIP-76).  A barrier overtakes the records queued in a channel: it is  *)
(* put at the channel's head, and a copy of the records it overtook is     *)
(* persisted as that channel's state in the checkpoint (they stay in the   *)
(* channel and are processed after the barrier as usual).  A task          *)
(* snapshots as soon as the first barrier of a checkpoint arrives,         *)
(* forwards it at once (overtaking its output channels), and persists      *)
(* every record it takes from an input whose barrier has not arrived yet.  *)
(* No input is ever blocked: the cost of the cut is paid in storage.       *)
(* At most one checkpoint is in flight at a time, as in Flink.             *)
(*                                                                         *)
(* Place in the whole: EXTENDS the shared Dataflow and CutInvariants;      *)
(* MCUnalignedCheckpoint.tla gives the topologies, the bounds and the      *)
(* named bad overrides of the dials (PersistedOvertaken, PersistFrom,      *)
(* RecordedOffset, RestoredChannel).  Its aligned counterpart is           *)
(* AlignedCheckpoint.tla.                                                  *)
(*                                                                         *)
(* Persisted channel state of an edge e in checkpoint c, in FIFO order:    *)
(* first what the receiver took from e after its own snapshot and before   *)
(* e's barrier (the receiver-side part), then what the barrier overtook    *)
(* when the sender put it at e's head (the sender-side part).  Recovery    *)
(* puts the sequence back into e ahead of any new record.                  *)
(***************************************************************************)
EXTENDS Dataflow, CutInvariants

\* Dials, defined correctly and wrongly in MCUnalignedCheckpoint.tla.  Correct:
\* PersistedOvertaken(q) = q, PersistFrom(inputs, arrived) = inputs \ arrived.
CONSTANTS
    PersistedOvertaken(_), \* given the records a barrier overtook: those persisted
    PersistFrom(_, _)      \* given a task's inputs and those whose barrier arrived: the
                           \* inputs whose records it persists

\* At most one unaligned checkpoint is in flight at a time, as in Flink.
ASSUME MaxConcurrent = 1

\* The inputs whose records t persists now: while it handles a checkpoint, those whose
\* barrier has not arrived yet.
Persisting(t) == IF handling[t] = 0 THEN {} ELSE PersistFrom(InputsOf(t), arrived[t])

\* Barrier c goes to the head of every output of node n (ch: the channels before).
Overtake(ch, n, c) == EnqueueAhead(ch, OutputsOf(n), [ckpt |-> c])
\* snapChan with what barrier c overtook on n's outputs appended to their persisted state.
SaveOvertaken(ch, n, c) ==
    [snapChan EXCEPT ![c] = [e \in Edges |-> IF e \in OutputsOf(n)
                                              THEN snapChan[c][e] \o PersistedOvertaken(ch[e])
                                              ELSE snapChan[c][e]]]

\* Source s records its offset in the in-flight checkpoint c, puts barrier c at the head of
\* its outputs, persists the records it overtook, and acknowledges c.
\* Implemented by SourceTask.injectBarrier(c).
InjectBarrier(s, c) ==
    /\ BarrierDue(s, c)
    /\ snapOffset' = [snapOffset EXCEPT ![c][s] = RecordedOffset(offset[s])]
    /\ chan' = Overtake(chan, s, c)
    /\ snapChan' = SaveOvertaken(chan, s, c)
    /\ Acknowledge(s, c)
    /\ UNCHANGED <<sourceVars, operatorVars, ckpt, snapProcessed, latest, discardedUpTo, failures>>

\* Operator t takes the record at the head of input e, counts it and sends it on; while
\* e's barrier is still to come in the checkpoint t handles, it also persists the record.
\* Implemented by OperatorTask.processRecord(e).
ProcessRecord(t, e) ==
    LET r == Head(chan[e]) IN
    /\ chan[e] # <<>>
    /\ IsRecord(r)
    /\ HasRoom(t, r)
    /\ chan' = Enqueue([chan EXCEPT ![e] = Tail(@)], RouteOf(t, r), r)
    /\ processed' = [processed EXCEPT ![t] = @ (+) SetToBag({r})]
    /\ snapChan' = IF e \in Persisting(t)
                     THEN [snapChan EXCEPT ![handling[t]][e] = Append(@, r)]
                     ELSE snapChan
    /\ UNCHANGED <<sourceVars, handling, arrived, ckpt, acked, snapOffset, snapProcessed,
                   latest, discardedUpTo, failures>>

\* Operator t takes barrier c from input e.  On the first barrier of c it snapshots and
\* forwards c at once to the head of its outputs (persisting what c overtook there); on
\* the last it acknowledges c.  A single-input task does both in one step.
\* Implemented by OperatorTask.receiveBarrier(e).
ReceiveBarrier(t, e) ==
    LET c == Head(chan[e]).ckpt
        taken == [chan EXCEPT ![e] = Tail(@)]
        nowArrived == arrived[t] \cup {e}
    IN
    /\ chan[e] # <<>>
    /\ IsBarrier(Head(chan[e]))
    /\ handling[t] \in {0, c}
    /\ IF handling[t] = 0
         THEN /\ snapProcessed' = [snapProcessed EXCEPT ![c][t] = processed[t]]
              /\ chan' = Overtake(taken, t, c)
              /\ snapChan' = SaveOvertaken(taken, t, c)
         ELSE /\ chan' = taken
              /\ UNCHANGED <<snapProcessed, snapChan>>
    /\ IF nowArrived = InputsOf(t)
         THEN /\ handling' = [handling EXCEPT ![t] = 0]
              /\ arrived' = [arrived EXCEPT ![t] = {}]
              /\ Acknowledge(t, c)
         ELSE /\ handling' = [handling EXCEPT ![t] = c]
              /\ arrived' = [arrived EXCEPT ![t] = nowArrived]
              /\ UNCHANGED acked
    /\ UNCHANGED <<sourceVars, processed, ckpt, snapOffset, latest, discardedUpTo, failures>>

\* The steps that move data and barriers forward (no trigger, timeout or failure).
Progress ==
    \/ \E c \in CheckpointIds : CompleteCheckpoint(c)
    \/ \E s \in Sources : EmitRecord(s) \/ \E c \in CheckpointIds : InjectBarrier(s, c)
    \/ \E t \in Operators : \E e \in InputsOf(t) : ProcessRecord(t, e) \/ ReceiveBarrier(t, e)

Next ==
    \/ Progress
    \/ \E c \in CheckpointIds : TriggerCheckpoint(c) \/ AbortCheckpoint(c)
    \/ FailAndRestore
    \/ Terminating

Spec == Init /\ [][Next]_vars

\* Weak fairness on progress as a whole suffices: every progress step shrinks a finite
\* measure (records to read, messages in channels, barriers to inject), so a fair
\* behaviour ends where no progress step is enabled.
FairSpec == Spec /\ WF_vars(Progress)

-----------------------------------------------------------------------------
(* The cost duals.                                                         *)

\* An unaligned task never blocks an input: whatever heads an input can be taken now,
\* unless it is a record whose routes are full (backpressure, which every protocol has).
UnalignedNeverBlocksInv ==
    \A t \in Operators : \A e \in InputsOf(t) :
        Takeable(t, e) => ENABLED (ProcessRecord(t, e) \/ ReceiveBarrier(t, e))

\* How many copies of r the sender of e says, in its own snapshot in c, it had sent on e.
SentBeforeSnapshot(c, e, r) ==
    LET v == e[1] IN
    IF e \notin RouteOf(v, r) THEN 0
    ELSE IF v \in Sources THEN (IF r.off < snapOffset[c][v] THEN 1 ELSE 0)
    ELSE CopiesIn(r, snapProcessed[c][v])

\* The channel state a checkpoint persists on an edge holds only records its sender had
\* sent on it before the sender's own snapshot, each at most as often as it was sent.
\* Why this bound and not Capacity: the persisted state of e is what e's sender sent
\* before its snapshot minus what e's receiver took before its own.  The sender-side part
\* is what was queued in e (at most Capacity records in a failure-free run); but the
\* receiver-side part grows with everything the sender sends on e while the receiver,
\* already snapshotted, waits for e's barrier, and that has no bound but the sender's
\* output.  So the bound is tight: when the receiver snapshots before the sender sends
\* anything, equality holds, and MCUnalignedCheckpoint's model UnalignedBeyondCapacity
\* shows TLC a checkpoint persisting more than Capacity records on one edge.
\* Checked for every completed checkpoint (an aborted one's state is discarded).
UnalignedChannelStateBoundInv ==
    \A c \in CheckpointIds : ckpt[c] = "completed" =>
        \A e \in Edges, r \in Records :
            CopiesInSeq(r, snapChan[c][e]) <= SentBeforeSnapshot(c, e, r)

=============================================================================
