------------------------------ MODULE MCDataflow ------------------------------
(***************************************************************************)
(* Model values both MC modules share: the topologies, the routes, the     *)
(* correct and bad definitions of the three dials of Dataflow.tla          *)
(* (RecordedOffset, RestoredChannel, FinishedSourcesInject,               *)
(* ArrivedWithEnded), and the state                                        *)
(* view.  The .cfg files pick them by substitution, e.g.                   *)
(* `Edges <- JoinEdges` or `RecordedOffset <- OffsetEarly`.                *)
(*                                                                         *)
(* Place in the whole: MCAlignedCheckpoint.tla and                         *)
(* MCUnalignedCheckpoint.tla EXTEND this module and their protocol module. *)
(***************************************************************************)
EXTENDS Dataflow, TLC

\* The two sources of Join are model values, so that TLC can exploit their symmetry.
CONSTANTS s1, s2

(* Topology "Join": two sources into a two-input join, followed by a sink. *)
JoinSources == {s1, s2}
JoinOperators == {"join", "sink"}
JoinEdges == {<<s1, "join">>, <<s2, "join">>, <<"join", "sink">>}
\* Swapping s1 and s2 maps every Join model to itself: both feed the join alike, read
\* logs of the same length, and every route, dial and invariant treats them alike (the
\* keyed route keys on offsets, never on a source's name).  So symmetry reduction is
\* sound for the safety models of Join.  Not used with liveness, where it is not.
JoinSymmetry == Permutations(JoinSources)

(* Topology "Diamond": one source fans out to two operators, which join.   *)
DiamondSources == {"src"}
DiamondOperators == {"left", "right", "join"}
DiamondEdges == {<<"src", "left">>, <<"src", "right">>, <<"left", "join">>, <<"right", "join">>}

\* Broadcast: a record takes every out-edge of its node (a source: only its own records).
BroadcastRoute(n, r) ==
    IF n \in Sources /\ r.src # n THEN {} ELSE OutputsOf(n)

\* Keyed (Diamond): the source sends even offsets left and odd offsets right, one edge each.
KeyedRoute(n, r) ==
    IF n \in Sources
      THEN IF r.src # n THEN {}
           ELSE {e \in OutputsOf(n) : e[2] = IF r.off % 2 = 0 THEN "left" ELSE "right"}
      ELSE OutputsOf(n)

-----------------------------------------------------------------------------
(* The dial RecordedOffset: the offset a source records with its barrier.  *)

\* Correct: the next offset to read; the barrier follows exactly the records below it.
OffsetExact(n) == n

\* Bug 1: the source records its offset one record early (the seed's 950 of 1,000).  The
\* record just before the barrier is in downstream state and is also replayed after a
\* restore: it is counted twice.  TLC must report NoDoubleCountInv.
OffsetEarly(n) == IF n = 0 THEN 0 ELSE n - 1

\* Bug 2: the source records its offset one record late (the seed's 1,050 of 1,000).  The
\* record just after the barrier is in no state and is never replayed: it is skipped.
\* TLC must report NoSkipInv.
OffsetLate(n) == IF n = RecordsPerSource THEN n ELSE n + 1

-----------------------------------------------------------------------------
(* The dial RestoredChannel: what recovery puts back into a channel.       *)

\* Correct: the channel's persisted state, ahead of any new record.
RestoreChannelState(q) == q

\* Bug 6: recovery drops the persisted channel state.  The records it held are in no
\* operator state and lie below the sources' recorded offsets: nobody replays them.
\* Caught by ExactlyOnceInv (the cut itself was consistent; the restore loses it).
DropChannelState(q) == <<>>

-----------------------------------------------------------------------------
(* The dial FinishedSourcesInject.                                         *)

\* Correct: a source at the end of its log still injects the barriers of new checkpoints.
FinishedInjects == TRUE

\* Bug 8, as Flink before FLIP-147 (FLINK-2491): a finished source no longer takes part in
\* checkpoints.  A checkpoint triggered after it finished waits forever for its barrier:
\* TLC must refute CheckpointCompletesProp; with blocking inputs (aligned) the run also
\* stops dead before it drains: a deadlock.  Its models run with EndOfInput = FALSE, the
\* world before FLIP-147: no end of partition reaches a barrier handler (with it, the
\* receivers would count the ended input as arrived: BugEndedInputNotCountedAsArrived is the
\* receiving side's version of this bug).
FinishedSilent == FALSE

-----------------------------------------------------------------------------
(* The dial ArrivedWithEnded: which inputs alignment counts as arrived.    *)

\* Correct (FLIP-147): an input that has ended counts as having delivered every barrier.
EndedCountsAsArrived(barrierArrived, ended) == barrierArrived \cup ended

\* BugEndedInputNotCountedAsArrived: only real barriers count.  A checkpoint triggered
\* after one input of a task ended never aligns at that task; an aligned task blocks the
\* inputs whose barrier arrived for ever.  TLC must report a deadlock (aligned Join).
BugEndedInputNotCountedAsArrived(barrierArrived, ended) == barrierArrived

-----------------------------------------------------------------------------
(* The state view TLC uses to recognise states it has already seen.        *)
(* Soundness: the view forgets only data no action reads and no checked    *)
(* invariant reads again.  (1) The snapshot data of a checkpoint that is   *)
(* neither pending nor the latest completed one: aborted data is never     *)
(* read, and a completed checkpoint's data never changes after it          *)
(* completes, in a state where it is the latest and so kept in the view:   *)
(* TLC checked it there.  Only the latest completed one is read            *)
(* (FailAndRestore).  (2) The acknowledgements of a checkpoint that is     *)
(* no longer live: no action reads them (InFlight, BarrierDue and          *)
(* CompleteCheckpoint all require a live or pending checkpoint, and a      *)
(* failure turns every pending one into an aborted one).  Two states with  *)
(* the same view therefore have the same successors up to forgotten data,  *)
(* and every invariant of the models reads only what the view keeps or     *)
(* what it kept when that data was last written.  Not used with liveness.  *)
StateView ==
    LET kept(c) == ckpt[c] = "pending" \/ c = latest IN
    << offset, chan, processed, handling, arrived, ckpt, current, endedInputs, endedSources,
       [c \in CheckpointIds |-> IF Live(c) THEN acked[c] ELSE {}],
       [c \in CheckpointIds |-> IF kept(c) THEN <<snapOffset[c], snapProcessed[c], snapChan[c]>>
                                          ELSE <<>>],
       latest, discardedUpTo, failures >>

=============================================================================
No models of its own; the figures of the models that use it are in MCAlignedCheckpoint.tla
and MCUnalignedCheckpoint.tla.
