#!/usr/bin/env bash
# tests/spec-replay.sh: spec to engine. TLC dumps the state graph of small models of
# the aligned, unaligned, at-least-once and alternating protocols (Join and Diamond) and of the
# transactional sink; the replay
# (dev.consistentcut.replay.SpecReplay) derives a path cover of each graph and forces the engine's
# simulation runtime through every path, step by step, comparing the engine's state with the
# spec's after each step. Then the broken twins: the same replay against broken engines must
# report a divergence. docs/trace-validation.md, "Spec to engine: replay".
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

usage() {
  cat <<'USAGE'
Usage: tests/spec-replay.sh [--quick | --full] [--model NAME]... [--no-twins] [--keep] [--debug]

Replays the TLC state graph of models of spec/ in the engine and reports, per model, the paths,
steps, states and edges covered and the paths the engine could not follow or diverged on.

  --quick       (default) the replay models: Join and Diamond, aligned and unaligned, 1 record
                per source, 1 checkpoint, 1 failure, timeouts; the aligned Join with aborts
                reaching the tasks; the at-least-once Join; the alternating Join (no failure;
                timeouts, switches, prioritized barriers); the aligned Join with the
                transactional sink, end of input and final checkpoints
                (spec/*/MC*Checkpoint_Replay*.cfg), every edge; then eight broken twins
                (about two minutes of CPU)
  --full        the quick models and bigger ones, every edge: the four Join and Diamond models
                with end of input, the unaligned Join with aborts reaching the tasks, the
                alternating Join with 1 failure, the transactional sink under unaligned (Join)
                and alternating (Diamond) barriers, the four with 2 checkpoints, and the aligned
                Join and Diamond models' own bounds (2 records, 2 checkpoints); figures in
                docs/trace-validation.md (long: most of an hour on a shared machine)
  --model NAME  only this model (repeatable; names: --list)
  --list        the models and their tiers
  --no-twins    skip the broken twins
  --keep        keep the state graphs (target/spec-replay/*.dot; they are large)
  --debug       stack traces from the replay
  --help        this text

Exit codes: 0 the engine followed every path of every model and every broken twin diverged;
1 the engine could not follow a path or diverged, a twin was not caught, or TLC found a violation;
2 bad usage; 3 environment (no java or mvn, TLC not resolvable, the build failed).
USAGE
}

# name | module | config (its path under spec/, or base config + sed edits after ':') | mode | capacity | cover | tier
MODELS=(
  "ReplayAlignedJoin|MCAlignedCheckpoint|aligned/MCAlignedCheckpoint_ReplayJoin.cfg|aligned|1|edges|quick"
  "ReplayAlignedDiamond|MCAlignedCheckpoint|aligned/MCAlignedCheckpoint_ReplayDiamond.cfg|aligned|1|edges|quick"
  "ReplayUnalignedJoin|MCUnalignedCheckpoint|unaligned/MCUnalignedCheckpoint_ReplayJoin.cfg|unaligned|1|edges|quick"
  "ReplayUnalignedDiamond|MCUnalignedCheckpoint|unaligned/MCUnalignedCheckpoint_ReplayDiamond.cfg|unaligned|1|edges|quick"
  "ReplayAlignedEndJoin|MCAlignedCheckpoint|aligned/MCAlignedCheckpoint_ReplayEndJoin.cfg|aligned|1|edges|full"
  "ReplayAlignedAbortJoin|MCAlignedCheckpoint|aligned/MCAlignedCheckpoint_ReplayAbortJoin.cfg|aligned|1|edges|quick"
  "ReplayUnalignedAbortJoin|MCUnalignedCheckpoint|unaligned/MCUnalignedCheckpoint_ReplayAbortJoin.cfg|unaligned|1|edges|full"
  "ReplayAtLeastOnceJoin|MCAtLeastOnceCheckpoint|at-least-once/MCAtLeastOnceCheckpoint_ReplayJoin.cfg|at-least-once|1|edges|quick"
  "ReplayAlternatingJoin|MCAlternatingCheckpoint|alternating/MCAlternatingCheckpoint_ReplayJoin.cfg|alternating|1|edges|quick"
  "ReplayAlignedSinkJoin|MCAlignedCheckpoint|sink/MCAlignedCheckpoint_ReplaySinkJoin.cfg|aligned|1|edges|quick"
  "ReplayAlternatingFailJoin|MCAlternatingCheckpoint|alternating/MCAlternatingCheckpoint_ReplayJoin.cfg:s/MaxFailures = 0/MaxFailures = 1/|alternating|1|edges|full"
  "ReplayUnalignedSinkJoin|MCUnalignedCheckpoint|sink/MCUnalignedCheckpoint_SinkJoin.cfg:s/MaxCheckpoints = 2/MaxCheckpoints = 1/;s/AbortsReachTasks = TRUE/AbortsReachTasks = FALSE/;s/^SPECIFICATION Spec/&\nACTION_CONSTRAINT ReplayNotifyRule/|unaligned|1|edges|full"
  "ReplayAlternatingSinkDiamond|MCAlternatingCheckpoint|sink/MCAlternatingCheckpoint_SinkDiamond.cfg:s/MaxCheckpoints = 2/MaxCheckpoints = 1/;s/AbortsReachTasks = TRUE/AbortsReachTasks = FALSE/;s/Savepoints <- SecondIsSavepoint/Savepoints <- NoSavepoints/;s/^SPECIFICATION Spec/&\nACTION_CONSTRAINTS ReplayNotifyRule ReplayTimeoutRule/|alternating|1|edges|full"
  "ReplayAlignedEndDiamond|MCAlignedCheckpoint|aligned/MCAlignedCheckpoint_ReplayDiamond.cfg:s/EndOfInput = FALSE/EndOfInput = TRUE/|aligned|1|edges|full"
  "ReplayUnalignedEndJoin|MCUnalignedCheckpoint|unaligned/MCUnalignedCheckpoint_ReplayJoin.cfg:s/EndOfInput = FALSE/EndOfInput = TRUE/|unaligned|1|edges|full"
  "ReplayUnalignedEndDiamond|MCUnalignedCheckpoint|unaligned/MCUnalignedCheckpoint_ReplayDiamond.cfg:s/EndOfInput = FALSE/EndOfInput = TRUE/|unaligned|1|edges|full"
  "ReplayAlignedJoin2Checkpoints|MCAlignedCheckpoint|aligned/MCAlignedCheckpoint_Join.cfg:s/RecordsPerSource = 2/RecordsPerSource = 1/|aligned|1|edges|full"
  "ReplayAlignedDiamond2Checkpoints|MCAlignedCheckpoint|aligned/MCAlignedCheckpoint_Diamond.cfg:s/RecordsPerSource = 2/RecordsPerSource = 1/|aligned|1|edges|full"
  "ReplayUnalignedJoin2Checkpoints|MCUnalignedCheckpoint|unaligned/MCUnalignedCheckpoint_Join.cfg:s/RecordsPerSource = 2/RecordsPerSource = 1/|unaligned|1|edges|full"
  "ReplayUnalignedDiamond2Checkpoints|MCUnalignedCheckpoint|unaligned/MCUnalignedCheckpoint_Diamond.cfg:s/RecordsPerSource = 2/RecordsPerSource = 1/|unaligned|1|edges|full"
  "ReplayAlignedJoinModel|MCAlignedCheckpoint|aligned/MCAlignedCheckpoint_Join.cfg:|aligned|1|edges|full"
  "ReplayAlignedDiamondModel|MCAlignedCheckpoint|aligned/MCAlignedCheckpoint_Diamond.cfg:|aligned|1|edges|full"
)
# The broken twins: model | broken engine | extra replay options | the component its bug shows in.
# Each is replayed in its model's run (--twin, the graph loaded once), up to its first finding.
TWINS=(
  "ReplayAlignedJoin|aligned-without-blocking||arrived[join]"
  "ReplayUnalignedDiamond|unaligned-forgetting-in-flight|--ignore current|snapChan[1]"
  "ReplayAlignedSinkJoin|ended-input-not-counted-as-arrived||arrived[join]"
  "ReplayAlignedEndJoin|ended-input-not-counted-as-arrived||arrived[join]"
  "ReplayAlignedAbortJoin|abort-keeps-inputs-blocked||arrived[join]"
  "ReplayAtLeastOnceJoin|snapshot-on-first-barrier||handling[join]"
  "ReplayAlternatingJoin|alternating-not-propagated||switchedAt[1]"
  "ReplayAlternatingFailJoin|alternating-forgetting-pending-inputs||snapChan[1][s2->join]"
  "ReplayAlignedSinkJoin|sink-commit-on-snapshot||committed"
  "ReplayAlignedSinkJoin|sink-no-recommit-on-restore||committed"
  "ReplayUnalignedSinkJoin|sink-no-recommit-on-restore||committed"
  "ReplayAlternatingSinkDiamond|sink-no-recommit-on-restore||committed"
)

tier=quick; only=(); twins=1; keep=0; debug=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --quick) tier=quick ;;
    --full) tier=full ;;
    --model) [ $# -ge 2 ] || { echo "spec-replay.sh: --model needs a name (see --list)" >&2; exit 2; }; only+=("$2"); shift ;;
    --list) for m in "${MODELS[@]}"; do IFS='|' read -r n _ c _ _ cv t <<<"$m"; printf '%-36s %-6s %-6s %s\n' "$n" "$t" "$cv" "$c"; done; exit 0 ;;
    --no-twins) twins=0 ;;
    --keep) keep=1 ;;
    --debug) debug=(--debug) ;;
    *) echo "spec-replay.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
for n in "${only[@]}"; do
  found=0; for m in "${MODELS[@]}"; do [ "${m%%|*}" = "$n" ] && found=1; done
  [ $found -eq 1 ] || { echo "spec-replay.sh: unknown model '$n' (see --list)" >&2; exit 2; }
done

command -v java >/dev/null 2>&1 || { echo "spec-replay.sh: java not found: install a JDK 17+" >&2; exit 3; }
OUT="$ROOT/target/spec-replay"
rm -rf "$OUT"; mkdir -p "$OUT"
# The replay is in the tools; the broken twins it replays are test classes of the engine.
CP="$ROOT/tools/target/classes:$ROOT/reference-impl/target/classes:$ROOT/reference-impl/target/test-classes"
MARK="$ROOT/tools/target/classes/dev/consistentcut/replay/SpecReplay.class"
TWIN_MARK="$ROOT/reference-impl/target/test-classes/dev/consistentcut/barrier/BrokenHandlers.class"
. "$ROOT/tests/lib/tools-build.sh"
if tools_stale "$MARK" "$TWIN_MARK" "$ROOT/model-checker/target/model-checker.jar"; then
  tools_build "$OUT/build.log" || exit 3
fi

# TLC runs through the model checker's runner (model-checker/, built with the tools above), the one
# place its command line is assembled; it resolves TLC as ./model-check.sh does (TLA2TOOLS_JAR).
MC_JAR="$ROOT/model-checker/target/model-checker.jar"
[ -f "$MC_JAR" ] || { echo "spec-replay.sh: $MC_JAR missing after the build" >&2; exit 3; }

selected() { # NAME TIER: is the model part of this run?
  if [ ${#only[@]} -gt 0 ]; then for n in "${only[@]}"; do [ "$n" = "$1" ] && return 0; done; return 1; fi
  [ "$2" = quick ] || [ "$tier" = full ]
}

passed=0; failed=0; envfail=0
report=()
dump() { # NAME MODULE CONFIG: TLC's state graph into $OUT/NAME.dot; 0 ok, 1 TLC found a violation, 3 TLC failed
  local name=$1 module=$2 config=$3 cfg
  if [[ "$config" == *:* ]]; then
    cfg="$OUT/$name.cfg"
    # the model's bounds (edited), without VIEW and SYMMETRY: the replay needs every concrete state
    sed -e '/^VIEW/d' -e '/^SYMMETRY/d' -e "${config#*:}" "spec/${config%%:*}" >"$cfg"
  else
    cfg="$ROOT/spec/$config"
  fi
  # One worker (so the serial collector: the runner's TlcTuning has the measurements).
  (cd spec && nice -n 5 java -jar "$MC_JAR" tlc --jvm -Xmx2g -workers 1 -metadir "$OUT/meta-$name" \
      -config "$cfg" -dump dot,actionlabels "$OUT/$name" "$module.tla") >"$OUT/$name.tlc.log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAILED: TLC on $name exited $rc ($OUT/$name.tlc.log):"; grep -E 'Error|violated' "$OUT/$name.tlc.log" | head -5
    [ $rc -ge 10 ] && [ $rc -le 13 ] && return 1
    return 3
  fi
  [ -f "$OUT/$name.dot" ] || { echo "FAILED: TLC wrote no state graph for $name"; return 3; }
  grep -E '^[0-9]+ states generated' "$OUT/$name.tlc.log" | sed "s/^/$name: TLC: /"
  return 0
}

replay() { # NAME DOT MODE CAPACITY COVER [ARGS...]: the replay's exit code
  local name=$1 dot=$2 mode=$3 capacity=$4 cover=$5; shift 5
  nice -n 5 java -Xmx3g -cp "$CP" dev.consistentcut.replay.SpecReplay --dot "$dot" --mode "$mode" --capacity "$capacity" \
    --cover "$cover" --name "$name" "${debug[@]}" "$@"
}

start=$SECONDS
for m in "${MODELS[@]}"; do
  IFS='|' read -r name module config mode capacity cover mtier <<<"$m"
  selected "$name" "$mtier" || continue
  echo "--- $name ($mode, $config, cover: $cover) ---"
  t0=$SECONDS
  dump "$name" "$module" "$config"; rc=$?
  if [ $rc -ne 0 ]; then
    if [ $rc -eq 3 ]; then envfail=1; fi
    failed=$((failed + 1)); report+=("FAILED  $name: TLC (see $OUT/$name.tlc.log)"); continue
  fi
  # The model's twins are replayed in the same run, over the graph loaded once (their --ignore
  # options apply to the twins only).
  along=()
  if [ $twins -eq 1 ]; then
    for t in "${TWINS[@]}"; do
      IFS='|' read -r model broken extra component <<<"$t"
      # shellcheck disable=SC2086
      [ "$model" = "$name" ] && along+=(--twin "$broken" ${extra//--ignore/--twin-ignore})
    done
  fi
  replay "$name" "$OUT/$name.dot" "$mode" "$capacity" "$cover" "${along[@]}" | tee "$OUT/$name.replay.log"
  rc=${PIPESTATUS[0]}
  line=$(head -1 "$OUT/$name.replay.log")
  if grep -q "^$name: the engine followed every path" "$OUT/$name.replay.log"; then
    passed=$((passed + 1)); report+=("ok      $name ($((SECONDS - t0)) s): ${line#*: }")
  else
    failed=$((failed + 1)); report+=("FAILED  $name ($((SECONDS - t0)) s, exit $rc): ${line#*: }")
    [ "$rc" -eq 3 ] && envfail=1
  fi
  if [ $twins -eq 1 ]; then
    for t in "${TWINS[@]}"; do
      IFS='|' read -r model broken extra component <<<"$t"
      [ "$model" = "$name" ] || continue
      if grep -F "$name [$broken]: " "$OUT/$name.replay.log" >"$OUT/$name.$broken.replay.log" \
          && grep -q "DIVERGED" "$OUT/$name.$broken.replay.log" \
          && sed -n "/^$name \[$broken\]: FINDING/,/DIVERGED/p" "$OUT/$name.replay.log" | grep -qF "$component"; then
        passed=$((passed + 1)); report+=("ok      twin $broken on $name: diverged at $component, as it must")
      else
        failed=$((failed + 1)); report+=("FAILED  twin $broken on $name: exit $rc, expected a divergence at $component")
        [ "$rc" -eq 3 ] && envfail=1
      fi
    done
  fi
done

[ $keep -eq 1 ] || rm -f "$OUT"/*.dot
rm -rf "$OUT"/meta-*
echo
label=$tier; [ ${#only[@]} -eq 0 ] || label="models: ${only[*]}"
echo "=== spec replay ($label, $((SECONDS - start)) s) ==="
printf '%s\n' "${report[@]}"
echo "spec-replay: $passed passed, $failed failed"
[ $failed -eq 0 ] && exit 0
[ $envfail -eq 1 ] && exit 3
exit 1
