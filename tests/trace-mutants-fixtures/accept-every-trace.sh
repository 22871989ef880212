#!/usr/bin/env bash
# A broken judge for tests/trace-mutants.py (TRACE_MUTANTS_JUDGE): it takes model-check.sh's
# arguments and answers, in model-check.sh --json's form, that every --trace FILE was accepted,
# without looking at it. With it the mutant step must fail (exit 1: semantic mutants accepted);
# tests/trace-validation.sh checks that it does, so the step is shown able to fail.
set -u
first=true
printf '{"traces": ['
while [ $# -gt 0 ]; do
  if [ "$1" = "--trace" ] && [ $# -ge 2 ]; then
    $first || printf ', '
    first=false
    printf '{"trace": "%s", "expected": "accepted", "actual": "accepted", "as_expected": true}' "$2"
    shift
  fi
  shift
done
printf '], "all_as_expected": true}\n'
