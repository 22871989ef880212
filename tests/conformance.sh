#!/usr/bin/env bash
# tests/conformance.sh: the conformance check of real Flink 2.3.0 as a test (docs/conformance.md).
# Runs Flink jobs on a MiniCluster with traced user functions, in every mode, with seeded
# failures, and judges each run from the Java side (the cut of every completed checkpoint, the
# output) and by TLC (the Flink trace modules under spec/); then runs every broken twin
# (deliberately wrong user code) and requires each to be rejected.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

ALL_MODES=aligned,unaligned,at-least-once,alternating

usage() {
  cat <<'USAGE'
Usage: tests/conformance.sh [--quick | --long [--modes LIST]] [--help]

  --quick  (the default) one JVM, one MiniCluster: 5 seeded runs with a failure per mode
           (aligned, unaligned, at-least-once, alternating; join and diamond jobs), each of
           which must be accepted by the Java side and by TLC; an aligned join run with the
           two-phase-commit sink (TLC too); one aligned join run per fault kind besides the
           throw: a lost TaskManager, a declined and an expired checkpoint (TLC too); an aligned
           join run stopped with a savepoint after its failure and run again restored from it
           (TLC too); then the 6 broken twins (two of them with the two-phase-commit sink), each
           of which must be rejected by both (docs/conformance.md, "The quick form").
  --long   100 seeded runs per mode, every one judged by the Java side and by TLC, every one
           with --read-checkpoints (each completed checkpoint retained and read back with
           Flink's State Processor API: the operator state must be the bags the trace
           reported, the keyed counts those of the bags' keys):
             join, one failure:     seeds 1-35 a throw, 36-45 a lost TaskManager, 46-50 an
                                    expired checkpoint
             diamond, two failures: seeds 51-85 throws, 86-95 lost TaskManagers, 96-100
                                    expired checkpoints
           (no declined checkpoints: their state's serializer cannot be read back). One JVM
           per batch, TLC judging a run while the next runs; a line per run, a progress line,
           then per mode: runs accepted and rejected, checkpoints completed and read back,
           seconds. Then the quick form (its twins), unless --modes is given.
  --modes LIST  with --long: the modes to run, comma-separated (default
           aligned,unaligned,at-least-once,alternating)

Traces go to target/conformance/, TLC's output to target/conformance/tlc/, Flink's log to
target/conformance/flink.log; the long form's run lines to target/conformance/long/<mode>-*.log
and its summaries to target/conformance/long/summary.txt. Exit 0 iff every run is accepted and
every twin rejected; 1 otherwise; 2 usage; 3 environment (no JDK or Maven, the build failed,
Flink did not start).
USAGE
}

form=quick
modes=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --quick) form=quick; shift ;;
    --long) form=long; shift ;;
    --modes)
      [ $# -ge 2 ] || { echo "tests/conformance.sh: --modes needs a list (see --help)" >&2; exit 2; }
      modes=$2; shift 2 ;;
    *) echo "tests/conformance.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ -n "$modes" ]; then
  [ "$form" = long ] || { echo "tests/conformance.sh: --modes goes with --long (see --help)" >&2; exit 2; }
  for m in ${modes//,/ }; do
    case ",$ALL_MODES," in
      *",$m,"*) ;;
      *) echo "tests/conformance.sh: --modes: '$m' is not a mode ($ALL_MODES)" >&2; exit 2 ;;
    esac
  done
fi

start=$SECONDS
rc=0
worst() { # keep the worst exit code: 3 (environment) over 1 (rejected) over 0
  local c=$1
  if [ "$c" -eq 3 ] || [ "$c" -eq 2 ]; then rc=3; elif [ "$c" -ne 0 ] && [ "$rc" -eq 0 ]; then rc=1; fi
}

# sum_of REGEX FILE...: the sum of the numbers REGEX's first group captures in FILEs' lines
sum_of() {
  local re=$1; shift
  cat "$@" 2>/dev/null | sed -nE "s/.*$re.*/\\1/p" | awk '{ s += $1 } END { print s + 0 }'
}

# long_mode MODE: the mode's 100 runs in six batches, then its summary line
long_mode() {
  local mode=$1 t0=$SECONDS load0 dir=target/conformance/long
  load0=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
  mkdir -p "$dir"
  rm -f "$dir/$mode"-*.log
  echo "--- $mode: 50 join runs with one failure, 50 diamond runs with two; checkpoints read back ---"
  local batch job failures fault seed runs
  # job failures fault first-seed runs
  for batch in "join 1 throw 1 35" "join 1 tm-loss 36 10" "join 1 timeout 46 5" \
               "diamond 2 throw 51 35" "diamond 2 tm-loss 86 10" "diamond 2 timeout 96 5"; do
    read -r job failures fault seed runs <<<"$batch"
    ./conformance.sh run --mode "$mode" --job "$job" --failures "$failures" --fault "$fault" \
      --seed "$seed" --runs "$runs" --read-checkpoints | tee "$dir/$mode-$job-$fault.log"
    worst "${PIPESTATUS[0]}"
  done
  local logs=("$dir/$mode"-*.log) total accepted completed read held rejected
  total=$(cat "${logs[@]}" | grep -cE '^(ACCEPTED|REJECTED) ')
  accepted=$(cat "${logs[@]}" | grep -cE '^ACCEPTED ')
  completed=$(sum_of ' ([0-9]+) checkpoints completed' "${logs[@]}")
  read=$(sum_of '[ (]([0-9]+) retained checkpoint\(s\) read back' "${logs[@]}")
  # read back in runs whose Java checks hold: each agreed with the trace (CheckpointReading)
  held=$(sum_of 'hold; ([0-9]+) retained checkpoint\(s\) read back, as traced' "${logs[@]}")
  rejected=$(cat "${logs[@]}" | grep -E '^REJECTED ' | grep -oE 'target/conformance/[^ ]+\.ndjson' | tr '\n' ' ')
  local line
  line=$(printf '%s: %d runs, %d accepted, %d rejected; %d checkpoints completed, %d read back with the State Processor API, %d of them in runs whose Java checks hold (operator state = the traced bags, keyed counts = the bags'"'"' keys); %d s, load %s -> %s%s' \
    "$mode" "$total" "$accepted" "$((total - accepted))" "$completed" "$read" "$held" "$((SECONDS - t0))" \
    "$load0" "$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')" "${rejected:+; rejected: $rejected}")
  echo "$line" | tee -a "$dir/summary.txt"
  [ "$total" -eq 100 ] || { echo "tests/conformance.sh: $mode: $total of 100 runs reported" >&2; worst 1; }
}

if [ "$form" = quick ]; then
  ./conformance.sh quick; worst $?
else
  for mode in $(echo "${modes:-$ALL_MODES}" | tr ',' ' '); do
    long_mode "$mode"
  done
  if [ -z "$modes" ]; then
    ./conformance.sh quick; worst $?
  fi
fi
echo "tests/conformance.sh --$form: $((SECONDS - start)) s, exit $rc"
exit $rc
