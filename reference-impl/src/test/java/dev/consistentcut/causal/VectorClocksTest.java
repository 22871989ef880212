package dev.consistentcut.causal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.channel.CausalChannel;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The causal merge: events ordered by a channel or the coordinator come out in that
 * order whatever the merge's choices; events no edge orders come out in both orders over the
 * choices (the merge really is free there). One thread plays every process in turn
 * ({@link VectorClocks#bind}), so the interleaving is the test's.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class VectorClocksTest {

    private static Record record(long off) {
        return new Record(new RecordId("a", off), off, 0);
    }

    private static List<String> order(VectorClocks c, int choice) {
        return c.merge(n -> choice % n).stream().map(VectorClocks.Merged::line).toList();
    }

    @Test
    void aTakeComesAfterThePutAndEveryMergeKeepsIt() {
        VectorClocks c = new VectorClocks(List.of("a", "b", "x"));
        Channel ch = new Channel("a->b", 4);
        CausalChannel.install(ch, c.channel(4));
        c.bind("x");
        c.current().event("x1"); // concurrent with everything
        c.bind("a");
        ch.offerRecord(record(0));
        c.current().event("a1");
        c.bind("b");
        ch.poll();
        c.current().event("b1");
        for (int choice = 0; choice < 3; choice++) {
            List<String> o = order(c, choice);
            assertTrue(o.indexOf("a1") < o.indexOf("b1"), "the take after the put: " + o);
        }
        Set<Integer> whereX = new HashSet<>();
        for (int choice = 0; choice < 3; choice++) {
            whereX.add(order(c, choice).indexOf("x1"));
        }
        assertTrue(whereX.size() > 1, "an event no edge orders is placed freely: " + whereX);
    }

    @Test
    void aPutThatWaitedForRoomComesAfterTheTakeThatMadeIt() {
        VectorClocks c = new VectorClocks(List.of("a", "b"));
        Channel ch = new Channel("a->b", 1);
        CausalChannel.install(ch, c.channel(1));
        c.bind("a");
        ch.offerRecord(record(0));
        c.current().event("a1");
        c.bind("b");
        ch.poll();
        c.current().event("b1");
        c.bind("a");
        ch.offerRecord(record(1)); // capacity 1: only possible after b's take
        c.current().event("a2");
        for (int choice = 0; choice < 2; choice++) {
            assertEquals(List.of("a1", "b1", "a2"), order(c, choice));
        }
    }

    @Test
    void aPutWithRoomToSpareIsNotOrderedAfterTheReceiversTakes() {
        VectorClocks c = new VectorClocks(List.of("a", "b"));
        Channel ch = new Channel("a->b", 4);
        CausalChannel.install(ch, c.channel(4));
        c.bind("a");
        ch.offerRecord(record(0));
        c.current().event("a1");
        c.bind("b");
        ch.poll();
        c.current().event("b1");
        c.bind("a");
        ch.offerRecord(record(1)); // room for 4: no edge from b's take
        c.current().event("a2");
        Set<List<String>> orders = new HashSet<>();
        for (int choice = 0; choice < 2; choice++) {
            orders.add(order(c, choice));
        }
        assertEquals(Set.of(List.of("a1", "b1", "a2"), List.of("a1", "a2", "b1")), orders);
    }

    @Test
    void theCoordinatorCarriesWritesToLaterCoordinatorStepsAndNewsToReaders() {
        VectorClocks c = new VectorClocks(List.of("t", "u", VectorClocks.COORDINATOR));
        c.bind("t");
        c.atCoordinator(true, null, () -> null); // an acknowledgement
        c.current().event("t1");
        c.bind(VectorClocks.COORDINATOR);
        c.coordinatorStep(() -> c.current().event("complete"));
        c.bind("u");
        c.atCoordinator(false, r -> false, () -> null); // a poll without news: no edge
        c.current().event("u1");
        c.atCoordinator(false, r -> true, () -> null); // news (a notification): an edge
        c.current().event("u2");
        Set<Integer> whereU1 = new HashSet<>();
        for (int choice = 0; choice < 3; choice++) {
            List<String> o = order(c, choice);
            assertTrue(o.indexOf("t1") < o.indexOf("complete"), "the completion after the acknowledgement: " + o);
            assertTrue(o.indexOf("complete") < o.indexOf("u2"), "the news after the completion: " + o);
            whereU1.add(o.indexOf("u1"));
        }
        assertTrue(whereU1.size() > 1, "a read without news orders nothing: " + whereU1);
    }

    @Test
    void aFailureOrdersEverythingBeforeItBeforeEverythingAfter() {
        VectorClocks c = new VectorClocks(List.of("t", "u", VectorClocks.COORDINATOR));
        c.bind("t");
        c.current().event("t1");
        c.bind("u");
        c.current().event("u1");
        c.bind(VectorClocks.COORDINATOR);
        c.joinAll();
        c.current().event("FailAndRestore");
        c.inheritAll();
        c.bind("t");
        c.current().event("t2");
        for (int choice = 0; choice < 3; choice++) {
            List<String> o = order(c, choice);
            assertEquals("FailAndRestore", o.get(2), o.toString());
            assertEquals("t2", o.get(3), o.toString());
        }
    }
}
