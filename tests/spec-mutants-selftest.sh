#!/usr/bin/env bash
# spec-mutants-selftest.sh: the broken twins of tests/spec-mutants.sh. Runs the harness on
# small fixture catalogues (tests/spec-mutants-fixtures/) against one tiny model and checks
# each verdict and exit code: a killed mutant passes (0); a survivor, a stale find text, a
# mutant that does not parse (a syntax or a semantic error, and one catalogued as equivalent), and an "equivalent" mutant that a model kills each fail (1); a
# malformed catalogue is a usage error (2). About a minute on 2 cores.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FIX="$ROOT/tests/spec-mutants-fixtures"
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  echo "Usage: tests/spec-mutants-selftest.sh   (no options; exit 0 if every case gives its verdict, 1 if not)"
  exit 0
fi
[ $# -eq 0 ] || { echo "spec-mutants-selftest.sh: unknown argument '$1' (see --help)" >&2; exit 2; }

# The smallest quick model (18 states): every mutant is decided in seconds.
export SPEC_MUTANTS_MODELS="BugClassicChandyLamport"
fails=0
# case NAME FIXTURE EXPECTED_EXIT EXPECTED_VERDICT [harness options]
check() {
  local name=$1 fixture=$2 want_rc=$3 want=$4; shift 4
  local out="$ROOT/target/spec-mutants-selftest/$name"
  rm -rf "$out"; mkdir -p "$out"
  SPEC_MUTANTS_CATALOGUE="$FIX/$fixture" SPEC_MUTANTS_OUT_DIR="$out" \
    timeout 600 "$ROOT/tests/spec-mutants.sh" "$@" >"$out/output.txt" 2>&1
  local rc=$?
  local got; got=$(awk -F, 'NR == 2 { print $4 }' "$out/results.csv" 2>/dev/null)
  if [ $rc -eq "$want_rc" ] && { [ -z "$want" ] || [ "$got" = "$want" ]; }; then
    echo "ok      $name: exit $rc${want:+, verdict $got}"
  else
    echo "FAILED  $name: exit $rc (want $want_rc), verdict '${got:-none}' (want '${want:-none}'); output:"
    sed 's/^/        | /' "$out/output.txt" | tail -20
    fails=$((fails + 1))
  fi
}
check killed           killed.tsv           0 KILLED
check survivor         survivor.tsv         1 SURVIVED
check stale            stale.tsv            1 STALE
check invalid          invalid.tsv          1 INVALID
check invalid-semantic invalid-semantic.tsv 1 INVALID
check invalid-equivalent invalid-equivalent.tsv 1 INVALID
check wrong-equivalent wrong-equivalent.tsv 1 MISCATALOGUED --run-equivalent
check malformed        malformed.tsv        2 ""
check bad-option       killed.tsv           2 "" --no-such-option
# --jobs 2 (mutants at a time, as ./run-tests.sh runs them): the same verdicts and exit codes.
check killed-jobs      killed.tsv           0 KILLED --jobs 2
check survivor-jobs    survivor.tsv         1 SURVIVED --jobs 2
check stale-jobs       stale.tsv            1 STALE --jobs 2
[ $fails -eq 0 ] && echo "spec-mutants.sh: every verdict as expected" || echo "spec-mutants.sh: $fails case(s) not as expected"
[ $fails -eq 0 ]
