--------------------------- MODULE RescaleRestore ---------------------------
(***************************************************************************)
(* Restoring a checkpoint at a new parallelism: keyed state moved by key   *)
(* groups and the in-flight records stored in the checkpoint redistributed *)
(* to the new channels.                                                    *)
(*                                                                         *)
(* The job: sources (Senders, not rescaled) feed rescaled operators (Ops)  *)
(* through keyed exchanges, along one route (a chain) or several (Routes:  *)
(* a diamond, the source fanning out to two stateless operators that both  *)
(* feed the last one); the last operator holds keyed state (the records it *)
(* processed, per key group), the ones before it are stateless (they       *)
(* forward each record on its key's route).  With several routes a record  *)
(* reaches the last operator once per route, as one copy per route, and    *)
(* every claim counts copies: each record once per route.  A               *)
(* broadcast source may send records to every task of the last operator,   *)
(* which keeps them as broadcast state (operator state in Flink's          *)
(* BROADCAST mode).  Or the last operator is not keyed (a running sum):    *)
(* it is fed through a rebalancing exchange and holds operator list        *)
(* state, each task one element per partial sum it holds (the records      *)
(* summed into it), redistributed on a restore in Flink's SPLIT_DISTRIBUTE *)
(* mode, or in UNION mode with each new task keeping the elements it owns. *)
(* Channels are FIFO and unbounded (the logs are finite).                  *)
(*                                                                         *)
(* The checkpoint protocol is not modelled again here: TakeCheckpoint      *)
(* takes the job's state at one instant, which is what a completed         *)
(* unaligned checkpoint amounts to (a consistent cut: the sources'         *)
(* offsets, the keyed state per key group, and every record in flight,     *)
(* stored per old channel as the receiver's input channel state followed   *)
(* by the sender's output state, in FIFO order).  An aligned checkpoint is *)
(* the special case with nothing in flight; the broadcast input is always  *)
(* checkpointed aligned (FLINK-22815's fix: a broadcast exchange is never  *)
(* unaligned), so the cut has no broadcast record in flight.               *)
(*                                                                         *)
(* Then the job fails and restores at new parallelisms (NewPar):           *)
(* AssignKeyGroups moves each key group whole to the new task owning it    *)
(* (contiguous key-group ranges) and splits the list state's elements      *)
(* among the new tasks, RedistributeChannelState routes every              *)
(* stored record to the new channel its key group's route takes now, in    *)
(* FIFO order per new channel (Flink's virtual channels and                *)
(* InflightDataRescalingDescriptor, FLINK-19533 / FLINK-19801), and        *)
(* RestoreRescaled rewinds the sources and copies the broadcast state.     *)
(* The restored job then runs on, and may fail and restore again from the  *)
(* same checkpoint.                                                        *)
(*                                                                         *)
(* Not modelled: keyed and list state on one operator; several named list  *)
(* states (Flink starts each one's split where the previous one's          *)
(* remainder ended); channels out of the list-state operator (it is the    *)
(* last); a fan-out after the sources (two routes out of one operator:     *)
(* here the routes part at the sources), or one sending each record one    *)
(* way (a source sends every record on every route); exchanges that cannot *)
(* redistribute channel state (forward, rescale, custom partitioners:      *)
(* Flink refuses to rescale them, FLINK-35351); a checkpoint after the     *)
(* restore.                                                                *)
(*                                                                         *)
(* Place in the whole: MCRescaleRestore.tla gives the models and the bad   *)
(* definitions its bug models substitute.  The engine performs these       *)
(* actions under the same names (runtime/Rescaling, docs/vocabulary.md).   *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

CONSTANTS
    Senders,          \* the keyed sources (one task each, not rescaled)
    Log,              \* Log[s]: the keys of the records source s reads, in order
    KeyGroupOf(_),    \* KeyGroupOf(k): key k's key group, in 0..MaxParallelism-1 (a fixed map)
    MaxParallelism,   \* the number of key groups
    Ops,              \* the rescaled operators, upstream first (a sequence); the last one holds
                      \* the keyed state
    OldPar,           \* OldPar[op]: op's parallelism when the checkpoint is taken
    NewPar,           \* NewPar[op]: op's parallelism after the restore
    BroadcastRecords, \* the records the broadcast source sends (0: no broadcast input)
    MaxFailures       \* the failures (each followed by a rescaled restore) in a behaviour

Bc == "bc"            \* the broadcast source
\* A source's node (a channel's sender): <<s, 0>>, so that every node is a pair.
Node(s) == <<s, 0>>
Last == Ops[Len(Ops)] \* the operator with keyed (and broadcast) state
OpSet == {Ops[i] : i \in 1..Len(Ops)}
\* The routes: each the sequence of rescaled operators a record passes from its source to the
\* last operator.  A chain has one, Ops itself; a diamond (MCRescaleRestore's DiamondRoutes)
\* two, the source sending every record to two stateless operators that both feed the last
\* one (in Flink a source with two consumers writes each record to both).  The routes part at
\* the sources: no two start at one operator, so a route is named by its first operator.
Routes == {Ops}
RouteOps(q) == {q[i] : i \in 1..Len(q)}
KeyGroups == 0..(MaxParallelism - 1)
MaxIndex == LET m == {OldPar[op] : op \in OpSet} \cup {NewPar[op] : op \in OpSet}
            IN CHOOSE n \in m : \A x \in m : x <= n

ASSUME /\ MaxParallelism \in Nat \ {0}
       /\ Bc \notin Senders
       /\ Len(Ops) >= 1
       /\ \A q \in Routes : /\ Len(q) >= 1
                           /\ q[Len(q)] = Last
                           /\ RouteOps(q) \subseteq OpSet
                           /\ \A i, j \in 1..Len(q) : i # j => q[i] # q[j]
       /\ \A q1, q2 \in Routes : q1[1] = q2[1] => q1 = q2
       /\ OpSet = UNION {RouteOps(q) : q \in Routes}
       /\ \A op \in OpSet : /\ OldPar[op] \in 1..MaxParallelism
                            /\ NewPar[op] \in 1..MaxParallelism
       /\ \A s \in Senders : \A n \in 1..Len(Log[s]) : KeyGroupOf(Log[s][n]) \in KeyGroups
       /\ BroadcastRecords \in Nat
       /\ MaxFailures \in Nat

\* Records: record n of source s (offsets from 0); a broadcast record has no key.  With several
\* routes, one copy of each record per route, named by the route's first operator (via): what
\* reaches the last operator by two routes is two records (in Flink, left's output and right's),
\* each to be counted once.
OneRoute == Cardinality(Routes) = 1
Copy(s, n, q) == IF OneRoute THEN [src |-> s, off |-> n] ELSE [src |-> s, off |-> n, via |-> q[1]]
Records == UNION {{Copy(s, n, q) : n \in 0..(Len(Log[s]) - 1), q \in Routes} : s \in Senders}
\* The route keyed record r (a copy) takes.
RouteOf(r) == CHOOSE q \in Routes : OneRoute \/ q[1] = r.via
BRecords == {[src |-> Bc, off |-> n] : n \in 0..(BroadcastRecords - 1)}
KeyGroup(r) == KeyGroupOf(Log[r.src][r.off + 1])

\* The task of a rescaled operator op with index i; the tasks of op at parallelism p.
Task(op, i) == <<op, i>>
TasksAt(op, p) == {Task(op, i) : i \in 0..(p - 1)}

\* The task index that owns key group g at parallelism p: key groups are assigned in contiguous
\* ranges, task i owning [ceil(i * M / p), floor(((i + 1) * M - 1) / p)] (Flink's
\* KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex, whose inverse is
\* computeOperatorIndexForKeyGroup: g * p \div M; KeyGroupRangeAssignmentTest).
Owner(g, p) == (g * p) \div MaxParallelism
KeyGroupRange(i, p) == {g \in KeyGroups : Owner(g, p) = i}

\* Whether the last operator is not keyed (a running sum fed through a rebalancing exchange,
\* holding operator list state instead of keyed state), and how its list state is redistributed
\* on a restore: "split" (Flink's OperatorStateHandle.Mode.SPLIT_DISTRIBUTE) or "union" (UNION,
\* each new task keeping the elements it owns).  The keyed job is the default; the models of the
\* non-keyed operator override both (MCRescaleRestore.tla), so that the other models need not
\* name them.
LastHoldsListState == FALSE
ListStateMode == "split"

\* Channels: <<from, to>>; on each route from a source to the first operator's tasks and from
\* each operator's tasks to the next one's; from the broadcast source to the last operator's tasks.
ChannelsAt(par) ==
    UNION {{<<Node(s), t>> : s \in Senders, t \in TasksAt(q[1], par[q[1]])} : q \in Routes}
    \cup UNION {UNION {{<<u, t>> : u \in TasksAt(q[i], par[q[i]]),
                                    t \in TasksAt(q[i + 1], par[q[i + 1]])}
                       : i \in 1..(Len(q) - 1)}
                : q \in Routes}
    \cup (IF BroadcastRecords > 0 THEN {<<Node(Bc), t>> : t \in TasksAt(Last, par[Last])} ELSE {})
MaxPar == [op \in OpSet |-> MaxIndex]
Channels == ChannelsAt(MaxPar)
BroadcastChannels == {ch \in Channels : ch[1] = Node(Bc)}

\* The task of op that a keyed record r goes to at parallelism p: the owner of its key group; on
\* the rebalancing exchange into a non-keyed last operator, round robin per source over the
\* tasks (Flink's RebalancePartitioner cycles through its channels, here from channel 0), so that
\* a record may reach any task of it, and its stored copy any new task.
RouteTask(op, r, p) == IF op = Last /\ LastHoldsListState THEN Task(op, r.off % p)
                       ELSE Task(op, Owner(KeyGroup(r), p))
\* The operator keyed record r goes to next out of node n (a source or a task), on its route.
NextOp(n, r) == LET q == RouteOf(r)
                IN IF n[1] \in Senders THEN q[1]
                   ELSE q[(CHOOSE k \in 1..Len(q) : q[k] = n[1]) + 1]
\* The next hop of keyed record r out of node n at parallelisms par.
NextChannel(n, r, par) == <<n, RouteTask(NextOp(n, r), r, par[NextOp(n, r)])>>

VARIABLES
    phase,     \* "run" (the job runs), "failed" (every task gone), "assigned" (key groups
               \* assigned to the new tasks), "redistributed" (channel state on the new channels)
    par,       \* par[op]: op's parallelism now
    offset,    \* offset[s]: the next record source s reads (the broadcast source included)
    chan,      \* chan[ch]: the records in channel ch, head first
    kstate,    \* kstate[g]: the records the last operator processed of key group g, in order
    kgTask,    \* kgTask[g]: the index of the last operator's task holding key group g's state
    bstate,    \* bstate[i]: the broadcast records task i of the last operator processed, in order
    lstate,    \* lstate[i]: the list state of task i of a non-keyed last operator: its elements
               \* (partial sums), each the records summed into it, in order
    ck,        \* the checkpoint once taken: offsets, keyed state per key group, broadcast and
               \* list state per old task, and per old channel its stored input part and output
               \* part
    taken,     \* whether the checkpoint has been taken
    failures   \* failures so far

vars == <<phase, par, offset, chan, kstate, kgTask, bstate, lstate, ck, taken, failures>>

\* How often r is in sequence q.
Copies(r, q) == Cardinality({i \in 1..Len(q) : q[i] = r})
\* The concatenation of the sequences f[x] for x in S, in a fixed order of S (any order does:
\* FIFO holds per source, key group and route, and the records of one key group from one sender
\* on one route were all on one old channel, its old owner's).
RECURSIVE ConcatOver(_, _)
ConcatOver(S, f) == IF S = {} THEN <<>>
                    ELSE LET x == CHOOSE y \in S : TRUE IN f[x] \o ConcatOver(S \ {x}, f)

Init == /\ phase = "run"
        /\ par = OldPar
        /\ offset = [s \in Senders \cup {Bc} |-> 0]
        /\ chan = [ch \in Channels |-> <<>>]
        /\ kstate = [g \in KeyGroups |-> <<>>]
        /\ kgTask = [g \in KeyGroups |-> Owner(g, OldPar[Last])]
        /\ bstate = [i \in 0..(MaxIndex - 1) |-> <<>>]
        /\ lstate = [i \in 0..(MaxIndex - 1) |-> <<>>]
        /\ ck = [none |-> TRUE]
        /\ taken = FALSE
        /\ failures = 0

-----------------------------------------------------------------------------
(* The job running, at the old parallelism or at the new one.              *)

\* Source s reads its next record and sends it on its key's route, a copy on every route (each
\* route's first hop a channel of its own: the routes part at the sources).
EmitRecord(s) ==
    LET out == {Copy(s, offset[s], q) : q \in Routes}
        hop == [r \in out |-> NextChannel(Node(s), r, par)]
    IN
    /\ phase = "run"
    /\ offset[s] < Len(Log[s])
    /\ offset' = [offset EXCEPT ![s] = @ + 1]
    /\ chan' = [ch \in Channels |-> IF \E r \in out : hop[r] = ch
                                    THEN Append(chan[ch], CHOOSE r \in out : hop[r] = ch)
                                    ELSE chan[ch]]
    /\ UNCHANGED <<phase, par, kstate, kgTask, bstate, lstate, ck, taken, failures>>

\* The broadcast source sends its next record to every task of the last operator.
EmitBroadcast ==
    LET r == [src |-> Bc, off |-> offset[Bc]] IN
    /\ phase = "run"
    /\ offset[Bc] < BroadcastRecords
    /\ offset' = [offset EXCEPT ![Bc] = @ + 1]
    /\ chan' = [ch \in Channels |-> IF ch \in BroadcastChannels /\ ch \in ChannelsAt(par)
                                    THEN Append(chan[ch], r) ELSE chan[ch]]
    /\ UNCHANGED <<phase, par, kstate, kgTask, bstate, lstate, ck, taken, failures>>

\* Record r added to a task's list state q: to its last element (the partial sum the task is
\* adding to), or as its first element.
AddContribution(q, r) == IF q = <<>> THEN <<<<r>>>> ELSE [q EXCEPT ![Len(q)] = Append(@, r)]

\* The receiver of channel ch takes the record at its head: a stateless operator forwards it
\* on its key's route; the last operator adds it to its key group's state (a broadcast record
\* to its broadcast state; a non-keyed last operator to its list state).
ProcessRecord(ch) ==
    LET r == Head(chan[ch])
        t == ch[2]
    IN
    /\ phase = "run"
    /\ ch \in ChannelsAt(par)
    /\ chan[ch] # <<>>
    /\ IF t[1] # Last
       THEN /\ chan' = LET c1 == [chan EXCEPT ![ch] = Tail(@)]
                       IN [c1 EXCEPT ![NextChannel(t, r, par)] = Append(@, r)]
            /\ UNCHANGED <<kstate, bstate, lstate>>
       ELSE /\ chan' = [chan EXCEPT ![ch] = Tail(@)]
            /\ IF r.src = Bc
               THEN /\ bstate' = [bstate EXCEPT ![t[2]] = Append(@, r)]
                    /\ UNCHANGED <<kstate, lstate>>
               ELSE IF LastHoldsListState
               THEN /\ lstate' = [lstate EXCEPT ![t[2]] = AddContribution(@, r)]
                    /\ UNCHANGED <<kstate, bstate>>
               ELSE /\ kstate' = [kstate EXCEPT ![KeyGroup(r)] = Append(@, r)]
                    /\ UNCHANGED <<bstate, lstate>>
    /\ UNCHANGED <<phase, par, offset, kgTask, ck, taken, failures>>

\* Whether the job may be checkpointed now: the broadcast input is aligned, so no broadcast
\* record is in flight at the cut (FLINK-22815's fix).
BroadcastCutAligned == \A ch \in BroadcastChannels : chan[ch] = <<>>

\* The checkpoint: the job's state at this instant, the records in flight stored per channel,
\* each channel's records split into the receiver's part (the older records, taken after the
\* receiver's snapshot) and the sender's part (the newer ones its barrier overtook).  Where the
\* split falls matters only for the order the parts are restored in, so one bound k serves every
\* channel (its first k records are the receiver's part): k = 0 stores everything as output
\* state, a large k everything as input state.
MaxSplit == 2
Split(k, ch) == IF k < Len(chan[ch]) THEN k ELSE Len(chan[ch])
TakeCheckpoint ==
    /\ phase = "run"
    /\ ~taken
    /\ failures = 0
    /\ BroadcastCutAligned
    /\ \E k \in 0..MaxSplit :
          ck' = [offset |-> offset, kstate |-> kstate, bstate |-> bstate, lstate |-> lstate,
                 inputState |-> [ch \in Channels |-> SubSeq(chan[ch], 1, Split(k, ch))],
                 outputState |->
                     [ch \in Channels |-> SubSeq(chan[ch], Split(k, ch) + 1, Len(chan[ch]))]]
    /\ taken' = TRUE
    /\ UNCHANGED <<phase, par, offset, chan, kstate, kgTask, bstate, lstate, failures>>

\* The job fails after the checkpoint: every task and channel is gone.
FailJob ==
    /\ phase = "run"
    /\ taken
    /\ failures < MaxFailures
    /\ failures' = failures + 1
    /\ phase' = "failed"
    /\ chan' = [ch \in Channels |-> <<>>]
    /\ kstate' = [g \in KeyGroups |-> <<>>]
    /\ bstate' = [i \in 0..(MaxIndex - 1) |-> <<>>]
    /\ lstate' = [i \in 0..(MaxIndex - 1) |-> <<>>]
    /\ UNCHANGED <<par, offset, kgTask, ck, taken>>

-----------------------------------------------------------------------------
(* The rescaled restore.                                                   *)

\* The list state's elements in the checkpoint: the old tasks' elements, task 0's first.
RECURSIVE ElementsOfFirst(_)
ElementsOfFirst(n) == IF n = 0 THEN <<>> ELSE ElementsOfFirst(n - 1) \o ck.lstate[n - 1]
ListElements == ElementsOfFirst(OldPar[Last])

\* SPLIT_DISTRIBUTE: the n elements divided among the p new tasks in contiguous runs, each element
\* to exactly one task, the first (n % p) tasks one element more than the others (Flink's
\* RoundRobinOperatorStateRepartitioner.repartitionSplitState, for one named state;
\* RoundRobinOperatorStateRepartitionerTest).  After a scale-up a new task may get none.
SplitStart(j, n, p) == j * (n \div p) + (IF j < n % p THEN j ELSE n % p)
SplitSize(j, n, p) == n \div p + (IF j < n % p THEN 1 ELSE 0)
SplitPart(j) == LET n == Len(ListElements)
                    p == NewPar[Last]
                IN SubSeq(ListElements, SplitStart(j, n, p) + 1, SplitStart(j, n, p) + SplitSize(j, n, p))

\* UNION: every new task gets every element (repartitionUnionState) and keeps the ones it owns,
\* as Flink's Kafka source keeps the offsets of the partitions assigned to it: here an element
\* belongs to the new task its first record's rebalancing route takes now.
ElementOwner(e) == Head(e).off % NewPar[Last]
UnionKept(j) == SelectSeq(ListElements, LAMBDA e : ElementOwner(e) = j)

\* The list state new task j restores.
RestoredListState(j) == IF ListStateMode = "split" THEN SplitPart(j) ELSE UnionKept(j)

\* Each key group moves whole, with its state, to the new task owning it; the list state's
\* elements are redistributed among the new tasks (Flink's StateAssignmentOperation assigns the
\* keyed and the operator state in the same step).
AssignKeyGroups ==
    /\ phase = "failed"
    /\ phase' = "assigned"
    /\ par' = NewPar
    /\ kgTask' = [g \in KeyGroups |-> Owner(g, NewPar[Last])]
    /\ kstate' = ck.kstate
    /\ lstate' = [j \in 0..(MaxIndex - 1) |-> IF j < NewPar[Last] THEN RestoredListState(j) ELSE <<>>]
    /\ UNCHANGED <<offset, chan, bstate, ck, taken, failures>>

\* Whether the channel state of the channels into operator op is reassigned on a rescale.
Reassigned(op) == TRUE

\* The new channels a record r stored on old channel ch goes to: a keyed record to the channel
\* its key group's route takes at the new parallelisms, from the new task of the sender's
\* operator that owns its key group (a source stays itself); a broadcast record to the new task
\* of the old channel's index, if there is one (the broadcast input being aligned at the cut,
\* no broadcast record is stored: only an unaligned broadcast, BugBroadcastUnaligned, has some).
StoredRoute(ch, r) ==
    IF r.src = Bc THEN {<<Node(Bc), t>> : t \in {u \in TasksAt(Last, NewPar[Last]) : u = ch[2]}}
    ELSE LET from == IF ch[1][1] \in Senders THEN ch[1]
                     ELSE RouteTask(ch[1][1], r, NewPar[ch[1][1]])
         IN {<<from, RouteTask(ch[2][1], r, NewPar[ch[2][1]])>>}

\* The stored records of old channel ch in FIFO order: its input part, then its output part
\* (unless the channels into its receiver's operator are not reassigned).
StoredParts(ch) == IF Reassigned(ch[2][1]) THEN ck.inputState[ch] \o ck.outputState[ch] ELSE <<>>

\* What new channel nc receives: from each old channel, in FIFO order, the stored records
\* routed to nc.  The records of one key group on one route come from one old channel (its old
\* owner's), so the order across old channels does not matter for FIFO per key group.
Redistributed(nc) ==
    ConcatOver(Channels,
        [ch \in Channels |-> SelectSeq(StoredParts(ch), LAMBDA r : nc \in StoredRoute(ch, r))])

\* Every stored in-flight record is routed to the new task owning its key group.
RedistributeChannelState ==
    /\ phase = "assigned"
    /\ phase' = "redistributed"
    /\ chan' = [nc \in Channels |-> IF nc \in ChannelsAt(NewPar) THEN Redistributed(nc) ELSE <<>>]
    /\ UNCHANGED <<par, offset, kstate, kgTask, bstate, lstate, ck, taken, failures>>

\* The broadcast state new task j restores: task 0's (all old tasks hold the same, the
\* broadcast input being aligned), copied to every new task.
RestoredBroadcastState(j) == ck.bstate[0]

\* The sources rewind to the checkpoint's offsets, the broadcast state is copied, the job runs.
RestoreRescaled ==
    /\ phase = "redistributed"
    /\ phase' = "run"
    /\ offset' = ck.offset
    /\ bstate' = [j \in 0..(MaxIndex - 1) |->
                     IF j < NewPar[Last] THEN RestoredBroadcastState(j) ELSE <<>>]
    /\ UNCHANGED <<par, chan, kstate, kgTask, lstate, ck, taken, failures>>

\* Every source read its log and every channel is empty: the run is over; it stutters.
Drained == /\ phase = "run"
           /\ \A s \in Senders : offset[s] = Len(Log[s])
           /\ offset[Bc] = BroadcastRecords
           /\ \A ch \in Channels : chan[ch] = <<>>
Terminating == Drained /\ UNCHANGED vars

Next == \/ \E s \in Senders : EmitRecord(s)
        \/ EmitBroadcast
        \/ \E ch \in Channels : ProcessRecord(ch)
        \/ TakeCheckpoint \/ FailJob
        \/ AssignKeyGroups \/ RedistributeChannelState \/ RestoreRescaled
        \/ Terminating

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* What the rescaled restore promises.                                     *)

\* Every variable has its type.
TypeInv ==
    /\ phase \in {"run", "failed", "assigned", "redistributed"}
    /\ par \in {OldPar, NewPar}
    /\ offset \in [Senders \cup {Bc} -> Nat]
    /\ chan \in [Channels -> Seq(Records \cup BRecords)]
    /\ kstate \in [KeyGroups -> Seq(Records)]
    /\ kgTask \in [KeyGroups -> 0..(MaxIndex - 1)]
    /\ bstate \in [0..(MaxIndex - 1) -> Seq(BRecords)]
    /\ lstate \in [0..(MaxIndex - 1) -> Seq(Seq(Records))]
    /\ taken \in BOOLEAN
    /\ failures \in 0..MaxFailures

\* How often record r (with several routes, one route's copy of it) is in the job now: in its key
\* group's state, in the list state (over every task and element) or in flight.
Slots == UNION {{<<ch, i>> : i \in 1..Len(chan[ch])} : ch \in Channels}
InFlight(r) == Cardinality({p \in Slots : chan[p[1]][p[2]] = r})
RECURSIVE Flat(_)
Flat(q) == IF q = <<>> THEN <<>> ELSE Head(q) \o Flat(Tail(q))
Contributions(r) ==
    Copies(r, ConcatOver(0..(MaxIndex - 1), [i \in 0..(MaxIndex - 1) |-> Flat(lstate[i])]))
Held(r) == Copies(r, kstate[KeyGroup(r)]) + Contributions(r) + InFlight(r)
\* Whether record r has been read by its source (before the restore point, after a restore).
Read(r) == r.off < offset[r.src]

\* While the job runs (before the checkpoint, after a rescaled restore), no record read is lost:
\* each is in its key group's state or in flight, once per route (every copy is).  At the first
\* state after a restore this is the restored cut: the checkpoint's state and its redistributed
\* channel state lose nothing.
RescaledNoSkipInv == phase = "run" => \A r \in Records : Read(r) => Held(r) >= 1

\* While the job runs, no record is counted twice: in the state and in flight together at most
\* once per route, and not at all if its source has not read it (after the restore, rewound past
\* it).
RescaledNoDoubleCountInv ==
    phase = "run" => \A r \in Records : Held(r) <= (IF Read(r) THEN 1 ELSE 0)

\* Each key group's state and its in-flight records are on the same task: the state on the
\* task owning the key group at the current parallelism, and every record in a channel into a
\* rescaled operator on the channel to the task owning its key group there.
KeyColocatedInv ==
    phase = "run" =>
        /\ \A g \in KeyGroups : g \in KeyGroupRange(kgTask[g], par[Last])
        /\ \A ch \in ChannelsAt(par) : \A i \in 1..Len(chan[ch]) :
              chan[ch][i].src # Bc => ch[2] = RouteTask(ch[2][1], chan[ch][i], par[ch[2][1]])

\* FIFO per channel: on every channel, and in every key group's state, the records of one source,
\* one key group and one route are in the order the source read them.  That is what FIFO
\* channels give a key across a rescale, which merges old channels into one new channel or splits
\* one among several: the order across key groups (across old channels) is not kept, nor needed,
\* nor across routes (a diamond's last operator may take record 1 by one route after record 2 by
\* the other).
SameStream(x, y) ==
    x.src = y.src /\ (x.src # Bc => KeyGroup(x) = KeyGroup(y) /\ RouteOf(x) = RouteOf(y))
InOrder(q) == \A i, j \in 1..Len(q) : i < j /\ SameStream(q[i], q[j]) => q[i].off < q[j].off
FifoPerChannelInv ==
    /\ \A ch \in Channels : InOrder(chan[ch])
    /\ \A g \in KeyGroups : InOrder(kstate[g])

\* Every task of the last operator holds every broadcast record read exactly once, in its
\* broadcast state or in flight to it, and none not read: one task's broadcast state is every
\* task's after a restore.
BroadcastStateInv ==
    phase = "run" =>
        \A i \in 0..(par[Last] - 1) : \A b \in BRecords :
            Copies(b, bstate[i]) + Copies(b, chan[<<Node(Bc), Task(Last, i)>>])
                = (IF b.off < offset[Bc] THEN 1 ELSE 0)

\* While the job runs, the non-keyed operator's list state holds the contribution of every record
\* read that is not in flight to it exactly once over all its tasks and elements, and none of a
\* record not read: a restore gives each element of the checkpoint's list state to one new task.
ListStateExactlyOnceInv ==
    phase = "run" /\ LastHoldsListState =>
        \A r \in Records : Contributions(r) + InFlight(r) = (IF Read(r) THEN 1 ELSE 0)

=============================================================================
Models and TLC figures: MCRescaleRestore.tla (after its ====).
