------------------------- MODULE MCRescaleRestore -------------------------
(***************************************************************************)
(* Models of RescaleRestore.tla for TLC: the job shapes and parallelisms,  *)
(* and the bad definitions its bug models substitute, one per known        *)
(* failure of Flink's rescaled restore.  The bounds are in each .cfg,      *)
(* named MCRescaleRestore_<Purpose>.cfg; the folder's models.tsv records   *)
(* what TLC must report for each.                                          *)
(***************************************************************************)
EXTENDS RescaleRestore, TLC

-----------------------------------------------------------------------------
(* Keys and shapes.                                                        *)

\* Four key groups; keys k1..k3 in groups 0, 1 and 3: at parallelism 2 task 0 owns 0-1 and task 1
\* owns 2-3, at parallelism 3 the ranges are 0-1, 2 and 3, at parallelism 1 task 0 owns all.
MCMaxParallelism == 4
MCKeyGroupOf(k) == CASE k = "k1" -> 0 [] k = "k2" -> 1 [] k = "k3" -> 3

\* Join: two sources into the keyed operator "count"; s1 reads two records of one key (so that a
\* channel can hold two records of one key group: FIFO per key), s2 one of key group 0 and one of
\* key group 1 (which the ranges and a round robin assign apart at parallelism 2).
JoinSenders == {"s1", "s2"}
JoinLog == [s \in JoinSenders |-> IF s = "s1" THEN <<"k3", "k3">> ELSE <<"k1", "k2">>]
\* One source: three records (two of one key) before a chain of two operators; two records.
OneSender == {"s1"}
MapLog == [s \in OneSender |-> <<"k1", "k3", "k3">>]
ShortLog == [s \in OneSender |-> <<"k2", "k3">>]
CountOnly == <<"count">>
\* A stateless "map" between the source and "count" (both keyed exchanges).
MapCount == <<"map", "count">>

Par1 == [op \in {"count"} |-> 1]
Par2 == [op \in {"count"} |-> 2]
Par3 == [op \in {"count"} |-> 3]
MapPar1 == [op \in {"map", "count"} |-> 1]
MapPar2 == [op \in {"map", "count"} |-> 2]

\* Diamond (spec/core MCDataflow's Diamond with its broadcast route, not the keyed one that sends
\* each record one way): one source sends every record to two stateless operators, "left" and
\* "right", both feeding the keyed "count"; each of the four edges is a keyed exchange.
\* Two routes, each record reaching count once by each, as two copies (via left, via right).
DiamondOps == <<"left", "right", "count">>
DiamondRoutes == {<<"left", "count">>, <<"right", "count">>}
DiamondPar1 == [op \in {"left", "right", "count"} |-> 1]
DiamondPar2 == [op \in {"left", "right", "count"} |-> 2]

\* Sum: the two sources of Join into a non-keyed running sum through a rebalancing exchange (a
\* record of offset n to task n % p): each task's list state one element, its partial sum.
SumOnly == <<"sum">>
SumPar1 == [op \in {"sum"} |-> 1]
SumPar2 == [op \in {"sum"} |-> 2]
SumPar3 == [op \in {"sum"} |-> 3]
ListStateOn == TRUE
UnionMode == "union"

-----------------------------------------------------------------------------
(* Bad BroadcastCutAligned.                                                *)

\* BugBroadcastUnaligned, as FLINK-22815 (fixed by never checkpointing a broadcast exchange
\* unaligned): the broadcast input is checkpointed unaligned, so the tasks of the keyed
\* operator have seen different numbers of broadcast records at the cut, the rest stored as
\* channel state.  On the restore one task's broadcast state is copied to every new task, and
\* each old channel's stored broadcast records go to the new task of its index: a task that had
\* seen fewer than task 0 gets a record twice (a new task beyond the old ones, if task 0 had seen
\* fewer, none).  TLC must report BroadcastStateInv.
BugBroadcastUnaligned == TRUE

-----------------------------------------------------------------------------
(* Bad Reassigned.                                                         *)

\* BugStatelessSkipsReassignment, as FLINK-31963 (StateAssignmentOperation skipped an operator
\* without state, although its input channels held in-flight records; fixed by reassigning the
\* channel state of every operator; UnalignedCheckpointRescaleITCase): the channel state of a
\* stateless operator between two exchanges is not reassigned, and its in-flight records are
\* lost.  TLC must report RescaledNoSkipInv.
BugStatelessSkipsReassignment(op) == op = Last

\* BugDiamondRouteSkipsReassignment, FLINK-31963's mechanism on one route of the diamond: the
\* channel state into "right" is not reassigned (the state assignment skipped a task with no
\* state of its own; here right is that task, and left is taken to hold state the model does not
\* track, so its channel state is reassigned).  The copies in flight to right are lost while their
\* twins via left are counted: a record counted once over both routes would hide the loss, the
\* count per route does not.  TLC must report RescaledNoSkipInv.
BugDiamondRouteSkipsReassignment(op) == op # "right"

-----------------------------------------------------------------------------
(* Bad StoredRoute.                                                        *)

\* BugChannelStateOnOldIndex: each old channel's stored records are restored on the channel with
\* the same index (as if the parallelism had not changed, the mapping before Flink's
\* InflightDataRescalingDescriptor, FLINK-19533).  After a scale-down the channels of the tasks
\* that are gone have no receiver: their records are lost.  TLC must report RescaledNoSkipInv.
BugChannelStateOnOldIndex(ch, r) == {ch}

\* BugKeyGroupSplit: the stored records are routed by a key group assignment other than the
\* one the keyed state moves by (round robin, g mod p, instead of contiguous ranges), so a key
\* group's in-flight records go to one new task and its state (and its new records) to another:
\* the records of one key group split across two new tasks.  TLC must report KeyColocatedInv.
BugKeyGroupSplit(ch, r) ==
    LET Mod(op) == Task(op, KeyGroup(r) % NewPar[op])
    IN {<<IF ch[1][1] \in Senders THEN ch[1] ELSE Mod(ch[1][1]), Mod(ch[2][1])>>}

-----------------------------------------------------------------------------
(* Bad RestoredListState.                                                  *)

\* BugListStateAsUnion: a SPLIT list state restored as UNION, each new task keeping every element
\* (what a UNION state's owner must not do with a running sum: Flink's UNION mode hands every
\* element to every task, RoundRobinOperatorStateRepartitioner.repartitionUnionState, and leaves
\* it to the operator to keep its own).  Every partial sum is counted on every new task.  TLC
\* must report ListStateExactlyOnceInv.
BugListStateAsUnion(j) == ListElements

\* BugListSplitRoundsDown: the split gives each new task n \div p elements and drops the
\* remainder (RoundRobinOperatorStateRepartitioner hands it out one element each to the first
\* n % p tasks).  Fewer elements than new tasks (one or two among three): all dropped, and their
\* records' contributions with them.  TLC must report ListStateExactlyOnceInv.
BugListSplitRoundsDown(j) ==
    LET n == Len(ListElements)
        p == NewPar[Last]
    IN SubSeq(ListElements, j * (n \div p) + 1, (j + 1) * (n \div p))

=============================================================================
TLC figures: see models.tsv (pinned counts) and notebook/2026-12-06-rescale-spec.md.
