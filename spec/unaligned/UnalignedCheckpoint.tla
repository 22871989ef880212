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
(* At most one checkpoint is in flight at a time, as in Flink; with the   *)
(* lifecycle the next one may start while the barriers of an               *)
(* aborted one still travel: its barrier overtakes them and they are       *)
(* dropped as obsolete; an abort stops the persisting for the abandoned    *)
(* checkpoint; an ended input counts as arrived.                           *)
(*                                                                         *)
(* Place in the whole: EXTENDS the shared Dataflow and CutInvariants;      *)
(* MCUnalignedCheckpoint.tla gives the topologies, the bounds and the bad  *)
(* definitions its bug models substitute for SaveOvertaken, Persisting and *)
(* CountsFor.  Its aligned counterpart is AlignedCheckpoint.tla.           *)
(*                                                                         *)
(* Persisted channel state of an edge e in checkpoint c, in FIFO order:    *)
(* first what the receiver took from e after its own snapshot and before   *)
(* e's barrier (the receiver-side part), then what the barrier overtook    *)
(* when the sender put it at e's head (the sender-side part).  Recovery    *)
(* puts the sequence back into e ahead of any new record.                  *)
(*                                                                         *)
(* The barrier in flight (BarrierInFlight).  In Flink a channel is the     *)
(* sender's subpartition, the network and the receiver's input channel;    *)
(* the priority barrier overtakes what is still in the subpartition (the   *)
(* sender persists it as output channel state), not the records already    *)
(* past it, which the receiver may process before the barrier reaches it.  *)
(* Here a barrier is put at the channel's head and overtakes every record  *)
(* queued there; which of them were already past the sender is decided     *)
(* when the receiver takes them: ProcessRecordPastBarrier takes the first  *)
(* record behind the priority lane, ahead of the barriers there, while the *)
(* receiver has not reached their checkpoint and if it is the first record *)
(* they persisted sender-side (so it was sent before them); it leaves      *)
(* their channel state, and the receiver counts it before its snapshot.    *)
(* The records it has not taken so when it reaches the checkpoint stay     *)
(* channel state, as Flink's receiver spills the buffers queued in a       *)
(* channel whose barrier has not arrived when its checkpoint starts.  The  *)
(* lane stays at the channel's head (BarrierOvertakesInv holds) and no     *)
(* other step changes; with BarrierInFlight FALSE (the engine's barrier,   *)
(* and every model that does not set it) the step is never taken.  Flink:  *)
(* PipelinedSubpartition#processPriorityBuffer (the buffers behind the     *)
(* priority elements are written as output channel state),                 *)
(* RemoteInputChannel#checkpointStarted ("spills all queued buffers on     *)
(* checkpoint start"), ChannelStatePersister.                              *)
(*                                                                         *)
(* The final barrier of an ended source (EndedSourceBarriers).  A source   *)
(* that has read its whole log sends end of partition, which stands for    *)
(* the barrier of every checkpoint it has not injected.  In Flink the      *)
(* source task runs on after its end of data until its final checkpoint    *)
(* completes (FLIP-147), and that checkpoint's barrier, unaligned,         *)
(* overtakes the last records and the end of data still in its             *)
(* subpartition: InjectBarrierAfterEnd, never taken with the option FALSE. *)
(***************************************************************************)
EXTENDS Dataflow, CutInvariants

\* Whether a barrier of checkpoint b marks its input as arrived for the checkpoint h the
\* task handles: only a barrier of h itself does.
CountsFor(b, h) == b = h

\* At most one unaligned checkpoint is in flight at a time, as in Flink.
ASSUME MaxConcurrent = 1

\* The inputs whose records t persists now: while it handles a checkpoint, those whose
\* barrier has not arrived yet (an ended input delivers no more records).
Persisting(t) == IF handling[t] = 0 THEN {} ELSE InputsOf(t) \ arrived[t]

\* Given arrived inputs a and ended inputs x, t has c's barrier on every input.
AllArrived(t, a, x) == ArrivedWithEnded(a, x) = InputsOf(t)

\* The priority lane at the head of q (Flink's priority events, the engine's Channel priority
\* lane): the barriers and cancellation barriers ahead of the first record or end of partition.
\* Only unaligned barriers and cancellations travel there, so the lane is exactly that run.
IsPriority(m) == IsBarrier(m) \/ IsCancelBarrier(m)
LaneLen(q) == IF \A j \in DOMAIN q : IsPriority(q[j]) THEN Len(q)
              ELSE (CHOOSE j \in DOMAIN q : ~IsPriority(q[j]) /\ \A k \in 1..(j - 1) : IsPriority(q[k])) - 1
\* Message m joins the priority lane of every channel in es (ch: the channels before): ahead of
\* every record, behind the barriers and cancellations already in the lane, which are FIFO among
\* themselves as in Flink.  Without the lifecycle the lane is empty whenever a barrier is sent
\* (the next checkpoint starts once every barrier of the last one has been taken), so this is
\* EnqueueAhead; with it, a newer barrier queues behind a still travelling barrier or
\* cancellation of an aborted checkpoint (trace validation of the engine showed the difference).
EnqueuePriority(ch, es, m) ==
    LET rest == [d \in DOMAIN ch |-> SubSeq(ch[d], LaneLen(ch[d]) + 1, Len(ch[d]))]
        ahead == EnqueueAhead(rest, es, m)
    IN [d \in DOMAIN ch |-> SubSeq(ch[d], 1, LaneLen(ch[d])) \o ahead[d]]
\* Barrier c goes to the priority lane of every output of node n (ch: the channels before).
Overtake(ch, n, c) == EnqueuePriority(ch, OutputsOf(n), [ckpt |-> c])
\* The records queued in channel e of ch, which a barrier put at e's head overtakes (an
\* older barrier or a cancellation barrier it overtakes is no data).
Overtaken(ch, e) == SelectSeq(ch[e], IsRecord)
\* snapChan with what barrier c overtook on n's outputs appended to their persisted state.
SaveOvertaken(ch, n, c) ==
    [snapChan EXCEPT ![c] = [e \in Edges |-> IF e \in OutputsOf(n)
                                              THEN snapChan[c][e] \o Overtaken(ch, e)
                                              ELSE snapChan[c][e]]]

\* Source s records its offset in the in-flight checkpoint c, puts barrier c at the head of
\* its outputs, persists the records it overtook, and acknowledges c.
\* Implemented by SourceTask.injectBarrier(c).
InjectBarrier(s, c) ==
    /\ BarrierDue(s, c)
    /\ snapOffset' = [snapOffset EXCEPT ![c][s] = RecordedOffset(s)]
    /\ chan' = Overtake(chan, s, c)
    /\ snapChan' = SaveOvertaken(chan, s, c)
    /\ current' = [current EXCEPT ![s] = c]
    /\ Acknowledge(s, c)
    /\ UNCHANGED <<sourceVars, operatorVars, ckpt, snapProcessed, latest, discardedUpTo, failures,
                   endedInputs, endedSources, sinkVars>>

\* Whether a source that has sent its end of partition still injects barriers while that end
\* of partition is queued (the module comment, "The final barrier of an ended source"):
\* FALSE, the engine's sources; a model sets it with `EndedSourceBarriers <- InFlightOn`.
EndedSourceBarriers == FALSE

\* Source s has sent its end of partition, which SendEndOfPartition let stand for the barrier
\* of every checkpoint it had not injected: k records its final offset, and s has
\* acknowledged k (TriggerCheckpoint does both for a checkpoint triggered later).  As Flink's
\* source task, which runs on after its end of data until its final checkpoint completes,
\* it still injects the barrier of pending checkpoint k, into the priority lane of the
\* outputs where its end of partition is still queued (where it was taken, the input has
\* ended: no barrier needed).  The barrier overtakes its last records there and the end of
\* partition; the records are persisted as channel state, as InjectBarrier's.  Not in the
\* engine (EndedSourceBarriers is FALSE there); Flink: StreamTask#endData, then #afterInvoke
\* waits for the final checkpoint (FLIP-147); in a Flink trace, hidden (TraceFlinkUnaligned).
InjectBarrierAfterEnd(s, k) ==
    LET es == {e \in OutputsOf(s) : \E j \in 1..Len(chan[e]) : IsEndOfPartition(chan[e][j])} IN
    /\ EndedSourceBarriers
    /\ s \in endedSources
    /\ es # {}
    /\ ckpt[k] = "pending" /\ k > current[s]
    /\ chan' = EnqueuePriority(chan, es, [ckpt |-> k])
    /\ snapChan' = SaveOvertaken(chan, s, k)  \* (the other outputs hold nothing to overtake)
    /\ current' = [current EXCEPT ![s] = k]
    /\ UNCHANGED <<sourceVars, operatorVars, ckpt, acked, snapOffset, snapProcessed, latest,
                   discardedUpTo, failures, endedInputs, endedSources, sinkVars>>

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
    /\ SinkWrite(t, r)
    /\ snapChan' = IF e \in Persisting(t)
                     THEN [snapChan EXCEPT ![handling[t]][e] = Append(@, r)]
                     ELSE snapChan
    /\ UNCHANGED <<sourceVars, handling, arrived, ckpt, acked, snapOffset, snapProcessed,
                   latest, discardedUpTo, failures, lifecycleVars>>

\* Whether a barrier may be in flight, with records already past its sender ahead of it (the
\* module comment, "The barrier in flight"): FALSE, the engine's barrier; a model sets it with
\* `BarrierInFlight <- InFlightOn` (MCUnalignedCheckpoint.tla), the Flink trace module too.
BarrierInFlight == FALSE

\* The checkpoints of the barriers in the priority lane at the head of q.
LaneCheckpoints(q) == {q[j].ckpt : j \in {j \in 1..LaneLen(q) : IsBarrier(q[j])}}
\* Record r, the first behind the priority lane of input e, was sent before the lane's first
\* barrier, of checkpoint c: it is the first record that barrier persisted as e's sender-side
\* part of c.  The later barriers in the lane persisted it too (they overtook what it did).
SentBeforeBarrier(e, c, r) == snapChan[c][e] # <<>> /\ Head(snapChan[c][e]) = r
\* snapChan with record r, taken from e ahead of the priority lane whose barriers are of the
\* checkpoints in lane, out of their channel state on e (it was the first record of each).
\* Nothing is persisted receiver-side: t handles no checkpoint, or one older than the lane's,
\* which is then aborted (one checkpoint is in flight at a time, and t has not acknowledged
\* it), so its channel state is never restored.
LeaveAhead(e, lane) ==
    [d \in CheckpointIds |-> IF d \in lane THEN [snapChan[d] EXCEPT ![e] = SubSeq(@, 2, Len(@))]
                                          ELSE snapChan[d]]

\* Operator t takes the first record r behind the priority lane at the head of input e, ahead
\* of the barriers there: r was already past its sender (Flink: in the network or t's input
\* channel) when they were sent.  Only while t has not reached the checkpoint of the lane's
\* first barrier (nor so any later one), and only a record that barrier persisted first
\* (SentBeforeBarrier: a record sent after it must stay behind it).  r leaves the channel
\* state of every barrier in the lane (LeaveAhead) and t counts it before its snapshot of
\* them, so the cut is the same as if the barriers had been put behind r.  Not in the engine
\* (BarrierInFlight is FALSE there); in a Flink trace, a ProcessRecord event.
ProcessRecordPastBarrier(t, e) ==
    LET q == chan[e]
        k == LaneLen(q)
        r == q[k + 1]
    IN
    /\ BarrierInFlight
    /\ q # <<>>
    /\ IsBarrier(q[1]) /\ q[1].ckpt > current[t]
    /\ k < Len(q) /\ IsRecord(r)
    /\ SentBeforeBarrier(e, q[1].ckpt, r)
    /\ HasRoom(t, r)
    /\ chan' = Enqueue([chan EXCEPT ![e] = SubSeq(q, 1, k) \o SubSeq(q, k + 2, Len(q))], RouteOf(t, r), r)
    /\ processed' = [processed EXCEPT ![t] = @ (+) SetToBag({r})]
    /\ SinkWrite(t, r)
    /\ snapChan' = LeaveAhead(e, LaneCheckpoints(q))
    /\ UNCHANGED <<sourceVars, handling, arrived, ckpt, acked, snapOffset, snapProcessed,
                   latest, discardedUpTo, failures, lifecycleVars>>

\* Operator t, handling checkpoint k with arrived inputs a (ended inputs x): on every
\* input, it acknowledges k and stops handling it; else it goes on, persisting the rest.
Arrive(t, k, a, x) ==
    IF AllArrived(t, a, x)
      THEN /\ handling' = [handling EXCEPT ![t] = 0]
           /\ arrived' = [arrived EXCEPT ![t] = {}]
           /\ Acknowledge(t, k)
      ELSE /\ handling' = [handling EXCEPT ![t] = k]
           /\ arrived' = [arrived EXCEPT ![t] = a]
           /\ UNCHANGED acked

\* Operator t takes barrier c from input e.
\* - c counts for the checkpoint h that t handles (CountsFor: c = h): e has arrived; on
\*   the last input t acknowledges h.
\* - c is newer than every checkpoint t has seen: t snapshots and forwards c at once to the
\*   head of its outputs (persisting what c overtook there), with e arrived; if it handled
\*   an older one, c subsumes it: t abandons it (stops persisting for it) and forwards a
\*   cancellation barrier of it (in the priority lane, ahead of c).  A single-input task
\*   also acknowledges c in this step.  A transactional sink pre-commits its transaction in
\*   this snapshot (SinkSnapshot): what it takes later from inputs whose barrier is still to
\*   come goes into the next transaction (and into c's channel state).
\* - otherwise c is obsolete at t: dropped.  This is where FLINK-20654 was: an obsolete
\*   barrier of a cancelled checkpoint must not touch the persisting of the current one.
\* Implemented by OperatorTask.receiveBarrier(e).
ReceiveBarrier(t, e) ==
    LET c == Head(chan[e]).ckpt
        h == handling[t]
        taken == [chan EXCEPT ![e] = Tail(@)]
        cancelled == IF h # 0 THEN EnqueuePriority(taken, OutputsOf(t), CancelBarrier(h)) ELSE taken
    IN
    /\ chan[e] # <<>>
    /\ IsBarrier(Head(chan[e]))
    /\ CASE h # 0 /\ CountsFor(c, h) ->
              /\ chan' = taken
              /\ Arrive(t, h, arrived[t] \cup {e}, endedInputs[t])
              /\ UNCHANGED <<snapProcessed, snapChan, current, sinkVars>>
         [] c > current[t] ->
              /\ snapProcessed' = [snapProcessed EXCEPT ![c][t] = processed[t]]
              /\ chan' = Overtake(cancelled, t, c)
              /\ snapChan' = SaveOvertaken(cancelled, t, c)
              /\ current' = [current EXCEPT ![t] = c]
              /\ Arrive(t, c, {e}, endedInputs[t])
              /\ SinkSnapshot({t}, {c})
         [] OTHER ->
              /\ chan' = taken
              /\ UNCHANGED <<handling, arrived, current, snapProcessed, snapChan, acked, sinkVars>>
    /\ UNCHANGED <<sourceVars, processed, ckpt, snapOffset, latest, discardedUpTo, failures,
                   endedInputs, endedSources>>

\* Operator t learns that c is aborted, with the channels ch before: it abandons the
\* checkpoint it handles (c, or an older one), stops persisting for it, goes past c (later
\* barriers of c are obsolete) and forwards a cancellation barrier of c in the priority lane
\* (Flink sends its CancelCheckpointMarker as a priority event in unaligned mode).
Abandon(t, c, ch) ==
    /\ current' = [current EXCEPT ![t] = c]
    /\ handling' = [handling EXCEPT ![t] = 0]
    /\ arrived' = [arrived EXCEPT ![t] = {}]
    /\ chan' = EnqueuePriority(ch, OutputsOf(t), CancelBarrier(c))

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

\* Operator t takes a cancellation barrier of c from input e: if t has not gone past c it
\* abandons c (or the older checkpoint it handles) as on a notification, forwarding the
\* cancellation once; otherwise the cancellation is dropped.
\* Implemented by OperatorTask.receiveCancelBarrier(e).
ReceiveCancelBarrier(t, e) ==
    LET c == Head(chan[e]).cancel
        taken == [chan EXCEPT ![e] = Tail(@)]
    IN
    /\ chan[e] # <<>>
    /\ IsCancelBarrier(Head(chan[e]))
    /\ IF c > current[t] \/ (c = handling[t] /\ c # 0)
         THEN Abandon(t, c, taken)
         ELSE /\ chan' = taken
              /\ UNCHANGED <<handling, arrived, current>>
    /\ UNCHANGED <<sourceVars, processed, coordinatorVars, failures, endedInputs,
                   endedSources, sinkVars>>

\* Operator t takes end of partition from input e: e has ended and counts as arrived for
\* the checkpoint t handles and every later one; if that was the last input of the
\* checkpoint t handles, t acknowledges it.  If every input has ended, t ends: the live
\* checkpoints it has not reached record its final state, and it forwards end of
\* partition on its outputs (behind everything it sent).
\* Implemented by OperatorTask.receiveEndOfPartition(e).
ReceiveEndOfPartition(t, e) ==
    LET x == endedInputs[t] \cup {e}
        taken == [chan EXCEPT ![e] = Tail(@)]
        h == handling[t]
        \* the checkpoint t handles has now arrived on every input
        done == h # 0 /\ AllArrived(t, arrived[t], x)
        ak1 == IF done THEN [acked EXCEPT ![h] = @ \cup {t}] ELSE acked
        ends == x = InputsOf(t)
        \* the checkpoints t snapshots in this step, its final state (a sink pre-commits)
        snaps == IF ends THEN {d \in CheckpointIds : Live(d) /\ d > current[t]} ELSE {}
    IN
    /\ chan[e] # <<>>
    /\ IsEndOfPartition(Head(chan[e]))
    /\ endedInputs' = [endedInputs EXCEPT ![t] = x]
    /\ chan' = IF ends THEN Enqueue(taken, OutputsOf(t), EndOfPartition) ELSE taken
    /\ snapProcessed' = IF ends THEN FinalSnapshot(snapProcessed, t, current[t]) ELSE snapProcessed
    /\ acked' = IF ends THEN FinalAck(ak1, t, current[t]) ELSE ak1
    /\ SinkSnapshot({t}, snaps)
    /\ IF done
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
    \/ BarrierInFlight /\ \E t \in Operators : \E e \in InputsOf(t) : ProcessRecordPastBarrier(t, e)
    \/ EndedSourceBarriers /\ \E s \in Sources, k \in CheckpointIds : InjectBarrierAfterEnd(s, k)

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
(* The barrier in flight.                                                  *)

\* The sender-side part that a barrier in a priority lane persisted, of a checkpoint the
\* receiver has not reached, is the first records queued behind the lane, in order.  (It
\* overtook them, and since then only records taken ahead of it have left.)  This is what
\* makes ProcessRecordPastBarrier sound: the record it takes is the first of every such
\* part, and the rest stays channel state in FIFO order.
InFlightPartsInv ==
    \A e \in Edges : \A j \in 1..LaneLen(chan[e]) :
        IsBarrier(chan[e][j]) /\ chan[e][j].ckpt > current[e[2]] =>
            LET part == snapChan[chan[e][j].ckpt][e]
                queued == SelectSeq(chan[e], IsRecord)
            IN Len(part) <= Len(queued) /\ part = SubSeq(queued, 1, Len(part))

-----------------------------------------------------------------------------
(* The cost duals.                                                         *)

\* An unaligned task never blocks an input: whatever heads an input can be taken now,
\* unless it is a record whose routes are full (backpressure, which every protocol has).
UnalignedNeverBlocksInv ==
    \A t \in Operators : \A e \in InputsOf(t) :
        Takeable(t, e) => ENABLED (\/ ProcessRecord(t, e) \/ ReceiveBarrier(t, e)
                                   \/ ReceiveCancelBarrier(t, e) \/ ReceiveEndOfPartition(t, e))

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
Models and TLC figures: MCUnalignedCheckpoint.tla (after its ====).
