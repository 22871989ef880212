package dev.consistentcut.causal;

import dev.consistentcut.channel.ChannelClock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Vector clocks for causal traces of the threaded runtime: every task and the
 * coordinator is a <em>process</em> with its own clock and its own local log of events; the
 * causal edges between them are carried where information flows.
 *
 * <ul>
 *   <li><b>Channels</b> ({@link #channel}): a receiver taking an element merges the clock of the
 *       sender's latest put; a sender putting a record merges the clock of the receiver's latest
 *       take when the channel's capacity made the put wait for it (the k-th record needs the
 *       (k - capacity)-th taken: Flink's credits); an overtaking (priority) put, which reads what
 *       is queued, merges the receiver's latest take always.
 *   <li><b>The coordinator</b> ({@link #atCoordinator}): a shared object with its own clock. A task
 *       that writes to it (acknowledges, declines, ends, is notified) puts its clock there; a task
 *       whose read returned news (a barrier to inject, an abort or completion notification) merges
 *       it; a coordinator step ({@link #coordinatorStep}) merges it before and puts its clock after,
 *       all under one lock around the coordinator call only, so a clock and the state it stands for
 *       change together. (Reads that return nothing carry no edge: no step of the spec depends on
 *       the absence of such news; docs/trace-validation.md, "Causal traces".)
 *   <li><b>Failures and the end</b> ({@link #joinAll}, {@link #inheritAll}): the coordinator stops
 *       every task thread before it restores, so it merges every task's clock, and every restarted
 *       task starts from the coordinator's.
 * </ul>
 *
 * <p>Convention: a process's own component counts its recorded events; what it sends during a
 * step carries the number of the event that step will record ({@link Proc#sendStamp}), so the
 * receiver is after that event, not merely after the one before it.
 *
 * <p><b>Threading contract.</b> A {@link Proc} belongs to the thread bound to it ({@link #bind});
 * another thread touches it only after a happens-before edge (a {@code join}, a
 * {@code Thread.start}). Channel clocks are called under the lock of the
 * {@link dev.consistentcut.channel.CausalChannel} that carries them; the coordinator's clock is
 * guarded by its own lock.
 */
public final class VectorClocks {

    /** The coordinator's process name (its events: triggers, completions, aborts, failures, the end). */
    public static final String COORDINATOR = "coordinator";

    private final List<String> names;
    private final Map<String, Proc> procs = new LinkedHashMap<>();
    private final ThreadLocal<Proc> current = new ThreadLocal<>();
    private final ReentrantLock coordinatorLock = new ReentrantLock();
    /** Guarded by {@link #coordinatorLock}. */
    private long[] coordinatorClock;

    /** @param processes every process name, in the order of the clocks' components */
    public VectorClocks(List<String> processes) {
        this.names = List.copyOf(processes);
        for (int k = 0; k < names.size(); k++) {
            procs.put(names.get(k), new Proc(names.get(k), k, names.size()));
        }
        this.coordinatorClock = new long[names.size()];
    }

    /** The process names, in component order. */
    public List<String> processes() {
        return names;
    }

    public Proc proc(String name) {
        Proc p = procs.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no process '" + name + "' among " + names);
        }
        return p;
    }

    /** Binds the calling thread to process {@code name}: its events and messages are that process's. */
    public void bind(String name) {
        current.set(proc(name));
    }

    /** The calling thread's process; null when it is bound to none. */
    public Proc current() {
        return current.get();
    }

    /** One process: its clock and its local log. */
    public static final class Proc {
        final String name;
        final int me;
        final long[] vc;
        long events;
        final List<Logged> log = new ArrayList<>();

        Proc(String name, int me, int n) {
            this.name = name;
            this.me = me;
            this.vc = new long[n];
        }

        public String name() {
            return name;
        }

        /** What a message sent now carries: the clock, own component the event this step will record. */
        long[] sendStamp() {
            long[] s = vc.clone();
            s[me] = events + 1;
            return s;
        }

        void merge(long[] other) {
            if (other == null) {
                return;
            }
            for (int k = 0; k < vc.length; k++) {
                if (k != me && other[k] > vc[k]) {
                    vc[k] = other[k];
                }
            }
        }

        /** Records one event: the clock ticks and the line goes into this process's log. */
        public long[] event(String line) {
            events++;
            vc[me] = events;
            long[] stamp = vc.clone();
            log.add(new Logged(line, stamp));
            return stamp;
        }
    }

    /** One logged event: its line (without the clock) and its clock. */
    public record Logged(String line, long[] vc) {
    }

    private static long[] max(long[] a, long[] b) {
        long[] m = a.clone();
        for (int k = 0; k < m.length; k++) {
            m[k] = Math.max(m[k], b[k]);
        }
        return m;
    }

    // ------------------------------------------------------------------ the coordinator

    /**
     * A task's call into the coordinator: {@code call} runs under the coordinator clock's lock;
     * if {@code writes}, the calling process's clock goes into the coordinator's (after the call,
     * so an event the call recorded is included); if the result {@code isNews}, the coordinator's
     * clock is merged into the caller's.
     */
    public <T> T atCoordinator(boolean writes, Predicate<T> isNews, Supplier<T> call) {
        return atCoordinator(writes, false, isNews, call);
    }

    /**
     * As above; {@code eventInside}: the call records the event its write belongs to (a decline,
     * recorded as AbortCheckpoint inside the declining task's step), so the write carries the clock
     * after that event, not the number of the step's next one.
     */
    public <T> T atCoordinator(boolean writes, boolean eventInside, Predicate<T> isNews, Supplier<T> call) {
        Proc p = current.get();
        coordinatorLock.lock();
        try {
            T result = call.get();
            if (p != null) {
                if (isNews != null && isNews.test(result)) {
                    p.merge(coordinatorClock);
                }
                if (writes) {
                    coordinatorClock = max(coordinatorClock, eventInside ? p.vc.clone() : p.sendStamp());
                }
            }
            return result;
        } finally {
            coordinatorLock.unlock();
        }
    }

    /** A step of the coordinator thread: it reads and writes the coordinator's state, atomically with its clock. */
    public void coordinatorStep(Runnable step) {
        Proc p = current.get();
        coordinatorLock.lock();
        try {
            if (p != null) {
                p.merge(coordinatorClock);
            }
            step.run();
            if (p != null) {
                // The step recorded its events inside (TriggerCheckpoint, ...): after them, not the next one.
                coordinatorClock = max(coordinatorClock, p.vc.clone());
            }
        } finally {
            coordinatorLock.unlock();
        }
    }

    /** The calling process (the coordinator, after stopping every task) merges every process's clock. */
    public void joinAll() {
        Proc p = current.get();
        for (Proc q : procs.values()) {
            if (q != p) {
                p.merge(q.vc);
                long[] own = new long[q.vc.length];
                own[q.me] = q.events;
                p.merge(own);
            }
        }
        coordinatorLock.lock();
        try {
            p.merge(coordinatorClock);
        } finally {
            coordinatorLock.unlock();
        }
    }

    /** Every other process (about to be restarted) merges the calling process's clock, and so does the coordinator's. */
    public void inheritAll() {
        Proc p = current.get();
        for (Proc q : procs.values()) {
            if (q != p) {
                q.merge(p.vc);
                long[] own = new long[q.vc.length];
                own[p.me] = p.events;
                q.merge(own);
            }
        }
        coordinatorLock.lock();
        try {
            coordinatorClock = max(coordinatorClock, p.vc);
        } finally {
            coordinatorLock.unlock();
        }
    }

    // ------------------------------------------------------------------ channels

    /** A clock for one channel of capacity {@code capacity} records, for the {@code CausalChannel} installed around it. */
    public ChannelClock channel(int capacity) {
        return new Link(capacity);
    }

    /** Called under its {@code CausalChannel}'s lock (ChannelClock's contract). */
    private final class Link implements ChannelClock {
        private final int capacity;
        private long[] lastPut = new long[names.size()];
        private long[] lastTake = new long[names.size()];
        private long recordsPut;
        private long recordsTaken;
        /** Records taken that the sender's clock already includes. */
        private long takesKnownToSender;

        Link(int capacity) {
            this.capacity = capacity;
        }

        @Override
        public void put(boolean record, boolean overtaking) {
            Proc p = current.get();
            if (p == null) {
                return;
            }
            if (record) {
                recordsPut++;
            }
            if (overtaking || (record && takesKnownToSender < recordsPut - capacity)) {
                p.merge(lastTake);
                takesKnownToSender = recordsTaken;
            }
            lastPut = max(lastPut, p.sendStamp());
        }

        @Override
        public void take(boolean record) {
            Proc p = current.get();
            if (p == null) {
                return;
            }
            p.merge(lastPut);
            if (record) {
                recordsTaken++;
            }
            lastTake = max(lastTake, p.sendStamp());
        }

        @Override
        public void restored(int records) {
            // Every task is stopped (FailAndRestore, or before the run): the restore is ordered
            // with everything by joinAll / inheritAll; the counts start again.
            recordsPut = records;
            recordsTaken = 0;
            takesKnownToSender = 0;
            Arrays.fill(lastPut, 0);
            Arrays.fill(lastTake, 0);
        }
    }

    // ------------------------------------------------------------------ the merge

    /**
     * Every process's log merged into one sequence consistent with happens-before: an event comes
     * after every event its clock includes. Among the events that may come next, {@code choose}
     * picks one (any choice gives a linearization of the causal order). Call after every process
     * has stopped.
     *
     * @param choose given the number of candidates, the index of the one to take
     * @return the events in the merged order, each with its process name
     * @throws IllegalStateException if the clocks admit no order (a cycle: a bug in the clock-keeping)
     */
    public List<Merged> merge(java.util.function.IntUnaryOperator choose) {
        List<Proc> ps = new ArrayList<>(procs.values());
        int[] next = new int[ps.size()];
        List<Merged> out = new ArrayList<>();
        int total = ps.stream().mapToInt(q -> q.log.size()).sum();
        while (out.size() < total) {
            List<Integer> ready = new ArrayList<>();
            for (int k = 0; k < ps.size(); k++) {
                if (next[k] < ps.get(k).log.size() && ready(ps, next, k)) {
                    ready.add(k);
                }
            }
            if (ready.isEmpty()) {
                StringBuilder why = new StringBuilder();
                for (int k = 0; k < ps.size(); k++) {
                    if (next[k] < ps.get(k).log.size()) {
                        Logged l = ps.get(k).log.get(next[k]);
                        why.append("\n  ").append(ps.get(k).name).append(" #").append(next[k] + 1).append(' ')
                                .append(Arrays.toString(l.vc())).append(' ').append(l.line(), 0, Math.min(90, l.line().length()));
                    }
                }
                throw new IllegalStateException("causal merge: no event can come next after " + out.size() + " of "
                        + total + " (the clocks admit no order); the next event of each process:" + why
                        + "\n  (components: " + names + ")");
            }
            int k = ready.get(ready.size() == 1 ? 0 : Math.floorMod(choose.applyAsInt(ready.size()), ready.size()));
            Logged l = ps.get(k).log.get(next[k]++);
            out.add(new Merged(ps.get(k).name, l.line(), l.vc()));
        }
        return out;
    }

    /** Process k's next event has every event its clock names delivered (a stamp of a step that recorded none is no event). */
    private static boolean ready(List<Proc> ps, int[] next, int k) {
        long[] vc = ps.get(k).log.get(next[k]).vc();
        for (int q = 0; q < ps.size(); q++) {
            if (q != k && next[q] < Math.min(vc[q], ps.get(q).log.size())) {
                return false;
            }
        }
        return true;
    }

    /** One event of the merged trace. */
    public record Merged(String process, String line, long[] vc) {
    }

    @Override
    public String toString() {
        return "VectorClocks" + names;
    }
}
