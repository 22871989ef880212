#!/usr/bin/env bash
# run-tests.sh: the project's test command (CI runs exactly this, through .ci/run).
# Quick modes only; each step's long mode is in the README. Runs every step even after a
# failure, so one run shows everything that is broken, then exits non-zero if any step failed.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"

if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  cat <<'USAGE'
Usage: ./run-tests.sh

Runs, in order (quick modes of every step except the model check, which is the README's
./model-check.sh itself):
  1. mvn -B -T 2 verify       build; JUnit, lincheck and QuickTheories tests of every module
                              (model-checker's among them: the runner's verdicts on a toy spec,
                              right and wrong expectations)
  2. ./model-check.sh         TLC on every model that ./model-check.sh checks by default (tiers
                              quick, full and simulate of spec/*/models.tsv), one TLC per core,
                              each exhaustive model with its pinned state count
                              (--strict-counts: an unpinned one fails too; --no-pictures:
                              a picture never changes a verdict); --coverage: the quick
                              models run with TLC's -coverage, and a branch of a protocol
                              module that none reaches fails, unless exempted with a reason
  2b. distributed TLC         a TLCServer and two TLCWorkers on 127.0.0.1 give the
                              single-process verdict (tests/distributed-tlc.sh)
  3. trace validation         engine runs (both runtimes, both modes, with failures) checked
                              against the spec by TLC; broken engines' traces must be rejected
  3b. spec-to-engine replay    TLC's state graphs of Join and Diamond (aligned, unaligned; Join
                              with aborts reaching the tasks; at-least-once, alternating Join;
                              aligned Join with the transactional sink), replayed in the engine
                              edge by edge, states compared; eight broken engines and sinks
                              must diverge (tests/spec-replay.sh --quick)
  4. jcstress --quick         races on channel, handlers, coordinator, store: no forbidden outcome
  5. jcstress broken twins    every Broken... jcstress test must be caught
  6. spec mutants --quick     small mistakes in the protocol modules: each must be caught by a
                              quick TLC model (tests/spec-mutants.sh, docs/spec-mutants.md)
  7. mutation testing         PIT on the engine's barrier and checkpoint packages; each package's
                              score must reach its threshold (tests/mutation-testing.sh --quick)
  8. three lanes at once (each leaves a core mostly idle; no verdict depends on speed):
     a. crash test            durable jobs killed with SIGKILL (random moments and every window of a
                              checkpoint write) and resumed until done: exactly-once, healthy directory;
                              its broken twin: a store writing in place (simulated) must fail the
                              health check; then the spec-mutants self-test: the mutation
                              harness's verdicts on fixture mutants (its broken twins)
     b. docs test             every `sh runnable` block of README.md and docs/ run as written in a
                              fresh clone (the quick start: build, a model, the demo, a file job,
                              kill -9 and resume); its self-test first: broken blocks are caught
     c. conformance quick     real Flink 2.3.0 jobs on a MiniCluster, seeded runs with a failure in
                              every mode, each accepted by the Java checks and TLC; every broken
                              twin of user code rejected (tests/conformance.sh --quick)
Each step's output goes to the terminal (a lane's when the lane ends); a summary line per step,
with its wall time and the cores it kept busy, closes the run.
USAGE
  exit 0
fi
[ $# -eq 0 ] || { echo "run-tests.sh: unknown argument '$1' (see --help)" >&2; exit 2; }

command -v java >/dev/null 2>&1 || { echo "run-tests.sh: java not found: install a JDK 17+" >&2; exit 3; }
command -v mvn >/dev/null 2>&1 || { echo "run-tests.sh: mvn not found: install Maven 3.8+" >&2; exit 3; }
command -v python3 >/dev/null 2>&1 || { echo "run-tests.sh: python3 not found: the trace-validation and PIT steps need it" >&2; exit 3; }

logs=$(mktemp -d) || { echo "run-tests.sh: cannot create a temporary directory" >&2; exit 3; }
trap 'rm -rf "$logs"' EXIT
# CPU seconds (user + system) of every finished child process so far, into $cpu_now. bash's
# `times` must run in this shell: in a command substitution it would count a subshell's children.
# Each shell (the lanes below are shells of their own) writes a file of its own: lanes that shared
# one read it while another truncated it, and the empty figure ended the lane's shell.
cpu_now=0
read_cpu() {
  local f="$logs/times.$BASHPID"
  times >"$f"
  cpu_now=$(sed -n 2p "$f" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } printf "%d", s }')
  cpu_now=${cpu_now:-0}
}
# A step's wall seconds and how many cores it kept busy on average (CPU seconds / wall seconds),
# into $took: a step well under the machine's cores leaves room that a faster test command could use.
took=""
took_since() {
  local wall=$((SECONDS - $1)) cpu
  read_cpu; cpu=$((cpu_now - ${2:-0}))
  took=$(printf '%5ss  %4s cores' "$wall" "$(awk -v c="$cpu" -v w="$wall" 'BEGIN { printf "%.1f", (w > 0 ? c / w : 0) }')")
}
# Each step's output goes to the terminal and to a log; a failed step's lines that name what failed
# are repeated after the summary, so that the end of the output (all a CI page may keep) says why.
# Each step writes its result to a file of $logs (its summary line under a key that sorts in the
# order the steps are listed, and a failed step's reasons), so that steps run in a lane (a
# background shell, below) report as the others do.
step_no=0 lane_key=""
step() {
  local name=$1; shift
  step_no=$((step_no + 1))
  local key; key=$(printf '%s%03d' "$lane_key" "$step_no")
  echo; echo "=== $name: $* ==="
  local start=$SECONDS log="$logs/$key.log" cpu0
  read_cpu; cpu0=$cpu_now
  if "$@" 2>&1 | tee "$log"; then took_since "$start" "$cpu0"; echo "ok      $took  $name" >"$logs/$key.ok"
  else
    took_since "$start" "$cpu0"
    echo "FAILED  $took  $name" >"$logs/$key.failed"
    local why
    # A failed test names itself first (Surefire's "<<< FAILURE!"); else the last lines that say
    # what failed, without Maven's advice; else the log's last lines.
    why=$(grep -E '<<< (FAILURE|ERROR)!' "$log" | head -n 4 | cut -c1-200)
    [ -n "$why" ] || why=$(grep -E 'FAIL|[Vv]iolat|[Ee]rror|not found|not built|missing|timed out|rejected' "$log" \
          | grep -vE '^\[(INFO|WARNING)\]|Failures: 0, Errors: 0|Re-run Maven|-> \[Help|Help 1|full stack trace|^\[ERROR\] *$' \
          | tail -n 4 | cut -c1-200)
    [ -n "$why" ] || why=$(grep -v '^[[:space:]]*$' "$log" | tail -n 2 | cut -c1-200)
    printf '%s\n' "--- $name:" "$why" >"$logs/$key.why"
  fi
}
# together LANE...: runs the lanes (functions that call step) at once, each in a background shell,
# and waits for all; each lane's output is printed whole when it ends, lanes in the order given.
# For steps that leave a core idle (one JVM at a time, processes killed and resumed, waits for a
# job's first checkpoint), whose checks do not depend on how fast they run; never for jcstress,
# whose races need the cores it finds.
together() {
  local lane i=0 pids=() prefix
  step_no=$((step_no + 1)); prefix=$(printf '%03d' "$step_no")
  # Each lane in its own process group (set -m), so that an interrupt ends the lanes' processes too.
  set -m
  for lane in "$@"; do
    i=$((i + 1))
    ( lane_key="$prefix.$i."; step_no=0; "$lane" >"$logs/lane.$i.out" 2>&1 ) &
    pids+=($!)
    echo "=== lane $i ($lane): started, its output follows when it ends ==="
  done
  set +m
  trap 'for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null; done; exit 130' INT TERM
  i=0
  local rc
  for lane in "$@"; do
    wait "${pids[$i]}"; rc=$?
    i=$((i + 1))
    echo; echo "=== lane $i ($lane): output ==="
    cat "$logs/lane.$i.out"
    # A lane's shell returns its last step's bookkeeping, 0; anything else means it ended before
    # its steps did, and the steps it never ran must not pass by their absence.
    if [ "$rc" -ne 0 ]; then
      echo "FAILED      -            lane $lane ended early (exit $rc): see its output above" >"$logs/$prefix.$i.999.failed"
      printf '%s\n' "--- lane $lane:" "its shell ended early (exit $rc); the end of its output:" \
        "$(tail -n 3 "$logs/lane.$i.out" | cut -c1-200)" >"$logs/$prefix.$i.999.why"
    fi
  done
  trap - INT TERM
}

# Two module builds at once (-T 2): after the engine, the tools, the stress tests and the
# benchmarks build independently, and their compiling, shading and single-JVM test runs leave a
# core idle one module at a time.
step "maven verify" mvn -B -ntp -T 2 verify
step "model check (every default model)" ./model-check.sh --strict-counts --no-pictures --coverage
step "distributed TLC on 127.0.0.1" tests/distributed-tlc.sh
step "trace validation" tests/trace-validation.sh
step "spec-to-engine replay (+ broken twins)" tests/spec-replay.sh --quick
step "jcstress quick" stress-tests/run-jcstress.sh --quick
step "jcstress broken twins caught" stress-tests/run-jcstress.sh --quick --expect-broken
step "spec mutants killed" tests/spec-mutants.sh --quick --jobs 2
step "mutation testing (PIT)" tests/mutation-testing.sh --quick
crash_lane() {
  step "crash test (kill -9, resume)" tests/crash-test.sh
  step "crash test broken twin caught" tests/crash-test.sh --expect-broken --mode aligned --kills 3
  step "spec-mutants self-test" tests/spec-mutants-selftest.sh
}
docs_lane() {
  step "docs-test self-test" tests/docs-test.sh --self-test
  step "docs test (runnable blocks, fresh clone)" tests/docs-test.sh
}
conformance_lane() {
  step "conformance quick (real Flink runs held to the specs)" tests/conformance.sh --quick
}
together crash_lane docs_lane conformance_lane

echo; echo "=== summary ==="
results=$(cd "$logs" && ls -- *.ok *.failed 2>/dev/null | sort -V)
for r in $results; do cat "$logs/$r"; done
passed=$(grep -c '\.ok$' <<<"$results"); failed=$(grep -c '\.failed$' <<<"$results")
if [ "$failed" -gt 0 ]; then
  echo "=== why the failed steps failed (the end of each one's log) ==="
  for r in $(cd "$logs" && ls -- *.why | sort -V); do cat "$logs/$r"; done
fi
echo "steps: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
