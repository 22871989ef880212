--------------------------- MODULE DataflowGraph ----------------------------
(***************************************************************************)
(* The dataflow graph every protocol runs on: the constants of a model,    *)
(* the checkpoint ids, the records, where each record is routed and by how *)
(* many paths it reaches each operator. Constant level only: TLC evaluates *)
(* each table here once.                                                   *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANTS
    Sources,          \* source tasks; each reads its own replayable input log
    Operators,        \* operator tasks (multi-input, multi-output; sinks have no output)
    Edges,            \* directed acyclic edges <<from, to>>, from a task to an operator
    Route(_, _),      \* Route(n, r): the out-edges of node n that record r takes
    RecordsPerSource, \* length of every source's input log
    Capacity,         \* records (not barriers) a channel holds at most: backpressure
    MaxCheckpoints,   \* checkpoint ids are 1..MaxCheckpoints, never reused
    MaxConcurrent,    \* checkpoints in flight at once, at most
    MaxFailures,      \* global failures, at most
    AbortEnabled,     \* whether the coordinator may time a pending checkpoint out
    AbortsReachTasks, \* TRUE (Flink): an aborted checkpoint leaves flight at once and tasks
                      \* learn of it; FALSE (model option): it stays in flight until every
                      \* task has acknowledged it, and no task learns of it
    EndOfInput        \* whether sources end their partitions (FLIP-147) once their log is read

\* Every task: the sources and the operators.
Tasks == Sources \cup Operators

-----------------------------------------------------------------------------
(* The transactional sink is a model option, a definition rather than a    *)
(* CONSTANT so that the models and trace configurations without it need    *)
(* not bind it; a .cfg turns it on with `TransactionalSink <- SinkOn`      *)
(* (MCDataflow.tla).  It decides which operators are sinks and how many    *)
(* checkpoint ids there are: with the option off there are no sinks and    *)
(* the ids are 1..MaxCheckpoints.                                          *)

\* The model option: operators without outputs are two-phase-commit sinks.
TransactionalSink == FALSE
\* The sinks: the operators without outputs (none with the option off).
SinkTasks == IF TransactionalSink THEN {t \in Operators : \A e \in Edges : e[1] # t} ELSE {}
\* Checkpoint ids beyond MaxCheckpoints are final checkpoints: triggered only when every task
\* has ended and a sink has a transaction no live checkpoint will commit.  One per failure
\* (a failure can abort it) and one more suffice when timeouts are off.
FinalCheckpoints == IF TransactionalSink THEN MaxFailures + 1 ELSE 0
\* The largest checkpoint id, final checkpoints included.
MaxCheckpointId == MaxCheckpoints + FinalCheckpoints
\* Every checkpoint id; none is reused.
CheckpointIds == 1..MaxCheckpointId

-----------------------------------------------------------------------------
(* The graph and the routes of the records.                                *)

\* The in- and out-edges of every node, tabulated once (TLC evaluates a constant
\* definition once, not in every state; the same holds for RouteTable and PathTable).
InputTable == [n \in Tasks |-> {e \in Edges : e[2] = n}]
OutputTable == [n \in Tasks |-> {e \in Edges : e[1] = n}]
InputsOf(t) == InputTable[t]
OutputsOf(n) == OutputTable[n]

\* A record is identified by its source and offset; operators keep that identity.
Records == [src : Sources, off : 0..RecordsPerSource - 1]

ASSUME /\ Sources \cap Operators = {}
       /\ Edges \subseteq Tasks \X Operators
       /\ \A n \in Tasks, r \in Records : Route(n, r) \subseteq OutputsOf(n)
       /\ \A s \in Sources, r \in Records : r.src # s => Route(s, r) = {}
       /\ RecordsPerSource \in Nat /\ Capacity \in Nat \ {0}
       /\ MaxCheckpoints \in Nat /\ MaxConcurrent \in Nat \ {0}
       /\ MaxFailures \in Nat /\ AbortEnabled \in BOOLEAN
       /\ AbortsReachTasks \in BOOLEAN /\ EndOfInput \in BOOLEAN
       \* A final checkpoint needs the end of input.
       /\ TransactionalSink => EndOfInput

RECURSIVE Downstream(_, _)
\* The nodes reachable from node n in 1..k steps.
Downstream(n, k) ==
    IF k = 0 THEN {}
    ELSE LET next == {e[2] : e \in OutputsOf(n)}
         IN  next \cup UNION {Downstream(m, k - 1) : m \in next}

\* The graph is acyclic (Paths counts routes by recursion over it).
ASSUME \A n \in Tasks : n \notin Downstream(n, Cardinality(Tasks))

RECURSIVE SumOver(_, _)
\* The sum of f[x] over the finite set S.
SumOver(S, f) == IF S = {} THEN 0
                 ELSE LET x == CHOOSE x \in S : TRUE IN f[x] + SumOver(S \ {x}, f)

\* The routes of every record from every node, tabulated once.
RouteTable == [n \in Tasks |-> [r \in Records |-> Route(n, r)]]
\* The out-edges of node n that record r takes (Route, looked up).
RouteOf(n, r) == RouteTable[n][r]

RECURSIVE CountPaths(_, _, _)
\* The number of routes record r takes from node n to operator t (the graph is a DAG).
CountPaths(n, r, t) ==
    IF n = t THEN 1
    ELSE SumOver(RouteOf(n, r), [e \in RouteOf(n, r) |-> CountPaths(e[2], r, t)])

\* CountPaths, tabulated once.
PathTable == [n \in Tasks |-> [r \in Records |-> [t \in Operators |-> CountPaths(n, r, t)]]]

\* Paths(n, r, t): the number of routes from node n to operator t for record r.
\* Implemented by PhysicalGraph.paths(n, r, t).
Paths(n, r, t) == PathTable[n][r][t]

=============================================================================
