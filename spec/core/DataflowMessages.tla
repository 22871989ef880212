-------------------------- MODULE DataflowMessages --------------------------
(***************************************************************************)
(* What travels in the channels: records, the barriers of a checkpoint,    *)
(* cancellation barriers and the end of a partition; and how many records, *)
(* or copies of one record, a channel holds.                               *)
(***************************************************************************)
EXTENDS DataflowGraph, Sequences

\* A barrier of checkpoint c travels in the channels between the records.  In
\* AlternatingCheckpoint.tla it also says whether it is aligned or overtaking (Flink's
\* CheckpointOptions alignment type); the other protocols' barriers carry no such field.
Barriers == [ckpt : CheckpointIds] \cup [ckpt : CheckpointIds, aligned : BOOLEAN]
\* A cancellation barrier of checkpoint c (Flink's CancelCheckpointMarker): c is abandoned.
CancelBarriers == [cancel : CheckpointIds]
\* The cancellation barrier of checkpoint c.
CancelBarrier(c) == [cancel |-> c]
\* End of partition (Flink's EndOfPartitionEvent): nothing follows it on its channel.
EndOfPartition == [eop |-> TRUE]
\* Every message a channel carries; the predicates below tell them apart by their fields.
Messages == Records \cup Barriers \cup CancelBarriers \cup {EndOfPartition}
IsBarrier(m) == "ckpt" \in DOMAIN m
IsCancelBarrier(m) == DOMAIN m = {"cancel"}
IsEndOfPartition(m) == DOMAIN m = {"eop"}
IsRecord(m) == DOMAIN m = {"src", "off"}

\* How many records (barriers not counted) the sequence q holds.
RecordCount(q) == Len(SelectSeq(q, IsRecord))
\* How many copies of record r the sequence q holds.
CopiesInSeq(r, q) == Len(SelectSeq(q, LAMBDA m : m = r))

=============================================================================
