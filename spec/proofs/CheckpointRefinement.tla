------------------------ MODULE CheckpointRefinement ------------------------
(***************************************************************************)
(* The refinement mapping from either barrier protocol to the atomic       *)
(* snapshot of AbstractCheckpoint.tla.  Both protocols share the variables *)
(* of Dataflow.tla, so one mapping serves both:                            *)
(*   read   <- offset             (how far each source has read)           *)
(*   taken  <- ckpt[c] = "completed"                                       *)
(*   cut    <- snapOffset[c]      of a completed checkpoint                *)
(*   image  <- CutCount(c, t, r)  of a completed checkpoint: what a        *)
(*             restore from c gives operator t of record r, from its       *)
(*             snapshot and the channel state persisted in c               *)
(*   latest <- latest                                                      *)
(* Every protocol step other than EmitRecord, CompleteCheckpoint and       *)
(* FailAndRestore must leave these unchanged (a stuttering step of the     *)
(* abstract spec): the barriers, snapshots and channel state in progress   *)
(* are invisible until the checkpoint completes.                           *)
(*                                                                         *)
(* Place in the whole: MCAlignedCheckpointRefinement.tla and               *)
(* MCUnalignedCheckpointRefinement.tla EXTEND this module with their       *)
(* protocol's models and check RefinesAtomicSnapshotProp.                  *)
(***************************************************************************)
EXTENDS CutInvariants

\* The mapped image of checkpoint c (zero until c completes).
MappedImage(c) ==
    [t \in Operators |-> [r \in Records |->
        IF ckpt[c] = "completed" THEN CutCount(c, t, r) ELSE 0]]

Abstract == INSTANCE AbstractCheckpoint WITH
    Routes <- LAMBDA r, t : Paths(r.src, r, t),
    read <- offset,
    taken <- [c \in CheckpointIds |-> ckpt[c] = "completed"],
    cut <- [c \in CheckpointIds |-> IF ckpt[c] = "completed" THEN snapOffset[c]
                                                              ELSE [s \in Sources |-> 0]],
    image <- [c \in CheckpointIds |-> MappedImage(c)],
    latest <- latest

\* Every behaviour of the protocol is a behaviour of the atomic snapshot under the mapping:
\* each checkpoint appears complete and consistent in one step, and recovery rewinds to it.
RefinesAtomicSnapshotProp == Abstract!Spec

=============================================================================
Figures: MCAlignedCheckpointRefinement.tla and MCUnalignedCheckpointRefinement.tla.
