package dev.consistentcut.replay;

import static dev.consistentcut.replay.ReplayHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.replay.ReplayHarness.Run;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spec replay on the state graph of the smallest aligned model (spec/aligned/MCAlignedCheckpoint_StateGraph.cfg
 * without its symmetry: Join, 1 record per source, 1 checkpoint, 229 states), dumped by TLC once:
 * the correct engine follows every edge; a broken engine, a tampered state and a bad file are
 * reported with their exit codes.
 */
class SpecReplayTest {

    @TempDir
    static Path dir;
    static Path dot;

    @BeforeAll
    static void dumpTheStateGraph() throws IOException, InterruptedException, URISyntaxException {
        dot = ReplayHarness.dump(dir, "aligned", "MCAlignedCheckpoint", "StateGraph");
    }

    @Test
    void theEngineFollowsEveryEdge() {
        Run r = run("--dot", dot.toString(), "--mode", "aligned", "--capacity", "1", "--name", "G");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("states 229/229, edges 508/508 covered"), r.out());
        assertTrue(r.out().contains("the engine followed every path"), r.out());
    }

    @Test
    void theStateCoverVisitsEveryStateWithFewerPaths() throws IOException {
        StateGraph g = StateGraph.load(dot);
        int[] paths = new int[2];
        int[] steps = new int[2];
        PathCover cover = new PathCover(g);
        cover.paths(PathCover.Kind.EDGES, p -> { paths[0]++; steps[0] += p.edges().size(); });
        cover.paths(PathCover.Kind.STATES, p -> { paths[1]++; steps[1] += p.edges().size(); });
        assertTrue(paths[1] < paths[0] && steps[1] < steps[0], paths[0] + "/" + paths[1]);
        Run r = run("--dot", dot.toString(), "--mode", "aligned", "--capacity", "1", "--cover", "states");
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("states 229/229"), r.out());
    }

    @Test
    void aBrokenEngineDiverges() {
        Run r = run("--dot", dot.toString(), "--mode", "aligned", "--capacity", "1", "--broken", "aligned-without-blocking");
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("diverged (state) at ReceiveBarrier(join, "), r.out());
        assertTrue(r.out().contains("arrived[join]: spec '"), r.out());
    }

    /**
     * Twins replayed after the engine over the graph loaded once: one that diverges passes, one
     * that follows every path (the ended-input bug in a model without end of input) fails the run.
     */
    @Test
    void aTwinMustDivergeAndOneThatDoesNotFailsTheRun() {
        Run caught = run("--dot", dot.toString(), "--mode", "aligned", "--capacity", "1", "--name", "G",
                "--twin", "aligned-without-blocking");
        assertEquals(0, caught.exit(), caught.out());
        assertTrue(caught.out().contains("G: the engine followed every path"), caught.out());
        assertTrue(caught.out().contains("G [aligned-without-blocking]: DIVERGED"), caught.out());
        Run missed = run("--dot", dot.toString(), "--mode", "aligned", "--capacity", "1", "--name", "G",
                "--twin", "ended-input-not-counted-as-arrived");
        assertEquals(1, missed.exit(), missed.out());
        assertTrue(missed.out().contains("G [ended-input-not-counted-as-arrived]: NOT CAUGHT"), missed.out());
    }

    /** The comparison can fail: one state of the graph told a wrong latest checkpoint. */
    @Test
    void aStateTheEngineDoesNotReachIsADivergence() throws IOException {
        String text = Files.readString(dot);
        int at = text.indexOf("/\\\\ latest = 1");
        assertTrue(at > 0, "no state with latest = 1");
        Path tampered = dir.resolve("tampered.dot");
        Files.writeString(tampered, text.substring(0, at) + "/\\\\ latest = 0" + text.substring(at + "/\\\\ latest = 1".length()));
        Run r = run("--dot", tampered.toString(), "--mode", "aligned", "--capacity", "1");
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("latest: spec '0', engine '1'"), r.out());
    }

    @Test
    void badUsageAndBadFilesHaveTheirExitCodes() throws IOException {
        assertEquals(2, run("--mode", "aligned", "--capacity", "1").exit());
        assertEquals(2, run("--dot", dot.toString(), "--mode", "sideways", "--capacity", "1").exit());
        assertEquals(2, run("--dot", dot.toString(), "--mode", "aligned", "--capacity", "0").exit());
        assertEquals(2, run("--dot", dot.toString(), "--mode", "aligned", "--capacity", "1", "--ignore", "nothing").exit());
        assertEquals(2, run("--dot", dot.toString(), "--mode", "aligned", "--capacity", "1", "--broken", "nonsense").exit());
        Run noSink = run("--dot", dot.toString(), "--mode", "aligned", "--capacity", "1", "--broken", "sink-commit-on-snapshot");
        assertEquals(2, noSink.exit(), "a broken sink on a model without a sink: " + noSink.out());
        assertTrue(noSink.err().contains("no transactional sink"), noSink.err());
        assertEquals(0, run("--help").exit());
        Run missing = run("--dot", dir.resolve("none.dot").toString(), "--mode", "aligned", "--capacity", "1");
        assertEquals(3, missing.exit());
        assertTrue(missing.err().contains("no such file"), missing.err());
        Path junk = dir.resolve("junk.dot");
        Files.writeString(junk, "digraph G { a -> b }\n");
        Run notAGraph = run("--dot", junk.toString(), "--mode", "aligned", "--capacity", "1");
        assertEquals(3, notAGraph.exit());
        assertTrue(notAGraph.err().contains("no initial state"), notAGraph.err());
        assertTrue(!notAGraph.err().contains("\tat "), "a stack trace without --debug: " + notAGraph.err());
    }
}
