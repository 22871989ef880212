package dev.consistentcut.modelcheck;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * TLC's coverage of several models, added up per protocol module, action and branch: a branch is
 * a sub-expression TLC evaluated (or not) while checking the action, in a protocol module (it may
 * be the action's own module or one whose operator the action calls). A branch is reached when
 * some model evaluated it at least once in that action. Not thread-safe: the main thread adds the
 * models one by one.
 */
final class CoverageTally {

    /**
     * One branch of one action.
     *
     * @param module the module the branch's text is in
     * @param action the action's name, with the module it is defined in when that is another one
     * @param location L:C-L2:C2 in {@code module}
     * @param text the branch's source text, whitespace collapsed
     * @param models the models that evaluated it
     * @param count the evaluations over all models
     */
    record Branch(String module, String action, String actionKey, TlcCoverage.Span span, String text, Set<String> models,
                  long count) {
        String location() {
            return span.range();
        }

        boolean reached() {
            return count > 0;
        }
    }

    private final SpecSources sources;
    private final Map<String, Branch> branches = new LinkedHashMap<>();
    /** Per action key: the distinct states each model that took the action found with it. */
    private final Map<String, Map<String, Long>> distinct = new LinkedHashMap<>();
    private final Set<String> models = new LinkedHashSet<>();

    CoverageTally(SpecSources sources) {
        this.sources = sources;
    }

    /** Adds one model's coverage. */
    void add(String model, List<TlcCoverage.Action> actions) {
        models.add(model);
        for (TlcCoverage.Action a : actions) {
            Map<String, Long> perModel = distinct.computeIfAbsent(a.key(), k -> new LinkedHashMap<>());
            if (a.generated() > 0) {
                perModel.merge(model, a.distinct(), Long::sum);
            }
            for (TlcCoverage.Evaluated e : a.evaluated()) {
                String module = e.span().module();
                if (!sources.isProtocol(module)) {
                    continue;
                }
                String action = a.definition().module().equals(module) ? a.label() : a.label() + " (" + a.definition().module() + ")";
                String key = module + "\t" + action + "\t" + e.span().range();
                Branch old = branches.get(key);
                Set<String> by = new LinkedHashSet<>(old == null ? Set.of() : old.models());
                if (e.count() > 0) {
                    by.add(model);
                }
                long count = (old == null ? 0 : old.count()) + e.count();
                String text = old == null ? sources.text(e.span()) : old.text();
                branches.put(key, new Branch(module, action, a.key(), e.span(), text, by, count));
            }
        }
    }

    /** The models added, in order. */
    Set<String> models() {
        return models;
    }

    /** Every branch, by module, action and place in the module. */
    List<Branch> branches() {
        List<Branch> all = new ArrayList<>(branches.values());
        all.sort(Comparator.comparing(Branch::module).thenComparing(Branch::action)
                .thenComparingInt(b -> b.span().line()).thenComparingInt(b -> b.span().col())
                .thenComparingInt(b -> b.span().endLine()).thenComparingInt(b -> b.span().endCol()));
        return all;
    }

    /** The distinct states per model that took the action (none: no model took it). */
    Map<String, Long> distinctStates(String actionKey) {
        return distinct.getOrDefault(actionKey, Map.of());
    }
}
