package dev.consistentcut.stress.lincheck;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.consistentcut.stress.StressMode;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/**
 * Model checking of the threaded runtime's hand-offs in hand-written scenarios only (a generated
 * one would not aim at the race), with a bounded number of interleavings: {@link #invocations()}
 * per scenario. The engine's classes must hold ({@link #holds}); each broken twin must be caught
 * ({@link #caught}), and the catch is printed.
 */
final class ModelChecked {

    /** A scenario built for the class checked (the engine's or a twin's operations). */
    interface ScenarioFor {
        ExecutionScenario of(Class<?> ops);
    }

    private ModelChecked() {
    }

    /** Interleavings tried per scenario: 1,000 quick, 10,000 long. */
    static int invocations() {
        return StressMode.pick(1_000, 10_000);
    }

    /** {@code ops} in every scenario gives results {@code spec} explains, and never hangs. */
    static void holds(Class<?> spec, Class<?> ops, ScenarioFor... scenarios) {
        options(spec, ops, scenarios).check(ops);
    }

    /** The model checker finds an interleaving in which the twin {@code ops} fails. */
    static void caught(String twin, Class<?> spec, Class<?> ops, ScenarioFor... scenarios) {
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class, () -> options(spec, ops, scenarios).check(ops));
        LincheckReport.print(twin, e);
    }

    private static ModelCheckingOptions options(Class<?> spec, Class<?> ops, ScenarioFor... scenarios) {
        ModelCheckingOptions o = new ModelCheckingOptions()
                .iterations(0)
                .invocationsPerIteration(invocations())
                .sequentialSpecification(spec);
        for (ScenarioFor s : scenarios) {
            o.addCustomScenario(s.of(ops));
        }
        return o;
    }
}
