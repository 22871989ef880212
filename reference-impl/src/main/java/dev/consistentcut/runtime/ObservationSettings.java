package dev.consistentcut.runtime;

import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.task.RunObserver;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Who hears of a run, in either runtime, and whether the checks have their ledgers. Immutable;
 * built by {@link RunOptions#builder()}, whose setters document the defaults.
 *
 * @param observer observes every step, after the checks (thread-safe in the threaded runtime,
 *     unless its {@link ThreadSettings#stepOrdering()} runs the steps one at a time)
 * @param trackProcessed keep the processed ledgers; without them no invariant can be checked
 * @param onCheckpoint called with each completed checkpoint (coordinator thread when threaded)
 * @param progress progress lines, e.g. for stderr
 */
public record ObservationSettings(
        RunObserver observer,
        boolean trackProcessed,
        Consumer<CompletedCheckpoint> onCheckpoint,
        Consumer<String> progress) {

    public ObservationSettings {
        Objects.requireNonNull(observer, "observer");
        Objects.requireNonNull(onCheckpoint, "onCheckpoint");
        Objects.requireNonNull(progress, "progress");
    }
}
