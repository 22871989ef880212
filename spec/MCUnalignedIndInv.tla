--------------------------- MODULE MCUnalignedIndInv ---------------------------
(***************************************************************************)
(* STATUS: checked against the protocols before the lifecycle merge      *)
(* (commit 093a978); not yet extended to the lifecycle's variables, so    *)
(* not in spec/models.tsv now.  See docs/inductive-invariant.md.          *)
(*                                                                         *)
(* TLC checks that UnalignedIndInv is inductive, the standard way: the       *)
(* initial states are ALL states of a bounded type that satisfy            *)
(* UnalignedIndInv (IndInit), TLC takes every step of Next from each of them *)
(* and checks UnalignedIndInv in every successor, and ConsistentCutInv in   *)
(* every state.  The bounded type: every variable over its TypeInv domain  *)
(* cut to the model's bounds, bags with at most MaxCopies copies of a      *)
(* record and sequences of at most MaxChanLen messages.  The lemmas imply  *)
(* those bounds, so no successor leaves the type: TLC's distinct-state     *)
(* count is the number of UnalignedIndInv states checked.                    *)
(*                                                                         *)
(* IndInit is written so that TLC can enumerate it: variables are bound    *)
(* one after another and each lemma filters as soon as its variables are   *)
(* bound; a channel's candidates are filtered edge by edge                 *)
(* together with its persisted states (EdgeCandidates).  Filtering never  *)
(* changes the set, only the cost.  The data of stale checkpoints (see    *)
(* Stale) is given one value and forgotten by the VIEW IndView: TLC's      *)
(* count is the number of UnalignedIndInv states up to data nothing reads. *)
(***************************************************************************)
EXTENDS MCUnalignedCheckpoint, UnalignedIndInv

CONSTANTS
    MaxCopies,   \* the type's bound on copies of a record in a bag
    MaxChanLen   \* the type's bound on the messages in a channel

\* Bags over Records with at most k copies of each record.
BagsUpTo(k) == UNION {[S -> 1..k] : S \in SUBSET Records}
\* Sequences over M of length at most n.
SeqsUpTo(M, n) == UNION {[1..i -> M] : i \in 0..n}
RECURSIVE Product(_, _)
\* The functions f on the set of edges E with f[e] \in cands[e] for every e, built edge by
\* edge (so TLC enumerates only the product of the candidate sets).
Product(E, cands) ==
    IF E = {} THEN {<<>>}
    ELSE LET e == CHOOSE x \in E : TRUE
         IN  {f @@ (e :> q) : f \in Product(E \ {e}, cands), q \in cands[e]}
\* The functions f on Edges with f[e] \in Cand(e) for every e.
EdgeFunctions(Cand(_)) == Product(Edges, [e \in Edges |-> Cand(e)])
\* Stale checkpoints: discarded by a failure before they completed (~Kept).  No action and
\* no lemma reads their acknowledgements or snapshot data again (FailAndRestore reads only the
\* latest completed checkpoint; the snapshot steps write only in-flight ones, and no barrier
\* of a stale checkpoint is left), so their values cannot matter: IndInit gives them one
\* value (none, empty) and the VIEW IndView forgets them, as StateView does in MCDataflow.tla.
\* Without this, every state after a failure comes in thousands of copies that differ only
\* in data nothing reads.
Stale(c) == ~Kept(c)

\* The state TLC fingerprints: a stale checkpoint's data replaced by none/empty.
IndView ==
    << offset, chan, processed, handling, arrived, ckpt,
       [c \in CheckpointIds |-> IF Stale(c) THEN {} ELSE acked[c]],
       [c \in CheckpointIds |-> IF Stale(c) THEN <<>> ELSE
           <<snapOffset[c], snapProcessed[c], snapChan[c]>>],
       latest, discardedUpTo, failures >>

\* What channel e and its persisted states may be, <<content, [c |-> persisted]>>, given
\* the variables bound before them.
EdgeCandidates(e) ==
    {qp \in SeqsUpTo(Messages, MaxChanLen) \X [CheckpointIds -> SeqsUpTo(Records, MaxChanLen)] :
        /\ UnalignedChannelLemmaWith(e, qp[1], qp[2])
        /\ \A c \in CheckpointIds : Stale(c) => qp[2][c] = <<>>}

\* The bookkeeping and operator variables, bound first.
IndPrefix ==
    /\ failures \in 0..MaxFailures
    /\ discardedUpTo \in 0..MaxCheckpoints
    /\ latest \in 0..MaxCheckpoints
    /\ ckpt \in [CheckpointIds -> {"none", "pending", "completed", "aborted"}]
    /\ latest # 0 => ckpt[latest] = "completed"
    /\ acked \in [CheckpointIds -> SUBSET Tasks]
    /\ \A c \in CheckpointIds : Stale(c) => acked[c] = {}
    /\ BookkeepingLemma
    /\ offset \in [Sources -> 0..RecordsPerSource]
    /\ snapOffset \in [CheckpointIds -> [Sources -> 0..RecordsPerSource]]
    /\ SourceSnapshotLemma
    /\ \A c \in CheckpointIds : Stale(c) => snapOffset[c] = [s \in Sources |-> 0]
    /\ handling \in [Operators -> 0..MaxCheckpoints]
    /\ arrived \in [Operators -> SUBSET Edges]
    /\ \A t \in Operators : arrived[t] \subseteq InputsOf(t) /\ (handling[t] = 0 <=> arrived[t] = {})
    /\ HandlingLemma
    /\ AckLemma

\* All states of the bounded type that satisfy UnalignedIndInv.
IndInit ==
    /\ IndPrefix
    /\ processed \in [Operators -> BagsUpTo(MaxCopies)]
    /\ snapProcessed \in [CheckpointIds -> [Operators -> BagsUpTo(MaxCopies)]]
    /\ \A c \in CheckpointIds, t \in Operators :
          /\ (Live(c) \/ ~Triggered(c)) /\ ~Snapshotted(c, t) => snapProcessed[c][t] = EmptyBag
          /\ Stale(c) => snapProcessed[c][t] = EmptyBag
    /\ \E f \in EdgeFunctions(EdgeCandidates) :
          /\ chan = [e \in Edges |-> f[e][1]]
          /\ snapChan = [c \in CheckpointIds |-> [e \in Edges |-> f[e][2][c]]]
    /\ FlowLemma
    /\ UnalignedIndInv

IndSpec == IndInit /\ [][Next]_vars

=============================================================================
TLC figures: TLC 2.18, one worker, 2 cores shared with other jobs (CPU seconds).

model                                    cfg (MCUnalignedIndInv_...)         result                states  depth  CPU
UnalignedIndInvJoin                      Join.cfg                            pass                   5,410      3   96 s
  (5,370 initial UnalignedIndInv states; 40 successors outside the enumerated set, all
  satisfying UnalignedIndInv, checked as well)
UnalignedIndInvBugOvertakenNotPersisted  BugOvertakenNotPersisted.cfg        inv:UnalignedIndInv   (see models.tsv)
