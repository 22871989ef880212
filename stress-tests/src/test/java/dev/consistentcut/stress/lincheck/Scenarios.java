package dev.consistentcut.stress.lincheck;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;

/**
 * Hand-written lincheck scenarios, so that the race a test is about is always explored (the model
 * checker then tries its interleavings systematically), not only when the random generator
 * happens to produce it. Lincheck's Kotlin DSL is awkward from Java; this builds the same
 * {@link ExecutionScenario} from method names.
 *
 * <p>Usage: {@code Scenarios.of(Ops.class).init("store", 1).thread("store", 2).thread("latest").post("latest").build()}:
 * each {@code thread(...)} call starts a new parallel thread with that one operation;
 * {@code then(...)} appends an operation to the last thread.
 */
final class Scenarios {

    private final Class<?> ops;
    private final List<Actor> init = new ArrayList<>();
    private final List<List<Actor>> threads = new ArrayList<>();
    private final List<Actor> post = new ArrayList<>();

    private Scenarios(Class<?> ops) {
        this.ops = ops;
    }

    static Scenarios of(Class<?> ops) {
        return new Scenarios(ops);
    }

    Scenarios init(String operation, Object... args) {
        init.add(actor(operation, args));
        return this;
    }

    Scenarios thread(String operation, Object... args) {
        threads.add(new ArrayList<>(List.of(actor(operation, args))));
        return this;
    }

    Scenarios then(String operation, Object... args) {
        threads.get(threads.size() - 1).add(actor(operation, args));
        return this;
    }

    Scenarios post(String operation, Object... args) {
        post.add(actor(operation, args));
        return this;
    }

    ExecutionScenario build() {
        return new ExecutionScenario(init, threads, post, null);
    }

    private Actor actor(String operation, Object... args) {
        Method m = Arrays.stream(ops.getMethods())
                .filter(x -> x.getName().equals(operation) && x.getParameterCount() == args.length)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        ops.getSimpleName() + " has no operation " + operation + " with " + args.length + " argument(s)"));
        return new Actor(m, List.of(args));
    }
}
