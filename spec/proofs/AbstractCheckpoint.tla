------------------------- MODULE AbstractCheckpoint -------------------------
(***************************************************************************)
(* What a checkpoint means to a user: at one instant, the whole job is     *)
(* photographed.  A checkpoint is a cut through the sources' logs (how far *)
(* each source had read) together with the state the job would be in had  *)
(* it run without failures up to exactly that cut: every record below the *)
(* cut counted once per route by every operator it reaches, nothing else.  *)
(* Here that photograph is taken in ONE step (Snapshot), from a cut the    *)
(* sources have already read past; a failure rewinds the sources to the    *)
(* latest photograph (Restore).  No barriers, channels or acknowledgements *)
(* appear: they are how the real protocols manage to take the photograph   *)
(* without stopping the job.                                               *)
(*                                                                         *)
(* Place in the whole: CheckpointRefinement.tla maps the variables of      *)
(* AlignedCheckpoint.tla and UnalignedCheckpoint.tla onto these, and TLC   *)
(* checks that every behaviour of either protocol is a behaviour of Spec   *)
(* here (MCAlignedCheckpointRefinement.tla, MCUnalignedCheckpointRefinement*)
(* .tla).  The protocols' ConsistentCutInv says the same about each        *)
(* completed checkpoint as a state invariant; the refinement adds that the *)
(* photograph appears in one step, lies below what the sources have read,  *)
(* never changes afterwards, that checkpoints complete in id order, and    *)
(* that recovery rewinds the sources to the latest one.                    *)
(***************************************************************************)
EXTENDS Naturals

CONSTANTS
    Sources,          \* source tasks, each reading its own log
    Operators,        \* operator tasks
    RecordsPerSource, \* length of every source's log
    CheckpointIds,    \* checkpoint ids: 1..MaxCheckpoints
    Routes(_, _)      \* Routes(r, t): how many routes lead record r from its source to operator t

Records == [src : Sources, off : 0..RecordsPerSource - 1]
Cuts == [Sources -> 0..RecordsPerSource]

\* The state a failure-free run has after reading exactly the prefix p of every log: how
\* often operator t has counted record r.  This is the definition of a consistent cut.
Image(p) == [t \in Operators |-> [r \in Records |-> IF r.off < p[r.src] THEN Routes(r, t) ELSE 0]]

NoCut == [s \in Sources |-> 0]
NoImage == Image(NoCut)

VARIABLES
    read,   \* read[s]: how far source s has read (the protocols' offset)
    taken,  \* taken[c]: whether checkpoint c has been taken (the protocols' "completed")
    cut,    \* cut[c]: the offsets checkpoint c recorded (NoCut until taken)
    image,  \* image[c]: what restoring c puts into every operator (NoImage until taken)
    latest  \* the latest checkpoint taken, 0 if none

absVars == <<read, taken, cut, image, latest>>

Init == /\ read = [s \in Sources |-> 0]
        /\ taken = [c \in CheckpointIds |-> FALSE]
        /\ cut = [c \in CheckpointIds |-> NoCut]
        /\ image = [c \in CheckpointIds |-> NoImage]
        /\ latest = 0

\* Source s reads its next record (EmitRecord).
Read(s) == /\ read[s] < RecordsPerSource
           /\ read' = [read EXCEPT ![s] = @ + 1]
           /\ UNCHANGED <<taken, cut, image, latest>>

\* Checkpoint c, newer than every one taken so far, is taken at once: a cut p the sources
\* have all read past, and exactly the failure-free state at p (CompleteCheckpoint).
Snapshot(c) ==
    /\ ~taken[c]
    /\ c > latest
    /\ \E p \in Cuts :
          /\ \A s \in Sources : p[s] <= read[s]
          /\ cut' = [cut EXCEPT ![c] = p]
          /\ image' = [image EXCEPT ![c] = Image(p)]
    /\ taken' = [taken EXCEPT ![c] = TRUE]
    /\ latest' = c
    /\ UNCHANGED read

\* A failure: every source rewinds to the latest checkpoint's cut (the start if none); the
\* operators' state is that checkpoint's image, which is fixed already (FailAndRestore).
Restore == /\ read' = IF latest = 0 THEN NoCut ELSE cut[latest]
           /\ UNCHANGED <<taken, cut, image, latest>>

Next == \/ \E s \in Sources : Read(s)
        \/ \E c \in CheckpointIds : Snapshot(c)
        \/ Restore

Spec == Init /\ [][Next]_absVars

=============================================================================
Checked only as the target of the refinements in MCAlignedCheckpointRefinement.tla and
MCUnalignedCheckpointRefinement.tla (figures there, and in spec/proofs/models.tsv).
