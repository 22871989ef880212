------------------------ MODULE MCAtLeastOnceCheckpoint ------------------------
(***************************************************************************)
(* Models of AtLeastOnceCheckpoint.tla for TLC.  The mode has no dial of   *)
(* its own: it is correct for what it promises (NoSkipInv, AtLeastOnceInv) *)
(* and TLC must refute what it does not promise (NoDoubleCountInv, model   *)
(* AtLeastOnce).  The topologies and the shared dials come from            *)
(* MCDataflow.tla; each .cfg named MCAtLeastOnceCheckpoint_<Purpose>.cfg   *)
(* picks one combination, and spec/models.tsv records what TLC must report *)
(* for it.  (Model 7 of the first specs, moved here from                   *)
(* MCAlignedCheckpoint, where it was the dial NoBlocking.)                 *)
(***************************************************************************)
EXTENDS AtLeastOnceCheckpoint, MCDataflow, TLC

=============================================================================
