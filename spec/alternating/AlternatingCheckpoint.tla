------------------------- MODULE AlternatingCheckpoint -------------------------
(***************************************************************************)
(* Aligned checkpoints with an alignment timeout that switch to unaligned  *)
(* (Flink's alternating mode: execution.checkpointing.aligned-checkpoint-  *)
(* timeout, FLIP-76, FLINK-23041).  A checkpoint starts aligned: sources   *)
(* append an aligned barrier behind their records and a task blocks the    *)
(* inputs whose barrier arrived, as in AlignedCheckpoint.tla.  When the    *)
(* alignment takes too long, TimeoutAlignment(t, c) fires (an event, not a *)
(* clock) and task t switches c to unaligned:                              *)
(*   - active timeout (t aligns c): t snapshots at once, forwards c as an  *)
(*     overtaking barrier at the head of its outputs (persisting the       *)
(*     records it overtakes there, as UnalignedCheckpoint.tla), unblocks   *)
(*     its inputs, and prioritizes the barriers of c queued on the inputs  *)
(*     still pending: each jumps to the head of its channel, the records   *)
(*     it jumps over persisted as that channel's state (Flink's            *)
(*     prioritizeAllAnnouncements).  From then on t persists every record  *)
(*     it takes from a pending input (its barrier not queued yet), and a   *)
(*     barrier of c queued later is prioritized too (PrioritizeBarrier):   *)
(*     exactly the records ahead of c's barrier on those inputs are        *)
(*     persisted, and t never waits for a barrier behind a backlog.  The   *)
(*     blocked inputs' records lie behind their barrier: outside the cut,  *)
(*     never persisted.                                                    *)
(*   - passive timeout (t has not seen c, but c's barrier is queued on an  *)
(*     input: Flink's barrier announcement): every barrier of c queued on  *)
(*     t's inputs is prioritised, i.e. jumps to the head of its channel as *)
(*     an overtaking barrier, and the records it jumped over are persisted *)
(*     as that channel's state; t then handles c unaligned when it takes   *)
(*     the first barrier of c (a barrier of c queued meanwhile is          *)
(*     prioritized as it comes, PrioritizeBarrier).  This is why a barrier *)
(*     stuck in a channel counts towards the timeout (FLINK-27251).        *)
(* A task that receives an overtaking barrier of c handles c unaligned     *)
(* from then on (switching too, if it was aligning c): this is how the     *)
(* switch propagates downstream without any message but the barrier.      *)
(* Savepoints (the constant Savepoints) are forced-aligned: they never     *)
(* switch and hold no channel state (FLINK-33693 was a savepoint that      *)
(* switched).                                                              *)
(*                                                                         *)
(* The handler states of a task t, one per combination of the variables,   *)
(* as Flink's runtime/io/checkpointing has one class per state:            *)
(*   handling[t] = 0, unalignedAt[t] = 0:  AlternatingWaitingForFirstBarrier *)
(*   handling[t] = 0, unalignedAt[t] = c:  AlternatingWaitingForFirstBarrierUnaligned *)
(*   handling[t] = c, unalignedAt[t] # c:  AlternatingCollectingBarriers   *)
(*   handling[t] = c, unalignedAt[t] = c:  AlternatingCollectingBarriersUnaligned *)
(*                                                                         *)
(* The lifecycle as in the other two protocols: aborts reach the           *)
(* tasks (a switched checkpoint is abandoned like any other), subsumption, *)
(* obsolete barriers dropped, ended inputs count as arrived.  At most one  *)
(* checkpoint is in flight at a time, as in Flink (unaligned checkpoints   *)
(* need it; so does the prioritisation, which would otherwise reorder the  *)
(* barriers of two checkpoints).                                           *)
(*                                                                         *)
(* Flink's barriers: two options, FALSE here (the engine's barriers, and   *)
(* every model that does not set them), as in UnalignedCheckpoint.tla: the *)
(* barrier in flight (BarrierInFlight, ProcessRecordPastBarrier beside     *)
(* ProcessRecord) and the final barrier of an ended source                 *)
(* (EndedSourceBarriers, InjectBarrierAfterEnd beside InjectBarrier).      *)
(* Each adds one step, a disjunct of Progress guarded by the option, and   *)
(* no other step changes, so a model with the options off checks exactly   *)
(* what it did before.  A Flink trace turns both on                        *)
(* (TraceFlinkAlternating.cfg), a model with `... <- InFlightOn`           *)
(* (MCAlternatingCheckpoint.tla).                                          *)
(*                                                                         *)
(* Place in the whole: EXTENDS the shared Dataflow and CutInvariants (the  *)
(* barrier's aligned field is declared in Dataflow's Barriers);            *)
(* MCAlternatingCheckpoint.tla gives the models and the bad definitions   *)
(* its bug models substitute.  Java: BarrierMode alternating (--mode       *)
(* alternating --aligned-timeout-ms N), OperatorTask.timeoutAlignment(c).  *)
(***************************************************************************)
EXTENDS Dataflow, CutInvariants

CONSTANT
    Savepoints            \* the checkpoint ids that are savepoints (forced aligned)

ASSUME /\ Savepoints \subseteq CheckpointIds
       /\ MaxConcurrent = 1

VARIABLES
    unalignedAt, \* unalignedAt[t]: the checkpoint operator t handles unaligned, or (after a
                 \* passive timeout) will handle unaligned when its first barrier comes; 0 if
                 \* none.  Implemented by the handler state of OperatorTask.
    switchedAt   \* switchedAt[c]: the operators that have handled c unaligned (by a timeout
                 \* or an overtaking barrier): history, read by the invariants only

alternatingVars == <<unalignedAt, switchedAt>>
allVars == <<vars, alternatingVars>>

\* The barriers of this protocol: c starts aligned; a switched c travels overtaking.
AlignedBarrier(c) == [ckpt |-> c, aligned |-> TRUE]
OvertakingBarrier(c) == [ckpt |-> c, aligned |-> FALSE]
IsBarrierOf(m, c) == IsBarrier(m) /\ m.ckpt = c

\* A checkpoint has switched: some task handled it unaligned.
Switched(c) == switchedAt[c] # {}

\* Given a task's inputs and those whose barrier arrived, once the task handles a checkpoint
\* unaligned: the inputs whose records it persists as it takes them, those still waiting for
\* the barrier (their records are ahead of it, inside the cut).
SwitchPersistFrom(inputs, barrierArrived) == inputs \ barrierArrived

\* Whether checkpoint c may switch to unaligned on a timeout: a savepoint is forced aligned.
MaySwitch(c) == c \notin Savepoints

\* Whether the receiver of barrier message b handles its checkpoint unaligned because of it:
\* an overtaking (unaligned) barrier makes it do so.
HonoursOvertaking(b) == ~b.aligned

\* Task t handles the checkpoint it handles unaligned (AlternatingCollectingBarriersUnaligned).
HandlesUnaligned(t) == handling[t] # 0 /\ unalignedAt[t] = handling[t]

\* The inputs of t that t does not read now: aligning, those whose barrier arrived; unaligned
\* (after the switch), none.
Blocked(t) == IF HandlesUnaligned(t) THEN {} ELSE arrived[t]

\* The inputs whose records t persists now: handling unaligned, those whose barrier of the
\* checkpoint has not arrived yet (the records still ahead of it, inside the cut).
Persisting(t) == IF HandlesUnaligned(t) THEN SwitchPersistFrom(InputsOf(t), arrived[t]) ELSE {}

\* Given arrived inputs a and ended inputs x, t has the barrier of its checkpoint on every input.
AllArrived(t, a, x) == ArrivedWithEnded(a, x) = InputsOf(t)

\* What unalignedAt[t] becomes when t goes past checkpoint c without handling it unaligned:
\* a passive timeout of a newer checkpoint is kept, an older one is forgotten.
UnalignedAfter(t, c) == IF unalignedAt[t] > c THEN unalignedAt[t] ELSE 0

\* Barrier c, overtaking, goes to the head of every output of node n (ch: the channels before).
Overtake(ch, n, c) == EnqueueAhead(ch, OutputsOf(n), OvertakingBarrier(c))
\* snapChan with what barrier c overtook on n's outputs appended to their persisted state
\* (records only: an older barrier or a cancellation barrier overtaken is no data).
SaveOvertaken(ch, n, c) ==
    [snapChan EXCEPT ![c] = [e \in Edges |-> IF e \in OutputsOf(n)
                                              THEN snapChan[c][e] \o SelectSeq(ch[e], IsRecord)
                                              ELSE snapChan[c][e]]]

\* Queue q with its barrier of c (if any) moved to the head as an overtaking barrier: the
\* prioritized (announced) barrier overtakes what was queued ahead of it.
PrioritizedOn(q, c) ==
    IF \E k \in 1..Len(q) : IsBarrierOf(q[k], c)
      THEN <<OvertakingBarrier(c)>> \o SelectSeq(q, LAMBDA m : ~IsBarrierOf(m, c))
      ELSE q
\* The channels ch with every barrier of c queued on an input of t prioritized (Flink:
\* ChannelState.prioritizeAllAnnouncements).
PrioritizedIn(ch, t, c) ==
    [e \in Edges |-> IF e \in InputsOf(t) THEN PrioritizedOn(ch[e], c) ELSE ch[e]]
Prioritized(t, c) == PrioritizedIn(chan, t, c)
\* The records ahead of c's barrier in queue q: what the prioritized barrier jumps over (none
\* if no barrier of c is queued).
AheadOfBarrierIn(q, c) ==
    LET at == {k \in 1..Len(q) : IsBarrierOf(q[k], c)}
    IN IF at = {} THEN <<>>
       ELSE LET k == CHOOSE k \in at : TRUE IN SelectSeq(SubSeq(q, 1, k - 1), IsRecord)
AheadOfBarrier(e, c) == AheadOfBarrierIn(chan[e], c)
\* snapChan-like sc with, on every input of t in p (the inputs whose records t persists,
\* SwitchPersistFrom), what c's prioritized barrier jumps over in the channels ch appended to
\* c's persisted state of that input.
SavePrioritized(sc, ch, t, c, p) ==
    [sc EXCEPT ![c] = [e \in Edges |-> IF e \in InputsOf(t) /\ e \in p
                                        THEN sc[c][e] \o AheadOfBarrierIn(ch[e], c)
                                        ELSE sc[c][e]]]

-----------------------------------------------------------------------------
(* The steps of a source.                                                  *)

\* Source s records its offset in the in-flight checkpoint c, appends an aligned barrier c
\* behind the records it has sent, and acknowledges c (every checkpoint starts aligned).
\* Implemented by SourceTask.injectBarrier(c).
InjectBarrier(s, c) ==
    /\ BarrierDue(s, c)
    /\ snapOffset' = [snapOffset EXCEPT ![c][s] = RecordedOffset(s)]
    /\ chan' = Enqueue(chan, OutputsOf(s), AlignedBarrier(c))
    /\ current' = [current EXCEPT ![s] = c]
    /\ Acknowledge(s, c)
    /\ UNCHANGED <<sourceVars, operatorVars, ckpt, snapProcessed, snapChan, latest,
                   discardedUpTo, failures, endedInputs, endedSources, sinkVars, alternatingVars>>

(* The final barrier of an ended source (EndedSourceBarriers).  A source   *)
(* that has read its whole log sends end of partition, which stands for    *)
(* the barrier of every checkpoint it has not injected (SendEndOfPartition *)
(* records its final offset in them).  In Flink the source task runs on    *)
(* after its end of data until its final checkpoint completes (FLIP-147)   *)
(* and broadcasts that checkpoint's barrier, aligned with a timeout as     *)
(* every barrier of this mode, behind its last records; a timeout may then *)
(* let it overtake them, at the receiver (the announced barrier converted  *)
(* to a priority event) or in the source's own subpartition                *)
(* (PipelinedSubpartition#alignedBarrierTimeout, FLINK-27251).             *)
(* InjectBarrierAfterEnd puts that aligned barrier ahead of the end of     *)
(* partition where records are still queued before it; the timeout steps   *)
(* as they are (TimeoutAlignment's passive branch, Switch,                 *)
(* PrioritizeBarrier) let it jump over them, persisted as channel state.   *)
(* Without it a receiver of an ended source could snapshot only after its  *)
(* last records, at the end of partition.                                  *)

\* Whether a source that has sent its end of partition still injects a pending checkpoint's
\* barrier while records are queued ahead of that end of partition (the comment above): FALSE,
\* the engine's sources; set as BarrierInFlight.
EndedSourceBarriers == FALSE

\* Queue q, whose last message is an end of partition, with message m put just ahead of it.
AheadOfEnd(q, m) == SubSeq(q, 1, Len(q) - 1) \o <<m, q[Len(q)]>>

\* Source s has sent its end of partition, which SendEndOfPartition let stand for the barrier
\* of every checkpoint it had not injected: pending checkpoint k has s's final offset, and s
\* has acknowledged it (TriggerCheckpoint does both for a checkpoint triggered later).  As
\* Flink's source task, which runs on after its end of data until its final checkpoint
\* completes, it still sends k's aligned barrier, behind its last records and ahead of the end
\* of partition, on the outputs where those are still queued (elsewhere the end of partition
\* stands for it as before).  A timeout may then let the barrier jump over the records (the
\* comment above).  Not in the engine (EndedSourceBarriers is FALSE there); Flink:
\* StreamTask#endData, then #afterInvoke waits for the final checkpoint (FLIP-147); in a Flink
\* trace, hidden (TraceFlinkAlternating.tla).
InjectBarrierAfterEnd(s, k) ==
    LET es == {e \in OutputsOf(s) : /\ chan[e] # <<>>
                                    /\ IsEndOfPartition(chan[e][Len(chan[e])])
                                    /\ \E j \in 1..Len(chan[e]) : IsRecord(chan[e][j])}
    IN
    /\ EndedSourceBarriers
    /\ s \in endedSources
    /\ es # {}
    /\ ckpt[k] = "pending" /\ k > current[s]
    /\ chan' = [e \in DOMAIN chan |-> IF e \in es THEN AheadOfEnd(chan[e], AlignedBarrier(k)) ELSE chan[e]]
    /\ current' = [current EXCEPT ![s] = k]
    /\ UNCHANGED <<sourceVars, operatorVars, ckpt, acked, snapOffset, snapProcessed, snapChan,
                   latest, discardedUpTo, failures, endedInputs, endedSources, sinkVars,
                   alternatingVars>>

-----------------------------------------------------------------------------
(* The steps of an operator.                                               *)

\* Operator t takes the record at the head of an unblocked input e, counts it and sends it
\* on; handling a checkpoint unaligned while e's barrier is still to come, it also persists
\* the record as e's channel state.
\* Implemented by OperatorTask.processRecord(e).
ProcessRecord(t, e) ==
    LET r == Head(chan[e]) IN
    /\ chan[e] # <<>>
    /\ IsRecord(r)
    /\ e \notin Blocked(t)
    /\ HasRoom(t, r)
    /\ chan' = Enqueue([chan EXCEPT ![e] = Tail(@)], RouteOf(t, r), r)
    /\ processed' = [processed EXCEPT ![t] = @ (+) SetToBag({r})]
    /\ snapChan' = IF e \in Persisting(t)
                     THEN [snapChan EXCEPT ![handling[t]][e] = Append(@, r)]
                     ELSE snapChan
    /\ SinkWrite(t, r)
    /\ UNCHANGED <<sourceVars, handling, arrived, ckpt, acked, snapOffset, snapProcessed,
                   latest, discardedUpTo, failures, lifecycleVars, alternatingVars>>

(* The barrier in flight (BarrierInFlight).  A task that switches puts its *)
(* overtaking barrier at the head of its outputs, and it overtakes every   *)
(* record queued there (Switch, the sender-side part of the channel        *)
(* state).  In Flink a channel is the sender's subpartition, the network   *)
(* and the receiver's input channel; the barrier, a priority event,        *)
(* overtakes what is still in the subpartition (written as output channel  *)
(* state), not the records already past it, which the receiver may take    *)
(* before the barrier reaches it.  Which of the overtaken records were     *)
(* past the sender is decided when the receiver takes them:                *)
(* ProcessRecordPastBarrier takes the record right behind an overtaking    *)
(* barrier at the head of a channel, ahead of it, while the receiver has   *)
(* not taken its snapshot of the barrier's checkpoint and if the barrier   *)
(* persisted that record first; it leaves the channel state, and the       *)
(* receiver counts it before its snapshot, as if the barrier had been put  *)
(* behind it.  The records it does not take so stay channel state, as      *)
(* Flink's receiver spills the buffers queued in an input channel when the *)
(* priority barrier reaches it.  A barrier the receiver prioritized        *)
(* (TimeoutAlignment, PrioritizeBarrier) needs no such step: Flink         *)
(* converts the barrier where it is queued, and the timeout, a step no     *)
(* task's output shows, may come after the records in flight were taken.   *)
(* Flink: PipelinedSubpartition#processPriorityBuffer (the buffers behind  *)
(* a priority event are written as output channel state),                  *)
(* RemoteInputChannel#checkpointStarted (spills the queued buffers),       *)
(* ChannelStatePersister.                                                  *)

\* Whether a switched checkpoint's overtaking barrier may be in flight, with records already
\* past its sender ahead of it (the comment above): FALSE, the engine's barrier; a model sets
\* it with `BarrierInFlight <- InFlightOn`, the Flink trace module with
\* `BarrierInFlight <- TraceFlinkBarriers`.
BarrierInFlight == FALSE

\* Operator t has not taken its snapshot of checkpoint k: it has not seen k, or it aligns k
\* (an aligned task snapshots when the alignment ends, a switched one at the switch).
BeforeSnapshotOf(t, k) == k > current[t] \/ (handling[t] = k /\ ~HandlesUnaligned(t))

\* Record r, right behind the overtaking barrier of checkpoint k at the head of e, was sent
\* before that barrier: it is the first record of k's channel state on e (the barrier
\* persisted it when it overtook it; a record sent after the barrier is behind those).
SentBeforeBarrier(e, k, r) == snapChan[k][e] # <<>> /\ Head(snapChan[k][e]) = r

\* snapChan with the first record of k's channel state on e taken out: the record taken ahead
\* of k's barrier on e (ProcessRecordPastBarrier).
LeavePersisted(e, k) == [snapChan EXCEPT ![k][e] = SubSeq(@, 2, Len(@))]

\* Operator t takes the record r right behind the overtaking barrier of pending checkpoint k
\* at the head of its unblocked input e, ahead of the barrier: r was already past the sender
\* (Flink: in the network or t's input channel) when the sender switched.  Only while t has
\* not taken its snapshot of k (BeforeSnapshotOf; it aligns k, or has not seen it), and only a
\* record the barrier persisted first (SentBeforeBarrier: a record sent after the barrier
\* stays behind it).  r leaves k's channel state on e (LeavePersisted) and t counts it before
\* its snapshot of k, so the cut is the one the barrier would have made behind r.  Nothing is
\* persisted receiver-side: t does not handle k unaligned (an older checkpoint t may still
\* handle is aborted: one checkpoint is pending at a time).  Only while k is pending: an
\* aborted checkpoint's cut is never restored, and its barrier may as well be taken first.
\* Only the record right behind the barrier: a cancellation barrier or an older barrier
\* between them is taken after it.  Not in the engine (BarrierInFlight is FALSE there); in a
\* Flink trace, a ProcessRecord event (TraceFlinkAlternating.tla).
ProcessRecordPastBarrier(t, e) ==
    LET q == chan[e]
        k == q[1].ckpt
        r == q[2]
    IN
    /\ BarrierInFlight
    /\ Len(q) >= 2
    /\ IsBarrier(q[1]) /\ ~q[1].aligned
    /\ IsRecord(r)
    /\ ckpt[k] = "pending"
    /\ BeforeSnapshotOf(t, k)
    /\ e \notin Blocked(t)
    /\ SentBeforeBarrier(e, k, r)
    /\ HasRoom(t, r)
    /\ chan' = Enqueue([chan EXCEPT ![e] = <<q[1]>> \o SubSeq(q, 3, Len(q))], RouteOf(t, r), r)
    /\ processed' = [processed EXCEPT ![t] = @ (+) SetToBag({r})]
    /\ SinkWrite(t, r)
    /\ snapChan' = LeavePersisted(e, k)
    /\ UNCHANGED <<sourceVars, handling, arrived, ckpt, acked, snapOffset, snapProcessed,
                   latest, discardedUpTo, failures, lifecycleVars, alternatingVars>>

\* Operator t, aligning checkpoint k with arrived inputs a (ended inputs x), after the
\* channels ch: if every input has arrived, it snapshots, forwards an aligned barrier k
\* behind its output, unblocks every input and acknowledges k (a sink pre-commits its
\* transaction in the snapshot: SinkSnapshot); else it waits, blocking a.
Align(t, k, a, x, ch) ==
    IF AllArrived(t, a, x)
      THEN /\ snapProcessed' = [snapProcessed EXCEPT ![k][t] = processed[t]]
           /\ chan' = Enqueue(ch, OutputsOf(t), AlignedBarrier(k))
           /\ handling' = [handling EXCEPT ![t] = 0]
           /\ arrived' = [arrived EXCEPT ![t] = {}]
           /\ Acknowledge(t, k)
           /\ SinkSnapshot({t}, {k})
           /\ UNCHANGED snapChan
      ELSE /\ chan' = ch
           /\ handling' = [handling EXCEPT ![t] = k]
           /\ arrived' = [arrived EXCEPT ![t] = a]
           /\ UNCHANGED <<snapProcessed, snapChan, acked, sinkVars>>

\* Operator t, handling checkpoint k unaligned with arrived inputs a (ended inputs x): on
\* every input, it acknowledges k and stops handling it; else it goes on, persisting the rest.
Arrive(t, k, a, x) ==
    IF AllArrived(t, a, x)
      THEN /\ handling' = [handling EXCEPT ![t] = 0]
           /\ arrived' = [arrived EXCEPT ![t] = {}]
           /\ unalignedAt' = [unalignedAt EXCEPT ![t] = 0]
           /\ Acknowledge(t, k)
      ELSE /\ handling' = [handling EXCEPT ![t] = k]
           /\ arrived' = [arrived EXCEPT ![t] = a]
           /\ unalignedAt' = [unalignedAt EXCEPT ![t] = k]
           /\ UNCHANGED acked

\* The switch of operator t to unaligned for checkpoint k, after the channels ch: t snapshots
\* now and forwards k overtaking the records queued on its outputs, which it persists as
\* their channel state (the sender-side part).  On its inputs, every barrier of k already
\* queued (on an input still pending: the others delivered theirs) is prioritized: it jumps
\* to the head of its channel as an overtaking barrier and the records it jumps over are
\* persisted as that input's channel state, so a switched task never waits for a pending
\* input's barrier stuck behind a backlog.  With the arrived inputs a (ended inputs x) it
\* then handles k unaligned (Arrive): its blocked inputs are released and the records the
\* pending inputs deliver before their barrier (one not queued yet when t switched) are
\* persisted as t takes them; a barrier of k queued later is prioritized by PrioritizeBarrier.
\* Flink: AlternatingCollectingBarriers.alignmentTimeout, and an unaligned barrier while
\* collecting aligned ones (AbstractAlternatingAlignedBarrierHandlerState.barrierReceived
\* calls the same): ChannelState.prioritizeAllAnnouncements (each announced barrier
\* converted to a priority event, CheckpointableInput.convertToPriorityEvent), then the
\* barrier as unaligned, inputs told the checkpoint started, the global checkpoint triggered.
Switch(t, k, a, x, ch) ==
    /\ snapProcessed' = [snapProcessed EXCEPT ![k][t] = processed[t]]
    /\ chan' = Overtake(PrioritizedIn(ch, t, k), t, k)
    /\ snapChan' = SavePrioritized(SaveOvertaken(ch, t, k), ch, t, k, SwitchPersistFrom(InputsOf(t), a))
    /\ switchedAt' = [switchedAt EXCEPT ![k] = @ \cup {t}]
    /\ SinkSnapshot({t}, {k})
    /\ Arrive(t, k, a, x)

\* Operator t takes barrier c from an unblocked input e.  It handles c unaligned if the
\* barrier is overtaking (HonoursOvertaking: the upstream switched) or if a passive timeout
\* of c fired at t.
\* - c is the checkpoint t handles: e has arrived.  Unaligned: on the last input t
\*   acknowledges c.  Aligning and the barrier is overtaking: t switches now (Flink:
\*   AbstractAlternatingAlignedBarrierHandlerState, an unaligned barrier while collecting
\*   aligned ones; AlternatingCheckpointsTest.testSwitchToUnalignedByUpstream).  Aligning
\*   an aligned barrier: as AlignedCheckpoint.tla.
\* - c is newer than every checkpoint t has seen: t starts c, aligned or unaligned; if it
\*   handled an older one, c subsumes it (abandoned, a cancellation barrier forwarded).
\* - otherwise c is obsolete at t: dropped.
\* Implemented by OperatorTask.receiveBarrier(e).
ReceiveBarrier(t, e) ==
    LET b == Head(chan[e])
        c == b.ckpt
        h == handling[t]
        taken == [chan EXCEPT ![e] = Tail(@)]
        unaligned == HonoursOvertaking(b) \/ unalignedAt[t] = c
    IN
    /\ chan[e] # <<>>
    /\ IsBarrier(b)
    /\ e \notin Blocked(t)
    /\ CASE c = h /\ h # 0 /\ HandlesUnaligned(t) ->
              /\ chan' = taken
              /\ Arrive(t, h, arrived[t] \cup {e}, endedInputs[t])
              /\ UNCHANGED <<snapProcessed, snapChan, current, switchedAt, sinkVars>>
         [] c = h /\ h # 0 /\ unaligned ->
              /\ Switch(t, c, arrived[t] \cup {e}, endedInputs[t], taken)
              /\ UNCHANGED current
         [] c = h /\ h # 0 ->
              /\ Align(t, c, arrived[t] \cup {e}, endedInputs[t], taken)
              /\ UNCHANGED <<current, alternatingVars>>
         [] c > current[t] ->
              LET cancelled == IF h # 0 THEN Enqueue(taken, OutputsOf(t), CancelBarrier(h))
                                        ELSE taken
              IN /\ current' = [current EXCEPT ![t] = c]
                 /\ IF unaligned
                      THEN Switch(t, c, {e}, endedInputs[t], cancelled)
                      ELSE /\ Align(t, c, {e}, endedInputs[t], cancelled)
                           /\ unalignedAt' = [unalignedAt EXCEPT ![t] = UnalignedAfter(t, c)]
                           /\ UNCHANGED switchedAt
         [] OTHER ->
              /\ chan' = taken
              /\ UNCHANGED <<handling, arrived, current, snapProcessed, snapChan, acked,
                             sinkVars, alternatingVars>>
    /\ UNCHANGED <<sourceVars, processed, ckpt, snapOffset, latest, discardedUpTo, failures,
                   endedInputs, endedSources>>

\* The alignment of checkpoint c takes too long at operator t: it may switch c to unaligned
\* (an event that may or may not happen; the timer is not modelled).  Never for a savepoint
\* (MaySwitch).  The task's own timer decides, whatever the coordinator knows: a checkpoint
\* aborted meanwhile may still switch at a task that has not learnt of the abort (its barriers
\* are live: t aligns it, or one is queued at t).  So does the engine's timer, which fires
\* whether or not c is still pending at the coordinator.
\* - active: t aligns c (AlternatingCollectingBarriers): the switch (Switch), with the inputs
\*   whose barrier arrived as they are (released).
\* - passive: t has not seen c and handles no checkpoint, aligned or unaligned, but c's
\*   barrier is queued on one of its inputs (AlternatingWaitingForFirstBarrier after the
\*   announcement): the queued barriers of c jump ahead of the records on t's inputs, which
\*   are persisted as the channels' state, and t will handle c unaligned
\*   (AlternatingWaitingForFirstBarrierUnaligned).  Not while t handles an older checkpoint:
\*   its unalignedAt would be overwritten, and an older checkpoint it had switched would
\*   count as aligning again, so its next timeout would switch it twice (its records
\*   persisted twice, FifoChannelStateInv, in AlternatingAbortJoinNoSavepoint).
\* Flink: AlternatingCheckpointsTest's testTimeoutAlignment, testActiveTimeoutAlignmentOnFirstBarrier
\* (active), testPassiveTimeoutAlignmentOnAnnouncement, testTimeoutAlignmentBeforeFirstBarrier
\* (passive), testAlignedNeverTimeoutableCheckpoint (a savepoint never switches).
\* Implemented by OperatorTask.timeoutAlignment(c).
TimeoutAlignment(t, c) ==
    /\ MaySwitch(c)
    /\ \/ /\ handling[t] = c /\ ~HandlesUnaligned(t)
          /\ Switch(t, c, arrived[t], endedInputs[t], chan)
          /\ UNCHANGED current
       \/ /\ c > current[t] /\ handling[t] = 0 /\ unalignedAt[t] = 0
          /\ \E e \in InputsOf(t) : \E k \in 1..Len(chan[e]) : IsBarrierOf(chan[e][k], c)
          /\ chan' = Prioritized(t, c)
          /\ snapChan' = SavePrioritized(snapChan, chan, t, c, SwitchPersistFrom(InputsOf(t), {}))
          /\ unalignedAt' = [unalignedAt EXCEPT ![t] = c]
          /\ switchedAt' = [switchedAt EXCEPT ![c] = @ \cup {t}]
          /\ UNCHANGED <<handling, arrived, current, snapProcessed, acked, sinkVars>>
    /\ UNCHANGED <<sourceVars, processed, ckpt, snapOffset, latest, discardedUpTo, failures,
                   endedInputs, endedSources>>

\* A barrier of c queued behind records on input e of operator t, which handles c unaligned
\* (or will, after a passive timeout) and has not had c's barrier on e yet, is prioritized:
\* it jumps to the head of e as an overtaking barrier and the records it jumps over are
\* persisted as e's channel state (they are in the cut: ahead of the barrier, and t takes
\* them only after it has taken the barrier, after its snapshot).  The barriers queued when t
\* switched were prioritized by the switch itself (Switch, TimeoutAlignment); this step is for
\* those queued since.  Flink: AlternatingCollectingBarriersUnaligned and
\* AlternatingWaitingForFirstBarrierUnaligned.announcementReceived convert an announced
\* barrier to a priority event at once (the EventAnnouncement an input channel makes of a
\* timeoutable aligned barrier it queues).
\* Implemented by OperatorTask.prioritizeBarrier(e).
PrioritizeBarrier(t, e) ==
    LET c == unalignedAt[t]
        q == chan[e]
    IN
    /\ c # 0
    /\ e \in InputsOf(t)
    /\ \E k \in 1..Len(q) : IsBarrierOf(q[k], c) /\ \E j \in 1..(k - 1) : IsRecord(q[j])
    /\ chan' = [chan EXCEPT ![e] = PrioritizedOn(q, c)]
    /\ snapChan' = IF e \in SwitchPersistFrom(InputsOf(t), IF handling[t] = c THEN arrived[t] ELSE {})
                     THEN [snapChan EXCEPT ![c][e] = @ \o AheadOfBarrierIn(q, c)]
                     ELSE snapChan
    /\ UNCHANGED <<sourceVars, operatorVars, ckpt, acked, snapOffset, snapProcessed, latest,
                   discardedUpTo, failures, lifecycleVars, sinkVars, alternatingVars>>

\* Operator t learns that c is aborted, with the channels ch before: it abandons what it
\* handles (c, or an older one when c is newer), aligned or unaligned: it unblocks every
\* input, stops persisting, goes past c and forwards a cancellation barrier of c.
Abandon(t, c, ch) ==
    /\ current' = [current EXCEPT ![t] = c]
    /\ handling' = [handling EXCEPT ![t] = 0]
    /\ arrived' = [arrived EXCEPT ![t] = {}]
    /\ unalignedAt' = [unalignedAt EXCEPT ![t] = UnalignedAfter(t, c)]
    /\ chan' = Enqueue(ch, OutputsOf(t), CancelBarrier(c))

\* The coordinator tells task t that checkpoint c is aborted.  A source that has not
\* injected c never will (SkipBarrier); an operator abandons it (Abandon).
\* Implemented by SourceTask.notifyCheckpointAborted(c) and
\* OperatorTask.notifyCheckpointAborted(c).
NotifyCheckpointAborted(t, c) ==
    IF t \in Sources THEN SkipBarrier(t, c) /\ UNCHANGED alternatingVars
    ELSE /\ AbortNews(t, c)
         /\ Abandon(t, c, chan)
         /\ UNCHANGED <<sourceVars, processed, coordinatorVars, failures, endedInputs,
                        endedSources, sinkVars, switchedAt>>

\* Operator t takes a cancellation barrier of c from an unblocked input e: if t has not gone
\* past c it abandons c (or the older checkpoint it handles), forwarding the cancellation
\* once; otherwise the cancellation is dropped.
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
              /\ UNCHANGED <<handling, arrived, current, unalignedAt>>
    /\ UNCHANGED <<sourceVars, processed, coordinatorVars, failures, endedInputs,
                   endedSources, sinkVars, switchedAt>>

\* Operator t takes end of partition from an unblocked input e: e has ended and counts as
\* arrived for the checkpoint t handles and every later one.  If that was the last input
\* of the checkpoint t handles: aligning, t snapshots and forwards an aligned barrier;
\* unaligned, it only acknowledges (its snapshot was taken at the switch).  If every input
\* has ended, t ends as in the other protocols.
\* Implemented by OperatorTask.receiveEndOfPartition(e).
ReceiveEndOfPartition(t, e) ==
    LET x == endedInputs[t] \cup {e}
        taken == [chan EXCEPT ![e] = Tail(@)]
        h == handling[t]
        done == h # 0 /\ AllArrived(t, arrived[t], x)
        aligns == done /\ ~HandlesUnaligned(t)
        ch1 == IF aligns THEN Enqueue(taken, OutputsOf(t), AlignedBarrier(h)) ELSE taken
        sp1 == IF aligns THEN [snapProcessed EXCEPT ![h][t] = processed[t]] ELSE snapProcessed
        ak1 == IF done THEN [acked EXCEPT ![h] = @ \cup {t}] ELSE acked
        ends == x = InputsOf(t)
        \* the checkpoints t snapshots in this step (a sink pre-commits in the oldest)
        snaps == (IF aligns THEN {h} ELSE {})
                   \cup (IF ends THEN {d \in CheckpointIds : Live(d) /\ d > current[t]} ELSE {})
    IN
    /\ chan[e] # <<>>
    /\ IsEndOfPartition(Head(chan[e]))
    /\ e \notin Blocked(t)
    /\ SinkSnapshot({t}, snaps)
    /\ endedInputs' = [endedInputs EXCEPT ![t] = x]
    /\ chan' = IF ends THEN Enqueue(ch1, OutputsOf(t), EndOfPartition) ELSE ch1
    /\ snapProcessed' = IF ends THEN FinalSnapshot(sp1, t, current[t]) ELSE sp1
    /\ acked' = IF ends THEN FinalAck(ak1, t, current[t]) ELSE ak1
    /\ IF done
         THEN /\ handling' = [handling EXCEPT ![t] = 0]
              /\ arrived' = [arrived EXCEPT ![t] = {}]
              /\ unalignedAt' = [unalignedAt EXCEPT ![t] = UnalignedAfter(t, h)]
         ELSE UNCHANGED <<handling, arrived, unalignedAt>>
    /\ UNCHANGED <<sourceVars, processed, ckpt, snapOffset, snapChan, latest, discardedUpTo,
                   failures, current, endedSources, switchedAt>>

-----------------------------------------------------------------------------
(* The shared steps of Dataflow.tla, framed for the variables of this      *)
(* module: a failure resets every handler to aligned, waiting.             *)

FailAndRestoreAlternating ==
    /\ FailAndRestore
    /\ unalignedAt' = [t \in Operators |-> 0]
    /\ UNCHANGED switchedAt

\* The steps that move data, barriers and news of aborts forward (no trigger, timeout,
\* alignment timeout or failure; with TransactionalSink also the notifications).
Progress ==
    \/ \E c \in CheckpointIds : CompleteCheckpoint(c) /\ UNCHANGED alternatingVars
    \/ \E s \in Sources : \/ (EmitRecord(s) \/ SendEndOfPartition(s)) /\ UNCHANGED alternatingVars
                         \/ \E c \in CheckpointIds : InjectBarrier(s, c)
    \/ \E t \in Tasks, c \in CheckpointIds : NotifyCheckpointAborted(t, c)
    \/ \E t \in Operators : \E e \in InputsOf(t) :
           \/ ProcessRecord(t, e) \/ ReceiveBarrier(t, e)
           \/ ReceiveCancelBarrier(t, e) \/ ReceiveEndOfPartition(t, e)
           \/ PrioritizeBarrier(t, e)
    \/ SinkProgress /\ UNCHANGED alternatingVars
    \/ BarrierInFlight /\ \E t \in Operators : \E e \in InputsOf(t) : ProcessRecordPastBarrier(t, e)
    \/ EndedSourceBarriers /\ \E s \in Sources, k \in CheckpointIds : InjectBarrierAfterEnd(s, k)

Next ==
    \/ Progress
    \/ \E c \in CheckpointIds : (TriggerCheckpoint(c) \/ AbortCheckpoint(c)) /\ UNCHANGED alternatingVars
    \/ \E t \in Operators, c \in CheckpointIds : TimeoutAlignment(t, c)
    \/ FailAndRestoreAlternating
    \/ Terminated /\ UNCHANGED allVars

AlternatingInit == /\ Init
                   /\ unalignedAt = [t \in Operators |-> 0]
                   /\ switchedAt = [c \in CheckpointIds |-> {}]

Spec == AlternatingInit /\ [][Next]_allVars

\* Weak fairness on progress as a whole, as in the other protocols.  The alignment timeout is
\* not forced: a checkpoint must complete whether or not it switches.
\* With TransactionalSink the coordinator must also trigger the final checkpoint when due
\* (never enabled with the option off).
FairSpec == Spec /\ WF_allVars(Progress)
                 /\ WF_allVars(TriggerFinalCheckpoint /\ UNCHANGED alternatingVars)

-----------------------------------------------------------------------------
(* Invariants of the switch (the cut and exactly-once invariants are       *)
(* CutInvariants.tla's, unchanged).                                        *)

\* The variables of this module have their types; a task's pending unaligned checkpoint is
\* the one it handles or, after a passive timeout, one it has not reached yet.
AlternatingTypeInv ==
    /\ unalignedAt \in [Operators -> {0} \cup CheckpointIds]
    /\ switchedAt \in [CheckpointIds -> SUBSET Operators]
    /\ \A t \in Operators : unalignedAt[t] # 0 =>
           unalignedAt[t] = handling[t] \/ unalignedAt[t] > current[t]

\* A checkpoint that never switched persists no channel state: the cut lies exactly at the
\* barriers.  (AlignedCheckpoint.tla's invariant of the same name, where no checkpoint ever
\* switches, is this one with Switched(c) always FALSE.)
AlignedNoChannelStateInv ==
    \A c \in CheckpointIds : ~Switched(c) => \A e \in Edges : snapChan[c][e] = <<>>

\* A savepoint is forced aligned: it never switches and persists no channel state.
SavepointNoChannelStateInv ==
    \A c \in Savepoints, e \in Edges : snapChan[c][e] = <<>>

\* How many copies of r the sender of e says, in its own snapshot in c, it had sent on e.
SentBeforeSnapshot(c, e, r) ==
    LET v == e[1] IN
    IF e \notin RouteOf(v, r) THEN 0
    ELSE IF v \in Sources THEN (IF r.off < snapOffset[c][v] THEN 1 ELSE 0)
    ELSE CopiesIn(r, snapProcessed[c][v])

\* The channel state of a switched checkpoint: (1) it lies only on the edges next to a task
\* that handled the checkpoint unaligned (the sender persisted what its overtaking barrier
\* jumped over, or the receiver what it took, or what its prioritised barrier jumped over,
\* before the barrier), so a checkpoint that switched at one task pays storage only around
\* that task and downstream of it; (2) on an edge it holds only records the sender had sent
\* on it before its own snapshot, each at most as often as sent, the bound of
\* UnalignedChannelStateBoundInv, which is tight there (MCUnalignedCheckpoint's
\* UnalignedBeyondCapacity) and here too, since a switched task handles the rest of its
\* checkpoint as an unaligned one.  Checked for every completed checkpoint.
SwitchedChannelStateBoundInv ==
    \A c \in CheckpointIds : ckpt[c] = "completed" =>
        \A e \in Edges :
            /\ snapChan[c][e] # <<>> => {e[1], e[2]} \cap switchedAt[c] # {}
            /\ \A r \in Records : CopiesInSeq(r, snapChan[c][e]) <= SentBeforeSnapshot(c, e, r)

\* The switch propagates: no task blocks an input whose sender switched the checkpoint the
\* task aligns (that barrier was overtaking, so the receiver must handle the checkpoint
\* unaligned).  This is "a switched checkpoint does not wait for alignment" behind an
\* overtaking barrier, as a safety claim.
SwitchPropagatesInv ==
    \A t \in Operators : handling[t] # 0 =>
        \A e \in Blocked(t) : e[1] \notin switchedAt[handling[t]]

\* A switched task does not wait for alignment: while it handles a checkpoint unaligned,
\* whatever heads an input can be taken at once, unless it is a record whose routes are full
\* (the words of UnalignedNeverBlocksInv, said of the tasks that switched).
SwitchedNeverBlocksInv ==
    \A t \in Operators : HandlesUnaligned(t) =>
        \A e \in InputsOf(t) :
            Takeable(t, e) => ENABLED (\/ ProcessRecord(t, e) \/ ReceiveBarrier(t, e)
                                       \/ ReceiveCancelBarrier(t, e) \/ ReceiveEndOfPartition(t, e))

\* An overtaking barrier never waits behind a record (it was put at the head).
OvertakingBarrierAheadInv ==
    \A e \in Edges : \A k \in 1..Len(chan[e]) :
        (IsBarrier(chan[e][k]) /\ "aligned" \in DOMAIN chan[e][k] /\ ~chan[e][k].aligned)
            => \A j \in 1..(k - 1) : ~IsRecord(chan[e][j])

\* With the barrier in flight (BarrierInFlight): the channel state that the overtaking barrier
\* at the head of a channel persisted there, of a pending checkpoint whose snapshot the
\* receiver has not taken, is the first records queued in the channel, in order.  (The barrier
\* overtook or jumped over them, and since then only records taken ahead of it have left.)
\* This is what makes ProcessRecordPastBarrier sound: the record it takes is the first of that
\* state, and the rest stays channel state in FIFO order.
InFlightPartsInv ==
    \A e \in Edges :
        LET q == chan[e] IN
        (q # <<>> /\ IsBarrier(q[1]) /\ ~q[1].aligned
         /\ ckpt[q[1].ckpt] = "pending" /\ BeforeSnapshotOf(e[2], q[1].ckpt)) =>
            LET part == snapChan[q[1].ckpt][e]
                queued == SelectSeq(q, IsRecord)
            IN Len(part) <= Len(queued) /\ part = SubSeq(queued, 1, Len(part))

\* Liveness (under FairSpec, no failures, timeouts of the coordinator off): a task that
\* handles a checkpoint unaligned eventually stops handling it (it acknowledges it, or the
\* checkpoint is subsumed), without anything but progress: no alignment holds it up.
SwitchedCompletesProp ==
    \A t \in Operators, c \in CheckpointIds :
        (handling[t] = c /\ unalignedAt[t] = c) ~> handling[t] # c

=============================================================================
Models and TLC figures: MCAlternatingCheckpoint.tla (after its ====).
