package dev.consistentcut.check;

import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.message.RecordId;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Which records of the input universe {@code ConsistentCutInv} (or one of its halves) must look at
 * again in a checkpoint {@code c}, for one operator, when it held in an earlier checkpoint {@code
 * held} of the same run whose ledger {@code c}'s extends. A record's side of the equation can
 * differ between the two only if the operator's count of it changed, it sits in either's channel
 * state, or it is in {@code c}'s cut and not in {@code held}'s; every other record's equation is
 * the one that held. So checking these alone gives the verdict of the whole check, at a cost of
 * the changes between the two checkpoints instead of the whole universe at every completion.
 *
 * <p>Without such an earlier checkpoint (the first check, after a violation, or once the
 * operator's ledger was compacted since), only the records whose equation can have a side other
 * than 0 are looked at ({@link #nonZero}): those in {@code c}'s cut, in its channel state, or in
 * the operator's ledger. Every other record is processed 0 times, persisted nowhere and after the
 * cut, so both sides are 0. That check costs the state, not the input universe (which holds every
 * record the sources will ever send).
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
            universe.addOffsets(out, e.getKey(), before, e.getValue());
        }
        for (CompletedCheckpoint cp : List.of(c, held)) {
            cp.channelState().values().forEach(records -> records.forEach(r -> add(out, r.id())));
        }
        return out;
    }

    /**
     * The records of {@code c}'s cut and of its channel state: with an operator's whole ledger
     * ({@link #with}), every record whose equation in {@code c} can have a side other than 0.
     */
    BitSet nonZero(CompletedCheckpoint c) {
        BitSet out = new BitSet();
        c.sourceOffsets().forEach((source, offset) -> universe.addOffsets(out, source, 0, offset));
        c.channelState().values().forEach(records -> records.forEach(r -> add(out, r.id())));
        return out;
    }

    /** {@code common} and the records of {@code changed} (an operator's changed counts, or its whole ledger). */
    BitSet with(BitSet common, Collection<RecordId> changed) {
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
