-------------------- MODULE MCAlignedCheckpointRefinement --------------------
(***************************************************************************)
(* AlignedCheckpoint.tla refines the atomic snapshot of AbstractCheckpoint.tla *)
(* under the mapping of CheckpointRefinement.tla: the models of            *)
(* MCAlignedCheckpoint.tla (topologies, bounds, bad definitions), with the property *)
(* RefinesAtomicSnapshotProp.  Each .cfg named                             *)
(* MCAlignedCheckpointRefinement_<Purpose>.cfg picks one combination.         *)
(***************************************************************************)
EXTENDS MCAlignedCheckpoint, CheckpointRefinement

=============================================================================
