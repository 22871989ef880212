package dev.consistentcut.modelcheck;

import java.nio.file.Path;

/**
 * One row of a manifest: a model, what it must do, and its pinned counts. Immutable.
 *
 * @param manifest the models.tsv it is listed in (--update-counts rewrites its row there)
 * @param folder where its module and config are: TLC runs there
 * @param config the config file, relative to {@code folder}
 * @param pinnedStates column 7: the pinned distinct states, or null (not pinned, or shared)
 * @param pinnedDepth column 8: the pinned depth, or null
 * @param pinOf column 7 '=BASE': the model whose pin this one shares, or null
 */
record Model(String name, String module, String config, String expect, String tier, String description,
             Path manifest, int line, Path folder, Long pinnedStates, Long pinnedDepth, String pinOf) {

    Path configFile() {
        return folder.resolve(config);
    }

    Model withPins(Long states, Long depth) {
        return new Model(name, module, config, expect, tier, description, manifest, line, folder, states, depth, pinOf);
    }

    boolean simulated() {
        return tier.equals("simulate");
    }
}
