#!/usr/bin/env bash
# tests/conformance.sh: the conformance check of real Flink 2.3.0 as a test (docs/conformance.md).
# Runs Flink jobs on a MiniCluster with traced user functions, in every mode, with seeded
# failures, and judges each run from the Java side (the cut of every completed checkpoint, the
# output) and by TLC (the Flink trace modules, once they are under spec/); then runs every broken
# twin (deliberately wrong user code) and requires each to be rejected.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

usage() {
  cat <<'USAGE'
Usage: tests/conformance.sh [--quick | --long] [--help]

  --quick  (the default) one JVM, one MiniCluster: 5 seeded runs with a failure per mode
           (aligned, unaligned, at-least-once, alternating; join and diamond jobs), each of
           which must be accepted by the Java side and by TLC; an aligned join run with the
           two-phase-commit sink (TLC too); one aligned join run per fault kind besides the
           throw: a lost TaskManager, a declined and an expired checkpoint (TLC too); an aligned
           join run stopped with a savepoint after its failure and run again restored from it
           (TLC too); then the 6 broken twins (two of them with the two-phase-commit sink), each
           of which must be rejected by both (docs/conformance.md, "The quick form").
  --long   100 seeded runs per mode (50 of the join job with one failure, 50 of the diamond
           with two), one JVM per mode, with a progress line per run; then the quick form's twins.

Traces go to target/conformance/, TLC's output to target/conformance/tlc/, Flink's log to
target/conformance/flink.log. Exit 0 iff every run is accepted and every twin rejected; 1
otherwise; 2 usage; 3 environment (no JDK or Maven, the build failed, Flink did not start).
USAGE
}

form=quick
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  --quick) shift ;;
  --long) form=long; shift ;;
esac
[ $# -eq 0 ] || { echo "tests/conformance.sh: unknown argument '$1' (see --help)" >&2; exit 2; }

start=$SECONDS
rc=0
worst() { # keep the worst exit code: 3 (environment) over 1 (rejected) over 0
  local c=$1
  if [ "$c" -eq 3 ] || [ "$c" -eq 2 ]; then rc=3; elif [ "$c" -ne 0 ] && [ "$rc" -eq 0 ]; then rc=1; fi
}
if [ "$form" = quick ]; then
  ./conformance.sh quick; worst $?
else
  for mode in aligned unaligned at-least-once alternating; do
    echo "--- $mode: 50 join runs with one failure, 50 diamond runs with two ---"
    ./conformance.sh run --mode "$mode" --job join --failures 1 --seed 1 --runs 50; worst $?
    ./conformance.sh run --mode "$mode" --job diamond --failures 2 --seed 51 --runs 50; worst $?
  done
  ./conformance.sh quick; worst $?
fi
echo "tests/conformance.sh --$form: $((SECONDS - start)) s, exit $rc"
exit $rc
