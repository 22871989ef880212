package dev.consistentcut.runtime;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A source of draws that returns a script, in order, for a test that needs a particular schedule
 * ({@link RunOptions.Builder#draws}): each {@code Double} of the script answers one
 * {@code nextDouble()}, each {@code Integer} one {@code nextInt(bound)}. A draw of the other kind,
 * an int outside its bound, or a draw beyond the script is an {@link AssertionError} naming it, so
 * a run that draws more, or in another order, than the test says fails loudly.
 *
 * <p>Threading contract: confined to one thread (the simulation's).
 */
final class ScriptedDraws implements RandomGenerator {

    private final Deque<Number> script;
    private int drawn;

    private ScriptedDraws(List<Number> script) {
        this.script = new ArrayDeque<>(script);
    }

    /** The draws {@code script}, in order: {@code Double}s for {@code nextDouble()}, {@code Integer}s for {@code nextInt(bound)}. */
    static ScriptedDraws of(Number... script) {
        return new ScriptedDraws(List.of(script));
    }

    @Override
    public double nextDouble() {
        return next(Double.class, "nextDouble()").doubleValue();
    }

    @Override
    public int nextInt(int bound) {
        int v = next(Integer.class, "nextInt(" + bound + ")").intValue();
        if (v < 0 || v >= bound) {
            throw new AssertionError("draw " + drawn + ": the script's " + v + " is outside nextInt(" + bound + ")");
        }
        return v;
    }

    @Override
    public long nextLong() {
        throw new AssertionError("draw " + (drawn + 1) + ": nextLong(), which no script answers");
    }

    private Number next(Class<? extends Number> kind, String what) {
        drawn++;
        Number n = script.poll();
        if (n == null) {
            throw new AssertionError("draw " + drawn + ": " + what + " beyond the end of the script");
        }
        if (!kind.isInstance(n)) {
            throw new AssertionError("draw " + drawn + ": " + what + ", but the script has " + n + " there");
        }
        return n;
    }
}
