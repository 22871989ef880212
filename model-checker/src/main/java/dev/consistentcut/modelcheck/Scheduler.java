package dev.consistentcut.modelcheck;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * --jobs N: the models run N at a time (one TLC worker each, so their counts stay deterministic),
 * longest first; the report then takes their results in the manifest's order, as if they had run
 * in turn (counts, pictures, the table and the JSON do not depend on N).
 *
 * <p>Threading: {@link #runAll} starts N pool threads, each running one model (TLC and its
 * picture) at a time; it returns on the calling thread once every model is done. The progress
 * line of each finished model goes to the (synchronized) output stream from its pool thread.
 */
final class Scheduler {

    private Scheduler() {
    }

    /** A model's guessed cost, to start the longest first. */
    static long cost(Model m) {
        // The cost guessed from the pinned states, weighted by the kind of specification: an IndInv
        // model's initial predicate enumerates a large set (UnalignedIndInvJoin's 5,722 states take
        // about as long as UnalignedJoin's 204,159); liveness about 4 times a safety model of its
        // size; an unpinned model counts as mid-sized.
        long s = m.pinnedStates() != null ? m.pinnedStates() : 20_000;
        String spec = ModelRun.specificationOf(m);
        if (spec != null && (spec.startsWith("Ind") || spec.startsWith("Sample"))) {
            s *= 30;
        } else if ("FairSpec".equals(spec) || "TriggerFairSpec".equals(spec)) {
            s *= 4;
        }
        // The refinement mapping is evaluated in every state: about 4 times the cost of the
        // protocol model's invariants (UnalignedJoinRefinement).
        if (m.module().endsWith("Refinement")) {
            s *= 4;
        }
        return s;
    }

    /** The order to start the models in: longest first, and so no long model starts last and runs alone on a core the others have left. */
    static List<Model> launchOrder(List<Model> selected) {
        List<Model> order = new ArrayList<>(selected);
        order.sort(Comparator.comparingLong(Scheduler::cost).reversed()); // stable: ties keep the manifest's order
        return order;
    }

    /**
     * Runs every model, {@code jobs} at a time, each with its picture: the results by model name,
     * a model whose run failed without a result mapped to {@link Result#none()}.
     */
    static Map<String, Result> runAll(List<Model> selected, int jobs, ModelRun runner, Pictures pictures, PrintStream out) {
        Map<String, Integer> position = new LinkedHashMap<>();
        for (int i = 0; i < selected.size(); i++) {
            position.put(selected.get(i).name(), i + 1);
        }
        ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
            Thread t = new Thread(r, "model-check-job");
            t.setDaemon(true);
            return t;
        });
        Map<String, Future<Result>> futures = new LinkedHashMap<>();
        try {
            for (Model m : launchOrder(selected)) {
                futures.put(m.name(), pool.submit(() -> {
                    // The picture too (a JVM each, about 1.5 s of CPU): drawn one after another in
                    // the report they took a minute of the quick run's ten.
                    Result r = pictures.draw(m, runner.run(m));
                    out.println("  [" + position.get(m.name()) + "/" + selected.size() + "] " + m.name() + ": " + r.result()
                            + ", " + r.seconds() + "s");
                    return r;
                }));
            }
            Map<String, Result> results = new LinkedHashMap<>();
            for (Map.Entry<String, Future<Result>> f : futures.entrySet()) {
                try {
                    results.put(f.getKey(), f.getValue().get());
                } catch (ExecutionException e) {
                    results.put(f.getKey(), Result.none());
                }
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        } finally {
            pool.shutdownNow();
        }
    }
}
