#!/usr/bin/env bash
# tests/mutation-testing.sh: mutation testing of the reference engine with PIT (pitest-maven, the
# reference-impl "pitest" profile) as a gate: each package's mutation score must reach its threshold
# below. The quick form (the test command's) mutates the core packages, barrier and checkpoint; the
# long form every package the profile covers. See docs/mutation-testing.md (scores, survivors and
# their verdicts, how to re-measure).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# Minimum mutation score (killed / generated, in %) per package, set a point or two below the score
# measured once the survivors were dealt with. A package not listed is reported only.
# MUTATION_THRESHOLDS="pkg=N ..." in the environment replaces them (e.g. to show the gate failing).
# The measured scores, and a verdict for every survivor keyed by class, method and mutator, are in
# docs/mutation-testing.md ("Scores and thresholds" and a section per package); the runs behind them
# (commit, machine, time) in notebook/2026-12-04-pit-runtime.md.
# barrier 98.4% (241/245), checkpoint 97.6% (367/376), channel 98.5% (267/271): every survivor is
# argued equivalent; the thresholds sit 2.4, 2.6 and 1.5 points below, a margin for the next handler
# state or store feature (a survivor or two), not for lost coverage.
# task 96.6% (311/322) with the task package's own tests; the long form runs those and the runtime's,
# so it kills at least as many. The threshold sits 1.6 points below.
# runtime 84.3% (606/719) with the runtime selection (RUNTIME_MANY_RUNS left out); every survivor has
# a verdict. The threshold sits 2.3 points below: threaded mutants that race may land either side of
# PIT's time-out from one run to the next.
THRESHOLDS="${MUTATION_THRESHOLDS:-barrier=96 channel=97 checkpoint=95 task=95 runtime=82}"

usage() {
  cat <<'USAGE'
Usage: tests/mutation-testing.sh [--quick|--long|--package NAME[,NAME...]] [--threads N] [--report-only]

Runs PIT on reference-impl and checks each package's mutation score against its threshold
(THRESHOLDS at the top of this script).
  --quick        (default) mutate dev.consistentcut.barrier and .checkpoint, with the tests of
                 barrier, checkpoint and task: a few minutes on 2 cores (the test command's form);
                 the durable store's file classes (QUICK_LEAVES_OUT) are left to --long and
                 --package checkpoint
  --long         mutate barrier, channel, checkpoint, task and runtime with the tests of those
                 packages, the runtime's as selected below (docs/mutation-testing.md gives the time)
  --package NAME mutate only the named package(s) of the long form (barrier, channel, checkpoint,
                 task, runtime; comma-separated or repeated) with the long form's tests: the same
                 scores as --long, one package at a time (docs/mutation-testing.md gives the time
                 of each). With --report-only: check only those packages in the last report
  --threads N    PIT's worker threads (default 2); on a shared machine use 1
  --report-only  do not run PIT: read the last report (reference-impl/target/pit-reports)
  -h, --help     this text
The runtime package's tests in --long and --package: its test classes except those that run
hundreds or thousands of seeded simulation runs (RUNTIME_MANY_RUNS in this script): every
surviving mutant of the step loop would run them all, which takes hours (notebook/).
BoundedSeededRunsTest runs each of their features in a few seeds instead; a mutant only
the many runs would kill is a gap in the unit tests. --package runtime alone runs no other
package's tests (none uses the runtime package; checked).
Report: reference-impl/target/pit-reports/index.html (and mutations.xml, mutations.csv).
Exit codes: 0 every threshold met, 1 a package below its threshold (its survivors are listed),
2 bad usage, 3 PIT or the build failed (an environment problem, or a test failing unmutated).
USAGE
}

LONG_PACKAGES="barrier channel checkpoint task runtime"
# The checkpoint package's classes the quick form does not mutate (see where classes is set).
QUICK_LEAVES_OUT="DirectoryCheckpointStore CheckpointCodec IncrementalCodec SharedSegmentFiles
  CheckpointReader CheckpointFiles PointerFile StoreFiles WriteObserver CorruptCheckpointException"
# The runtime package's test classes that PIT leaves out (see --help): each runs hundreds or
# thousands of seeded simulation runs (10-20 s), and PIT runs every test that covers a mutated line
# until one fails, so each surviving mutant of SimulationRuntime's step loop would run them all.
# BoundedSeededRunsTest covers each of their features (and catches their broken twins) in a few
# seeds. The quick form runs no runtime test.
RUNTIME_MANY_RUNS="SeededSimulationRunsTest LifecycleRuntimeTest AlternatingSimulationTest FanInSimulationTest
  SinkSimulationTest BrokenSinkTest BrokenLifecycleTest"
form=quick; run=true; global_below=false; packages=""; threads=2
bad_usage() { echo "mutation-testing.sh: $1 (see --help)" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) form=quick ;;
    --long) form=long ;;
    --package|--package=*)
      if [ "$1" = --package ]; then
        [ $# -ge 2 ] || bad_usage "--package needs a package name"
        shift; names=$1
      else
        names=${1#--package=}
      fi
      for n in ${names//,/ }; do
        case " $LONG_PACKAGES " in
          *" $n "*) packages="$packages $n" ;;
          *) bad_usage "unknown package '$n' (one of: $LONG_PACKAGES)" ;;
        esac
      done
      [ -n "$packages" ] || bad_usage "--package needs a package name"
      form=package ;;
    --threads|--threads=*)
      if [ "$1" = --threads ]; then
        [ $# -ge 2 ] || bad_usage "--threads needs a number"
        shift; threads=$1
      else
        threads=${1#--threads=}
      fi
      [[ "$threads" =~ ^[1-9][0-9]*$ ]] || bad_usage "--threads needs a positive number, not '$threads'" ;;
    --report-only) run=false ;;
    -h|--help) usage; exit 0 ;;
    *) bad_usage "unknown argument '$1'" ;;
  esac
  shift
