package dev.consistentcut.archtwin.first;

import dev.consistentcut.archtwin.second.Second;

/** Half of a package cycle, the broken twin of ArchitectureTest's cycle rule: first uses second. */
public final class First {
    private First() {
    }

    /** Asks the other package, which asks this one back. */
    public static int ask() {
        return Second.answer() + 1;
    }
}
