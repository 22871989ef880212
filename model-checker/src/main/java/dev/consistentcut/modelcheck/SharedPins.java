package dev.consistentcut.modelcheck;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Models that differ only in the properties they check (a refinement twin beside its base model)
 * explore one state space, so their distinct states and depth are equal. Each such group keeps
 * one pin: the others say '=BASE' in column 7. Checked on every run, before any TLC starts: a
 * '=BASE' must name a model of the same state space that carries a pin of its own, and two passing
 * models of one state space may not both carry their own numbers (they would drift apart when one
 * tier is re-pinned and the other is not). Only models expected to pass are grouped: a failing
 * model stops at its violation, after a number of states of its own.
 */
final class SharedPins {

    private SharedPins() {
    }

    /**
     * Checks the manifest's pins and gives its models with each shared pin resolved to its base's
     * numbers, in the manifest's order.
     *
     * @throws SetupException a shared pin that cannot hold
     */
    static Map<String, Model> resolve(Manifest manifest, StateSpace spaces) {
        Map<String, Model> models = manifest.models;
        Map<String, String> keyOf = new HashMap<>();
        for (Model m : models.values()) {
            keyOf.put(m.name(), spaces.key(m));
        }
        Map<String, String> owner = new HashMap<>();
        Map<String, Model> resolved = new LinkedHashMap<>();
        for (Model m : models.values()) {
            String where = m.manifest() + ": model '" + m.name() + "' shares the pin of '" + m.pinOf() + "'";
            if (m.pinOf() != null) {
                Model base = models.get(m.pinOf());
                if (base == null) {
                    throw new SetupException(where + ", which the manifest does not list");
                }
                if (base.pinOf() != null) {
                    throw new SetupException(where + ", which shares another's ('=" + base.pinOf() + "'): name that one");
                }
                if (!m.expect().equals("pass") || !base.expect().equals("pass")) {
                    throw new SetupException(where + ": only models that must pass explore the same states to the end");
                }
                if (!keyOf.get(m.name()).equals(keyOf.get(base.name()))) {
                    throw new SetupException(where + ", but they do not explore one state space (module or config other"
                            + " than its INVARIANTS/PROPERTIES differ)");
                }
                resolved.put(m.name(), m.withPins(base.pinnedStates(), base.pinnedDepth()));
                continue;
            }
            resolved.put(m.name(), m);
            if (!m.expect().equals("pass") || m.simulated()) {
                continue;
            }
            String other = owner.putIfAbsent(keyOf.get(m.name()), m.name());
            if (other != null) {
                throw new SetupException(m.manifest() + ": models '" + other + "' and '" + m.name() + "' explore one state"
                        + " space (they differ only in what they check): pin one and write '=" + other + "' in column 7 of '"
                        + m.name() + "', leaving column 8 empty");
            }
        }
        return resolved;
    }
}
