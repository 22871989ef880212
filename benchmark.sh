#!/usr/bin/env bash
# benchmark.sh: the benchmarks. Builds the benchmarks module, runs the JMH
# microbenchmarks, then the macro benchmark (every scenario on the reference engine and on
# Apache Flink 2.3.0 in one JVM, interleaved), and writes CSV, Markdown and a PNG chart.
# Not part of the test command: timings are not tests.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"

usage() {
  cat <<'USAGE'
Usage: ./benchmark.sh [--quick] [--only LIST] [--engines LIST] [--help] | --chart-only [DIR] [--debug]
       ./benchmark.sh --scale [--max-records N] [--repeats R]
       ./benchmark.sh --sweep

  (no option)  the full run: JMH microbenchmarks, then the
               macro benchmark over backpressure none/light/heavy x skew off/on x
               checkpoints none/aligned/unaligned/alternating (aligned with a 20 ms
               alignment timeout), on the reference engine and on Flink.
               Results: benchmarks/results/{results.csv,results.md,checkpoints.png,micro.csv}
  --quick      short JMH runs and only the skewed scenarios, with short
               windows. Results: benchmarks/results/quick/ (not committed)
               Both forms end with the checkpoint-overhead A/B pairs (10 per cell, up to
               20 while undecided: skewed cells in --quick, all four in the full run; median
               with a bootstrap 95% CI, verdict met / missed / undecided; overhead.csv).
               --only skips them.
  --only LIST  only the scenarios whose name (backpressure/skew/mode, e.g. heavy/skew/aligned)
               contains one of the comma-separated texts, without the JMH microbenchmarks; with
               or without --quick. Results: benchmarks/results/only/ (not committed). E.g. the
               alternating checkpoints' targets (heavy backpressure, both skews, every mode;
               no backpressure without skew):
                 ./benchmark.sh --only heavy/,none/even/
  --engines LIST  reference, flink or both (default: reference,flink)
  --chart-only [DIR]  no measuring: redraws DIR/checkpoints.png from DIR/results.csv (DIR default benchmarks/results)
  --scale      instead of the above: the scale sweep of the CLI (tools/target/tools.jar), each run
               a fresh JVM: 'run --mode unaligned --records n --sink-delay-us 0' for n records
               per source in 10k, 20k, 50k, 100k, 200k, 500k, 1M, 2M up to --max-records, and
               'run --mode unaligned --records n' (default options) for n = 20k and 160k, each
               with a new --checkpoint-dir read back by 'inspect --json'. Per run: wall time, time
               per record, checkpoints, checkpoint duration median and max, the bytes the last
               checkpoint wrote. Every run must exit 0 with the exactly-once verdict, otherwise
               the sweep stops with exit 1. One progress line per run on stderr.
               Results: benchmarks/results/scale/{scale.csv,scale.md,scale.png}
  --sweep      instead of the above: the scaling sweep of the reference engine (records
               serialized) with even sources, aligned and unaligned: under light backpressure
               the demo job's sizes, then one at a time varied (count parallelism 1, 3, 4;
               channel capacity 250, 2,000; buffer size 10, 1,000; keys 10, 100,000, 1,000,000); then the
               demo's sizes under heavy and under no backpressure. Each run against the cost
               model's prediction, printed before it runs (docs/benchmarks.md).
               Results: benchmarks/results/sweep/{sweep.csv,sweep.md,sweep.png}
  --overhead CELLS  instead of the above: the full run's checkpoint-overhead A/B alone for the
               comma-separated cells (even/aligned, even/unaligned, skew/aligned,
               skew/unaligned), 10 pairs and up to 40 while undecided, e.g. to decide a cell
               the full run left undecided. Results: benchmarks/results/overhead/
  --window S   with --overhead: each run's measurement window in seconds (default 3, the
               full run's); longer windows average out more of a window's noise
  --forks F    with --overhead: the cells in F fresh JVMs one after another, 10 pairs per
               cell in each (no more while undecided); the interval resamples the JVMs and
               then their pairs, so a verdict also holds from one JVM to the next. Each
               fork's pairs: benchmarks/results/overhead/forks/fork-K.csv
  --max-records N  with --scale: the largest records per source (default 2000000)
  --repeats R  with --scale: runs per point (default 3)
  --help       this text

A progress line on stderr shows the step, the time spent and a rough time left.
Needs a JDK 17+ and Maven 3.8+; everything else comes from Maven Central.
USAGE
}

