package dev.consistentcut.bench;

import java.util.Map;

/**
 * The constants of the predictions, measured in the same run as the scenarios.
 *
 * @param storeBytesPerSecond write bandwidth of the reference engine's checkpoint store
 *     (the durable directory store: encode, write, fsync, rename), for a checkpoint of the size an
 *     unaligned checkpoint has under backpressure
 * @param barrierTravelMs per backpressure level: the time an overtaking barrier needs to cross
 *     the job's three hops (source, count, sink) when nothing waits for it but the task threads:
 *     two hops into idle tasks and one into a sink busy with its per-record cost
 */
public record Calibration(
        double storeBytesPerSecond,
        Map<Backpressure, Double> barrierTravelMs) {

    public Calibration {
        barrierTravelMs = Map.copyOf(barrierTravelMs);
    }

    public double travelMs(Backpressure b) {
        Double v = barrierTravelMs.get(b);
        if (v == null) {
            throw new IllegalArgumentException("no barrier travel time calibrated for backpressure " + b.label());
        }
        return v;
    }
}
