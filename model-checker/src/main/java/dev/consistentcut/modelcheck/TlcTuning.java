package dev.consistentcut.modelcheck;

/**
 * The JVM flags of one TLC run: its JIT (by the model's pinned state count and specification) and
 * its garbage collector (by its number of workers). Verdicts and counts do not depend on them;
 * the CPU they cost does, and with one TLC per core that CPU is taken from the other model.
 */
final class TlcTuning {

    private TlcTuning() {
    }

    /**
     * The JIT of one TLC run. HotSpot's default (C1, then C2 for hot code) pays for C2's compiling
     * on a second core, and for a model of a few thousand states that costs more CPU than it saves.
     * Measured on 2 cores, 2026-12-02 (wall / CPU seconds, default against C1 alone): AlignedBlocks
     * (49 states) 2.0 / 3.0 against 1.5 / 1.7; AlignedDiamond (5,843) 5.3 / 9.6 against 4.3 / 4.8;
     * AlignedJoin (16,046) 10.5 / 17.2 against 11.1 / 11.7; AlignedJoinConcurrent (28,318) 13.5 /
     * 20.3 against 17.3 / 17.6; UnalignedJoin (204,159) 89 / 99 against 210 / 211. The state count
     * says little about the work of other specifications: an IndInv model's initial predicate
     * enumerates a large set (UnalignedIndInvJoin, 5,722 states: 94 against 179 s of CPU) and
     * liveness checks a behaviour graph, which pays C2 back sooner (AlternatingLivenessDiamond,
     * 18,002: 72 against 90; but SinkAlignedLivenessDiamond, 7,415: 26.5 against 11.4). So C1 alone
     * below 30,000 pinned states for SPECIFICATION Spec (invariants and action properties; the
     * refinement models too: AlignedDiamondRefinement, 5,843, 19.9 against 17.9), below 10,000 for
     * the fair specifications (liveness), never for the IndInv and sampled ones, nor for a model
     * without pinned counts, whose size is not known.
     *
     * @param pinnedStates the model's pinned distinct states, or null
     * @param specification the SPECIFICATION its config names, or null
     * @return the flag, or the empty string for HotSpot's default
     */
    static String jitFlag(Long pinnedStates, String specification) {
        if (pinnedStates == null || specification == null) {
            return "";
        }
        long below = switch (specification) {
            case "Spec" -> 30_000;
            case "FairSpec", "TriggerFairSpec" -> 10_000;
            default -> 0;
        };
        return pinnedStates < below ? TlcCommand.C1_ONLY : "";
    }

    /**
     * The garbage collector of one TLC run. With one worker the serial collector: the parallel
     * one's GC threads took CPU from the other model's core for nothing (measured 2026-12-02, one
     * worker, CPU seconds user + system, parallel against serial: UnalignedJoin 75.8 against 58.8,
     * AlternatingLivenessDiamond 37.2 against 34.2, AlignedJoin 7.7 and 10.2 against 6.5 and 5.9;
     * the system time fell most). With several workers the parallel collector, which does not
     * stop them all while one thread collects.
     */
    static String gcFlag(int workers) {
        return workers == 1 ? "-XX:+UseSerialGC" : "-XX:+UseParallelGC";
    }
}
