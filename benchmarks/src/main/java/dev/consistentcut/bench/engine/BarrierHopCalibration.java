package dev.consistentcut.bench.engine;

import dev.consistentcut.bench.Pacer;
import dev.consistentcut.bench.Stats;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Measures the time an overtaking barrier needs to cross one hop: from the sender's
 * {@link Channel#putBarrierOvertaking} to the receiver's {@link Channel#poll} returning it. The
 * receiver thread waits and wakes the way the threaded runtime's task threads do (a sticky signal
 * set by the channel's listener), so the figure contains the wake-up, and for a receiver that
 * spends a per-record cost (the paced sink), the rest of the record it is busy with when the
 * barrier arrives: half the cost on average.
 *
 * <p>Runs its own receiver thread per measurement and joins it. Not thread-safe.
 */
public final class BarrierHopCalibration {

    private final int samples;
    private final SplittableRandom random = new SplittableRandom(42);

    /** @param samples barriers sent per measurement */
    public BarrierHopCalibration(int samples) {
        this.samples = samples;
    }

    /** Median hop into a receiver that has nothing else to do (waiting for work or for room). */
    public double idleHopMs() throws InterruptedException {
        return measure(0, false);
    }

    /** Median hop into a receiver busy with a full channel of records costing {@code nanosPerRecord} each. */
    public double busyHopMs(long nanosPerRecord) throws InterruptedException {
        return measure(nanosPerRecord, true);
    }

    private double measure(long nanosPerRecord, boolean keepFull) throws InterruptedException {
        Channel channel = new Channel("calibration", 64);
        Signal toReceiver = new Signal();
        Signal toSender = new Signal();
        channel.setListeners(toReceiver::signal, toSender::signal);
        long[] sent = new long[samples + 1];
        long[] received = new long[samples + 1];
        Receiver receiver = new Receiver(channel, toReceiver, new Pacer(nanosPerRecord), received);
        Thread thread = new Thread(receiver, "hop-calibration");
        thread.setDaemon(true);
        thread.start();
        Record record = new Record(new RecordId("calibration", 0), 0, 1);
        try {
            for (int i = 1; i <= samples; i++) {
                // A random gap, so that barriers meet the receiver at every phase of its record.
                long gapEnd = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(2_000 + random.nextInt(3_000));
                while (System.nanoTime() < gapEnd) {
                    if (keepFull) {
                        toSender.clear();
                        while (channel.offerRecord(record)) {
                            // fill up
                        }
                        toSender.awaitNanos(gapEnd - System.nanoTime());
                    } else {
                        LockSupport.parkNanos(gapEnd - System.nanoTime());
                    }
                }
                sent[i] = System.nanoTime();
                channel.putBarrierOvertaking(new Barrier(i));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (receiver.lastBarrier < i) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("calibration barrier " + i + " not received within 5 s");
                    }
                    Thread.onSpinWait();
                    LockSupport.parkNanos(20_000);
                }
            }
        } finally {
            receiver.stop = true;
            toReceiver.signal();
            thread.join();
        }
        double[] hops = new double[samples];
        for (int i = 1; i <= samples; i++) {
            hops[i - 1] = (received[i] - sent[i]) / 1e6;
        }
        return Stats.median(hops);
    }

    private static final class Receiver implements Runnable {
        private final Channel channel;
        private final Signal signal;
        private final Pacer pacer;
        private final long[] received;
        volatile boolean stop;
        volatile long lastBarrier;

        Receiver(Channel channel, Signal signal, Pacer pacer, long[] received) {
            this.channel = channel;
            this.signal = signal;
            this.pacer = pacer;
            this.received = received;
        }

        @Override
        public void run() {
            while (!stop) {
                signal.clear();
                Message e = channel.poll();
                if (e == null) {
                    signal.awaitNanos(TimeUnit.MILLISECONDS.toNanos(100));
                } else if (e instanceof Barrier b) {
                    received[(int) b.checkpointId()] = System.nanoTime();
                    lastBarrier = b.checkpointId();
                } else {
                    pacer.await();
                }
            }
        }
    }

    /** A sticky wake-up, as the runtime's: a signal before the wait is not lost. */
    private static final class Signal {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition signalled = lock.newCondition();
        private boolean pending;

        void signal() {
            lock.lock();
            try {
                pending = true;
                signalled.signal();
            } finally {
                lock.unlock();
            }
        }

        void clear() {
            lock.lock();
            try {
                pending = false;
            } finally {
                lock.unlock();
            }
        }

        void awaitNanos(long nanos) {
            lock.lock();
            try {
                long left = nanos;
                while (!pending && left > 0) {
                    left = signalled.awaitNanos(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        }
    }
}
