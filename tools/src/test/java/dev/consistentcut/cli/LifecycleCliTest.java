package dev.consistentcut.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command line's lifecycle options: {@code --mode at-least-once} and {@code --end-of-input}. */
@Timeout(60)
class LifecycleCliTest {

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulation", "threads"})
    void atLeastOnceRunsToTheEndOfItsInputAndReportsWhatItPromises(String runtime) {
        Outcome o = run("run", "--mode", "at-least-once", "--runtime", runtime, "--records", "150",
                "--end-of-input", "--fail-after-checkpoint", "2", "--interval-ms", "1", "--sink-delay-us", "0");
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("end of input: reached, every task ended"), o.out());
        assertTrue(o.out().contains("AtLeastOnceInv: holds"), o.out());
        assertTrue(o.out().contains("NoSkipInv: holds"), o.out());
        assertTrue(o.out().contains("not promised in at-least-once mode: NoDoubleCountInv"), o.out());
        assertTrue(o.out().contains("verdict: at-least-once holds"), o.out());
    }

    @Test
    void jsonSaysWhetherTheRunWentToTheEndOfItsInput() {
        Outcome o = run("run", "--mode", "aligned", "--runtime", "simulation", "--records", "40", "--end-of-input", "--json");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("\"finished\":true,\"endOfInput\":true"), o.out());
        assertTrue(o.out().contains("\"ExactlyOnceInv\":\"holds\""), o.out());
    }

    @Test
    void helpNamesTheNewOptionsAndAWrongModeIsAUsageError() {
        assertTrue(run("--help").out().contains("--mode aligned|unaligned|at-least-once"));
        assertTrue(run("run", "--help").out().contains("--end-of-input")); // options are in the command's help
        Outcome o = run("run", "--mode", "at-most-once");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("--mode must be aligned, unaligned, at-least-once or alternating, got 'at-most-once'"), o.err());
    }
}
