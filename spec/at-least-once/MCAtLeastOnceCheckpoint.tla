------------------------ MODULE MCAtLeastOnceCheckpoint ------------------------
(***************************************************************************)
(* Models of AtLeastOnceCheckpoint.tla for TLC.  The mode is correct for   *)
(* what it promises (NoSkipInv, AtLeastOnceInv) and TLC must refute what   *)
(* it does not promise (NoDoubleCountInv, model AtLeastOnce).  The         *)
(* topologies and the shared bad definitions come from MCDataflow.tla;     *)
(* each .cfg named MCAtLeastOnceCheckpoint_<Purpose>.cfg picks one         *)
(* combination, and its models.tsv records what TLC must report for it.    *)
(* (Model 7 of the first specs, moved here from MCAlignedCheckpoint, where *)
(* it was the bad definition NoBlocking.)                                  *)
(***************************************************************************)
EXTENDS AtLeastOnceCheckpoint, MCDataflow, TLC

\* StateView (MCDataflow.tla) and the tracker's older checkpoints, which it does not know of:
\* every action reads them.  In every model where at most one checkpoint's barriers travel at
\* a time (no concurrent checkpoints, aborts not reaching the tasks or no aborts) they stay
\* empty, so those models have the states they had with the one-checkpoint tracker.
AtLeastOnceView == <<StateView, olderTracked>>

\* BugOlderBarrierCountsForNewest: the tracker counts the barrier of any checkpoint it tracks
\* for the newest one (FLINK-20654's mechanism, a late barrier taken for the next checkpoint,
\* in the tracker of several).  With two in flight the join tracks 1 and 2 once one source's
\* barriers of both have come, takes 1's barrier from the other source, counts it for 2 and
\* snapshots 2 before reading that source's record between its barriers of 1 and 2, which its
\* offset in 2 covers: TLC must report NoSkipInv (874 states, depth 13).
BugOlderBarrierCountsForNewest(m, c) == SetMax(DOMAIN m)

=============================================================================

Lifecycle models.  "s/1w": this helper's runs with -workers 1; "s/2w": the
final `./model-check.sh --quick --workers 2` (quick models only).  Both on the 2-core
machine shared with five other helpers (load 9 to 36), so seconds are wall-clock upper
bounds, several times what an idle machine takes (the whole quick run: 20 min 25 s wall,
5 min 39 s of TLC CPU).  Model 7 (AtLeastOnce, AtLeastOnceNoSkip) moved to
MCAtLeastOnceCheckpoint.tla.  Simulate tier: 1,000 behaviours of
depth 60 (`./model-check.sh --model NAME --workers 1`), "distinct" not applicable.

model                                     cfg (MCAtLeastOnceCheckpoint_...)         result                         distinct depth s/1w s/2w tier
AtLeastOnce                               AtLeastOnce.cfg                           inv:NoDoubleCountInv                699    11    7    7 quick
AtLeastOnceNoSkip                         AtLeastOnceNoSkip.cfg                     pass                             10,386    33   24   41 quick
AtLeastOnceEndJoin                        EndJoin.cfg                               pass                              2,513    26   20   15 quick
AtLeastOnceEndDiamond                     EndDiamond.cfg                            pass                              1,142    25   20   13 quick
AtLeastOnceAbortJoin                      AbortJoin.cfg                             pass                             44,256    23   56    - full
AtLeastOnceAbortDiamond                   AbortDiamond.cfg                          pass                             50,853    23   50    - full
SimAtLeastOnceLifecycleDiamond            SimLifecycleDiamond.cfg                   pass                              (sim)    60   99    - simulate

The tracker of several checkpoints (AtLeastOnceCheckpoint.tla): the
models above where at most one checkpoint's barriers travel at a time kept their counts (699,
10,386, 2,513, 1,142, re-checked); the abort models grew (AbortJoin 44,256 to 46,272 states,
106 s; AbortDiamond 50,853 to 51,213, 169 s; depth 23; one worker at a load of 15 to 26).
AtLeastOnceConcurrentEndJoin              ConcurrentEndJoin.cfg                     pass                              7,544    26  110    - quick
BugOlderBarrierCountsForNewest            BugOlderBarrierCountsForNewest.cfg        inv:NoSkipInv                       874    13   18    - quick
