-------------------------- MODULE DataflowChannels --------------------------
(***************************************************************************)
(* The bounded FIFO channels: room for a record (backpressure), appending  *)
(* behind or ahead of what is queued, what an operator can take; the       *)
(* source step that fills them, EmitRecord; and when they are drained.     *)
(***************************************************************************)
EXTENDS DataflowVariables

\* Every channel that r is routed on from n has room for one more record.
HasRoom(n, r) == \A d \in RouteOf(n, r) : RecordCount(chan[d]) < Capacity
\* ch with message m appended to every channel in es (FIFO: behind everything queued).
Enqueue(ch, es, m) == [d \in DOMAIN ch |-> IF d \in es THEN Append(ch[d], m) ELSE ch[d]]
\* ch with message m put at the head of every channel in es (the priority lane).
EnqueueAhead(ch, es, m) == [d \in DOMAIN ch |-> IF d \in es THEN <<m>> \o ch[d] ELSE ch[d]]
\* The operator t can take the head of input e unless its routes are full:
\* the statement of "never blocks" (UnalignedNeverBlocksInv) is about these inputs.
Takeable(t, e) == /\ chan[e] # <<>>
                  /\ IsRecord(Head(chan[e])) => HasRoom(t, Head(chan[e]))

\* Source s reads the record at offset[s] and sends it on its routes; it waits while one is full.
\* Implemented by SourceTask.emitRecord().
EmitRecord(s) ==
    LET r == [src |-> s, off |-> offset[s]] IN
    /\ offset[s] < RecordsPerSource
    /\ HasRoom(s, r)
    /\ chan' = Enqueue(chan, RouteOf(s, r), r)
    /\ offset' = [offset EXCEPT ![s] = @ + 1]
    /\ UNCHANGED <<operatorVars, coordinatorVars, failures, lifecycleVars, sinkVars>>

\* Every source is exhausted and no channel holds a record.
Drained == /\ \A s \in Sources : offset[s] = RecordsPerSource
           /\ \A e \in Edges : RecordCount(chan[e]) = 0

\* A task abandons a checkpoint once: no channel holds two cancellation barriers of the same
\* checkpoint (a task forwards one when it goes past the checkpoint it abandons, and one for
\* the checkpoint a newer barrier subsumes, which it then no longer handles).
CancelBarrierOnceInv ==
    \A e \in Edges, c \in CheckpointIds :
        Len(SelectSeq(chan[e], LAMBDA m : IsCancelBarrier(m) /\ m.cancel = c)) <= 1

=============================================================================
