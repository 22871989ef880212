package dev.consistentcut.conformance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.SavepointReader;
import org.apache.flink.state.api.functions.KeyedStateReaderFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;

/**
 * Reads a run's retained checkpoints back with Flink's State Processor API and holds them to the
 * trace and to the cut: for each {@code chk-<id>} directory, the operator state of {@code join}
 * and {@code sink} (the processed bags, all subtasks together) must be the bags their
 * {@code SnapshotState} events of that checkpoint reported, and {@code join}'s keyed counts must
 * be, key by key, the number of records of that key in join's bag (the job's own state agrees
 * with the bag the cut invariant was checked on, {@link TraceChecks}); the cut of a retained
 * checkpoint that no task was told completed is checked here too. One batch job reads every
 * checkpoint of a run.
 */
final class CheckpointReading {

    private CheckpointReading() {
    }

    /** Every disagreement between the retained checkpoints under {@code dir} and the trace; also how many were read. */
    record Result(int checkpoints, List<String> violations) {
    }

    static Result check(RunSpec spec, Path dir, List<Map<String, Object>> events) throws Exception {
        List<Path> chks = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(p -> p.getFileName().toString().startsWith("chk-")
                        && Files.exists(p.resolve("_metadata"))).sorted().forEach(chks::add);
            }
        }
        List<String> out = new ArrayList<>();
        if (chks.isEmpty()) {
            return new Result(0, out);
        }
        Configuration conf = new Configuration();
        conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        DataStream<String> all = null;
        for (Path chk : chks) {
            String id = chk.getFileName().toString().substring(4);
            SavepointReader reader = SavepointReader.read(env, chk.toUri().toString());
            List<DataStream<String>> parts = new ArrayList<>(List.of(
                    reader.readListState(OperatorIdentifier.forUid("join"), "processed", Types.STRING)
                            .map(e -> id + "|join|" + e).returns(Types.STRING),
                    reader.readKeyedState(OperatorIdentifier.forUid("join"), new Counts(id), Types.INT, Types.STRING)));
            if (!spec.transactionalSink()) {
                // (the two-phase-commit sink's writer state is Flink's serialized writer state, not this list)
                parts.add(reader.readListState(OperatorIdentifier.forUid("sink"), "processed", Types.STRING)
                        .map(e -> id + "|sink|" + e).returns(Types.STRING));
            }
            for (DataStream<String> p : parts) {
                all = all == null ? p : all.union(p);
            }
        }
        // checkpoint -> "join" / "sink" / "count" -> entry -> n
        Map<Long, Map<String, Map<String, Integer>>> read = new TreeMap<>();
        try (CloseableIterator<String> it = all.executeAndCollect("read retained checkpoints")) {
            while (it.hasNext()) {
                String[] p = it.next().split("\\|");
                Map<String, Integer> m = read.computeIfAbsent(Long.parseLong(p[0]), k -> new HashMap<>())
                        .computeIfAbsent(p[1], k -> new HashMap<>());
                if (p[1].equals("count")) {
                    m.put(p[2], Integer.parseInt(p[3]));
                } else {
                    int hash = p[2].lastIndexOf('#');
                    m.merge(p[2].substring(0, hash), Integer.parseInt(p[2].substring(hash + 1)), Integer::sum);
                }
            }
        }
        for (Path chk : chks) {
            long c = Long.parseLong(chk.getFileName().toString().substring(4));
            Map<String, Map<String, Integer>> r = read.getOrDefault(c, Map.of());
            for (String uid : spec.transactionalSink() ? List.of("join") : List.of("join", "sink")) {
                Map<String, Integer> traced = tracedBag(events, c, uid);
                if (traced == null) {
                    continue; // a finished task's state: no SnapshotState to compare with
                }
                Map<String, Integer> stored = r.getOrDefault(uid, Map.of());
                if (!stored.equals(traced)) {
                    out.add("checkpoint " + c + ": " + uid + "'s operator state read back holds " + new TreeMap<>(stored)
                            + ", its SnapshotState events reported " + new TreeMap<>(traced));
                }
            }
            Map<String, Integer> bag = r.getOrDefault("join", Map.of());
            Map<String, Integer> perKey = new TreeMap<>();
            bag.forEach((rec, n) -> {
                String[] p = rec.split("/");
                perKey.merge(String.valueOf(spec.key(p[0], Integer.parseInt(p[1]))), n, Integer::sum);
            });
            Map<String, Integer> counts = new TreeMap<>(r.getOrDefault("count", Map.of()));
            if (!counts.equals(perKey)) {
                out.add("checkpoint " + c + ": join's keyed counts read back are " + counts
                        + ", the records of each key in its processed state are " + perKey);
            }
        }
        // A checkpoint Flink completed (its _metadata is written when the coordinator completes
        // it, CheckpointCoordinator#completePendingCheckpoint) that no task was told of nor
        // restored from, so the trace's cut check skips it: the final checkpoint of a job whose
        // tasks ended before the notification came. Its cut is checked here.
        java.util.TreeSet<Long> untold = new java.util.TreeSet<>();
        for (Path chk : chks) {
            untold.add(Long.parseLong(chk.getFileName().toString().substring(4)));
        }
        untold.removeAll(TraceChecks.completed(events));
        untold.removeAll(TraceChecks.savepointIds(events));
        out.addAll(TraceChecks.cutsAt(spec, new Topology(spec), events, untold));
        return new Result(chks.size(), out);
    }

    /** The union of the bags the {@code uid} tasks reported for checkpoint {@code c}; null if none reported. */
    private static Map<String, Integer> tracedBag(List<Map<String, Object>> events, long c, String uid) {
        Map<String, Integer> bag = null;
        for (Map<String, Object> e : events) {
            if (e.get("event").equals("SnapshotState") && ((String) e.get("task")).startsWith(uid + "#")
                    && ((Number) e.get("checkpoint")).longValue() == c) {
                if (bag == null) {
                    bag = new HashMap<>();
                }
                TraceChecks.bag(e.get("snapshot")).forEach(bag::put);
            }
        }
        return bag;
    }

    /** Join's keyed {@code count} per key, as {@code <checkpoint>|count|<key>|<n>}. */
    static final class Counts extends KeyedStateReaderFunction<Integer, String> {
        private static final long serialVersionUID = 1L;
        private final String checkpoint;
        private transient ValueState<Integer> count;

        Counts(String checkpoint) {
            this.checkpoint = checkpoint;
        }

        @Override
        public void open(OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Integer.class));
        }

        @Override
        public void readKey(Integer key, Context ctx, Collector<String> out) throws Exception {
            Integer n = count.value();
            out.collect(checkpoint + "|count|" + key + "|" + (n == null ? 0 : n));
        }
    }
}
