-------------------- MODULE MCUnalignedCheckpointRefinement --------------------
(***************************************************************************)
(* UnalignedCheckpoint.tla refines the atomic snapshot of AbstractCheckpoint.tla *)
(* under the mapping of CheckpointRefinement.tla: the models of            *)
(* MCUnalignedCheckpoint.tla (topologies, bounds, bad definitions), with the property *)
(* RefinesAtomicSnapshotProp.  Each .cfg named                             *)
(* MCUnalignedCheckpointRefinement_<Purpose>.cfg picks one combination.         *)
(***************************************************************************)
EXTENDS MCUnalignedCheckpoint, CheckpointRefinement

=============================================================================
