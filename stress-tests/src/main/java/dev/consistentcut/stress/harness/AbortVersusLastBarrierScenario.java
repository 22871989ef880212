package dev.consistentcut.stress.harness;

import dev.consistentcut.barrier.BarrierMode;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The first lifecycle race: an abort racing the last barrier of an alignment. The job is
 * {@link LifecycleRaceJob}'s. Set up single-threaded before the race: checkpoint 1 triggered;
 * {@code s1} emitted one record, injected barrier 1, emitted its second record; {@code s2}
 * emitted one record, injected barrier 1, emitted one more; op took {@code s1}'s record and
 * barrier, so it aligns checkpoint 1 with input 0 blocked, and its last barrier waits on input 1
 * behind {@code s2}'s first record.
 *
 * <p>The race: the coordinator's thread aborts checkpoint 1 (a timeout: {@code AbortCheckpoint},
 * which queues {@code NotifyCheckpointAborted} for every task), while op's task loop takes
 * {@code s2}'s record and the last barrier (completing the alignment: snapshot, acknowledgement,
 * which is the last one, so the loop's thread completes the checkpoint) or takes the notification
 * first (abandoning the alignment). The arbiter then runs the job to its end, op taking a waiting
 * notification before its inputs.
 *
 * <p>Outcome {@code (r1, r2, r3, r4)}: r1 = checkpoint 1's final status (1 completed, 2 aborted);
 * r2 = how op's alignment of checkpoint 1 ended (1 aligned: snapshot and acknowledgement; 2
 * abandoned on the abort notification; 4 otherwise; 0 never); r3 = op's inputs still blocked
 * right after that step; r4 = invariant violations of the finished run ({@code ConsistentCutInv},
 * {@code AlignedNoChannelStateInv} of every completed checkpoint, {@code ExactlyOnceInv}), or -1
 * if the run could not finish (an input stays blocked, records stay queued), -2 if the engine threw.
 *
 * <p>The cancellation barrier, the other way an abort reaches a task, arrives in-band on an input,
 * so within one task it is ordered with the barriers by the task's own choice of input, not by a
 * race between threads: Flink's scenarios ({@code docs/flink-scenarios.md}) cover it.
 */
public final class AbortVersusLastBarrierScenario extends LifecycleRaceJob {

    private static final int OP_ATTEMPTS = 8;

    public AbortVersusLastBarrierScenario(BarrierMode mode) {
        super(mode);
        coordinator.triggerCheckpoint();
        s1.emitRecord();
        s1.injectBarrier(1);
        s1.emitRecord();
        s2.emitRecord();
        s2.injectBarrier(1);
        s2.emitRecord();
        op.processRecord(0);
        op.receiveBarrier(0);
    }

    /** Coordinator actor: checkpoint 1 times out. */
    public void abort() {
        try {
            coordinator.abortCheckpoint(1);
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    /** Task loop actor: op's enabled steps, a bounded number of times. */
    public void taskLoop() {
        opLoop(OP_ATTEMPTS);
    }

    /** Arbiter: finishes the run (op takes a waiting notification first), then judges. */
    public void judge(IIII_Result r) {
        boolean finished = finish(true);
        r.r1 = status(1);
        r.r2 = endedHow();
        r.r3 = blockedAfterEnd();
        r.r4 = failure() != null ? -2 : !finished ? -1 : violations();
    }
}
