package dev.consistentcut.stress.broken;

import dev.consistentcut.runtime.Quiescence;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * DELIBERATELY BROKEN: {@link Quiescence#noNewsLeft} with its test of a task's end negated, as a
 * mutant of it has it: it waits for the news of tasks that have ended (which never take it) and not
 * for the news of tasks still running, so a run can end before a running task has heard of the
 * last abort. It exists only to show that the lincheck {@code EndOfRunAbortNewsTest} finds it.
 * Never use it otherwise.
 */
public final class BrokenNoNewsLeftOfEndedTasks {

    private BrokenNoNewsLeftOfEndedTasks() {
    }

    public static <T> boolean noNewsLeft(Iterable<T> tasks, Predicate<T> ended, Function<T, OptionalLong> news) {
        for (T t : tasks) {
            if (ended.test(t) && news.apply(t).isPresent()) { // THE BUG: ended, not "not ended"
                return false;
            }
        }
        return true;
    }
}
