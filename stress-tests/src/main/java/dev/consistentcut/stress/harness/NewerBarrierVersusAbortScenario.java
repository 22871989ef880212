package dev.consistentcut.stress.harness;

import dev.consistentcut.barrier.BarrierMode;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The second lifecycle race: a newer checkpoint's barrier racing the abort of the one being
 * aligned. The job is {@link LifecycleRaceJob}'s. Set up single-threaded before the race:
 * checkpoint 1 triggered; {@code s1} emitted one record, injected barrier 1, emitted its second
 * (and last) record; {@code s2} emitted one record; op took {@code s1}'s first record and barrier
 * 1, so it aligns checkpoint 1 with input 0 blocked (its second record waits behind the barrier).
 *
 * <p>The race: the coordinator's thread, which also runs both sources here, aborts checkpoint 1
 * (a timeout; aborts reach the tasks, so it leaves flight at once and {@code s2} never injects
 * its barrier), triggers checkpoint 2, and the sources go on: {@code s2} emits a record and
 * injects barrier 2 and emits its last record, {@code s1} injects barrier 2. Meanwhile op's task
 * loop takes what comes: the abort notification (abandoning checkpoint 1 and unblocking input 0)
 * or barrier 2 on input 1 first (subsuming checkpoint 1: abandoned and declined, checkpoint 2
 * started with only input 1 arrived), or it reads an empty notification queue just before the
 * abort and the barrier just after. The arbiter then runs the job to its end, op taking its inputs
 * before a waiting notification (so a subsumption the race left possible happens).
 *
 * <p>Outcome {@code (r1, r2, r3, r4)}: r1, r2 = the final status of checkpoints 1 and 2 (1
 * completed, 2 aborted, 0 never triggered, 3 still pending); r3 = how op's handling of
 * checkpoint 1 ended (1 aligned, 2 abandoned on the abort notification, 3 subsumed by barrier 2,
 * 4 otherwise, 0 never); r4 = invariant violations of the finished run ({@code ConsistentCutInv},
 * {@code AlignedNoChannelStateInv} of every completed checkpoint, {@code ExactlyOnceInv}), or -1
 * if the run could not finish, -2 if the engine threw.
 */
public final class NewerBarrierVersusAbortScenario extends LifecycleRaceJob {

    private static final int OP_ATTEMPTS = 10;

    public NewerBarrierVersusAbortScenario(BarrierMode mode) {
        super(mode);
        coordinator.triggerCheckpoint();
        s1.emitRecord();
        s1.injectBarrier(1);
        s1.emitRecord();
        s2.emitRecord();
        op.processRecord(0);
        op.receiveBarrier(0);
    }

    /** Coordinator actor (with both sources): abort 1, trigger 2, the sources inject barrier 2. */
    public void abortAndTriggerNext() {
        try {
            coordinator.abortCheckpoint(1);
            coordinator.triggerCheckpoint();
            s2.emitRecord();
            s2.injectBarrier(2);
            s2.emitRecord();
            s1.injectBarrier(2);
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    /** Task loop actor: op's enabled steps, a bounded number of times. */
    public void taskLoop() {
        opLoop(OP_ATTEMPTS);
    }

    /** Arbiter: finishes the run (op takes its inputs before a notification), then judges. */
    public void judge(IIII_Result r) {
        boolean finished = finish(false);
        r.r1 = status(1);
        r.r2 = status(2);
        r.r3 = endedHow();
        r.r4 = failure() != null ? -2 : !finished ? -1 : violations();
    }
}
