-------------------------- MODULE FullSnapshotStore --------------------------
(***************************************************************************)
(* What a checkpoint store promises when every checkpoint holds its state  *)
(* whole: a checkpoint is a copy of the job's state at its trigger, the    *)
(* store keeps the newest ones, and a restore puts back exactly the copy   *)
(* of the newest one kept.  No file is shared between checkpoints, so      *)
(* there is nothing to count and nothing to delete too early or too late.  *)
(*                                                                         *)
(* Place in the whole: IncrementalCheckpointStore.tla maps its variables   *)
(* onto these (the content of a checkpoint's files is its copy) and claims *)
(* RefinesFullSnapshotStoreProp: sharing files between checkpoints and     *)
(* deleting them asynchronously changes nothing a restore can see.         *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANTS
    States,         \* the values the job's state may take
    Empty,          \* the state of a job that starts from nothing (an element of States)
    CheckpointIds,  \* checkpoint ids, a finite set of numbers
    Retained,       \* K: how many completed checkpoints the store keeps at least
    Updates(_)      \* Updates(s): the states one step of the job may take state s to

ASSUME Empty \in States /\ CheckpointIds \subseteq Nat /\ Retained \in Nat \ {0}

VARIABLES
    state,    \* the job's state now
    snap,     \* snap[c]: the copy of the state that checkpoint c took (Empty until taken)
    store,    \* the checkpoints the running job's store keeps: a restart restores the newest
    kept,     \* the checkpoints retained for the user when a job stopped: a new job may resume from one
    restarts  \* how often the job has failed and restarted (a restart is seen, even one that
              \* happens to leave the state as it was)

vars == <<state, snap, store, kept, restarts>>

Newest(S) == CHOOSE c \in S : \A d \in S : d <= c
Oldest(S) == CHOOSE c \in S : \A d \in S : c <= d

\* What a (re)start from the checkpoints S puts into the job: the copy of the newest.
RestoredFrom(S) == IF S = {} THEN Empty ELSE snap[Newest(S)]

Init == /\ state = Empty
        /\ snap = [c \in CheckpointIds |-> Empty]
        /\ store = {}
        /\ kept = {}
        /\ restarts = 0

\* The job changes its state by one step.
Update == /\ state' \in Updates(state)
          /\ UNCHANGED <<snap, store, kept, restarts>>

\* Checkpoint c, neither kept nor in the store, copies the state.
Take(c) == /\ c \notin store \cup kept
           /\ snap' = [snap EXCEPT ![c] = state]
           /\ UNCHANGED <<state, store, kept, restarts>>

\* Checkpoint c, newer than every one in the store, joins it in one step.
Complete(c) == /\ c \notin store
               /\ \A d \in store : d < c
               /\ store' = store \cup {c}
               /\ UNCHANGED <<state, snap, kept, restarts>>

\* The oldest checkpoint leaves the store once more than Retained are in it.
Subsume(c) == /\ c \in store
              /\ Cardinality(store) > Retained
              /\ c = Oldest(store)
              /\ store' = store \ {c}
              /\ UNCHANGED <<state, snap, kept, restarts>>

\* A failure: the job restarts with the copy of the newest checkpoint in the store.
Restore == /\ state' = RestoredFrom(store)
           /\ restarts' = restarts + 1
           /\ UNCHANGED <<snap, store, kept>>

\* The job stops; the checkpoints of its store are kept for the user.
Stop == /\ kept' = kept \cup store
        /\ store' = {}
        /\ state' = Empty
        /\ UNCHANGED <<snap, restarts>>

\* A new job starts from the newest kept checkpoint, which is its store's first one.
Resume == /\ store = {}
          /\ kept # {}
          /\ store' = {Newest(kept)}
          /\ state' = snap[Newest(kept)]
          /\ UNCHANGED <<snap, kept, restarts>>

Next == \/ Update \/ Restore \/ Stop \/ Resume
        \/ \E c \in CheckpointIds : Take(c) \/ Complete(c) \/ Subsume(c)

Spec == Init /\ [][Next]_vars

=============================================================================
