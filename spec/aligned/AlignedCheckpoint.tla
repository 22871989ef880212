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
(* The lifecycle: an aborted checkpoint releases every blocked            *)
(* input at once (NotifyCheckpointAborted, ReceiveCancelBarrier), a newer  *)
(* barrier subsumes an older alignment, obsolete barriers are dropped, and *)
(* an ended input counts as arrived (ReceiveEndOfPartition).  Concurrent   *)
(* checkpoints are handled in id order: a blocked input holds the next     *)
(* barrier back.                                                           *)
(*                                                                         *)
(* Place in the whole: EXTENDS the shared Dataflow and CutInvariants;      *)
(* MCAlignedCheckpoint.tla gives the topologies, the bounds and the bad    *)
(* definitions its bug models substitute for Blocked, Subsume and Abandon. *)
(* Its unaligned counterpart is UnalignedCheckpoint.tla;                   *)
(* AtLeastOnceCheckpoint.tla takes InjectBarrier and ForwardRecord from it *)
(* (a tracker never blocks).                                               *)
(***************************************************************************)
EXTENDS Dataflow, CutInvariants

\* The inputs of t that t does not read now: those whose barrier of handling[t] has arrived.
Blocked(t) == arrived[t]

\* Given arrived inputs a, t has the barrier of the checkpoint it aligns on every input
\* (an input that has ended counts as arrived: FLIP-147, ArrivedWithEnded).
AllArrived(t, a, x) == ArrivedWithEnded(a, x) = InputsOf(t)

\* Source s records its offset in the oldest in-flight checkpoint c it has not yet injected,
\* appends barrier c behind the records it has sent, and acknowledges c.
\* Implemented by SourceTask.injectBarrier(c).
InjectBarrier(s, c) ==
    /\ BarrierDue(s, c)
    /\ snapOffset' = [snapOffset EXCEPT ![c][s] = RecordedOffset(s)]
    /\ chan' = Enqueue(chan, OutputsOf(s), [ckpt |-> c])
    /\ current' = [current EXCEPT ![s] = c]
    /\ Acknowledge(s, c)
    /\ UNCHANGED <<sourceVars, operatorVars, ckpt, snapProcessed, snapChan, latest,
                   discardedUpTo, failures, endedInputs, endedSources, sinkVars>>

\* Operator t takes the record at the head of input e, counts it and sends it on.
ForwardRecord(t, e) ==
    LET r == Head(chan[e]) IN
    /\ chan[e] # <<>>
    /\ IsRecord(r)
    /\ HasRoom(t, r)
    /\ chan' = Enqueue([chan EXCEPT ![e] = Tail(@)], RouteOf(t, r), r)
    /\ processed' = [processed EXCEPT ![t] = @ (+) SetToBag({r})]
    /\ SinkWrite(t, r)
    /\ UNCHANGED <<sourceVars, handling, arrived, coordinatorVars, failures, lifecycleVars>>

\* Operator t takes the record at the head of an unblocked input e, counts it and sends it on.
\* Implemented by OperatorTask.processRecord(e).
ProcessRecord(t, e) == e \notin Blocked(t) /\ ForwardRecord(t, e)

\* Operator t, aligning checkpoint k with arrived inputs a (ended inputs x), after the
\* channels ch: if every input has arrived, it snapshots, forwards barrier k behind its
\* output, unblocks every input and acknowledges k (a sink pre-commits its transaction in
\* the snapshot: SinkSnapshot); else it waits, blocking a.
Align(t, k, a, x, ch) ==
    IF AllArrived(t, a, x)
      THEN /\ snapProcessed' = [snapProcessed EXCEPT ![k][t] = processed[t]]
           /\ chan' = Enqueue(ch, OutputsOf(t), [ckpt |-> k])
           /\ handling' = [handling EXCEPT ![t] = 0]
           /\ arrived' = [arrived EXCEPT ![t] = {}]
           /\ Acknowledge(t, k)
           /\ SinkSnapshot({t}, {k})
      ELSE /\ chan' = ch
           /\ handling' = [handling EXCEPT ![t] = k]
           /\ arrived' = [arrived EXCEPT ![t] = a]
           /\ UNCHANGED <<snapProcessed, acked, sinkVars>>

