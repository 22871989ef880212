package dev.consistentcut.runtime;

import dev.consistentcut.barrier.BarrierHandlerContext;
import dev.consistentcut.barrier.BarrierHandlerState;
import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * DELIBERATELY BROKEN engine parts, one per blind spot of the counting invariants that the Java mirrors of the
 * spec's order and restore-point invariants close; each passes every counting invariant
 * ({@code ConsistentCutInv}, {@code ExactlyOnceInv}), as its spec twin does (named in each).
 * Never use them otherwise. Single-threaded: for the simulation only.
 */
final class BrokenOrderAndRestoreTwins {

    private BrokenOrderAndRestoreTwins() {
    }

    /**
     * Spec twin {@code BugRestoreReversed}: a store that hands every channel's persisted state
     * back reversed, so a restore queues it in the wrong order (caught as {@code FifoChannelInv}).
     */
    static CheckpointStore restoringChannelStateReversed(int retain) {
        InMemoryCheckpointStore inner = new InMemoryCheckpointStore(retain);
        return new CheckpointStore() {
            @Override
            public void store(CompletedCheckpoint c) {
                inner.store(c);
            }

            @Override
            public Optional<CompletedCheckpoint> latest() {
                return inner.latest().map(c -> {
                    Map<String, List<Record>> reversed = new LinkedHashMap<>();
                    c.channelState().forEach((e, records) -> {
                        List<Record> r = new ArrayList<>(records);
                        java.util.Collections.reverse(r); // THE BUG: restored in the order it was sent
                        reversed.put(e, r);
                    });
                    return new CompletedCheckpoint(c.id(), c.sourceOffsets(), c.taskSnapshots(), reversed, c.stats());
                });
            }

            @Override
            public List<Long> retainedIds() {
                return inner.retainedIds();
            }
        };
    }

    /**
     * Spec twins {@code BugRestorePointKeepsOlder} and {@code BugCompleteOlderAfterNewer}: a store
     * whose latest checkpoint is the older of the two it keeps, so a failure restores an older
     * completed checkpoint than the newest (still a consistent cut: caught as
     * {@code RestorePointInv} and {@code RestorePointMonotoneProp} only).
     */
    static CheckpointStore keepingAnOlderRestorePoint() {
        InMemoryCheckpointStore inner = new InMemoryCheckpointStore(2);
        Map<Long, CompletedCheckpoint> kept = new HashMap<>();
        return new CheckpointStore() {
            @Override
            public void store(CompletedCheckpoint c) {
                inner.store(c);
                kept.put(c.id(), c);
                kept.keySet().retainAll(inner.retainedIds());
            }

            @Override
            public Optional<CompletedCheckpoint> latest() {
                List<Long> ids = inner.retainedIds();
                // THE BUG: the restore point is the next-to-newest checkpoint
                return ids.size() < 2 ? inner.latest() : Optional.of(kept.get(ids.get(ids.size() - 2)));
            }

            @Override
            public List<Long> retainedIds() {
                return inner.retainedIds();
            }
        };
    }

    /**
     * Spec twin {@code BugPartsOrder} (the receiver-side part out of order): unaligned barriers
     * whose task persists the in-flight records of one input in swapped pairs (each one after the
     * next), everything else as the engine's; the bag of persisted records is unchanged (caught as
     * {@code FifoChannelStateInv}).
     */
    static BarrierMode unalignedPersistingSwapped() {
        Map<String, Record> held = new HashMap<>(); // per task and input: the record held back
        return new Mode("broken-unaligned-persisting-swapped",
                new Wrapped(BarrierHandlers.unaligned().initialState(), held, false), true);
    }

    /**
     * Spec twin {@code BugClassicChandyLamport}: unaligned snapshots (on the first barrier) but
     * barriers forwarded in-band behind the queued records, as classic Chandy-Lamport places them;
     * still a consistent cut (the receivers persist what arrives before the barrier), caught as
     * {@code BarrierOvertakesInv}.
     */
    static BarrierMode unalignedForwardingInBand() {
        return new Mode("broken-unaligned-forwarding-in-band",
                new Wrapped(BarrierHandlers.unaligned().initialState(), new HashMap<>(), true), true);
    }

    private record Mode(String name, BarrierHandlerState initialState, boolean overtaking) implements BarrierMode {
    }

    /** The engine's unaligned state {@code inner}, seen through a context with the one change. */
    private record Wrapped(BarrierHandlerState inner, Map<String, Record> held, boolean inBand)
            implements BarrierHandlerState {

        private BarrierHandlerState wrap(BarrierHandlerState next) {
            return new Wrapped(next, held, inBand);
        }

        private BarrierHandlerContext view(BarrierHandlerContext ctx) {
            return new BarrierHandlerContext() {
                public String taskId() { return ctx.taskId(); }
                public int inputCount() { return ctx.inputCount(); }
                public boolean inputEnded(int input) { return ctx.inputEnded(input); }
                public void snapshot(long c) { ctx.snapshot(c); }
                public void forwardBarrier(long c) { ctx.forwardBarrier(c); }
                public void forwardBarrierOvertaking(long c) {
                    if (inBand) {
                        ctx.forwardBarrier(c); // THE BUG (in-band twin): behind the queued records
                    } else {
                        ctx.forwardBarrierOvertaking(c);
                    }
                }
                public void persistInFlight(int input, Record r) {
                    if (inBand) {
                        ctx.persistInFlight(input, r);
                        return;
                    }
                    Record before = held.remove(ctx.taskId() + "/" + input);
                    if (before == null) {
                        held.put(ctx.taskId() + "/" + input, r);
                    } else {
                        ctx.persistInFlight(input, r); // THE BUG (swapped twin): the later one first
                        ctx.persistInFlight(input, before);
                    }
                }
                public void acknowledge(long c) {
                    flush(ctx);
                    ctx.acknowledge(c);
                }
                public void abandon(long c) {
                    held.keySet().removeIf(k -> k.startsWith(ctx.taskId() + "/"));
                    ctx.abandon(c);
                }
                public void markAborted(long c) { ctx.markAborted(c); }
                public boolean isAborted(long c) { return ctx.isAborted(c); }
                public void decline(long c) { ctx.decline(c); }
            };
        }

        private void flush(BarrierHandlerContext ctx) {
            for (int i = 0; i < ctx.inputCount(); i++) {
                Record r = held.remove(ctx.taskId() + "/" + i);
                if (r != null) {
                    ctx.persistInFlight(i, r);
                }
            }
        }

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            return wrap(inner.barrierReceived(input, barrier, view(ctx)));
        }

        @Override
        public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
            return wrap(inner.recordReceived(input, record, view(ctx)));
        }

        @Override
        public BarrierHandlerState cancelBarrierReceived(int input, long c, BarrierHandlerContext ctx) {
            return wrap(inner.cancelBarrierReceived(input, c, view(ctx)));
        }

        @Override
        public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
            return wrap(inner.checkpointAborted(c, view(ctx)));
        }

        @Override
        public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
            return wrap(inner.endOfPartitionReceived(input, view(ctx)));
        }

        @Override
        public boolean isBlocked(int input) {
            return inner.isBlocked(input);
        }

        @Override
        public long checkpointId() {
            return inner.checkpointId();
        }

        @Override
        public long latestCheckpointId() {
            return inner.latestCheckpointId();
        }
    }
}
