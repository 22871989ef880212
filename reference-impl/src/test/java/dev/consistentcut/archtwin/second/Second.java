package dev.consistentcut.archtwin.second;

import dev.consistentcut.archtwin.first.First;

/** The other half of the package cycle: second uses first. */
public final class Second {
    private Second() {
    }

    /** The value the first package asks for. */
    public static int answer() {
        return 1;
    }

    /** The dependency back that closes the cycle. */
    public static int askBack() {
        return First.ask();
    }
}
