package dev.consistentcut.check;

import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.message.RecordId;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which records of the input universe {@code ConsistentCutInv} (or one of its halves) must look at
 * again in a checkpoint {@code c}, for one operator, when it held in an earlier checkpoint {@code
 * held} of the same run whose ledger {@code c}'s extends. A record's side of the equation can
 * differ between the two only if the operator's count of it changed, it sits in either's channel
 * state, or it is in {@code c}'s cut and not in {@code held}'s; every other record's equation is
 * the one that held. So checking these alone gives the verdict of the whole check, at a cost of
 * the changes between the two checkpoints instead of the whole universe at every completion.
 * Immutable and thread-safe.
 */
final class CutRecheck {

    private final Universe universe;

    CutRecheck(Universe universe) {
        this.universe = universe;
    }

    /**
     * The records every operator must look at again: those in {@code c}'s or {@code held}'s channel
     * state and those {@code c}'s cut has and {@code held}'s has not; null (look at all) if {@code
     * c}'s cut does not contain {@code held}'s.
     */
    BitSet common(CompletedCheckpoint c, CompletedCheckpoint held) {
        BitSet out = new BitSet();
        for (Map.Entry<String, Long> e : c.sourceOffsets().entrySet()) {
            Long before = held.sourceOffsets().get(e.getKey());
            if (before == null || before > e.getValue()) {
                return null;
            }
            for (long off = before; off < e.getValue(); off++) {
                add(out, new RecordId(e.getKey(), off));
            }
        }
        for (CompletedCheckpoint cp : List.of(c, held)) {
            cp.channelState().values().forEach(records -> records.forEach(r -> add(out, r.id())));
        }
        return out;
    }

    /** {@code common} and the records of {@code changed} (an operator's changed counts). */
    BitSet with(BitSet common, Set<RecordId> changed) {
        BitSet out = (BitSet) common.clone();
        changed.forEach(id -> add(out, id));
        return out;
    }

    private void add(BitSet out, RecordId id) {
        int i = universe.position(id);
        if (i >= 0) {
            out.set(i);
        }
    }
}
