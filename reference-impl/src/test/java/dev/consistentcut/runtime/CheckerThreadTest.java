package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The threaded runtime's checker thread: the checks run one after another in the order handed
 * over, a hand-over beyond {@link CheckerThread#MAX_WAITING} waits for the oldest check (so the
 * checkpoints queued for checking stay bounded), and a check that throws fails the run instead of
 * vanishing with its thread. Outcomes only: every wait is on a latch or a thread's state, never on time.
 */
@Timeout(30)
class CheckerThreadTest {

    @Test
    void checksRunOneAfterAnotherInTheOrderHandedOver() {
        List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
        List<Integer> expected = new ArrayList<>();
        try (CheckerThread checker = new CheckerThread()) {
            for (int i = 0; i < 100; i++) {
                int n = i;
                checker.execute(() -> ran.add(n));
                expected.add(n);
            }
            checker.awaitAll();
        }
        assertEquals(expected, ran);
    }

    @Test
    void aHandOverBeyondTheBoundWaitsForTheOldestCheck() throws InterruptedException {
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CountDownLatch releaseRest = new CountDownLatch(1);
        AtomicBoolean firstDone = new AtomicBoolean();
        AtomicBoolean firstDoneWhenHandedOver = new AtomicBoolean();
        try (CheckerThread checker = new CheckerThread()) {
            checker.execute(() -> {
                await(releaseFirst);
                firstDone.set(true);
            });
            for (int i = 1; i < CheckerThread.MAX_WAITING; i++) {
                checker.execute(() -> await(releaseRest));
            }
            // the bound is reached: the next hand-over returns only once the first check finished
            Thread coordinator = new Thread(() -> {
                checker.execute(() -> { });
                firstDoneWhenHandedOver.set(firstDone.get());
            });
            coordinator.start();
            // release the first check only once the hand-over waits, or has returned without waiting
            while (coordinator.getState() != Thread.State.WAITING && coordinator.getState() != Thread.State.TERMINATED) {
                Thread.onSpinWait();
            }
            releaseFirst.countDown();
            coordinator.join();
            assertTrue(firstDoneWhenHandedOver.get(), "the hand-over returned before the oldest check had finished");
            releaseRest.countDown();
            checker.awaitAll();
        }
    }

    @Test
    void aCheckThatThrowsFailsTheWaitForIt() {
        IllegalStateException boom = new IllegalStateException("a broken check");
        try (CheckerThread checker = new CheckerThread()) {
            checker.execute(() -> { });
            checker.execute(() -> {
                throw boom;
            });
            assertSame(boom, assertThrows(IllegalStateException.class, checker::awaitAll));
        }
    }

    @Test
    void aCheckedExceptionOfACheckIsNamed() {
        try (CheckerThread checker = new CheckerThread()) {
            checker.execute(() -> sneakyThrow(new java.io.IOException("disk")));
            IllegalStateException e = assertThrows(IllegalStateException.class, checker::awaitAll);
            assertTrue(e.getMessage().contains("a completion check failed"), e.getMessage());
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneakyThrow(Throwable e) throws E {
        throw (E) e;
    }
}
