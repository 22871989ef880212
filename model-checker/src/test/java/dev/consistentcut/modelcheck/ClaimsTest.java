package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --claims reads the configs alone (no TLC): per family, the quick models that check each
 * invariant and property, and the invariants the family's MC modules declare (or the modules they
 * extend) that a quick model does not check.
 */
class ClaimsTest {

    @Test
    void aConfigsInvariantsAndPropertiesAreReadWithoutItsComments(@TempDir Path dir) throws IOException {
        Path cfg = dir.resolve("M.cfg");
        Files.writeString(cfg, "\\* INVARIANT NotThisInv\nCONSTANTS\n  Max = 3\nINVARIANTS\n  TypeInv (* OldInv *)\n  SafeInv\n"
                + "CHECK_DEADLOCK FALSE\nPROPERTY LiveProp\nVIEW V\n");
        assertEquals(List.of(new CfgClaims.Claim("inv", "TypeInv"), new CfgClaims.Claim("inv", "SafeInv"),
                new CfgClaims.Claim("prop", "LiveProp")), CfgClaims.ofConfig(cfg));
    }

    @Test
    void theTableNamesTheQuickModelsPerClaimAndTheDeclaredInvariantsSomeDoNotCheck(@TempDir Path dir) throws IOException {
        Runner r = new Runner(dir);
        Files.writeString(r.spec.resolve("MCCounter.tla"), "---- MODULE MCCounter ----\nEXTENDS Counter\nMCOnlyInv == x <= 3\n====\n");
        Files.writeString(r.spec.resolve("models.tsv"), "CounterMC\tMCCounter\tCounter_Inv.cfg\tinv:BelowTwoInv\tquick\tthe counter again\t3\t3\n",
                StandardOpenOption.APPEND);

        Runner.Outcome o = r.run("--claims");
        assertEquals(0, o.exit(), o.all());
        assertTrue(o.out().contains("spec           inv   TypeInv                              CounterPass, CounterInv, CounterMC "
                + "(CounterDeadlock, CounterPassTwin)\n"), o.out());
        assertTrue(o.out().contains("spec           prop  ReachesMaxProp                       CounterPass, CounterProp\n"), o.out());
        assertTrue(o.out().contains("spec           MCOnlyInv                            none of its 4 quick models checks it\n"), o.out());
        assertTrue(o.out().contains("spec           TypeInv                              1 of its 4 quick models do not: CounterProp\n"), o.out());
        assertTrue(Files.readString(r.out.resolve("claims.tsv")).contains("spec\tinv\tBelowTwoInv\tCounterInv,CounterMC\t\n"));
    }
}
