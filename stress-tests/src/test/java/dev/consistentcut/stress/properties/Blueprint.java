package dev.consistentcut.stress.properties;

import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.Join;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.operator.Operator;
import dev.consistentcut.operator.Sum;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.source.SourceLog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A generated acyclic job: 1-3 sources, 1-4 operators, each with parallelism 1-2, fan-in and
 * fan-out, HASH (keyed), BROADCAST and FORWARD edges with small capacities, and small source logs.
 * {@link Generators#blueprints()} makes them from plain numbers, so that QuickTheories shrinks a
 * failing job towards fewer nodes, parallelism 1, single edges and short logs.
 *
 * <p>Operators are chosen so that the final state does not depend on the order in which records
 * arrive (which differs between runs): {@code count} (a {@link KeyedCount}: state by key only),
 * {@code map} (stateless) and {@code sum} (a {@link Sum}), the latter only where no other sum is
 * upstream, since a sum emits running totals, whose values depend on the order. Only the
 * rescaling property draws {@code join} (a {@link Join}, keyed state on both sides, exactly two
 * in-edges), whose output depends on the order: its checks are on ledgers, not values. Immutable.
 */
public record Blueprint(List<SourceSpec> sources, List<OperatorSpec> operators, List<EdgeSpec> edges, long logSeed) {

    /** A source with one log per instance: {@code logLengths[i]} records for instance {@code i}. */
    public record SourceSpec(String name, List<Integer> logLengths) {
    }

    public enum Kind {
        COUNT, SUM, MAP, JOIN
    }

    public record OperatorSpec(String name, Kind kind, int parallelism) {
    }

    public record EdgeSpec(String from, String to, Partitioning partitioning, int capacity) {
    }

    /** Keys of generated records are drawn from {@code 0..KEYS-1}. */
    static final int KEYS = 4;

    public Blueprint {
        sources = List.copyOf(sources);
        operators = List.copyOf(operators);
        edges = List.copyOf(edges);
    }

    /** The job graph (validated by its builder). Each call makes fresh, equal source logs. */
    public JobGraph toJob() {
        JobGraph.Builder b = JobGraph.builder();
        for (SourceSpec s : sources) {
            SourceLog[] logs = new SourceLog[s.logLengths().size()];
            for (int i = 0; i < logs.length; i++) {
                logs[i] = InMemorySourceLog.randomKeys(s.logLengths().get(i), KEYS, logSeed * 31 + s.name().hashCode() * 7L + i);
            }
            b.source(s.name(), logs);
        }
        for (OperatorSpec o : operators) {
            b.operator(o.name(), o.parallelism(), factory(o.kind()));
        }
        for (EdgeSpec e : edges) {
            b.edge(e.from(), e.to(), e.partitioning(), e.capacity());
        }
        return b.build();
    }

    /**
     * The job with a transactional sink node {@code sink} (parallelism {@code sinkParallelism})
     * fed, keyed, by every operator that has no out-edge.
     */
    public JobGraph toJobWithSink(Supplier<? extends Operator> sink, int sinkParallelism) {
        JobGraph.Builder b = JobGraph.builder();
        for (SourceSpec s : sources) {
            SourceLog[] logs = new SourceLog[s.logLengths().size()];
            for (int i = 0; i < logs.length; i++) {
                logs[i] = InMemorySourceLog.randomKeys(s.logLengths().get(i), KEYS, logSeed * 31 + s.name().hashCode() * 7L + i);
            }
            b.source(s.name(), logs);
        }
        for (OperatorSpec o : operators) {
            b.operator(o.name(), o.parallelism(), factory(o.kind()));
        }
        b.operator("sink", sinkParallelism, sink);
        for (EdgeSpec e : edges) {
            b.edge(e.from(), e.to(), e.partitioning(), e.capacity());
        }
        for (OperatorSpec o : operators) {
            if (edges.stream().noneMatch(e -> e.from().equals(o.name()))) {
                b.edge(o.name(), "sink", Partitioning.HASH, 2);
            }
        }
        return b.build();
    }

    private static Supplier<? extends Operator> factory(Kind kind) {
        return switch (kind) {
            case COUNT -> KeyedCount::new;
            case SUM -> Sum::new;
            case MAP -> () -> new MapOperator(v -> 3 * v + 1);
            case JOIN -> Join::new;
        };
    }

    /** Total number of records in all logs. */
    public int records() {
        return sources.stream().flatMap(s -> s.logLengths().stream()).mapToInt(Integer::intValue).sum();
    }

    /** One line: nodes with parallelism and log lengths, then the edges, then the log seed. */
    @Override
    public String toString() {
        String s = sources.stream().map(x -> x.name() + x.logLengths()).collect(Collectors.joining(" "));
        String o = operators.stream().map(x -> x.name() + "=" + x.kind().name().toLowerCase() + "(p" + x.parallelism() + ")")
                .collect(Collectors.joining(" "));
        String e = edges.stream().map(x -> x.from() + "->" + x.to() + " " + x.partitioning() + "/" + x.capacity())
                .collect(Collectors.joining(", "));
        return "sources " + s + "; operators " + o + "; edges " + e + "; log seed " + logSeed;
    }

    /**
     * Builds a blueprint from generated numbers; every combination is a valid job.
     *
     * @param sourceParallelism per source slot 0..2: 1 or 2
     * @param logLengths per source slot and instance ({@code 2 * slot + instance}): 0..n records
     * @param operatorParallelism, kinds per operator slot 0..3 (kind: 0 count, 1 sum, 2 map, 3 join:
     *     its first two inputs, a second one added if it has one only, a count if it has not
     *     exactly two in-edges in the end)
     * @param inputMasks per operator slot: bit {@code k} (k < 3) takes source k as input, bit
     *     {@code 3 + m} operator m (only m before this operator, so the graph stays acyclic); no
     *     valid bit: the previous operator, or for the first a source
     * @param partitionings, capacities per edge in creation order (partitioning: 0 HASH,
     *     1 BROADCAST, 2 FORWARD where the parallelisms match, else HASH; any other value HASH)
     */
    static Blueprint build(int nSources, int nOperators, List<Integer> sourceParallelism, List<Integer> logLengths,
                           List<Integer> operatorParallelism, List<Integer> kinds, List<Integer> inputMasks,
                           List<Integer> partitionings, List<Integer> capacities, long logSeed) {
        List<SourceSpec> sources = new ArrayList<>();
        for (int i = 0; i < nSources; i++) {
            int p = sourceParallelism.get(i);
            sources.add(new SourceSpec("s" + i, List.copyOf(logLengths.subList(2 * i, 2 * i + p))));
        }
        List<OperatorSpec> operators = new ArrayList<>();
        List<EdgeSpec> edges = new ArrayList<>();
        List<Set<Integer>> sumsUpstream = new ArrayList<>(); // per operator: operators upstream that are sums, itself included
        for (int j = 0; j < nOperators; j++) {
            List<String> from = new ArrayList<>();
            for (int k = 0; k < nSources; k++) {
                if ((inputMasks.get(j) & (1 << k)) != 0) {
                    from.add("s" + k);
                }
            }
            for (int m = 0; m < j; m++) {
                if ((inputMasks.get(j) & (1 << (3 + m))) != 0) {
                    from.add("o" + m);
                }
            }
            if (from.isEmpty()) {
                from.add(j > 0 ? "o" + (j - 1) : "s" + (j % nSources));
            }
            Kind kind = Kind.values()[kinds.get(j)];
            if (kind == Kind.JOIN) {
                joinInputs(from, j, nSources);
            }
            Set<Integer> sums = new HashSet<>();
            for (String f : from) {
                if (f.startsWith("o")) {
                    sums.addAll(sumsUpstream.get(Integer.parseInt(f.substring(1))));
                }
            }
            if (kind == Kind.SUM && !sums.isEmpty()) {
                kind = Kind.COUNT; // a sum below a sum would make the final state depend on arrival order
            }
            if (kind == Kind.SUM) {
                sums.add(j);
            }
            sumsUpstream.add(sums);
            OperatorSpec op = new OperatorSpec("o" + j, kind, operatorParallelism.get(j));
            operators.add(op);
            for (String f : from) {
                edges.add(edge(f, op, sources, operators, edges.size(), partitionings, capacities));
            }
        }
        for (SourceSpec s : sources) {
            if (edges.stream().noneMatch(e -> e.from().equals(s.name()))) {
                OperatorSpec to = operators.get(Integer.parseInt(s.name().substring(1)) % nOperators);
                edges.add(edge(s.name(), to, sources, operators, edges.size(), partitionings, capacities));
            }
        }
        for (int j = 0; j < nOperators; j++) {
            OperatorSpec op = operators.get(j);
            if (op.kind() == Kind.JOIN && edges.stream().filter(e -> e.to().equals(op.name())).count() != 2) {
                operators.set(j, new OperatorSpec(op.name(), Kind.COUNT, op.parallelism()));
            }
        }
        return new Blueprint(sources, operators, edges, logSeed);
    }

    /** A join's inputs: the first two, or with one only, another source or earlier operator if there is one. */
    private static void joinInputs(List<String> from, int j, int nSources) {
        while (from.size() > 2) {
            from.remove(from.size() - 1);
        }
        List<String> candidates = new ArrayList<>();
        for (int k = 0; k < nSources; k++) {
            candidates.add("s" + k);
        }
        for (int m = 0; m < j; m++) {
            candidates.add("o" + m);
        }
        candidates.removeAll(from);
        if (from.size() == 1 && !candidates.isEmpty()) {
            from.add(candidates.get(0));
        }
    }

    private static EdgeSpec edge(String from, OperatorSpec to, List<SourceSpec> sources, List<OperatorSpec> operators,
                                 int index, List<Integer> partitionings, List<Integer> capacities) {
        int fromParallelism = from.startsWith("s")
                ? sources.get(Integer.parseInt(from.substring(1))).logLengths().size()
                : operators.get(Integer.parseInt(from.substring(1))).parallelism();
        int choice = partitionings.get(index % partitionings.size());
        Partitioning p = switch (choice) {
            case 1 -> Partitioning.BROADCAST;
            case 2 -> fromParallelism == to.parallelism() ? Partitioning.FORWARD : Partitioning.HASH;
            default -> Partitioning.HASH;
        };
        return new EdgeSpec(from, to.name(), p, capacities.get(index % capacities.size()));
    }
}
