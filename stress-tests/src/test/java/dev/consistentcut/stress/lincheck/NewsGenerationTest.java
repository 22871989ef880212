package dev.consistentcut.stress.lincheck;

import dev.consistentcut.runtime.NewsGeneration;
import dev.consistentcut.stress.broken.BrokenNewsGenerationCountingDown;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * A task's cached "nothing for you" never hides a barrier triggered before the question:
 * {@link NewsGeneration}, the threaded runtime's gateway cache, against a trigger from the
 * coordinator thread. The coordinator thread triggers (the barrier in the coordinator's state,
 * then {@link NewsGeneration#changed()}, as {@code CheckpointDriver.trigger} does) while a source
 * task asks twice for its next barrier through {@link NewsGeneration#news} with its own mark (the
 * first question from a mark never answered). Linearizability against a coordinator without a
 * cache: every answer is what asking the coordinator at some moment within the question would
 * have said, so a question that begins after the trigger has ended gets the barrier.
 *
 * <p>Bound: the model checker tries up to {@link ModelChecked#invocations()} interleavings of that scenario
 * (1,000 quick, 10,000 long; a switch point at every read and write of the generation, the mark
 * and the coordinator's state). The broken twin counts the generation down, which makes the
 * first change reach the "never answered" mark: the first question after it is answered
 * "nothing" without asking.
 */
class NewsGenerationTest {

    /** The cache's question: {@link NewsGeneration#news} or a broken twin's. */
    interface News {
        OptionalLong news(long[] mark, BooleanSupplier mayCache, Supplier<OptionalLong> ask);
    }

    abstract static class SourceAndTrigger {
        private final Runnable changed;
        private final News cache;
        private final long[] mark = NewsGeneration.neverAnswered();
        /** The coordinator's state: the barrier the source has to inject, none before the trigger. */
        private OptionalLong barrier = OptionalLong.empty();

        SourceAndTrigger(Runnable changed, News cache) {
            this.changed = changed;
            this.cache = cache;
        }

        private synchronized OptionalLong nextBarrierFor() {
            return barrier;
        }

        private synchronized void trigger1() {
            barrier = OptionalLong.of(1);
        }

        /** The coordinator thread's trigger of checkpoint 1. */
        @Operation
        public void trigger() {
            trigger1();
            changed.run();
        }

        /** The source task's question, on its own thread: may keep an empty answer. */
        @Operation
        public long nextBarrier() {
            return cache.news(mark, () -> true, this::nextBarrierFor).orElse(-1);
        }
    }

    public static class Engine extends SourceAndTrigger {
        public Engine() {
            this(new NewsGeneration());
        }

        private Engine(NewsGeneration g) {
            super(g::changed, g::news);
        }
    }

    public static class CountingDown extends SourceAndTrigger {
        public CountingDown() {
            this(new BrokenNewsGenerationCountingDown());
        }

        private CountingDown(BrokenNewsGenerationCountingDown g) {
            super(g::changed, g::news);
        }
    }

    /** The coordinator asked every time: the barrier from the trigger on (-1: none). */
    public static class NoCache {
        private boolean triggered;

        public void trigger() {
            triggered = true;
        }

        public long nextBarrier() {
            return triggered ? 1 : -1;
        }
    }

    private static ExecutionScenario triggerVersusTwoQuestions(Class<?> ops) {
        return Scenarios.of(ops).thread("trigger").thread("nextBarrier").then("nextBarrier").build();
    }

    @Test
    void aCachedNothingNeverHidesABarrierTriggeredBeforeTheQuestion() {
        ModelChecked.holds(NoCache.class, Engine.class, NewsGenerationTest::triggerVersusTwoQuestions);
    }

    @Test
    void modelCheckingFindsTheFirstQuestionAnsweredWithoutAskingWhenTheGenerationReachesTheMark() {
        ModelChecked.caught("gateway cache whose generation counts down", NoCache.class,
                CountingDown.class, NewsGenerationTest::triggerVersusTwoQuestions);
    }
}