\* Barrier c came on input e of t, newer than the alignment t is in (ch: the channels after
\* t forwarded the older one's cancellation): t aligns c afresh, with only e arrived (the
\* inputs that delivered the older barrier have not delivered c's).
Subsume(t, c, e, ch) == Align(t, c, {e}, endedInputs[t], ch)

\* Operator t takes barrier c from an unblocked input e.
\* - c is the checkpoint t aligns: e has arrived (Align).
\* - c is newer than every checkpoint t has seen: t starts aligning c with e arrived; if it
\*   was aligning an older one, c subsumes it: t abandons it (it is aborted for t) and
\*   forwards a cancellation barrier of it (Flink: SingleCheckpointBarrierHandler, a newer
\*   barrier cancels the pending alignment as subsumed).
\* - otherwise c is obsolete at t (finished, abandoned or skipped): dropped.
\* Implemented by OperatorTask.receiveBarrier(e).
ReceiveBarrier(t, e) ==
    LET c == Head(chan[e]).ckpt
        h == handling[t]
        taken == [chan EXCEPT ![e] = Tail(@)]
    IN
    /\ chan[e] # <<>>
    /\ IsBarrier(Head(chan[e]))
    /\ e \notin Blocked(t)
    /\ CASE c = h /\ h # 0 ->
              /\ Align(t, c, arrived[t] \cup {e}, endedInputs[t], taken)
              /\ UNCHANGED current
         [] c > current[t] ->
              /\ current' = [current EXCEPT ![t] = c]
              /\ IF h # 0
                   THEN Subsume(t, c, e, Enqueue(taken, OutputsOf(t), CancelBarrier(h)))
                   ELSE Align(t, c, {e}, endedInputs[t], taken)
         [] OTHER ->
              /\ chan' = taken
              /\ UNCHANGED <<handling, arrived, current, snapProcessed, acked, sinkVars>>
    /\ UNCHANGED <<sourceVars, processed, ckpt, snapOffset, snapChan, latest,
                   discardedUpTo, failures, endedInputs, endedSources>>

\* Operator t learns that c is aborted, with the channels ch before: it abandons the
\* alignment it is in (c, or an older one when c is newer), unblocks every input at once,
\* goes past c (later barriers of c are obsolete) and forwards a cancellation barrier of c.
\* Flink: SingleCheckpointBarrierHandler's abort raises its current checkpoint id to c and
\* resets the alignment; scenarios in AlignedCheckpointsTest.testMultiChannelAbortCheckpoint
\* (a cancellation on the last or the first barrier releases every blocked channel) and
\* testMissingCancellationBarriers (a cancellation of a newer id abandons the older one).
Abandon(t, c, ch) ==
    /\ current' = [current EXCEPT ![t] = c]
    /\ handling' = [handling EXCEPT ![t] = 0]
    /\ arrived' = [arrived EXCEPT ![t] = {}]
    /\ chan' = Enqueue(ch, OutputsOf(t), CancelBarrier(c))

\* The coordinator tells task t that checkpoint c is aborted.  A source that has not
\* injected c never will (SkipBarrier); an operator abandons it (Abandon).
\* Implemented by SourceTask.notifyCheckpointAborted(c) and
\* OperatorTask.notifyCheckpointAborted(c).
NotifyCheckpointAborted(t, c) ==
    IF t \in Sources THEN SkipBarrier(t, c)
    ELSE /\ AbortNews(t, c)
         /\ Abandon(t, c, chan)
         /\ UNCHANGED <<sourceVars, processed, coordinatorVars, failures, endedInputs,
                        endedSources, sinkVars>>

\* Operator t takes a cancellation barrier of c from an unblocked input e: if t has not
\* gone past c it abandons c (or the older checkpoint it aligns) as on a notification,
\* forwarding the cancellation once; otherwise the cancellation is dropped.
\* Implemented by OperatorTask.receiveCancelBarrier(e).
ReceiveCancelBarrier(t, e) ==
    LET c == Head(chan[e]).cancel
        taken == [chan EXCEPT ![e] = Tail(@)]
    IN
    /\ chan[e] # <<>>
    /\ IsCancelBarrier(Head(chan[e]))
    /\ e \notin Blocked(t)
    /\ IF c > current[t] \/ (c = handling[t] /\ c # 0)
         THEN Abandon(t, c, taken)
         ELSE /\ chan' = taken
              /\ UNCHANGED <<handling, arrived, current>>
    /\ UNCHANGED <<sourceVars, processed, coordinatorVars, failures, endedInputs,
                   endedSources, sinkVars>>

\* Operator t takes end of partition from an unblocked input e: e has ended and counts as
\* arrived for the checkpoint t aligns and every later one.  If that completes the
\* alignment, t snapshots and forwards the barrier; if every input has ended, t ends: the
\* live checkpoints it has not reached record its final state, and it forwards end of
\* partition on its outputs (behind everything it sent).
\* Flink (checkpoints after tasks finished, FLIP-147): SingleCheckpointBarrierHandler's
\* processEndOfPartition marks the channel aligned; AlignedCheckpointsTest's
\* testStartAlignmentWithClosedChannels (alignment on the channels still open).  Before
\* FLIP-147 the pending checkpoint was aborted instead (testEndOfStreamWhileCheckpoint).
\* Implemented by OperatorTask.receiveEndOfPartition(e).
ReceiveEndOfPartition(t, e) ==
    LET x == endedInputs[t] \cup {e}
        taken == [chan EXCEPT ![e] = Tail(@)]
        h == handling[t]
        \* after completing the alignment (if it completes): channels and snapshots
        aligned == h # 0 /\ AllArrived(t, arrived[t], x)
        ch1 == IF aligned THEN Enqueue(taken, OutputsOf(t), [ckpt |-> h]) ELSE taken
        sp1 == IF aligned THEN [snapProcessed EXCEPT ![h][t] = processed[t]] ELSE snapProcessed
        ak1 == IF aligned THEN [acked EXCEPT ![h] = @ \cup {t}] ELSE acked
        ends == x = InputsOf(t)
        \* the checkpoints t snapshots in this step (a sink pre-commits in the oldest)
        snaps == (IF aligned THEN {h} ELSE {})
                   \cup (IF ends THEN {d \in CheckpointIds : Live(d) /\ d > current[t]} ELSE {})
    IN
    /\ chan[e] # <<>>
    /\ IsEndOfPartition(Head(chan[e]))
    /\ e \notin Blocked(t)
    /\ endedInputs' = [endedInputs EXCEPT ![t] = x]
    /\ chan' = IF ends THEN Enqueue(ch1, OutputsOf(t), EndOfPartition) ELSE ch1
    /\ snapProcessed' = IF ends THEN FinalSnapshot(sp1, t, current[t]) ELSE sp1
    /\ acked' = IF ends THEN FinalAck(ak1, t, current[t]) ELSE ak1
    /\ SinkSnapshot({t}, snaps)
    /\ IF aligned
         THEN /\ handling' = [handling EXCEPT ![t] = 0]
              /\ arrived' = [arrived EXCEPT ![t] = {}]
         ELSE UNCHANGED <<handling, arrived>>
    /\ UNCHANGED <<sourceVars, processed, ckpt, snapOffset, snapChan, latest, discardedUpTo,
                   failures, current, endedSources>>

\* The steps that move data, barriers and news of aborts forward (no trigger, timeout or
\* failure; with TransactionalSink also the notifications and the final checkpoint).
Progress ==
    \/ \E c \in CheckpointIds : CompleteCheckpoint(c)
    \/ \E s \in Sources : \/ EmitRecord(s) \/ SendEndOfPartition(s)
                         \/ \E c \in CheckpointIds : InjectBarrier(s, c)
    \/ \E t \in Tasks, c \in CheckpointIds : NotifyCheckpointAborted(t, c)
    \/ \E t \in Operators : \E e \in InputsOf(t) :
           \/ ProcessRecord(t, e) \/ ReceiveBarrier(t, e)
           \/ ReceiveCancelBarrier(t, e) \/ ReceiveEndOfPartition(t, e)
    \/ SinkProgress

Next ==
    \/ Progress
    \/ \E c \in CheckpointIds : TriggerCheckpoint(c) \/ AbortCheckpoint(c)
    \/ FailAndRestore
    \/ Terminating

Spec == Init /\ [][Next]_vars

\* Weak fairness on progress as a whole suffices: every progress step shrinks a finite
\* measure (records to read, messages in channels, barriers to inject), so a fair
\* behaviour ends where no progress step is enabled.  With TransactionalSink the
\* coordinator must also trigger the final checkpoint when it is due (never enabled
\* with the option off).
FairSpec == Spec /\ WF_vars(Progress) /\ WF_vars(TriggerFinalCheckpoint)

-----------------------------------------------------------------------------
\* Aligned checkpoints persist no channel state: the cut lies exactly at the barriers.
AlignedNoChannelStateInv ==
    \A c \in CheckpointIds, e \in Edges : snapChan[c][e] = <<>>

=============================================================================
Models and TLC figures: MCAlignedCheckpoint.tla (after its ====).
