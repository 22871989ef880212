package dev.consistentcut.runtime;

import dev.consistentcut.causal.VectorClocks;
import dev.consistentcut.channel.CausalChannel;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.channel.ChannelClock;
import dev.consistentcut.graph.PhysicalGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Causal tracing as the threaded runtime wires it, decided once before the run: {@link #NONE}, or
 * a causal trace's {@link VectorClocks} with a {@link CausalChannel} installed on every channel
 * ({@link #install}). The runtime and its gateway call it at every point where a causal trace
 * carries a clock; {@link #NONE} does nothing there (runs the call, or the step under the lock it
 * is given), so no protocol path asks whether clocks are on.
 *
 * <p><b>Threading contract.</b> Installed while no task thread runs. {@link #bind} on the thread
 * it binds; {@link #atCoordinator} on any task thread; {@link #coordinatorStep}, {@link #joinAll}
 * and {@link #inheritAll} on the coordinator thread ({@code joinAll} and {@code inheritAll} with
 * every task thread stopped); {@link #stepLock} while wiring a worker. See {@link VectorClocks}.
 */
interface CausalWiring {

    /** No causal trace: nothing is carried. */
    CausalWiring NONE = new CausalWiring() {
        @Override
        public void bind(String process) {
        }

        @Override
        public <T> T atCoordinator(boolean writes, boolean eventInside, Predicate<T> isNews, Supplier<T> call) {
            return call.get();
        }

        @Override
        public void coordinatorStep(Runnable step, StepOrdering otherwise) {
            otherwise.run(step);
        }

        @Override
        public void joinAll() {
        }

        @Override
        public void inheritAll() {
        }

        @Override
        public StepOrdering stepLock(String task, StepOrdering otherwise) {
            return otherwise;
        }
    };

    /** The calling thread's events are {@code process}'s ({@link VectorClocks#bind}). */
    void bind(String process);

    /** A task's read or write of the coordinator's state ({@link VectorClocks#atCoordinator(boolean, boolean, Predicate, Supplier)}). */
    <T> T atCoordinator(boolean writes, boolean eventInside, Predicate<T> isNews, Supplier<T> call);

    /** A coordinator step: with clocks atomically with the coordinator's clock, else holding {@code otherwise}. */
    void coordinatorStep(Runnable step, StepOrdering otherwise);

    /** The coordinator, every task stopped, comes after everything they did ({@link VectorClocks#joinAll}). */
    void joinAll();

    /** Every restarted task comes after the coordinator ({@link VectorClocks#inheritAll}). */
    void inheritAll();

    /** What a step of {@code task} holds: with clocks, its channels' locks in {@link CausalChannel#STEP_ORDER}; else {@code otherwise}. */
    StepOrdering stepLock(String task, StepOrdering otherwise);

    /** Several orderings, taken in list order (one global order: no deadlock between two steps) and released in reverse. */
    private static StepOrdering all(List<StepOrdering> locks) {
        List<StepOrdering> ordered = List.copyOf(locks);
        return new StepOrdering() {
            @Override
            public void lock() {
                ordered.forEach(StepOrdering::lock);
            }

            @Override
            public void unlock() {
                for (int k = ordered.size() - 1; k >= 0; k--) {
                    ordered.get(k).unlock();
                }
            }
        };
    }

    /**
     * Installs a {@link CausalChannel} carrying {@code clocks} on every channel of {@code graph}
     * (while the channels are idle) and returns the wiring of those clocks.
     *
     * @param clockFor given a channel's id and its clock of {@code clocks}, the clock to install
     *     (a run: that clock; a test may wrap it)
     */
    static CausalWiring install(VectorClocks clocks, PhysicalGraph graph, Map<String, Channel> channels,
                                BiFunction<String, ChannelClock, ChannelClock> clockFor) {
        Map<String, CausalChannel> decorated = new java.util.LinkedHashMap<>();
        for (PhysicalGraph.ChannelSpec c : graph.channels()) {
            Channel channel = channels.get(c.id());
            ChannelClock clock = clockFor.apply(c.id(), clocks.channel(channel.capacity()));
            decorated.put(c.id(), CausalChannel.install(channel, clock));
        }
        return new CausalWiring() {
            @Override
            public void bind(String process) {
                clocks.bind(process);
            }

            @Override
            public <T> T atCoordinator(boolean writes, boolean eventInside, Predicate<T> isNews, Supplier<T> call) {
                return clocks.atCoordinator(writes, eventInside, isNews, call);
            }

            @Override
            public void coordinatorStep(Runnable step, StepOrdering otherwise) {
                clocks.coordinatorStep(step); // no trace lock: the clocks order the steps
            }

            @Override
            public void joinAll() {
                clocks.joinAll();
            }

            @Override
            public void inheritAll() {
                clocks.inheritAll();
            }

            /**
             * The locks of every channel {@code task} sends or receives on: the other ends see the
             * step's operations on them as one, as the spec's step is (see {@code Worker}).
             */
            @Override
            public StepOrdering stepLock(String task, StepOrdering otherwise) {
                List<CausalChannel> mine = new ArrayList<>();
                for (PhysicalGraph.ChannelSpec c : graph.channels()) {
                    if (c.sender().equals(task) || c.receiver().equals(task)) {
                        mine.add(decorated.get(c.id()));
                    }
                }
                mine.sort(CausalChannel.STEP_ORDER);
                List<StepOrdering> locks = new ArrayList<>();
                for (CausalChannel c : mine) {
                    locks.add(new StepOrdering() {
                        @Override
                        public void lock() {
                            c.lockForStep();
                        }

                        @Override
                        public void unlock() {
                            c.unlockAfterStep();
                        }
                    });
                }
                return all(locks);
            }
        };
    }
}
