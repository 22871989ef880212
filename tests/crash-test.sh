#!/usr/bin/env bash
# tests/crash-test.sh: the durable job survives kill -9. Starts real job processes
# (java -jar tools.jar run --checkpoint-dir D), kills them with SIGKILL -- at random
# moments, and at deterministic kill points inside a checkpoint write (the store's test-only
# CrashPoints seam: the process SIGKILLs itself in the named window) -- then resumes the job
# (resume D, at another parallelism of the keyed count each time),
# killing again, until a final resume runs it to its end. Each job must end with
# "verdict: exactly-once holds" (exit 0); after every kill the directory must be healthy (the
# pointer names a complete, valid checkpoint, or there is no pointer and no checkpoint; resume
# would start from the pointer's checkpoint; no corrupt file; temporary files do not accumulate).
# The jobs are file jobs: two input files into the two-phase-commit sink writing an
# output directory, so the output is checked too: after every kill no input record may be
# committed twice (committed output is never taken back), and after the final resume
# verify-output must find every input record committed exactly once and no pending transaction.
# Reports how often each window was hit. See --help.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

usage() {
  cat <<'USAGE'
Usage: tests/crash-test.sh [--long] [--kills N] [--mode M]... [--seed N] [--no-rescale] [--expect-broken]

Quick (default): 7 kills per mode (one job, each kill in another window below, in a different
order per mode; a new job starts when one ends before its kill point). Every job reads two input files and writes an output
directory through the two-phase-commit sink (run --input ... --output DIR): after each kill no
record may be committed twice, and after the final resume verify-output must pass.
  --long            at least 500 kills across the modes (250 per mode with two modes), at
                    least one in every window, and rescales to each of 1, 2 and 3
  --kills N         N kills per mode
  --mode M          only mode M (repeatable; default: every mode 'run --help' lists)
  --seed N          seed of the random kill moments (default: 1)
  --no-rescale      resume at the job's parallelism only; by default, in every mode (unaligned
                    and alternating with their checkpoints' in-flight records redistributed),
                    every resume after a kill restores the keyed count at another
                    parallelism from 1 to 3 (resume --parallelism count=N), so a kill may
                    also land in a process that is rescaling
  --expect-broken   broken twin: kills in checkpoint-temp-partial only; after each, simulate a
                    store that writes checkpoints in place (no temp file, no rename), and require
                    that the health check catches it; after each job's final resume, simulate a
                    sink that committed a transaction twice, and require that the output checks
                    catch it (exit 0 iff they caught every case)
Windows (see CrashPoints): changes-temp-partial, changes-temp-synced (a
task's write of its changes since its previous snapshot, on its own thread, before it
acknowledges the checkpoint: a kill there is one between the write and the checkpoint's
metadata), checkpoint-temp-partial, checkpoint-temp-synced, checkpoint-renamed, pointer-temp-partial,
pointer-temp-synced, pointer-renamed, checkpoint-subsumed, materialised-temp-partial,
materialised-temp-synced (a materialisation's write of what it merged, on
its own thread, before a checkpoint takes the file over); plus "random" (SIGKILL from outside
after 0.3-2 s). Work files in target/crash-test/. Exit 0 iff every job ended exactly-once, every health check passed
and no finished job's directory holds a shared file no checkpoint references (inspect); 1 if not; 2 bad usage; 3 setup (no java, build failed).
USAGE
}

die() { echo "crash-test.sh: $*" >&2; exit 2; }
KILLS=7; MODES=(); SEED=1; BROKEN=0; LONG=0; RESCALE=1
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --long) LONG=1 ;;
    --kills) [ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]{0,5}$ ]] || die "--kills needs a number from 1 to 999999"; KILLS=$2; shift ;;
    --mode) [ $# -ge 2 ] || die "--mode needs a mode name"; MODES+=("$2"); shift ;;
    --seed) [ $# -ge 2 ] && [[ "$2" =~ ^[0-9]{1,9}$ ]] || die "--seed needs a number from 0 to 999999999"; SEED=$2; shift ;;
    --no-rescale) RESCALE=0 ;;
    --expect-broken) BROKEN=1 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done

