------------------------- MODULE MCUnalignedCheckpoint -------------------------
(***************************************************************************)
(* Models of UnalignedCheckpoint.tla for TLC: the dials PersistedOvertaken *)
(* and PersistFrom with their correct and bad definitions, and claims that *)
(* must fail.  The topologies and the shared dials come from               *)
(* MCDataflow.tla; each .cfg named MCUnalignedCheckpoint_<Purpose>.cfg     *)
(* picks one combination, and spec/models.tsv records what TLC must report *)
(* for it.                                                                 *)
(***************************************************************************)
EXTENDS UnalignedCheckpoint, MCDataflow, TLC

\* Correct: every record a barrier overtakes is persisted as the channel's state.
PersistAllOvertaken(q) == q

\* Bug 4: the barrier overtakes the queued records but they are not persisted.  They are
\* in the sender's snapshot (sent before it) but not in the receiver's (taken after it):
\* after a restore they are in no state and no channel, and no source replays them.
\* TLC must report NoSkipInv.
ForgetOvertaken(q) == <<>>

\* Correct: while handling a checkpoint, persist the records of the inputs whose barrier
\* has not arrived yet; they were sent before their sender's snapshot, taken after ours.
PersistPendingInputs(inputs, barrierArrived) == inputs \ barrierArrived

\* Bug 5, as FLINK-18139 (the unaligner consulted the wrong channels for in-flight data):
\* the receiver persists records from the inputs whose barrier has already arrived.
\* Records of the pending inputs are lost; records after an arrived barrier are persisted
\* although their sources will replay them.
PersistArrivedInputs(inputs, barrierArrived) == barrierArrived

\* A FALSE claim, the dual of AlignedNoChannelStateInv: TLC must refute it, which shows
\* that unaligned checkpoints do persist channel state (their cost is storage).
UnalignedNoChannelStateClaim ==
    \A c \in CheckpointIds, e \in Edges : snapChan[c][e] = <<>>

\* A FALSE claim, the naive bound: persisted channel state never exceeds a channel's
\* capacity.  TLC must refute it (see UnalignedChannelStateBoundInv for the true bound).
UnalignedChannelStateWithinCapacityClaim ==
    \A c \in CheckpointIds : ckpt[c] = "completed" =>
        \A e \in Edges : Len(snapChan[c][e]) <= Capacity

=============================================================================
