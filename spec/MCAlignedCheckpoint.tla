-------------------------- MODULE MCAlignedCheckpoint --------------------------
(***************************************************************************)
(* Models of AlignedCheckpoint.tla for TLC: the dial BlocksOnBarrier with  *)
(* its correct and bad definitions, and a claim that must fail.  The       *)
(* topologies and the shared dials come from MCDataflow.tla; each .cfg     *)
(* named MCAlignedCheckpoint_<Purpose>.cfg picks one combination, and      *)
(* spec/models.tsv records what TLC must report for it.                    *)
(***************************************************************************)
EXTENDS AlignedCheckpoint, MCDataflow, TLC

\* Correct: a task does not read an input whose barrier has arrived until all have.
Blocks == TRUE

\* Bug 3, and Flink's AT_LEAST_ONCE mode (bug 7) -- the same step rule: the task keeps
\* processing inputs whose barrier has arrived and snapshots on the last barrier.  Records
\* behind an early barrier get into the snapshot although their sources will replay them:
\* counted twice (NoDoubleCountInv).  Nothing is skipped: NoSkipInv still holds.
NoBlocking == FALSE

\* A FALSE claim, the dual of UnalignedNeverBlocksInv in the same words: TLC must refute
\* it, which shows that aligned tasks do block (their cost is latency, not storage).
AlignedNeverBlocksClaim ==
    \A t \in Operators : \A e \in InputsOf(t) :
        Takeable(t, e) => ENABLED (ProcessRecord(t, e) \/ ReceiveBarrier(t, e))

=============================================================================
