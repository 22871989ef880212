--------------------------- MODULE MCAlignedIndInv ---------------------------
(***************************************************************************)
(* STATUS: checked against the protocols before the lifecycle merge      *)
(* (commit 093a978); not yet extended to the lifecycle's variables, so    *)
(* not in spec/models.tsv now.  See docs/inductive-invariant.md.          *)
(*                                                                         *)
(* TLC checks that AlignedIndInv is inductive, the standard way: the       *)
(* initial states are ALL states of a bounded type that satisfy            *)
(* AlignedIndInv (IndInit), TLC takes every step of Next from each of them *)
(* and checks AlignedIndInv in every successor, and ConsistentCutInv in   *)
(* every state.  The bounded type: every variable over its TypeInv domain  *)
(* cut to the model's bounds, bags with at most MaxCopies copies of a      *)
(* record and sequences of at most MaxChanLen messages.  The lemmas imply  *)
(* those bounds, so no successor leaves the type: TLC's distinct-state     *)
(* count is the number of AlignedIndInv states checked.                    *)
(*                                                                         *)
(* IndInit is written so that TLC can enumerate it: variables are bound    *)
(* one after another and each lemma filters as soon as its variables are   *)
(* bound; a channel's candidates are filtered edge by edge                 *)
(* (ChanCandidates); a variable a lemma pins to one value is bound to it.  *)
(* None of this changes the set of initial states, only the cost.         *)
(***************************************************************************)
EXTENDS MCAlignedCheckpoint, AlignedIndInv

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
\* What channel e may hold, given the variables bound before it.
ChanCandidates(e) == {q \in SeqsUpTo(Messages, MaxChanLen) : AlignedChannelLemma(e, q)}

\* The bookkeeping and operator variables, bound first.
IndPrefix ==
    /\ failures \in 0..MaxFailures
    /\ discardedUpTo \in 0..MaxCheckpoints
    /\ latest \in 0..MaxCheckpoints
    /\ ckpt \in [CheckpointIds -> {"none", "pending", "completed", "aborted"}]
    /\ latest # 0 => ckpt[latest] = "completed"
    /\ acked \in [CheckpointIds -> SUBSET Tasks]
    /\ BookkeepingLemma
    /\ AckClosureLemma
    /\ offset \in [Sources -> 0..RecordsPerSource]
    /\ snapOffset \in [CheckpointIds -> [Sources -> 0..RecordsPerSource]]
    /\ SourceSnapshotLemma
    /\ handling \in [Operators -> 0..MaxCheckpoints]
    /\ arrived \in [Operators -> SUBSET Edges]
    /\ \A t \in Operators : arrived[t] \subseteq InputsOf(t) /\ (handling[t] = 0 <=> arrived[t] = {})
    /\ HandlingLemma

\* All states of the bounded type that satisfy AlignedIndInv.
IndInit ==
    /\ IndPrefix
    /\ snapProcessed \in [CheckpointIds -> [Operators -> BagsUpTo(MaxCopies)]]
    /\ AckedSnapshotLemma
    \* AlignedNoChannelStateInv pins snapChan to one value: bind it (the same set of states).
    /\ snapChan = [c \in CheckpointIds |-> [e \in Edges |-> <<>>]]
    /\ processed \in [Operators -> BagsUpTo(MaxCopies)]
    /\ chan \in EdgeFunctions(ChanCandidates)
    /\ AlignedIndInv

IndSpec == IndInit /\ [][Next]_vars

=============================================================================
TLC figures: TLC 2.18, one worker, 2 cores shared with other jobs (CPU seconds).
"states" is the number of AlignedIndInv states of the bounded type: the initial states; depth 1
and no new state means every successor is again one of them.

model                            cfg (MCAlignedIndInv_...)        result                 states  depth  CPU
AlignedIndInvJoin                Join.cfg                         pass                    1,279      1   11 s
AlignedIndInvDiamond             Diamond.cfg                      pass                      560      1   30 s
AlignedIndInvBugOffsetEarly      BugOffsetEarly.cfg               inv:AlignedIndInv       1,280      2   35 s
AlignedIndInvJoinTwoCheckpoints  JoinTwoCheckpoints.cfg           not finished here (more than 8,192 initial states after 20 min wall)
