--------------------------- MODULE AlignedCheckpoint ---------------------------
(***************************************************************************)
(* Aligned barriers, as Flink's exactly-once mode implements them.  A      *)
(* source records its offset and appends barrier c behind the records it   *)
(* has sent.  A task with several inputs blocks each input whose barrier   *)
(* has arrived (its records wait, unprocessed, in the channel) until the   *)
(* barrier has arrived on every input; then it snapshots its state,        *)
(* forwards the barrier on every output and unblocks.  Nothing in flight   *)
(* is stored: the cost of the cut is paid in latency (blocked inputs).     *)
(*                                                                         *)
(* Place in the whole: EXTENDS the shared Dataflow and CutInvariants;      *)
(* MCAlignedCheckpoint.tla gives the topologies, the bounds and the named  *)
(* bad overrides of the dials (BlocksOnBarrier, RecordedOffset).  Its      *)
(* unaligned counterpart is UnalignedCheckpoint.tla.                       *)
(***************************************************************************)
EXTENDS Dataflow, CutInvariants

\* A dial, defined correctly and wrongly in MCAlignedCheckpoint.tla; correct: TRUE.
CONSTANT
    BlocksOnBarrier  \* a task stops reading an input whose barrier has arrived

ASSUME BlocksOnBarrier \in BOOLEAN

\* The inputs of t that t does not read now: those whose barrier of handling[t] has arrived.
Blocked(t) == IF BlocksOnBarrier THEN arrived[t] ELSE {}

\* Source s records its offset in the oldest in-flight checkpoint c it has not yet injected,
\* appends barrier c behind the records it has sent, and acknowledges c.
\* Implemented by SourceTask.injectBarrier(c).
InjectBarrier(s, c) ==
    /\ BarrierDue(s, c)
    /\ snapOffset' = [snapOffset EXCEPT ![c][s] = RecordedOffset(offset[s])]
    /\ chan' = Enqueue(chan, OutputsOf(s), [ckpt |-> c])
    /\ Acknowledge(s, c)
    /\ UNCHANGED <<sourceVars, operatorVars, ckpt, snapProcessed, snapChan, latest,
                   discardedUpTo, failures>>

\* Operator t takes the record at the head of an unblocked input e, counts it and sends it on.
\* Implemented by OperatorTask.processRecord(e).
ProcessRecord(t, e) ==
    LET r == Head(chan[e]) IN
    /\ chan[e] # <<>>
    /\ IsRecord(r)
    /\ e \notin Blocked(t)
    /\ HasRoom(t, r)
    /\ chan' = Enqueue([chan EXCEPT ![e] = Tail(@)], RouteOf(t, r), r)
    /\ processed' = [processed EXCEPT ![t] = @ (+) SetToBag({r})]
    /\ UNCHANGED <<sourceVars, handling, arrived, coordinatorVars, failures>>

\* Operator t takes barrier c from input e and blocks e; on the last input's barrier it
\* snapshots, forwards c behind its output, unblocks every input and acknowledges c.
\* A task aligns one checkpoint at a time; while it blocks, the next barrier of an input
\* waits behind the current one anyway, so the guard on handling[t] only bites the bugs.
\* Implemented by OperatorTask.receiveBarrier(e).
ReceiveBarrier(t, e) ==
    LET c == Head(chan[e]).ckpt
        nowArrived == arrived[t] \cup {e}
    IN
    /\ chan[e] # <<>>
    /\ IsBarrier(Head(chan[e]))
    /\ handling[t] \in {0, c}
    /\ IF nowArrived = InputsOf(t)
         THEN /\ snapProcessed' = [snapProcessed EXCEPT ![c][t] = processed[t]]
              /\ chan' = Enqueue([chan EXCEPT ![e] = Tail(@)], OutputsOf(t), [ckpt |-> c])
              /\ handling' = [handling EXCEPT ![t] = 0]
              /\ arrived' = [arrived EXCEPT ![t] = {}]
              /\ Acknowledge(t, c)
         ELSE /\ chan' = [chan EXCEPT ![e] = Tail(@)]
              /\ handling' = [handling EXCEPT ![t] = c]
              /\ arrived' = [arrived EXCEPT ![t] = nowArrived]
              /\ UNCHANGED <<snapProcessed, acked>>
    /\ UNCHANGED <<sourceVars, processed, ckpt, snapOffset, snapChan, latest,
                   discardedUpTo, failures>>

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
\* Aligned checkpoints persist no channel state: the cut lies exactly at the barriers.
AlignedNoChannelStateInv ==
    \A c \in CheckpointIds, e \in Edges : snapChan[c][e] = <<>>

=============================================================================
