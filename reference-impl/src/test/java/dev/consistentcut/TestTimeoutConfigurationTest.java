package dev.consistentcut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The per-test timeout of src/test/resources/junit-platform.properties is there and bites: a test
 * that hangs, whether it sleeps or spins ignoring interrupts, fails by name within the timeout.
 * The mechanism is shown with the configured thread mode and a 200 ms default (so this check takes
 * a fraction of a second); the configured default itself is read from the file and bounded.
 */
class TestTimeoutConfigurationTest {

    private static Properties configuration() throws IOException {
        Properties p = new Properties();
        try (InputStream in = TestTimeoutConfigurationTest.class.getResourceAsStream("/junit-platform.properties")) {
            assertNotNull(in, "junit-platform.properties is missing from the test class path");
            p.load(in);
        }
        return p;
    }

    @Test
    void everyTestHasADefaultTimeoutOfAtMostTwoMinutesInItsOwnThread() throws IOException {
        Properties p = configuration();
        assertEquals("enabled", p.getProperty("junit.jupiter.execution.timeout.mode"));
        assertEquals("SEPARATE_THREAD", p.getProperty("junit.jupiter.execution.timeout.thread.mode.default"));
        String timeout = p.getProperty("junit.jupiter.execution.timeout.default", "");
        assertTrue(timeout.matches("\\d+ s"), "expected '<n> s', found '" + timeout + "'");
        int seconds = Integer.parseInt(timeout.substring(0, timeout.length() - 2));
        assertTrue(seconds >= 10 && seconds <= 120, "the default timeout should be 10..120 s, found " + seconds);
    }

    @Test
    void aHangingTestFailsByNameWithATimeout() throws IOException {
        assertHangsFailByName(configuration().getProperty("junit.jupiter.execution.timeout.thread.mode.default"));
    }

    /**
     * stress-tests keeps its tests on their own thread (lincheck drives that thread; in a separate
     * one its JVM did not end): there the timeout interrupts a sleeping test at once, and fails a
     * test that ignores interrupts when it returns (Surefire's fork timeout is the backstop).
     */
    @Test
    void onTheTestsOwnThreadAHangingTestAlsoFailsByName() {
        assertHangsFailByName("SAME_THREAD");
    }

    private static void assertHangsFailByName(String threadMode) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.execution.timeout.mode", "enabled")
                .configurationParameter("junit.jupiter.execution.timeout.thread.mode.default", threadMode)
                .configurationParameter("junit.jupiter.execution.timeout.default", "200 ms")
                .selectors(selectClass(Hangs.class))
                .execute();
        List<Event> failed = results.testEvents().failed().list();
        assertEquals(List.of("sleeps()", "spinsIgnoringInterrupts()"),
                failed.stream().map(e -> e.getTestDescriptor().getDisplayName()).sorted().collect(Collectors.toList()));
        for (Event e : failed) {
            Throwable t = e.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
            assertTrue(t instanceof TimeoutException && t.getMessage().contains(e.getTestDescriptor().getDisplayName())
                            && t.getMessage().contains("timed out after 200 milliseconds"),
                    "expected a timeout naming the test, got " + t);
        }
        assertEquals(1, results.testEvents().succeeded().count(), "the quick test must still pass");
    }

    /** Run only through the test kit above (a static nested class is not discovered on its own). */
    static class Hangs {

        @Test
        void sleeps() throws InterruptedException {
            Thread.sleep(5_000); // bounded, so a broken timeout cannot hang this check for long
        }

        @Test
        void spinsIgnoringInterrupts() {
            long end = System.nanoTime() + 5_000_000_000L;
            while (System.nanoTime() < end) {
                Thread.interrupted(); // swallow the interrupt, like a busy loop that never checks it
                Thread.onSpinWait();
            }
        }

        @Test
        void finishesInTime() {
            assertEquals(2, 1 + 1);
        }
    }
}
