package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How many TLCs run at once: one per core, at most 4, for the default run and --quick (the quick
 * step's and CI's budget), each with one worker; one with --model, --long, --simulate, --fail-fast.
 */
class OptionsTest {

    @Test
    void theDefaultRunAndQuickRunOneTlcPerCoreAtMostFour() {
        for (List<String> args : List.of(List.<String>of(), List.of("--quick"))) {
            assertEquals(2, Options.parse(args, 2).jobs, args.toString());
            assertEquals(4, Options.parse(args, 8).jobs, args.toString());
            assertEquals(1, Options.parse(args, 8).workers, "one TLC worker each when several run at once");
        }
    }

    @Test
    void namedModelsTheLongTierSimulationAndFailFastRunOneAtATime() {
        for (List<String> args : List.of(List.of("--model", "X"), List.of("--long"), List.of("--simulate"), List.of("--fail-fast"))) {
            assertEquals(1, Options.parse(args, 8).jobs, args.toString());
        }
        assertEquals(3, Options.parse(List.of("--jobs", "3"), 8).jobs);
    }

    @Test
    void simulationSamplesMoreBehavioursWhenAskedFor() {
        assertEquals(20_000L, Options.parse(List.of("--simulate"), 2).traces);
        assertEquals(1_000L, Options.parse(List.of(), 2).traces);
        assertEquals(3, Options.parse(List.of("--workers", "3"), 2).exhaustiveWorkers(), "--workers holds for the exhaustive models too");
    }
}