quick=""
only=""
scale=""
sweep=""
overhead=""
overhead_opts=()
scale_opts=()
engines=""
chart_only=""
chart_dir=benchmarks/results
debug=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick="--quick" ;;
    --only|--engines)
      [ $# -ge 2 ] && [ -n "$2" ] && [ "${2#--}" = "$2" ] || { echo "benchmark.sh: $1 needs a value (see --help)" >&2; exit 2; }
      if [ "$1" = --only ]; then only=$2; else engines=$2; fi
      shift ;;
    --chart-only)
      chart_only=1
      if [ $# -ge 2 ] && [ -n "$2" ] && [ "${2#-}" = "$2" ]; then chart_dir=$2; shift; fi ;;
    --debug) debug=(--debug) ;;
    --scale) scale=1 ;;
    --sweep) sweep=1 ;;
    --overhead)
      [ $# -ge 2 ] && [ -n "$2" ] && [ "${2#--}" = "$2" ] || { echo "benchmark.sh: --overhead needs a list of cells (see --help)" >&2; exit 2; }
      overhead=$2; shift ;;
    --max-records|--repeats)
      [ $# -ge 2 ] && [[ "$2" =~ ^[0-9]+$ ]] || { echo "benchmark.sh: $1 needs a whole number (see --help)" >&2; exit 2; }
      scale_opts+=("$1" "$2")
      shift ;;
    --window)
      [ $# -ge 2 ] && [[ "$2" =~ ^[0-9]+$ ]] || { echo "benchmark.sh: $1 needs a whole number of seconds (see --help)" >&2; exit 2; }
      overhead_opts+=("$1" "$2")
      shift ;;
    --forks)
      [ $# -ge 2 ] && [[ "$2" =~ ^[0-9]+$ ]] || { echo "benchmark.sh: $1 needs a whole number of JVMs (see --help)" >&2; exit 2; }
      overhead_opts+=("$1" "$2")
      shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "benchmark.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

command -v java >/dev/null 2>&1 || { echo "benchmark.sh: java not found: install a JDK 17+" >&2; exit 3; }
command -v mvn >/dev/null 2>&1 || { echo "benchmark.sh: mvn not found: install Maven 3.8+" >&2; exit 3; }

[ ${#scale_opts[@]} -eq 0 ] || [ -n "$scale" ] || { echo "benchmark.sh: --max-records and --repeats go with --scale (see --help)" >&2; exit 2; }
[ ${#overhead_opts[@]} -eq 0 ] || [ -n "$overhead" ] || { echo "benchmark.sh: --window and --forks go with --overhead (see --help)" >&2; exit 2; }
# A standalone measurement of the benchmarks module (--overhead, --sweep): build, run MAIN with
# its arguments, report the time; exits with MAIN's code.
run_standalone() { # results-dir main-class args...
  local results=$1 main=$2; shift 2
  mkdir -p benchmarks/target
  echo "benchmark.sh: building the benchmarks module (mvn package, tests skipped)" >&2
  mvn -B -q -ntp -pl benchmarks -am package -DskipTests >"benchmarks/target/build.log" 2>&1 \
    || { echo "benchmark.sh: build failed, see benchmarks/target/build.log" >&2; tail -20 benchmarks/target/build.log >&2; exit 1; }
  local start=$SECONDS rc=0
  java -Xmx2g -Djava.awt.headless=true -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
       "$main" "$@" --out "$results" || rc=$?
  echo "benchmark.sh: done in $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s; results in $results/" >&2
  exit $rc
}
if [ -n "$overhead" ]; then
  [ -z "$scale$sweep$quick$only$engines$chart_only" ] && [ ${#scale_opts[@]} -eq 0 ] && [ ${#debug[@]} -eq 0 ] \
    || { echo "benchmark.sh: --overhead takes only --window and --forks (see --help)" >&2; exit 2; }
  run_standalone benchmarks/results/overhead dev.consistentcut.bench.OverheadMain --cells "$overhead" "${overhead_opts[@]}"
fi
if [ -n "$sweep" ]; then
  [ -z "$scale$quick$only$engines$chart_only" ] && [ ${#scale_opts[@]} -eq 0 ] && [ ${#debug[@]} -eq 0 ] \
    || { echo "benchmark.sh: --sweep takes no other option (see --help)" >&2; exit 2; }
  run_standalone benchmarks/results/sweep dev.consistentcut.bench.sweep.SweepMain
fi
if [ -n "$scale" ]; then
  [ -z "$quick$only$engines$chart_only" ] && [ ${#debug[@]} -eq 0 ] \
    || { echo "benchmark.sh: --scale takes only --max-records and --repeats (see --help)" >&2; exit 2; }
  mkdir -p benchmarks/target
  echo "benchmark.sh: building tools.jar and the benchmarks module (mvn package, tests skipped)" >&2
  mvn -B -q -ntp -pl tools,benchmarks -am package -DskipTests >"benchmarks/target/build.log" 2>&1 \
    || { echo "benchmark.sh: build failed, see benchmarks/target/build.log" >&2; tail -20 benchmarks/target/build.log >&2; exit 1; }
  # Each run's files go here; a good run's are deleted, a failed run's stay for a look.
  work=benchmarks/target/scale-runs
  rm -rf "$work"
  start=$SECONDS
  java -Xmx512m -Djava.awt.headless=true -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
       dev.consistentcut.bench.scale.ScaleMain --tools-jar tools/target/tools.jar --work "$work" \
       --out benchmarks/results/scale "${scale_opts[@]}"
  echo "benchmark.sh: done in $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s; results in benchmarks/results/scale/" >&2
  exit 0
fi
if [ -n "$chart_only" ]; then
  [ -z "$quick$only$engines" ] || { echo "benchmark.sh: --chart-only measures nothing: it takes no --quick, --only or --engines (see --help)" >&2; exit 2; }
  mkdir -p benchmarks/target
  # Built only if the classes are missing or older than a source: a redraw takes a second.
  stamp=benchmarks/target/classes/dev/consistentcut/bench/ChartOnly.class
  if [ ! -f "$stamp" ] || [ ! -f benchmarks/target/classpath.txt ] \
     || [ -n "$(find benchmarks/src/main benchmarks/pom.xml pom.xml -newer "$stamp" -type f -print -quit)" ]; then
    echo "benchmark.sh: building the benchmarks module (mvn package, tests skipped)" >&2
    mvn -B -q -ntp -pl benchmarks -am package -DskipTests >"benchmarks/target/build.log" 2>&1 \
      || { echo "benchmark.sh: build failed, see benchmarks/target/build.log" >&2; tail -20 benchmarks/target/build.log >&2; exit 1; }
  fi
  exec java -Djava.awt.headless=true -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
       dev.consistentcut.bench.ChartOnly "$chart_dir" "${debug[@]}"
fi
[ ${#debug[@]} -eq 0 ] || { echo "benchmark.sh: --debug goes with --chart-only (see --help)" >&2; exit 2; }

out=benchmarks/results
[ -n "$quick" ] && out=benchmarks/results/quick
[ -n "$only" ] && out=benchmarks/results/only
mkdir -p "$out"
log=benchmarks/target/benchmark-logs
start=$SECONDS

status() { # one progress line: rewritten in place on a terminal, a plain line otherwise
  local line
  line=$(printf '[%d:%02d] %s' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)) "$1")
  if [ -t 2 ]; then printf '\r\033[K%s' "$line" >&2; else printf '%s\n' "$line" >&2; fi
}

status "building the benchmarks module (mvn package, tests skipped)"
mkdir -p benchmarks/target
mvn -B -q -ntp -pl benchmarks -am package -DskipTests >"benchmarks/target/build.log" 2>&1 \
  || { echo; echo "benchmark.sh: build failed, see benchmarks/target/build.log" >&2; tail -20 benchmarks/target/build.log >&2; exit 1; }
mkdir -p "$log"

# Quick: one short iteration each, and only the extreme parameter values.
if [ -n "$quick" ]; then jmh_opts=(-f 1 -wi 1 -w 300ms -i 2 -r 300ms -p capacity=1000 -p keys=1000,100000)
else jmh_opts=(-f 1 -wi 3 -w 1s -i 5 -r 1s); fi
if [ -n "$only" ]; then
  rm -f "$out/micro.csv" # no JMH with --only: the table gets no microbenchmark rows
else
status "JMH microbenchmarks"
if ! java -jar benchmarks/target/microbenchmarks.jar "${jmh_opts[@]}" -jvmArgs "-Xmx1g" \
       -rf csv -rff "$out/micro.csv" 2>&1 | tee "$log/jmh.log" | while IFS= read -r line; do
       case "$line" in
         "# Benchmark: "*) bench=${line#\# Benchmark: dev.consistentcut.bench.micro.} ;;
         "# Parameters: "*) status "JMH microbenchmarks: $bench ${line#\# Parameters: }" ;;
       esac
     done; then
  echo >&2; echo "benchmark.sh: JMH failed, see $log/jmh.log" >&2; exit 1
fi
if [ -t 2 ]; then echo >&2; fi
fi

extra=()
[ -n "$only" ] && extra+=(--only "$only")
[ -n "$engines" ] && extra+=(--engines "$engines")

# The macro benchmark: the reference engine and Flink's MiniCluster in this one JVM.
# Flink 2.3.0 needs no --add-opens on JDK 17 for this job (tuple and long serializers, no Kryo).
# Flink logs warnings and errors through slf4j-simple into a file, away from the progress line.
java -Xmx3g -Djava.awt.headless=true \
     -Dorg.slf4j.simpleLogger.logFile="$log/flink.log" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
     -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
     dev.consistentcut.bench.BenchmarkMain $quick --out "$out" --micro-csv "$out/micro.csv" "${extra[@]}"
echo "benchmark.sh: done in $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s; results in $out/" >&2
