package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * --coverage on a real TLC run of a small model whose ELSE arm no behaviour takes, and its broken
 * twins: the unreached arm fails the run (the model's own verdict stays ok), an exemption naming
 * the start of its text with its reason lets it pass (under its action only, when it names one),
 * an exemption of a reached branch or of one that does not exist is reported as stale and fails
 * the run, one whose text starts two branches is reported as ambiguous, exempts neither and fails
 * it, and one naming its branch by source range is refused as a setup error.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CoverageRunTest {

    private static final String MODULE = """
            ---- MODULE Branches ----
            \\* With Max = 2 no behaviour takes the ELSE arm: x never passes 2.
            EXTENDS Naturals
            CONSTANT Max
            VARIABLE x
            Init == x = 0
            Step == /\\ x < Max
                    /\\ IF x < 5 THEN x' = x + 1 ELSE x' = 0
            Done == x = 2 /\\ UNCHANGED x
            Spec == Init /\\ [][Step \\/ Done]_x
            ====
            """;

    @TempDir
    Path dir;
    Runner r;
    Path folder;

    @BeforeEach
    void branchesModel() throws IOException {
        r = new Runner(dir);
        folder = r.spec.resolve("branches");
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("Branches.tla"), MODULE);
        Files.writeString(folder.resolve("Branches.cfg"), "CONSTANT Max = 2\nSPECIFICATION Spec\n");
        // x climbs to 5 and the ELSE arm sets it back to 0.
        Files.writeString(folder.resolve("BranchesWide.cfg"), "CONSTANT Max = 7\nSPECIFICATION Spec\n");
        Files.writeString(folder.resolve("models.tsv"), "BranchesPass\tBranches\tBranches.cfg\tpass\tquick\tx climbs to 2\t3\t3\n"
                + "BranchesWide\tBranches\tBranchesWide.cfg\tpass\tfull\tx climbs to 5 and back\t6\t6\n");
    }

    private Runner.Outcome run() {
        return r.run("--model", "BranchesPass", "--coverage", "--no-pictures");
    }

    /** The run's output with one exemption in the family's file, after checking its exit code. */
    private String runExempting(String branch, int exit) throws IOException {
        return runExempting("Branches", branch, exit);
    }

    private String runExempting(String module, String branch, int exit) throws IOException {
        Files.writeString(folder.resolve(CoverageExemptions.FILE_NAME),
                "# module\tbranch\treason\n" + module + "\t" + branch + "\tx never passes 2: Step's guard\n");
        Runner.Outcome o = run();
        assertEquals(exit, o.exit(), o.all());
        return o.out();
    }

    @Test
    void anUnreachedBranchFailsTheRunAndIsNamed() throws IOException {
        Runner.Outcome o = run();
        assertEquals(1, o.exit(), o.all());
        assertTrue(o.out().contains("counts as pinned"), "the model's verdict and counts are unchanged: " + o.out());
        assertTrue(o.out().contains("    UNREACHED 8:42-8:47  x' = 0\n"), o.out());
        assertTrue(o.out().contains("  Step: BranchesPass 2\n"), o.out());
        assertTrue(o.out().contains("NOT AS EXPECTED: (--coverage)"), o.out());
        String tsv = Files.readString(r.out.resolve("coverage.tsv"));
        assertTrue(tsv.startsWith(CoverageCheck.TSV_HEADER + "\n"), tsv);
        assertTrue(tsv.contains("Branches\tStep\t8:42-8:47\tx' = 0\t\t0\n"), tsv);
        assertTrue(tsv.contains("Branches\tStep\t8:26-8:35\tx' = x + 1\tBranchesPass\t"), tsv);
    }

    @Test
    void anExemptedBranchPasses() throws IOException {
        String out = runExempting("x' = 0", 0);
        assertTrue(out.contains("    exempted  8:42-8:47  x' = 0  (spec/branches/coverage-exemptions.tsv:2)"), out);
        assertTrue(out.contains("0 unreached and not exempted, 1 exempted, 0 stale exemption(s), 0 ambiguous exemption(s)"), out);
    }

    /** The start of the text is enough, and its whitespace runs count as one space. */
    @Test
    void anExemptionByTheStartOfTheTextPasses() throws IOException {
        String out = runExempting("x'   =  0", 0);
        assertTrue(out.contains("    exempted  8:42-8:47  x' = 0  (spec/branches/coverage-exemptions.tsv:2)"), out);
    }

    @Test
    void anExemptionNamingTheActionPasses() throws IOException {
        String out = runExempting("Branches!Step", "x' = 0", 0);
        assertTrue(out.contains("    exempted  8:42-8:47  x' = 0  (spec/branches/coverage-exemptions.tsv:2)"), out);
    }

    /** Module!Action exempts the branch under that action only: under another it exempts nothing. */
    @Test
    void anExemptionNamingAnotherActionExemptsNothing() throws IOException {
        String out = runExempting("Branches!Done", "x' = 0", 1);
        assertTrue(out.contains("    UNREACHED 8:42-8:47  x' = 0\n"), out);
        assertTrue(out.contains("STALE EXEMPTION spec/branches/coverage-exemptions.tsv:2: Branches!Done 'x' = 0': no such branch"),
                out);
    }

    /**
     * A range moves with every edit above the branch: a row naming one is a setup error that says
     * to name the text, before any model runs.
     */
    @Test
    void anExemptionByRangeIsRefused() throws IOException {
        Files.writeString(folder.resolve(CoverageExemptions.FILE_NAME), "# module\tbranch\treason\nBranches!Step\t8:42-8:47\tx never passes 2\n");
        Runner.Outcome o = run();
        assertEquals(3, o.exit(), o.all());
        assertTrue(o.err().contains("spec/branches/coverage-exemptions.tsv:2: the branch '8:42-8:47' is a source range, which moves "
                + "with every edit above it: name the branch by the start of its source text instead"), o.err());
        assertFalse(Files.exists(r.out.resolve("logs/BranchesPass.log")), "refused before any model ran");
    }

    /**
     * "x' =" starts both arms of Step's IF: the row is ambiguous, exempts neither (the unreached arm
     * stays unreached) and fails the run, naming both branches.
     */
    @Test
    void anExemptionWhoseTextStartsTwoBranchesIsAmbiguous() throws IOException {
        String out = runExempting("Branches!Step", "x' =", 1);
        assertTrue(out.contains("AMBIGUOUS EXEMPTION spec/branches/coverage-exemptions.tsv:2: Branches!Step 'x' =': the start of 2 "
                + "branches (8:26-8:35 x' = x + 1; 8:42-8:47 x' = 0): give more of the branch's text, so that it names one"), out);
        assertTrue(out.contains("    UNREACHED 8:42-8:47  x' = 0\n"), "an ambiguous row exempts nothing: " + out);
        assertTrue(out.contains("1 unreached and not exempted, 0 exempted, 0 stale exemption(s), 1 ambiguous exemption(s)"), out);
    }

    @Test
    void anExemptionOfAReachedBranchIsStale() throws IOException {
        String out = runExempting("x' = x + 1", 1);
        assertTrue(out.contains("STALE EXEMPTION spec/branches/coverage-exemptions.tsv:2: Branches 'x' = x + 1': reached by BranchesPass"),
                out);
        assertTrue(out.contains("    UNREACHED 8:42-8:47"), "the unexempted arm is still named: " + out);
    }

    @Test
    void anExemptionOfABranchThatNoLongerExistsIsStale() throws IOException {
        String out = runExempting("x' = 3", 1);
        assertTrue(out.contains("Branches 'x' = 3': no such branch (any more)"), out);
    }

    @Test
    void anExemptionWithoutAReasonIsASetupError() throws IOException {
        Files.writeString(folder.resolve(CoverageExemptions.FILE_NAME), "Branches\tx' = 0\t\n");
        Runner.Outcome o = run();
        assertEquals(3, o.exit(), o.all());
        assertTrue(o.err().contains("coverage-exemptions.tsv:1: an exemption has three tab-separated columns"), o.err());
    }

    /**
     * The default set (the test command's run): only the quick models run with -coverage and count.
     * The full model reaches the ELSE arm, yet the arm is unreached, and its log has no coverage.
     */
    @Test
    void inTheDefaultSetOnlyTheQuickModelsCount() throws IOException {
        Files.delete(r.spec.resolve("models.tsv")); // the fixtures' counter models: not this test's
        Runner.Outcome o = r.run("--coverage", "--no-pictures");
        assertEquals(1, o.exit(), o.all());
        assertTrue(o.out().contains("Coverage (TLC -coverage) of 1 model(s)"), o.out());
        assertTrue(o.out().contains("    UNREACHED 8:42-8:47  x' = 0\n"), o.out());
        assertTrue(o.out().contains("  Step: BranchesPass 2\n"), o.out());
        assertFalse(Files.readString(r.out.resolve("logs/BranchesWide.log")).contains("The coverage statistics"),
                "the full model ran without -coverage");
        assertTrue(Files.readString(r.out.resolve("logs/BranchesPass.log")).contains("The coverage statistics"),
                "the quick model ran with it");
    }

    /** Named with --model, the full model counts: its ELSE arm is reached and the run passes. */
    @Test
    void aNamedModelOfAnyTierCounts() {
        Runner.Outcome o = r.run("--model", "BranchesPass", "--model", "BranchesWide", "--coverage", "--no-pictures");
        assertEquals(0, o.exit(), o.all());
        assertFalse(o.out().contains("UNREACHED"), o.out());
    }

    @Test
    void withoutCoverageTheRunChecksNoBranches() {
        Runner.Outcome o = r.run("--model", "BranchesPass", "--no-pictures");
        assertEquals(0, o.exit(), o.all());
        assertFalse(o.out().contains("UNREACHED"), o.out());
    }

    /** Both models quick, and the coverage set in the spec directory naming some of them. */
    private Runner.Outcome defaultRunWithCoverageSet(String... names) throws IOException {
        bothModelsQuick();
        Files.writeString(r.spec.resolve(CoverageSet.FILE_NAME), "# the set\n" + String.join("\n", names) + "\n");
        return r.run("--coverage", "--no-pictures");
    }

    /** Only this test's two models in the manifests, both quick. */
    private void bothModelsQuick() throws IOException {
        Files.delete(r.spec.resolve("models.tsv")); // the fixtures' counter models: not this test's
        Files.writeString(folder.resolve("models.tsv"), "BranchesPass\tBranches\tBranches.cfg\tpass\tquick\tx climbs to 2\t3\t3\n"
                + "BranchesWide\tBranches\tBranchesWide.cfg\tpass\tquick\tx climbs to 5 and back\t6\t6\n");
    }

    /**
     * With a coverage set, the default run counts its models only: the set without the model that
     * takes the ELSE arm fails the run with the arm unreached (that model ran, without -coverage),
     * and says how to find a model that reaches it.
     */
    @Test
    void aCoverageSetWithoutTheModelThatReachesABranchFailsTheDefaultRun() throws IOException {
        Runner.Outcome o = defaultRunWithCoverageSet("BranchesPass");
        assertEquals(1, o.exit(), o.all());
        assertTrue(o.out().contains("Coverage (TLC -coverage) of 1 model(s)"), o.out());
        assertTrue(o.out().contains("    UNREACHED 8:42-8:47  x' = 0\n"), o.out());
        assertTrue(o.out().contains("`./model-check.sh --quick --coverage` counts every quick model"), o.out());
        assertFalse(Files.readString(r.out.resolve("logs/BranchesWide.log")).contains("The coverage statistics"),
                "the model outside the set ran without -coverage");
    }

    /** The set that holds the model reaching every branch: the default run passes on it alone. */
    @Test
    void aCoverageSetThatReachesEveryBranchPasses() throws IOException {
        Runner.Outcome o = defaultRunWithCoverageSet("BranchesWide");
        assertEquals(0, o.exit(), o.all());
        assertTrue(o.out().contains("Coverage (TLC -coverage) of 1 model(s)"), o.out());
        assertFalse(Files.readString(r.out.resolve("logs/BranchesPass.log")).contains("The coverage statistics"),
                "the model outside the set ran without -coverage");
    }

    /** A name in the set that is no quick model fails the run: the file is out of date. */
    @Test
    void aCoverageSetNamingNoQuickModelFailsTheRun() throws IOException {
        Runner.Outcome o = defaultRunWithCoverageSet("BranchesWide", "BranchesGone");
        assertEquals(1, o.exit(), o.all());
        assertTrue(o.out().contains("names BranchesGone (no such model)"), o.out());
    }

    /**
     * --quick --coverage counts every quick model, whatever the set, and proposes a set that
     * reaches the same branches; put in place, the proposal lets the default run pass. (TLC reports
     * the subexpressions of Step's guard only for the model of Max = 2, so both are proposed.)
     */
    @Test
    void aRunOfEveryQuickModelProposesACoverageSetThatTheDefaultRunPassesOn() throws IOException {
        bothModelsQuick();
        Files.writeString(r.spec.resolve(CoverageSet.FILE_NAME), "BranchesPass\n");
        Runner.Outcome o = r.run("--quick", "--coverage", "--no-pictures");
        assertEquals(0, o.exit(), o.all());
        assertTrue(o.out().contains("Coverage (TLC -coverage) of 2 model(s)"), o.out());
        assertTrue(o.out().contains("A coverage set for the default run: "), o.out());
        String proposed = Files.readString(r.out.resolve(CoverageSet.FILE_NAME));
        assertTrue(proposed.contains("\nBranchesWide\n"), proposed);
        Files.writeString(r.spec.resolve(CoverageSet.FILE_NAME), proposed);
        Runner.Outcome d = r.run("--coverage", "--no-pictures");
        assertEquals(0, d.exit(), d.all());
    }
}