command -v java >/dev/null 2>&1 || { echo "crash-test.sh: java not found" >&2; exit 3; }
JAR="$ROOT/tools/target/tools.jar"
if [ ! -f "$JAR" ]; then
  echo "--- building the tools and the engine (tests not run) ---"
  mvn -B -q -ntp -DskipTests package -pl tools -am || { echo "crash-test.sh: build failed" >&2; exit 3; }
fi
if [ ${#MODES[@]} -eq 0 ]; then
  MODES=(aligned unaligned)
  java -jar "$JAR" run --help | grep -q 'at-least-once' && MODES+=(at-least-once)
fi
if [ $LONG -eq 1 ]; then KILLS=$(( (500 + ${#MODES[@]} - 1) / ${#MODES[@]} )); fi
WINDOWS=(changes-temp-partial changes-temp-synced
         checkpoint-temp-partial checkpoint-temp-synced checkpoint-renamed
         pointer-temp-partial pointer-temp-synced pointer-renamed checkpoint-subsumed
         materialised-temp-partial materialised-temp-synced random)
# The broken twin needs kills in the middle of a checkpoint write only.
[ $BROKEN -eq 0 ] || { WINDOWS=(checkpoint-temp-partial); RESCALE=0; }
# The modes in which 'resume DIR --parallelism count=N' restores a job at another parallelism
# (every mode: unaligned and alternating checkpoints' in-flight records are redistributed).
RESCALE_MODES=" aligned at-least-once unaligned alternating "
PER_JOB=${#WINDOWS[@]}
OUT="$ROOT/target/crash-test"
rm -rf "$OUT"; mkdir -p "$OUT"
RANDOM=$SEED

# The job: long enough (about 0.6 s of sink time, seconds on a loaded machine) for kills to land
# mid-run, a checkpoint every 20 ms. Not less: an unaligned checkpoint completes in a few ms and
# costs the sink an fsynced transaction file, so at 5 ms the job took a checkpoint for every few
# records and ran for a minute (there is no minimum pause between checkpoints, as Flink's
# minPauseBetweenCheckpoints). C1 only: these JVMs live seconds, compiling more costs more.
# Two input files of 6,000 records each (the FileSourceLog format), so the job ends in the
# two-phase-commit sink and its output directory can be checked against them.
JAVA_FAST=(-XX:TieredStopAtLevel=1)
IN1="$OUT/in1.txt"; IN2="$OUT/in2.txt"
n=0
for f in "$IN1" "$IN2"; do
  n=$((n + 1))
  awk -v seed=$((SEED * 10 + n)) 'BEGIN { srand(seed); print "# key value"; for (i = 0; i < 6000; i++) print int(rand() * 100), i }' >"$f"
done
INPUTS=(--input "$IN1" --input "$IN2")
JOB_ARGS=("${INPUTS[@]}" --sink-delay-us 50 --interval-ms 20 --capacity 32)

declare -A HIT MISSED RESCALED
for w in "${WINDOWS[@]}"; do HIT[$w]=0; MISSED[$w]=0; done
for p in 1 2 3; do RESCALED[$p]=0; done
failures=0; kills=0; jobs_done=0; processes=0; outputs_ok=0
fail() { failures=$((failures + 1)); echo "FAILED: $*"; }

child=
trap '[ -n "$child" ] && kill -9 "$child" 2>/dev/null; exit 130' INT TERM

# Sets TO, the parallelism to resume MODE's job in DIR at: another one than its manifest's, from 1
# to 3; empty when it keeps its own (--no-rescale, a mode that does not rescale, no manifest yet).
# Not in a subshell: the draw must advance the seeded sequence of the kill plans.
rescale_to() { # MODE DIR
  local mode=$1 dir=$2 now
  TO=
  [ $RESCALE -eq 1 ] && [[ "$RESCALE_MODES" == *" $mode "* ]] && [ -f "$dir/MANIFEST" ] || return 0
  now=$(sed -n 's/^parallelism=count=\([0-9]*\)$/\1/p' "$dir/MANIFEST")
  TO=$((1 + RANDOM % 2)); [ "$TO" -lt "${now:-0}" ] || TO=$((TO + 1))
}

# Starts one process of the job (run or resume) with a kill plan; sets $rc and $log. A resume
# may rescale the job (rescale_to); a rescale that started is counted in RESCALED.
attempt() { # MODE DIR WINDOW N FIRST
  local mode=$1 dir=$2 window=$3 nth=$4 first=$5 jvm=() cmd to
  log="$OUT/p$processes.log"; processes=$((processes + 1))
  [ "$window" = random ] || jvm=("-Dconsistentcut.crash-at=$window:$nth")
  if [ "$first" = 1 ]; then cmd=(run --mode "$mode" --checkpoint-dir "$dir" "${JOB_ARGS[@]}" --output "$dir-out")
  else
    cmd=(resume "$dir"); rescale_to "$mode" "$dir"; to=$TO
    [ -z "$to" ] || cmd+=(--parallelism "count=$to")
  fi
  java "${JAVA_FAST[@]}" "${jvm[@]}" -jar "$JAR" "${cmd[@]}" >"$log" 2>&1 &
  child=$!
  if [ "$window" = random ]; then
    local ms=$((300 + RANDOM % 1700))
    sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
    kill -9 "$child" 2>/dev/null
  fi
  { wait "$child"; } 2>/dev/null; rc=$?; child=
  if [ -n "${to:-}" ] && grep -q "rescaling count from [0-9]* to $to tasks" "$log"; then
    RESCALED[$to]=$((RESCALED[$to] + 1))
  fi
}

# The directory after a kill: the pointer names a valid checkpoint that resume would use.
healthy() { # DIR -> 0 healthy, 1 not (prints why)
  local dir=$1 json pointer ptr_id uses temps
  [ -d "$dir" ] || return 0   # killed before the run created its directory: nothing on disk yet
  json=$(java "${JAVA_FAST[@]}" -jar "$JAR" inspect "$dir" --json) || { echo "inspect failed: $json"; return 1; }
  pointer=$(sed -n 's/.*"pointer":"checkpoint \([0-9]*\) crc32c [0-9a-f]*".*/\1/p' <<<"$json")
  uses=$(sed -n 's/.*"resumeFrom":\([0-9a-z]*\)}$/\1/p' <<<"$json")
  temps=$(grep -o '"temporaryFiles":\[[^]]*\]' <<<"$json" | grep -o '"[^"]*\.tmp"' | wc -l)
  if grep -q '"valid":false' <<<"$json"; then echo "an unusable checkpoint file: $json"; return 1; fi
  # A warning other than a leftover temp file means a damaged pointer or checkpoint. A missing
  # pointer is fine before the first pointer write has committed (a kill between the first
  # checkpoint's rename and its pointer): the store then uses the newest valid file, and says so.
  # A rescaling resume killed before its first checkpoint leaves the job at its new parallelism
  # and the newest checkpoint at the old one: inspect says resume restores it rescaled.
  local allowed='leftover|resume restores it rescaled by key group'
  [ -n "$pointer" ] || allowed="$allowed"'|/LATEST: missing; falling back|using .*chk-[0-9]*\.ckpt instead'
  if grep -o '"warnings":\[.*\]' <<<"$json" | grep -o '"[^"]*"' | grep -v '^"warnings"$' | grep -Evq "$allowed"; then
    echo "the store warns: $json"; return 1
  fi
  if [ -z "$pointer" ]; then
    # No pointer yet (killed before the first pointer write committed): resume must use the
    # newest checkpoint file (listed first), or the initial state when there is none.
    local newest; newest=$(grep -o '"checkpoints":\[{"id":[0-9]*' <<<"$json" | grep -o '[0-9]*$')
    [ "${uses:-null}" = "${newest:-null}" ] || { echo "no pointer, and resume would use $uses, not the newest $newest: $json"; return 1; }
  else
    grep -q "\"id\":$pointer,\"file\":\"chk-$pointer.ckpt\"" <<<"$json" \
      || { echo "the pointer names checkpoint $pointer, which is not there: $json"; return 1; }
    [ "$uses" = "$pointer" ] || { echo "resume would use $uses, not the pointer's $pointer: $json"; return 1; }
  fi
  [ "$temps" -le 2 ] || { echo "$temps temporary files accumulated: $json"; return 1; }
  return 0
}

# The output directory after a kill: committed output is never taken back, so no input record
# may be in the part files twice, at any moment (NoDuplicateOutputInv, seen from outside). Pending
# transactions (.txn-*.tmp) are allowed mid-run: the open one and those pre-committed for
# checkpoints not yet notified. At-least-once mode promises no such thing.
output_healthy() { # OUTDIR MODE -> 0 healthy, 1 not (prints why)
  local out=$1 mode=$2 dups
  [ "$mode" != at-least-once ] || return 0
  [ -d "$out" ] || return 0
  dups=$(find "$out" -maxdepth 1 -name 'part-*.txt' -exec cat {} + 2>/dev/null | awk '{print $1, $2}' | sort | uniq -d | wc -l)
  [ "$dups" -eq 0 ] || { echo "$dups input record(s) committed twice in $out"; return 1; }
  return 0
}

# A finished job's directory: every shared file on disk is referenced by a retained checkpoint
# (NoSharedFileLeakProp, seen from outside: inspect lists the ones none references) and no
# temporary file is left.
no_leak() { # DIR -> 0 none leaked, 1 leaked (prints what)
  local dir=$1 json leaked temps
  json=$(java "${JAVA_FAST[@]}" -jar "$JAR" inspect "$dir" --json) || { echo "inspect failed: $json"; return 1; }
  leaked=$(grep -o '"unreferencedSharedFiles":\[[^]]*\]' <<<"$json")
  [ "$leaked" = '"unreferencedSharedFiles":[]' ] || { echo "shared files no checkpoint references: $leaked"; return 1; }
  temps=$(find "$dir" -maxdepth 1 -name '*.tmp' | wc -l)
  [ "$temps" -eq 0 ] || { echo "$temps temporary files left"; return 1; }
  return 0
}

# Broken twin: what a store writing checkpoints in place (no temp file, no rename) would leave
# after a kill in the middle of a checkpoint write: the partial file under the final name.
break_like_in_place_store() { # DIR
  local dir=$1 t id
  for t in "$dir"/chk-*.tmp; do
    [ -f "$t" ] || continue
    id=${t##*/chk-}; id=${id%.tmp}
    mv "$t" "$dir/chk-$id.ckpt"
  done
}

start=$SECONDS
caught=0; broken_cases=0; output_caught=0; output_cases=0; leak_caught=0; leak_cases=0; no_leaks=0
jobs_total=0
mi=-1
for mode in "${MODES[@]}"; do
  mode_kills=0; mi=$((mi + 1))
  # New jobs until KILLS kills landed in this mode (a job that ends before its kill point ends early).
  for ((j = 1; mode_kills < KILLS; j++)); do
    dir="$OUT/$mode-job$j"
    # what the mode promises: at-least-once mode promises no exactly-once, and reports so
    holds="exactly-once"; [ "$mode" = at-least-once ] && holds="at-least-once"
    first=1; jobs_total=$((jobs_total + 1))
    # the windows in a different order per job and per mode, so kills land at different
    # checkpoint counts (the quick run has one job per mode)
    for ((k = 0; k < PER_JOB && mode_kills < KILLS; k++)); do
      w=${WINDOWS[$(( (k + j + mi) % PER_JOB ))]}
      nth=$((1 + RANDOM % 4))
      attempt "$mode" "$dir" "$w" "$nth" "$first"
      # a run killed before it wrote its manifest started no job: the next attempt runs it again
      [ -f "$dir/MANIFEST" ] && first=0
      if [ "$rc" -eq 137 ] || [ "$rc" -eq 143 ]; then
        if [ "$w" != random ] && ! grep -q "crash point $w reached" "$log"; then
          fail "$mode job $j: killed, but not in window $w ($log)"; continue
        fi
        HIT[$w]=$((HIT[$w] + 1)); kills=$((kills + 1)); mode_kills=$((mode_kills + 1))
        if [ $BROKEN -eq 1 ] && [ "$w" = checkpoint-temp-partial ]; then
          break_like_in_place_store "$dir"; broken_cases=$((broken_cases + 1))
          if ! why=$(healthy "$dir"); then caught=$((caught + 1)); fi
          continue
        fi
        why=$(healthy "$dir") || fail "$mode job $j after a kill in $w: $why"
        why=$(output_healthy "$dir-out" "$mode") || fail "$mode job $j after a kill in $w: $why"
      elif [ "$rc" -eq 0 ] && grep -q "^verdict: $holds holds\$" "$log"; then
        MISSED[$w]=$((MISSED[$w] + 1)) # the job ended before the kill point: a valid end, no kill
        break
      else
        fail "$mode job $j: exit $rc with kill plan $w:$nth, see $log"; tail -3 "$log"
        break
      fi
    done
    # The final resume, no kill: runs the job to its end (or finds it finished).
    attempt "$mode" "$dir" none 1 "$first"
    if [ $BROKEN -eq 0 ]; then
      if [ "$rc" -ne 0 ] || ! grep -Eq "^verdict: $holds holds\$|already finished \(verdict: $holds holds\)" "$log"; then
        fail "$mode job $j: the final resume exited $rc without 'verdict: $holds holds' ($log)"; tail -5 "$log"
      else
        jobs_done=$((jobs_done + 1))
      fi
      if why=$(no_leak "$dir"); then no_leaks=$((no_leaks + 1)); else fail "$mode job $j after it finished: $why"; fi
      # The output, as an external reader sees it: every input record committed exactly once, no
      # pending transaction (at-least-once: none missing).
      vlog="$OUT/verify-$mode-job$j.log"
      java "${JAVA_FAST[@]}" -jar "$JAR" verify-output "${INPUTS[@]}" --output "$dir-out" --files 0 >"$vlog" 2>&1; vrc=$?
      if [ "$mode" = at-least-once ]; then
        grep -q '^output: .*(0 missing, ' "$vlog" || grep -q '^output: exactly-once holds' "$vlog" \
          || { fail "$mode job $j: records missing from the output ($vlog)"; tail -3 "$vlog"; }
      elif [ "$vrc" -ne 0 ]; then
        fail "$mode job $j: verify-output exited $vrc ($vlog)"; tail -3 "$vlog"
      else
        outputs_ok=$((outputs_ok + 1))
      fi
    fi
    if [ $BROKEN -eq 1 ] && [ "$mode" != at-least-once ]; then
      # Broken twin of the output checks: a sink that committed one transaction twice (its part
      # file again under another name). Both the check after a kill and verify-output must catch it.
      part=$(find "$dir-out" -maxdepth 1 -name 'part-*.txt' 2>/dev/null | sort | head -1)
      if [ -n "$part" ]; then
        cp "$part" "${part%.txt}-again.txt"; output_cases=$((output_cases + 1))
        if ! output_healthy "$dir-out" "$mode" >/dev/null \
           && ! java "${JAVA_FAST[@]}" -jar "$JAR" verify-output "${INPUTS[@]}" --output "$dir-out" --files 0 >/dev/null 2>&1; then
          output_caught=$((output_caught + 1))
        fi
      fi
    fi
  done
done
if [ $BROKEN -eq 1 ]; then
  # Broken twin of the leak check: a store that forgot to delete a subsumed checkpoint's shared
  # file (a copy of one under an older checkpoint's name), in a job that ran to its end unharmed
  # (the directories above hold unusable checkpoint files on purpose, whose files nobody can free).
  dir="$OUT/leak-twin"
  attempt "${MODES[0]}" "$dir" none 1 1
  seg=$(find "$dir" -maxdepth 1 -name 'shared-*.seg' | sort | head -1)
  if [ "$rc" -eq 0 ] && [ -n "$seg" ] && no_leak "$dir" >/dev/null; then
    name=${seg##*/}; cp "$seg" "$dir/shared-0-${name#shared-*-}"; leak_cases=1
    no_leak "$dir" >/dev/null || leak_caught=1
  fi
fi
secs=$((SECONDS - start))

echo
echo "=== crash test: ${MODES[*]}; $kills kills in $processes processes, $secs s ==="
printf '%-26s %6s %s\n' window hits "ended before the kill point"
for w in "${WINDOWS[@]}"; do printf '%-26s %6d %d\n' "$w" "${HIT[$w]}" "${MISSED[$w]}"; done
rescaled=$((RESCALED[1] + RESCALED[2] + RESCALED[3]))
[ $RESCALE -eq 0 ] || echo "resumes that rescaled the keyed count: $rescaled (to 1: ${RESCALED[1]}, to 2: ${RESCALED[2]}, to 3: ${RESCALED[3]}; modes:$RESCALE_MODES)"
if [ $BROKEN -eq 1 ]; then
  echo "broken twin (store writing in place): $caught of $broken_cases damaged directories caught by the health check"
  echo "broken twin (a transaction committed twice): $output_caught of $output_cases output directories caught by both output checks"
  echo "broken twin (a subsumed checkpoint's shared file not deleted): $leak_caught of $leak_cases job directories caught by the leak check"
  [ "$broken_cases" -gt 0 ] && [ "$caught" -eq "$broken_cases" ] && [ "$output_cases" -gt 0 ] \
    && [ "$output_caught" -eq "$output_cases" ] && [ "$leak_cases" -gt 0 ] && [ "$leak_caught" -eq "$leak_cases" ] \
    && { echo "broken twin caught"; exit 0; }
  echo "FAILED: a check missed a damaged directory, or no output directory was there to damage"; exit 1
fi
echo "jobs finished keeping their mode's promise (exactly-once; at-least-once in that mode): $jobs_done of $jobs_total; failed checks: $failures"
echo "job directories with no leaked shared file and no temporary file at the end (inspect): $no_leaks of $jobs_total"
echo "output directories verified exactly-once (verify-output; not counted in at-least-once mode): $outputs_ok"
need=$((KILLS * ${#MODES[@]}))
# A rescaling mode that ran must have rescaled (in the long mode: to each parallelism).
if [ $RESCALE -eq 1 ]; then
  for m in "${MODES[@]}"; do
    if [[ "$RESCALE_MODES" == *" $m "* ]]; then
      [ $rescaled -gt 0 ] || fail "no resume rescaled the job, though mode $m rescales"
      if [ $LONG -eq 1 ]; then
        for p in 1 2 3; do [ "${RESCALED[$p]}" -gt 0 ] || fail "the long run never rescaled to $p"; done
      fi
    fi
  done
fi
[ $kills -ge "$need" ] || fail "only $kills kills landed, $need required"
# The long mode's promise: a kill inside every window, not only many kills.
if [ $LONG -eq 1 ]; then
  for w in "${WINDOWS[@]}"; do [ "${HIT[$w]}" -gt 0 ] || fail "the long run never killed in window $w"; done
fi
[ $failures -eq 0 ]
