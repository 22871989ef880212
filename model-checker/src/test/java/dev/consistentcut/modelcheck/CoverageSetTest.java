package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link CoverageSet#propose}: every reached branch keeps a model, at the least cost the greedy choice finds. */
@Timeout(10)
class CoverageSetTest {

    @Test
    void theCheapModelsThatReachEveryBranchAreProposed() {
        // a reaches b1 and b2 cheaply; c alone reaches b3; d reaches everything but costs most.
        List<Set<String>> reachedBy = List.of(Set.of("a", "d"), Set.of("a", "d"), Set.of("c", "d"), Set.of());
        Map<String, Long> seconds = Map.of("a", 1L, "c", 1L, "d", 60L);
        assertEquals(List.of("a", "c"), CoverageSet.propose(reachedBy, seconds));
    }

    @Test
    void aModelWhoseBranchesTheOthersReachIsLeftOut() {
        // Greedy takes d first (three branches for little), then a and c for the rest; d is then redundant.
        List<Set<String>> reachedBy = List.of(Set.of("a", "d"), Set.of("c", "d"), Set.of("a"), Set.of("c"));
        Map<String, Long> seconds = Map.of("a", 2L, "c", 2L, "d", 1L);
        assertEquals(List.of("a", "c"), CoverageSet.propose(reachedBy, seconds));
    }

    @Test
    void aBranchOnlyAModelWithoutARunTimeReachesIsLeft() {
        assertEquals(List.of("a"), CoverageSet.propose(List.of(Set.of("a"), Set.of("x")), Map.of("a", 1L)));
    }
}
