---------------------- MODULE IncrementalCheckpointStore ----------------------
(***************************************************************************)
(* Incremental checkpoints and the shared-state registry (Flink's          *)
(* SharedStateRegistry with DefaultCompletedCheckpointStore), on the       *)
(* coordinator's side.                                                     *)
(*                                                                         *)
(* The job's state is a set of immutable local files (RocksDB's SST        *)
(* files, the segments of a changelog): a write adds a file, a compaction  *)
(* replaces some of them (all, or the prefix a background materialisation  *)
(* merged) by a new one holding what they held.  A checkpoint of that state is its private files plus one remote   *)
(* file per local file: the local files the newest retained checkpoint     *)
(* already holds are referenced, not uploaded again (shared files); the    *)
(* others are uploaded as new remote files.  A remote file is <<f, c>>:    *)
(* local file f as uploaded by checkpoint c (a re-upload is another        *)
(* remote file, as Flink gives every upload its own path); <<0, c>> stands *)
(* for c's private files (its metadata and the task's private state).      *)
(*                                                                         *)
(* The store keeps the newest Retained completed checkpoints.  The         *)
(* registry counts, per shared remote file, the registered checkpoints     *)
(* that reference it; a checkpoint is registered when it completes.  When  *)
(* a checkpoint is subsumed it leaves the store and its discard is         *)
(* decided; the discard then runs on its own (UnregisterCheckpoint): the   *)
(* counts of its shared files drop and the files no checkpoint counts any  *)
(* more, with its private files, are scheduled for deletion; each delete   *)
(* happens later, as a step of its own (DeleteFile).  A pending checkpoint *)
(* may fail at any time; its uploads are then deleted.  The job may fail   *)
(* between any two steps: it restarts from the newest checkpoint in the    *)
(* store with a new registry, counted from the store (the registry is      *)
(* scoped per run, FLINK-7268's fix); the discards the old registry had    *)
(* decided are finished by the old registry.  The job may stop; its        *)
(* store's checkpoints are then kept for the user, and a new job may       *)
(* resume from the newest of them without owning its files (Flink's        *)
(* NO_CLAIM / LEGACY restore modes): it reuses them but never deletes      *)
(* them (FLINK-26985's fix).                                               *)
(*                                                                         *)
(* One task, one pending checkpoint at a time (a newer completion          *)
(* subsumes a pending older one in Flink, so no two are ever registered    *)
(* out of order).  The task learns of a completion at once: it reuses the  *)
(* files of the newest checkpoint in the store (a late notification only   *)
(* makes it upload more).                                                  *)
(*                                                                         *)
(* Place in the whole: FullSnapshotStore.tla is what this store must look  *)
(* like from outside (RefinesFullSnapshotStoreProp below);                 *)
(* MCIncrementalCheckpointStore.tla gives the models and the bad           *)
(* definitions its bug models substitute.  Java: DirectoryCheckpointStore  *)
(* and SharedStateRegistry perform the store's actions under these names   *)
(* (docs/vocabulary.md).                                                   *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANTS
    MaxFiles,        \* local files the task writes in all runs together: ids 1..MaxFiles
    MaxCheckpoints,  \* checkpoint ids 1..MaxCheckpoints, used in order, never reused
    Retained,        \* K: the completed checkpoints the store keeps
    MaxFailures,     \* job failures (RestoreCheckpoint) in a behaviour
    MaxStops         \* job stops (StopJob) in a behaviour

ASSUME /\ MaxFiles \in Nat \ {0}
       /\ MaxCheckpoints \in Nat \ {0}
       /\ Retained \in Nat \ {0}
       /\ MaxFailures \in Nat
       /\ MaxStops \in Nat

CheckpointIds == 1..MaxCheckpoints
FileIds == 1..MaxFiles
\* Remote files: <<f, c>> is local file f uploaded by checkpoint c; <<0, c>> is c's private files.
RemoteFiles == (0..MaxFiles) \X CheckpointIds
SharedFiles == FileIds \X CheckpointIds
PrivateFile(c) == <<0, c>>
\* A checkpoint in flight: triggered, not yet completed or failed.
InFlightStatuses == {"pending", "acknowledged"}
Statuses == {"none", "failed", "completed", "subsumed"} \cup InFlightStatuses

VARIABLES
    db,          \* the task's local state: the set of local files it holds now
    holds,       \* holds[f]: the writes local file f holds (a write holds itself, a compacted
                 \* file what the files it replaced held); {} until f is made.  The state's
                 \* meaning: the refinement maps the task's state to the writes its files hold
    nextFile,    \* the id the task's next local file gets (files are never reused)
    ckpt,        \* ckpt[c]: "none" (not triggered), "pending" (the task uploads),
                 \* "acknowledged" (the task acknowledged with its handle; the metadata
                 \* is not durable yet), "completed" (metadata durable, in a store),
                 \* "subsumed" (left the store), "failed" (aborted, or lost by a failure)
    refs,        \* refs[c]: the remote files checkpoint c consists of (its handle),
                 \* fixed at its trigger: reused shared files, new uploads, its private files
    storage,     \* the remote files that exist in durable storage
    store,       \* the checkpoints in the running job's store (durable metadata): what a
                 \* restart restores from, the newest one
    kept,        \* the checkpoints retained for the user by stopped jobs: what a new job may
                 \* resume from; the user owns them, no job deletes their files
    refCount,    \* refCount[o]: the running job's registry's count of shared remote file o:
                 \* the registered checkpoints (completed, not yet unregistered) that reference o
    discarding,  \* the subsumed checkpoints whose discard the registry has decided and not
                 \* yet carried out (UnregisterCheckpoint)
    toDelete,    \* the remote files whose deletion is scheduled and not yet done (DeleteFile)
    notOwned,    \* the remote files of checkpoints a job resumed from: the job's registry
                 \* counts them but never deletes them (Flink's highestNotClaimedCheckpointID)
    stopped,     \* whether the job is stopped (no job runs)
    failures,    \* job failures so far (bounded by MaxFailures)
    stops        \* job stops so far (bounded by MaxStops)

vars == <<db, holds, nextFile, ckpt, refs, storage, store, kept, refCount, discarding, toDelete,
          notOwned, stopped, failures, stops>>

Newest(S) == CHOOSE c \in S : \A d \in S : d <= c
Oldest(S) == CHOOSE c \in S : \A d \in S : c <= d

\* The local files a set of remote files holds (a private file holds none of them).
Content(S) == {o[1] : o \in S} \ {0}
\* The writes a set of local files holds: what a state made of them means.
Writes(F) == UNION {holds[f] : f \in F}
\* The shared remote files of checkpoint c.
SharedRefs(c) == refs[c] \cap SharedFiles
\* The checkpoints in flight (at most one).
InFlight == {c \in CheckpointIds : ckpt[c] \in InFlightStatuses}
\* The checkpoints a restart or a resume may read: those in the store and those kept.
RetainedCheckpoints == store \cup kept
\* Whether the running job may delete remote file o: it did not resume from a checkpoint holding it.
Owned(o) == o \notin notOwned

\* The shared remote files the task may reuse: those of the newest checkpoint in the store.
Reusable == IF store = {} THEN {} ELSE SharedRefs(Newest(store))

\* The handle of checkpoint c taken now: for each local file, the reusable remote file that
\* holds it, else a new upload <<f, c>>; and c's private files.
Handle(c) ==
    {IF \E o \in Reusable : o[1] = f THEN CHOOSE o \in Reusable : o[1] = f ELSE <<f, c>> : f \in db}
    \cup {PrivateFile(c)}

\* The files checkpoint c uploads itself (new shared files; its private files).
OwnUploads(c) == {o \in refs[c] : o[2] = c}

\* What restoring the newest of the checkpoints S reads back: the local files of its remote
\* files that exist (a deleted one cannot be read).  Empty if S is.
Restored(S) == IF S = {} THEN {} ELSE Content(refs[Newest(S)] \cap storage)

\* The registry's counts rebuilt from the checkpoints S (a new registry registers them all).
Counts(S) == [o \in SharedFiles |-> Cardinality({c \in S : o \in refs[c]})]

\* Given counts rc, the counts after RegisterSharedFile of every shared file of checkpoint c.
RegisterSharedFiles(rc, c) == [o \in SharedFiles |-> IF o \in refs[c] THEN rc[o] + 1 ELSE rc[o]]

\* Given counts rc, the counts after checkpoint c's references are unregistered (a count
\* stays at 0 rather than going below: the type; only a bug gets there).
UnregisteredCounts(rc, c) ==
    [o \in SharedFiles |-> IF o \in refs[c] /\ rc[o] > 0 THEN rc[o] - 1 ELSE rc[o]]

\* Whether checkpoint d is the one to subsume: the oldest in the store, with more than
\* Retained checkpoints in it (each newer one's metadata durable).
Subsumable(d) == /\ d \in store
                 /\ Cardinality(store) > Retained
                 /\ d = Oldest(store)

\* The remote files the coordinator deletes when in-flight checkpoint c fails: what c
\* uploaded itself, and nothing it reuses (FLINK-24611: an abort must not discard shared
\* files, CheckpointCoordinatorTest.testSharedStateNotDiscaredOnAbort).  Nothing else
\* references c's uploads: the task reuses only files of completed checkpoints.
DiscardedOnFailure(c) == OwnUploads(c) \cap storage

\* Of the discards D the old registry had decided at a restart or a stop, those the new
\* registry inherits.  None: the registry is scoped per run (FLINK-7268's fix), and the old
\* one finishes its discards on its own (OldRegistryDeletes).
CarriedDiscards(D) == {}

\* The remote files the old registry deletes when it finishes the discards D after a restart:
\* the private files of each, and its shared files no checkpoint of the store (still
\* registered in the old registry) references; never a file of a checkpoint the job resumed
\* from.
OldRegistryDeletes(D) ==
    {o \in UNION {refs[d] : d \in D} :
        /\ Owned(o)
        /\ o \in SharedFiles => \A c \in store : o \notin refs[c]}

\* The deletes scheduled when in-flight checkpoints fail at a restart or a stop.
FailedUploads == UNION {DiscardedOnFailure(c) : c \in InFlight}

Init == /\ db = {}
        /\ holds = [f \in FileIds |-> {}]
        /\ nextFile = 1
        /\ ckpt = [c \in CheckpointIds |-> "none"]
        /\ refs = [c \in CheckpointIds |-> {}]
        /\ storage = {}
        /\ store = {}
        /\ kept = {}
        /\ refCount = [o \in SharedFiles |-> 0]
        /\ discarding = {}
        /\ toDelete = {}
        /\ notOwned = {}
        /\ stopped = FALSE
        /\ failures = 0
        /\ stops = 0

-----------------------------------------------------------------------------
(* The task's state.                                                       *)

\* The task writes a new local file (a memtable flushed to an SST file).
WriteState ==
    /\ ~stopped
    /\ nextFile <= MaxFiles
    /\ db' = db \cup {nextFile}
    /\ holds' = [holds EXCEPT ![nextFile] = {nextFile}]
    /\ nextFile' = nextFile + 1
    /\ UNCHANGED <<ckpt, refs, storage, store, kept, refCount, discarding, toDelete, notOwned,
                   stopped, failures, stops>>

\* The state after local files P of db are replaced by the new file nextFile: the files
\* written after them stay.
Compacted(P) == (db \ P) \cup {nextFile}

\* The task replaces local files P (one or more) by one new file holding what they held: the
\* replaced files leave its state, so the next checkpoint no longer references them.  P is all
\* of its files (a compaction), or the prefix of its changelog that a background
\* materialisation merged while the task wrote more (a rebase: the files written after the
\* materialised point stay, Flink's ChangelogKeyedStateBackend.handleMaterializationResult);
\* the spec does not order the local files, so P may be any of them.  Java:
\* Changelog.compactState, TaskChangelogs (the rebase at the first snapshot after the
\* materialisation is done).
CompactState(P) ==
    /\ ~stopped
    /\ nextFile <= MaxFiles
    /\ P # {}
    /\ P \subseteq db
    /\ db' = Compacted(P)
    /\ holds' = [holds EXCEPT ![nextFile] = Writes(P)]
    /\ nextFile' = nextFile + 1
    /\ UNCHANGED <<ckpt, refs, storage, store, kept, refCount, discarding, toDelete, notOwned,
                   stopped, failures, stops>>

-----------------------------------------------------------------------------
(* A checkpoint, from its trigger to the store.                            *)

\* The coordinator triggers checkpoint c, the next id, while none is in flight; the task
\* takes its handle at once (the synchronous part): the remote files it will consist of.
TriggerCheckpoint(c) ==
    /\ ~stopped
    /\ ckpt[c] = "none"
    /\ \A d \in CheckpointIds : d < c => ckpt[d] # "none"
    /\ InFlight = {}
    /\ ckpt' = [ckpt EXCEPT ![c] = "pending"]
    /\ refs' = [refs EXCEPT ![c] = Handle(c)]
    /\ UNCHANGED <<holds, db, nextFile, storage, store, kept, refCount, discarding, toDelete,
                   notOwned, stopped, failures, stops>>

\* The task uploads one new shared file of pending checkpoint c (the asynchronous part; a
\* failure may come between two uploads).
UploadFile(c, o) ==
    /\ ckpt[c] = "pending"
    /\ o \in OwnUploads(c) \cap SharedFiles
    /\ o \notin storage
    /\ storage' = storage \cup {o}
    /\ UNCHANGED <<holds, db, nextFile, ckpt, refs, store, kept, refCount, discarding, toDelete,
                   notOwned, stopped, failures, stops>>

\* Every new shared file of c uploaded, the task writes its private files and acknowledges
\* c with its handle.  Flink: CheckpointCoordinator.receiveAcknowledgeMessage.
AcknowledgeCheckpoint(c) ==
    /\ ckpt[c] = "pending"
    /\ OwnUploads(c) \cap SharedFiles \subseteq storage
    /\ ckpt' = [ckpt EXCEPT ![c] = "acknowledged"]
    /\ storage' = storage \cup {PrivateFile(c)}
    /\ UNCHANGED <<holds, db, nextFile, refs, store, kept, refCount, discarding, toDelete, notOwned,
                   stopped, failures, stops>>

\* The coordinator writes c's metadata durably and adds c to the store, registering each of
\* its shared files (RegisterSharedFile: the file's count goes up by one).  Flink:
\* CheckpointCoordinator.completePendingCheckpoint, CompletedCheckpointStore.addCheckpoint...,
\* SharedStateRegistry.registerReference.
CompleteCheckpoint(c) ==
    /\ ckpt[c] = "acknowledged"
    /\ ckpt' = [ckpt EXCEPT ![c] = "completed"]
    /\ store' = store \cup {c}
    /\ refCount' = RegisterSharedFiles(refCount, c)
    /\ UNCHANGED <<holds, db, nextFile, refs, storage, kept, discarding, toDelete, notOwned, stopped,
                   failures, stops>>

\* In-flight checkpoint c fails (a timeout, a decline, an upload that failed); the job goes
\* on.  The coordinator schedules the deletion of what c uploaded.  Flink:
\* PendingCheckpoint.abort (and the task's cleanup of its uploads, FLINK-30461).
AbortCheckpoint(c) ==
    /\ c \in InFlight
    /\ ckpt' = [ckpt EXCEPT ![c] = "failed"]
    /\ toDelete' = toDelete \cup DiscardedOnFailure(c)
    /\ UNCHANGED <<holds, db, nextFile, refs, storage, store, kept, refCount, discarding, notOwned,
                   stopped, failures, stops>>

-----------------------------------------------------------------------------
(* Subsumption and the asynchronous discard.                               *)

\* The oldest checkpoint d leaves the store, its metadata removed; its discard is decided
\* (it runs later).  Flink: CheckpointSubsumeHelper.subsume.
SubsumeCheckpoint(d) ==
    /\ Subsumable(d)
    /\ store' = store \ {d}
    /\ ckpt' = [ckpt EXCEPT ![d] = "subsumed"]
    /\ discarding' = discarding \cup {d}
    /\ UNCHANGED <<holds, db, nextFile, refs, storage, kept, refCount, toDelete, notOwned, stopped,
                   failures, stops>>

\* The discard of subsumed checkpoint d runs: the registry unregisters d's references; the
\* shared files no registered checkpoint references any more, and d's private files, are
\* scheduled for deletion, unless the job resumed from them.  Flink:
\* SharedStateRegistry.unregisterUnusedState, CompletedCheckpoint.discard.
UnregisterCheckpoint(d) ==
    LET rc == UnregisteredCounts(refCount, d) IN
    /\ d \in discarding
    /\ refCount' = rc
    /\ toDelete' = toDelete \cup {o \in refs[d] : Owned(o) /\ (o \in SharedFiles => rc[o] = 0)}
    /\ discarding' = discarding \ {d}
    /\ UNCHANGED <<holds, db, nextFile, ckpt, refs, storage, store, kept, notOwned, stopped,
                   failures, stops>>

\* A scheduled delete of remote file o happens.  Flink: the registry's asyncDisposalExecutor.
DeleteFile(o) ==
    /\ o \in toDelete
    /\ storage' = storage \ {o}
    /\ toDelete' = toDelete \ {o}
    /\ UNCHANGED <<holds, db, nextFile, ckpt, refs, store, kept, refCount, discarding, notOwned,
                   stopped, failures, stops>>

-----------------------------------------------------------------------------
(* Failures, stops and resumes.                                            *)

\* The job fails and restarts from the newest checkpoint in the store (from nothing if the
\* store is empty): the in-flight checkpoint fails and its uploads are scheduled for
\* deletion; the task reads the checkpoint's files back; a new registry counts the store's
\* checkpoints; the old registry finishes the discards it had decided.  Flink:
\* CheckpointCoordinator.restoreLatestCheckpointedState, SharedStateRegistryFactory
\* (CheckpointCoordinatorTest.testSharedStateRegistrationOnRestore).
RestoreCheckpoint ==
    /\ ~stopped
    /\ failures < MaxFailures
    /\ failures' = failures + 1
    /\ ckpt' = [c \in CheckpointIds |-> IF c \in InFlight THEN "failed" ELSE ckpt[c]]
    /\ db' = Restored(store)
    /\ refCount' = Counts(store)
    /\ discarding' = CarriedDiscards(discarding)
    /\ toDelete' = toDelete \cup FailedUploads
                            \cup OldRegistryDeletes(discarding \ CarriedDiscards(discarding))
    /\ UNCHANGED <<holds, nextFile, refs, storage, store, kept, notOwned, stopped, stops>>

\* The job stops (cancelled with retained checkpoints): its store's checkpoints are kept for
\* the user; the in-flight checkpoint fails; its registry closes after finishing the
\* discards it had decided.
StopJob ==
    /\ ~stopped
    /\ stops < MaxStops
    /\ stops' = stops + 1
    /\ stopped' = TRUE
    /\ kept' = kept \cup store
    /\ store' = {}
    /\ ckpt' = [c \in CheckpointIds |-> IF c \in InFlight THEN "failed" ELSE ckpt[c]]
    /\ db' = {}
    /\ refCount' = [o \in SharedFiles |-> 0]
    /\ discarding' = CarriedDiscards(discarding)
    /\ toDelete' = toDelete \cup FailedUploads
                            \cup OldRegistryDeletes(discarding \ CarriedDiscards(discarding))
    /\ UNCHANGED <<holds, nextFile, refs, storage, notOwned, failures>>

\* A new job resumes from kept checkpoint c, the newest: c is its store's first checkpoint,
\* registered in a new registry but not owned (its files are the user's).  Flink:
\* CheckpointCoordinator.restoreSavepoint, SharedStateRegistry.registerAllAfterRestored.
ResumeJob(c) ==
    /\ stopped
    /\ kept # {}
    /\ c = Newest(kept)
    /\ stopped' = FALSE
    /\ store' = {c}
    /\ notOwned' = notOwned \cup refs[c]
    /\ refCount' = Counts({c})
    /\ db' = Restored({c})
    /\ UNCHANGED <<holds, nextFile, ckpt, refs, storage, kept, discarding, toDelete, failures, stops>>

\* Nothing is left to do: no checkpoint in flight or to subsume, no discard or delete
\* pending.  A finished run stutters, so TLC's deadlock check stays on for real deadlocks.
Quiescent == /\ InFlight = {}
             /\ discarding = {}
             /\ toDelete = {}
             /\ \A d \in CheckpointIds : ~Subsumable(d)
Terminating == Quiescent /\ UNCHANGED vars

\* The store's own steps, which fairness makes happen: subsumption, discards and deletes.
Cleanup ==
    \/ \E d \in CheckpointIds : SubsumeCheckpoint(d) \/ UnregisterCheckpoint(d)
    \/ \E o \in RemoteFiles : DeleteFile(o)

Next ==
    \/ WriteState \/ \E P \in SUBSET db : CompactState(P)
    \/ \E c \in CheckpointIds :
          \/ TriggerCheckpoint(c) \/ AcknowledgeCheckpoint(c) \/ CompleteCheckpoint(c)
          \/ AbortCheckpoint(c) \/ ResumeJob(c)
          \/ \E o \in SharedFiles : UploadFile(c, o)
    \/ Cleanup
    \/ RestoreCheckpoint \/ StopJob
    \/ Terminating

Spec == Init /\ [][Next]_vars

\* Every decided subsumption, discard and delete eventually happens.
FairSpec == Spec /\ WF_vars(Cleanup)

-----------------------------------------------------------------------------
(* What the store promises.                                                *)

\* Every variable has its type.
TypeInv ==
    /\ db \subseteq FileIds
    /\ holds \in [FileIds -> SUBSET FileIds]
    /\ nextFile \in 1..(MaxFiles + 1)
    /\ ckpt \in [CheckpointIds -> Statuses]
    /\ refs \in [CheckpointIds -> SUBSET RemoteFiles]
    /\ storage \subseteq RemoteFiles
    /\ store \subseteq CheckpointIds
    /\ kept \subseteq CheckpointIds
    /\ refCount \in [SharedFiles -> 0..MaxCheckpoints]
    /\ discarding \subseteq CheckpointIds
    /\ toDelete \subseteq RemoteFiles
    /\ notOwned \subseteq RemoteFiles
    /\ stopped \in BOOLEAN
    /\ failures \in 0..MaxFailures
    /\ stops \in 0..MaxStops

\* Every file a retained checkpoint references exists: a restart or a resume from any
\* checkpoint in the store or kept for the user can read all of it.
RetainedRestorableInv ==
    \A c \in RetainedCheckpoints : refs[c] \subseteq storage

\* A checkpoint leaves the store only once a newer checkpoint's metadata is durable: a
\* failure at any moment finds a checkpoint at least as new as every subsumed one.
SubsumedByDurableInv ==
    \A d \in CheckpointIds : ckpt[d] = "subsumed" => \E c \in RetainedCheckpoints : c > d

\* A remote file no checkpoint needs: it exists, and no retained or in-flight checkpoint
\* references it.
Orphan(o) == /\ o \in storage
             /\ \A c \in RetainedCheckpoints \cup InFlight : o \notin refs[c]

\* (Under FairSpec) every file no retained checkpoint references is eventually deleted:
\* the store leaks no file.
NoSharedFileLeakProp == \A o \in RemoteFiles : Orphan(o) ~> (o \notin storage)

\* Restoring yields exactly the state the checkpoint snapshotted, and a compaction changes
\* nothing the state holds: every behaviour is one of the full-snapshot store, a state being
\* the writes its local files hold, a write adding one, each checkpoint's state the writes of
\* its files (FullSnapshotStore.tla).
AddOneWrite(s) == {s \cup {f} : f \in FileIds}
Full == INSTANCE FullSnapshotStore WITH
    States <- SUBSET FileIds,
    Empty <- {},
    Updates <- AddOneWrite,
    state <- Writes(db),
    snap <- [c \in CheckpointIds |-> Writes(Content(refs[c]))],
    store <- store,
    kept <- kept,
    restarts <- failures

RefinesFullSnapshotStoreProp == Full!Spec

=============================================================================
Models and TLC figures: MCIncrementalCheckpointStore.tla (after its ====).