done

P=dev.consistentcut
join() { local out="" n; for n in "$@"; do out="$out${out:+,}$P.$n.*"; done; echo "$out"; }
# The runtime tests of the long form: every *Test class of the package but RUNTIME_MANY_RUNS (and
# their nested classes), as PIT globs.
runtime_tests() {
  local dir="$ROOT/reference-impl/src/test/java/dev/consistentcut/runtime" out="" f n
  for n in $RUNTIME_MANY_RUNS; do
    [ -f "$dir/$n.java" ] || { echo "mutation-testing.sh: RUNTIME_MANY_RUNS names $n, which is not in $dir" >&2; return 1; }
  done
  for f in "$dir"/*Test.java; do
    n=$(basename "$f" .java)
    case " $(echo $RUNTIME_MANY_RUNS) " in *" $n "*) continue ;; esac
    out="$out${out:+,}$P.runtime.$n,$P.runtime.$n\$*"
  done
  echo "$out"
}
case "$form" in
  quick)   mutated="barrier checkpoint"; tests=$(join barrier checkpoint task) ;;
  *)       rt=$(runtime_tests) || exit 3
           tests="$(join barrier channel checkpoint task),$rt"
           if [ "$form" = long ]; then
             mutated=$LONG_PACKAGES
           else
             # One package at a time, with the long form's tests: its score is the one --long would give.
             mutated=$(tr ' ' '\n' <<<"$packages" | awk 'NF && !seen[$0]++' | tr '\n' ' ')
             # runtime alone: no test of the other packages uses dev.consistentcut.runtime (checked
             # here), so they cannot kill its mutants; leaving them out spares PIT their coverage
             # pass (the channel race test alone took 54 s under coverage), not one kill.
             if [ "$mutated" = "runtime " ] && ! grep -rqE 'dev\.consistentcut\.runtime|package dev\.consistentcut\.runtime' \
                 $(for n in barrier channel checkpoint task; do echo "$ROOT/reference-impl/src/test/java/dev/consistentcut/$n"; done); then
               tests=$rt
             fi
           fi ;;
esac
classes=$(join $mutated)
if [ "$form" = quick ]; then
  # The quick form leaves the durable store's file classes (the on-disk formats, the shared files'
  # names, the directory store and its files) to the long form and --package checkpoint: their
  # killing tests run whole store scenarios (random runs with compactions and reopens), which
  # took the test command's PIT step from under 3 to over 5 minutes once the store wrote shared
  # files. The protocol's classes stay: the coordinator, snapshots and changelogs, the registry.
  classes=$(join barrier)
  for f in "$ROOT"/reference-impl/src/main/java/dev/consistentcut/checkpoint/*.java; do
    n=$(basename "$f" .java)
    case " $(echo $QUICK_LEAVES_OUT) " in *" $n "*) continue ;; esac
    classes="$classes,$P.checkpoint.$n,$P.checkpoint.$n\$*"
  done
fi
# Only the thresholds of the mutated packages apply (a package not mutated has no mutants).
applied=""
for t in $THRESHOLDS; do
  case " $mutated " in *" ${t%%=*} "*) applied="$applied${applied:+ }$t" ;; esac
done
REPORT="$ROOT/reference-impl/target/pit-reports/mutations.xml"

if $run; then
  command -v mvn >/dev/null 2>&1 || { echo "mutation-testing.sh: mvn not found" >&2; exit 3; }
  # The lowest threshold of the mutated packages is also PIT's own mutationThreshold (a second,
  # global guard), but only when every mutated package has a threshold (one without is reported only).
  min=0
  if [ "$(wc -w <<<"$applied")" -eq "$(wc -w <<<"$mutated")" ]; then
    min=$(tr ' ' '\n' <<<"$applied" | cut -d= -f2 | sort -n | head -1)
  fi
  echo "--- PIT ($form, $threads thread(s)): mutating $classes ---"
  start=$SECONDS
  log="$ROOT/reference-impl/target/mutation-testing.log"
  mkdir -p "$(dirname "$log")"
  # The engine's tests ran in the build step already; here only PIT runs them (under mutation).
  # With the runtime package: at most 25 mutants per unit of work. PIT's default unit is a class,
  # so the runtime's 700 mutants made 3 units and one thread did nearly all of them. Not for the
  # quick form: its many small classes already make units enough, and smaller ones only start
  # more minion JVMs (46 units instead of 29 took the test command's PIT step from 230 to 297 s).
  unit=()
  case " $mutated " in *" runtime "*) unit=(-DmutationUnitSize=25) ;; esac
  # PIT's own analysis runs in Maven's JVM for minutes, long enough for C2 to pay back: the
  # default JIT level (4) overrides .mvn/jvm.config's C1-only one, which is for short builds.
  MAVEN_OPTS="-XX:TieredStopAtLevel=4 ${MAVEN_OPTS:-}" \
  mvn -B -ntp -q -pl reference-impl -am -Ppitest verify -Dmaven.test.skip.exec=true "${unit[@]}" \
      -Dpit.targetClasses="$classes" -Dpit.targetTests="$tests" -Dpit.threshold="$min" -Dpit.threads="$threads" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  echo "PIT took $((SECONDS - start)) s"
  if [ $rc -ne 0 ]; then
    if grep -q "Mutation score of .* is below threshold" "$log"; then
      echo "mutation-testing.sh: PIT's global mutation score is below $min% (see above)" >&2
      global_below=true
    else
      echo "mutation-testing.sh: PIT failed (exit $rc); see above" >&2; exit 3
    fi
  fi
  :
fi
[ -f "$REPORT" ] || { echo "mutation-testing.sh: no report at $REPORT" >&2; exit 3; }

python3 - "$REPORT" "$applied" "$mutated" <<'PY'
import sys, collections, xml.etree.ElementTree as ET
report, thresholds = sys.argv[1], dict(t.split("=") for t in sys.argv[2].split())
mutated = set(sys.argv[3].split())
KILLED = {"KILLED", "TIMED_OUT", "MEMORY_ERROR", "RUN_ERROR"}
per = collections.defaultdict(lambda: [0, 0, []])
for m in ET.parse(report).getroot():
    cls = m.findtext("mutatedClass"); pkg = cls.rsplit(".", 1)[0].rsplit(".", 1)[-1]
    if pkg not in mutated:
        continue  # --report-only of one form on another form's report
    p = per[pkg]; p[1] += 1
    if m.get("status") in KILLED:
        p[0] += 1
    else:
        p[2].append("    %-11s %s.%s line %s: %s" % (m.get("status"), cls.rsplit(".", 1)[-1],
                    m.findtext("mutatedMethod"), m.findtext("lineNumber"), m.findtext("description")))
below = 0
for pkg in sorted(per):
    k, n, left = per[pkg]; score = 100.0 * k / n
    need = thresholds.get(pkg)
    verdict = "" if need is None else ("ok (threshold %s%%)" % need if score >= float(need) else "BELOW threshold %s%%" % need)
    print("%-11s %4d/%-4d killed  %5.1f%%  %s" % (pkg, k, n, score, verdict))
    if need is not None and score < float(need):
        below += 1
    if left:
        print("\n".join(left))
missing = [p for p in thresholds if p not in per]
for p in missing:
    print("%s: no mutants in the report (not mutated in this form?)" % p)
sys.exit(1 if below else 0)
PY
verdict=$?
$global_below && exit 1
exit $verdict
