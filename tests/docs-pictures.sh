#!/usr/bin/env bash
# tests/docs-pictures.sh: regenerates every picture in docs/pictures/ from real runs:
#   1. a picture of each model of spec/*/models.tsv whose outcome is a violation (TLC error trace,
#      drawn by ./model-check.sh --pictures), NAME.svg;
#   2. a rejected engine trace (a deliberately broken engine, as in tests/trace-validation.sh),
#      its first unexplained event marked: rejected-trace-*.svg;
#   3. the state graph of the smallest aligned model (spec/aligned/MCAlignedCheckpoint_StateGraph.cfg,
#      TLC -dump dot), state-graph-aligned.svg: needs Graphviz (installed when missing and
#      possible, else skipped with a message).
# A few minutes on 2 cores (TLC with one worker). Not part of ./run-tests.sh: the pictures are
# committed, and ./model-check.sh draws fresh ones of every run under target/model-check/pictures/.
# --model NAME (repeatable): only the pictures of these failing models (1. alone), e.g. after a
# change of one spec or of the renderer that concerns a few models.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  echo "Usage: tests/docs-pictures.sh [--model NAME]...    (exit 0: every picture written; 1: one could not be made; 3: setup)"
  exit 0
fi
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --model) [ $# -ge 2 ] || { echo "docs-pictures.sh: --model needs a name (see --help)" >&2; exit 2; }
             only+=("$2"); shift 2 ;;
    *) echo "docs-pictures.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
command -v java >/dev/null 2>&1 || { echo "docs-pictures.sh: java not found: install a JDK 17+" >&2; exit 3; }

PICS="$ROOT/docs/pictures"
WORK="$ROOT/target/docs-pictures"
rm -rf "$WORK"; mkdir -p "$PICS" "$WORK"
status=0

echo "--- building the tools (the renderer; test classes for the broken engine) ---"
mvn -B -q -ntp -DskipTests package -pl tools -am || { echo "docs-pictures.sh: build failed" >&2; exit 3; }

echo "--- 1. the failing models of spec/*/models.tsv ---"
failing=()
# Every manifest's models (--list: MODEL TIER EXPECT DESCRIPTION, after a header line).
all_failing=()
while read -r name _ expect _; do
  [ "$expect" = pass ] || all_failing+=("$name")
done < <(./model-check.sh --list | tail -n +2)
for name in "${all_failing[@]}"; do
  if [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $name "* ]]; then failing+=(--model "$name"); fi
done
for name in "${only[@]}"; do
  [[ " ${all_failing[*]} " == *" $name "* ]] || { echo "docs-pictures.sh: $name is not a failing model of spec/*/models.tsv" >&2; exit 2; }
done
MODEL_CHECK_OUT_DIR="$WORK/model-check" ./model-check.sh --workers 1 --pictures "${failing[@]}" || status=1
for ((i = 1; i < ${#failing[@]}; i += 2)); do
  m=${failing[$i]}
  if [ -f "$WORK/model-check/pictures/$m.svg" ]; then cp "$WORK/model-check/pictures/$m.svg" "$PICS/$m.svg"
  else echo "docs-pictures.sh: no picture of $m"; status=1; fi
done

if [ ${#only[@]} -gt 0 ]; then
  [ $status -eq 0 ] && echo "docs-pictures.sh: the pictures of ${only[*]} written" || echo "docs-pictures.sh: some picture missing (above)"
  exit $status
fi

echo "--- 2. a rejected engine trace ---"
# BrokenTraces is a test class of the tools; the broken handlers it runs are test classes of the engine.
CP="$ROOT/tools/target/classes:$ROOT/tools/target/test-classes:$ROOT/reference-impl/target/classes:$ROOT/reference-impl/target/test-classes"
java -cp "$CP" dev.consistentcut.trace.BrokenTraces "$WORK/broken" >/dev/null || status=1
traces=("$WORK"/broken/*.ndjson)
args=(); for t in "${traces[@]}"; do args+=(--trace "$t"); done
MODEL_CHECK_OUT_DIR="$WORK/model-check" ./model-check.sh --expect-reject --pictures "${args[@]}" || status=1
for t in "${traces[@]}"; do
  base=$(basename "$t" .ndjson)
  svg=$(ls "$WORK/model-check/traces/"*"$base"*.svg 2>/dev/null | head -1)
  if [ -n "$svg" ]; then cp "$svg" "$PICS/rejected-trace-$base.svg"
  else echo "docs-pictures.sh: no picture of the rejected trace $base"; status=1; fi
done

echo "--- 3. the state graph of the smallest aligned model ---"
if ! command -v dot >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Graphviz (apt-get install graphviz) ..."
  { apt-get update -qq && apt-get install -y -qq graphviz; } >"$WORK/apt.log" 2>&1 || echo "(could not install Graphviz: $WORK/apt.log)"
fi
if ! command -v dot >/dev/null 2>&1; then
  echo "docs-pictures.sh: Graphviz 'dot' not found: state graph skipped (Debian: apt-get install graphviz)"
else
  # TLC through the model checker's runner (built with the tools above): its one command line.
  (cd spec/aligned && java -jar "$ROOT/model-checker/target/model-checker.jar" tlc -workers 1 -metadir "$WORK/sg-meta" \
     -config MCAlignedCheckpoint_StateGraph.cfg -dump dot,actionlabels,colorize "$WORK/state-graph" MCAlignedCheckpoint.tla) \
     >"$WORK/state-graph.log" 2>&1
  if [ $? -ne 0 ] || [ ! -f "$WORK/state-graph.dot" ]; then
    echo "docs-pictures.sh: TLC could not dump the state graph: $WORK/state-graph.log"; status=1
  else
    grep -E 'distinct states found' "$WORK/state-graph.log"
    python3 "$ROOT/tests/state-graph-style.py" <"$WORK/state-graph.dot" >"$WORK/state-graph-styled.dot" \
      && dot -Tsvg "$WORK/state-graph-styled.dot" -o "$PICS/state-graph-aligned.svg" \
      && echo "picture: docs/pictures/state-graph-aligned.svg" || status=1
  fi
fi

echo
ls -1 "$PICS"
[ $status -eq 0 ] && echo "docs-pictures.sh: every picture written" || echo "docs-pictures.sh: some picture missing (above)"
exit $status
