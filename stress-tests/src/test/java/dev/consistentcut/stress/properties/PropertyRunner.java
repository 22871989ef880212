package dev.consistentcut.stress.properties;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import dev.consistentcut.check.Violation;
import dev.consistentcut.stress.StressMode;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.junit.jupiter.api.TestInfo;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/**
 * Runs QuickTheories properties with a seed the run prints, and turns a falsified property into a
 * report a developer can act on: QuickTheories' shrunk case (a {@link SimulationCase} prints the
 * job, the simulation seed and the failures), what was violated, and a one-line command that
 * replays exactly this property with exactly this seed.
 *
 * <p>Settings: {@code -Dstress.seed=N} (default: a new seed each run, printed), {@code
 * -Dstress.examples=N} (default 300 cases, 20,000 with {@code -Dstress.long=true}).
 */
final class PropertyRunner {

    static final long SEED = Long.getLong("stress.seed", System.nanoTime());
    static final int EXAMPLES = Integer.getInteger("stress.examples", StressMode.pick(300, 20_000));
    /** Negative twins: enough cases to meet the bug, and a bounded shrink. */
    static final int TWIN_EXAMPLES = StressMode.pick(300, 2_000);

    private PropertyRunner() {
    }

    private static QuickTheory theory(int examples, int shrinkCycles) {
        return qt().withFixedSeed(SEED).withExamples(examples).withShrinkCycles(shrinkCycles);
    }

    static <A> void check(TestInfo test, Gen<A> gen, Consumer<A> property) {
        announce(test, EXAMPLES);
        try {
            theory(EXAMPLES, 2_000).forAll(gen).checkAssert(property);
        } catch (AssertionError e) {
            throw withReplay(test, e);
        }
    }

    /** {@link #check(TestInfo, Gen, Consumer)} with {@code examples} cases: a property whose cases cost more. */
    static <A> void check(TestInfo test, int examples, Gen<A> gen, Consumer<A> property) {
        announce(test, examples);
        try {
            theory(examples, 2_000).forAll(gen).checkAssert(property);
        } catch (AssertionError e) {
            throw withReplay(test, e);
        }
    }

    static <A, B> void check(TestInfo test, Gen<A> a, Gen<B> b, BiConsumer<A, B> property) {
        announce(test, EXAMPLES);
        try {
            theory(EXAMPLES, 2_000).forAll(a, b).checkAssert(property);
        } catch (AssertionError e) {
            throw withReplay(test, e);
        }
    }

    /**
     * A negative twin: the property must be falsified, and by the named invariant (or check), so
     * that the twin shows the property catching the bug it targets and not something else.
     */
    static <A> void assertFalsified(TestInfo test, String expected, Gen<A> gen, Consumer<A> property) {
        assertFalsified(test, expected, 300, gen, property);
    }

    /** {@link #assertFalsified(TestInfo, String, Gen, Consumer)} with at most {@code shrinkCycles} shrinks: a twin whose cases cost more. */
    static <A> void assertFalsified(TestInfo test, String expected, int shrinkCycles, Gen<A> gen, Consumer<A> property) {
        announce(test, TWIN_EXAMPLES);
        AssertionError e = assertThrows(AssertionError.class,
                () -> theory(TWIN_EXAMPLES, shrinkCycles).forAll(gen).checkAssert(a -> violationsOnly(() -> property.accept(a))),
                "the property held for a deliberately broken variant: it cannot catch " + expected);
        reportCatch(test, expected, e);
    }

    static <A, B> void assertFalsified(TestInfo test, String expected, Gen<A> a, Gen<B> b, BiConsumer<A, B> property) {
        announce(test, TWIN_EXAMPLES);
        AssertionError e = assertThrows(AssertionError.class,
                () -> theory(TWIN_EXAMPLES, 300).forAll(a, b).checkAssert((x, y) -> violationsOnly(() -> property.accept(x, y))),
                "the property held for a deliberately broken variant: it cannot catch " + expected);
        reportCatch(test, expected, e);
    }

    /**
     * Runs a broken variant's case so that only a violated check falsifies it: a case in which the
     * broken engine breaks down instead (the simulation stops with an {@link IllegalStateException},
     * say a duplicate acknowledgement after a restore the twin's states do not expect) holds. Else
     * QuickTheories' shrinking may end on such a case, and the twin reports a crash, not the
     * invariant it is there to show failing, depending on the run's random seed.
     */
    private static void violationsOnly(Runnable brokenCase) {
        try {
            brokenCase.run();
        } catch (IllegalStateException brokeDown) {
            // not the catch the twin is about; see above
        }
    }

    private static void reportCatch(TestInfo test, String expected, AssertionError e) {
        String message = String.valueOf(e.getMessage());
        assertTrue(message.contains(expected), () -> "the broken variant was caught, but not by " + expected + ":\n" + message);
        System.out.println("caught as expected (" + expected + "): " + firstLines(message, 12));
    }

    private static void announce(TestInfo test, int examples) {
        System.out.println(reference(test) + ": " + examples + " cases, seed " + SEED);
    }

    private static AssertionError withReplay(TestInfo test, AssertionError e) {
        AssertionError report = new AssertionError(e.getMessage() + "\nReplay this property with this seed:\n  " + replay(test), e);
        report.setStackTrace(e.getStackTrace());
        return report;
    }

    static String replay(TestInfo test) {
        return "mvn -B -pl stress-tests -am test -Dtest='" + reference(test) + "' -Dsurefire.failIfNoSpecifiedTests=false"
                + " -Dstress.seed=" + SEED + (EXAMPLES != StressMode.pick(300, 20_000) ? " -Dstress.examples=" + EXAMPLES : "")
                + (StressMode.LONG ? " -Dstress.long=true" : "");
    }

    private static String reference(TestInfo test) {
        return test.getTestClass().map(Class::getSimpleName).orElse("?") + "#" + test.getTestMethod().map(m -> m.getName()).orElse("?");
    }

    /** Fails with the violations, named and explained (at most 5 shown). */
    static void assertNone(String what, List<Violation> violations) {
        if (!violations.isEmpty()) {
            StringBuilder s = new StringBuilder(what).append(": ").append(violations.size()).append(" violation(s)");
            violations.stream().limit(5).forEach(v -> s.append("\n  ").append(v.invariant()).append(": ").append(v.message()));
            throw new AssertionError(s.toString());
        }
    }

    private static String firstLines(String text, int n) {
        String[] lines = text.split("\n");
        return String.join("\n  ", java.util.Arrays.copyOf(lines, Math.min(n, lines.length)));
    }
}
