package dev.consistentcut.modelcheck;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * TLC's coverage of several models, added up per protocol module, action and branch: a branch is
 * a sub-expression TLC evaluated (or not) while checking the action, in a protocol module (it may
 * be the action's own module or one whose operator the action calls). A branch is reached when
 * some model evaluated it at least once in that action.
 *
 * <p>TLC lists an expression it evaluated as a whole (an IF arm: one line with its count) but one
 * it never evaluated by its parts (each conjunct of the arm: a line with 0 each). So a model in
 * which the arm was not taken lists zeros for the conjuncts of an arm that another model lists as
 * evaluated: a zero whose range lies inside a range some model evaluated as a whole (a line
 * without nested lines under it) in the same action is not a branch of its own and is left out.
 * A zero nested under its evaluated parent in one listing (an arm of an IF inside a conjunct)
 * stays. Likewise a call TLC evaluated as a whole (one line, {@code PreCommitTransactions(T, C)})
 * while another call site of the same operator in the action lists the body's conjuncts with 0:
 * a top-level conjunct of an operator whose body is a conjunction (no IF, CASE or disjunction
 * above its conjuncts; {@link SpecSources#conjunctsOfCall}) and whose call some model evaluated
 * whole in the action is left out too. Not thread-safe: the main thread adds the models one by one.
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
    /** Per module and action: the ranges some model evaluated as a whole (a line without nested lines, count above 0). */
    private final Map<String, Set<TlcCoverage.Span>> wholes = new LinkedHashMap<>();
    /** Per action key: the ranges in protocol modules some model evaluated as a whole. */
    private final Map<String, Set<TlcCoverage.Span>> wholeCalls = new LinkedHashMap<>();
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
            List<TlcCoverage.Evaluated> lines = a.evaluated();
            for (int i = 0; i < lines.size(); i++) {
                TlcCoverage.Evaluated e = lines.get(i);
                String module = e.span().module();
                if (!sources.isProtocol(module)) {
                    continue;
                }
                String action = a.definition().module().equals(module) ? a.label() : a.label() + " (" + a.definition().module() + ")";
                String key = module + "\t" + action + "\t" + e.span().range();
                boolean whole = i + 1 == lines.size() || lines.get(i + 1).nesting() <= e.nesting();
                if (whole && e.count() > 0) {
                    wholes.computeIfAbsent(module + "\t" + action, k -> new LinkedHashSet<>()).add(e.span());
                    wholeCalls.computeIfAbsent(a.key(), k -> new LinkedHashSet<>()).add(e.span());
                }
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
        all.removeIf(b -> !b.reached() && wholes.getOrDefault(b.module() + "\t" + b.action(), Set.of()).stream()
                .anyMatch(w -> !w.equals(b.span()) && inside(b.span(), w)));
        Map<String, Set<TlcCoverage.Span>> conjuncts = new HashMap<>();
        all.removeIf(b -> !b.reached() && conjuncts.computeIfAbsent(b.actionKey(), this::conjunctsOfWholeCalls).stream()
                .anyMatch(c -> c.module().equals(b.module()) && c.line() == b.span().line() && c.col() == b.span().col()));
        all.sort(Comparator.comparing(Branch::module).thenComparing(Branch::action)
                .thenComparingInt(b -> b.span().line()).thenComparingInt(b -> b.span().col())
                .thenComparingInt(b -> b.span().endLine()).thenComparingInt(b -> b.span().endCol()));
        return all;
    }

    /**
     * The top-level conjuncts of every operator that some model evaluated a call of as a whole in
     * the action (in any module): the action took the operator, so each conjunct was evaluated.
     */
    private Set<TlcCoverage.Span> conjunctsOfWholeCalls(String actionKey) {
        Set<TlcCoverage.Span> all = new LinkedHashSet<>();
        wholeCalls.getOrDefault(actionKey, Set.of()).forEach(w -> all.addAll(sources.conjunctsOfCall(w)));
        return all;
    }

    private static boolean inside(TlcCoverage.Span s, TlcCoverage.Span outer) {
        boolean startsAfter = s.line() > outer.line() || s.line() == outer.line() && s.col() >= outer.col();
        boolean endsBefore = s.endLine() < outer.endLine() || s.endLine() == outer.endLine() && s.endCol() <= outer.endCol();
        return startsAfter && endsBefore;
    }

    /** The distinct states per model that took the action (none: no model took it). */
    Map<String, Long> distinctStates(String actionKey) {
        return distinct.getOrDefault(actionKey, Map.of());
    }
}
