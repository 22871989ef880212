#!/usr/bin/env bash
# Runs the jcstress tests of stress-tests/target/jcstress.jar and turns their verdict into an exit
# code a CI run can trust.
#
# Why a script: jcstress 0.16 exits 1 when a test saw a forbidden outcome or failed with an error,
# but exits 0 when the selection matched nothing ("FATAL: No matching tests."), and it has no way
# to say "this test must fail". The Broken... twins exist to show that each test can catch the bug
# it targets, so --expect-broken inverts the verdict per test: each twin must be seen failing.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: stress-tests/run-jcstress.sh [--quick|--long] [-t REGEX] [--expect-broken] [-- JCSTRESS_ARGS...]

Runs the jcstress tests in stress-tests/target/jcstress.jar (build it first with
  mvn -B -pl stress-tests -am package -DskipTests).

  --quick          CI setting (default): "-m sanity -time 300 -sc false": the interpreter,
                   C1, C2 and C2 with its stress flags (each with biased locking on and off on
                   JDK 17), every actor compiled alike, one fork each: 8 runs per test (4 on
                   JDK 25). Split per-actor compilation (one
                   actor interpreted while the other runs compiled code) is left to --long:
                   it more than triples the runs (28 per test).
  --long           night setting: jcstress's "-m default" (1 + 5 stress forks, 5 x 1 s per
                   configuration), several minutes per test.
  -t REGEX         only tests whose fully qualified name matches REGEX (Java regex, find()).
  --expect-broken  run only the Broken... twins; exit 0 only if every one of them is caught
                   (jcstress observes a forbidden outcome). A twin not caught is retried alone
                   (3 attempts in --quick, 1 in --long) before it counts as not caught.
                   In --quick the first attempt runs in one JVM configuration (C1), the
                   retries in all of the preset's.
                   In --quick a termination twin (Mode.Termination: caught by a thread that
                   never ends, which jcstress waits for in every configuration) runs in one
                   JVM configuration.
  -- ARGS          passed to jcstress as they are (e.g. -- -v). If they contain -m, they replace
                   the preset of --quick/--long (e.g. -- -m quick -iters 1 -time 100).
  -h, --help       this text.

Without --expect-broken the Broken... twins are left out, and the exit code is 0 only if every
selected test ran and none saw a FORBIDDEN outcome, an error or a timeout.
Logs and HTML reports: stress-tests/target/jcstress-results/{normal,broken}/.
Exit codes: 0 verdict as expected, 1 a test failed (or a twin was not caught), 2 bad usage or
nothing to run, 3 the jar is not built.
EOF
}

die_usage() { echo "run-jcstress.sh: $*" >&2; echo "Try --help." >&2; exit 2; }

mode=quick
regex='.*'
expect_broken=false
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --quick) mode=quick ;;
        --long) mode=long ;;
        --expect-broken) expect_broken=true ;;
        -t) [[ $# -ge 2 ]] || die_usage "-t needs a REGEX"; regex="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        --) shift; extra=("$@"); break ;;
        *) die_usage "unknown argument '$1'" ;;
    esac
    shift
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/target/jcstress.jar"
if [[ ! -f "$jar" ]]; then
    echo "run-jcstress.sh: $jar is not built. Build it with:" >&2
    echo "  mvn -B -pl stress-tests -am package -DskipTests" >&2
    exit 3  # environment: the jar is not built
fi
if [[ -n "$(find "$here/src/main" -newer "$jar" -name '*.java' -print -quit)" ]]; then
    echo "run-jcstress.sh: warning: sources under stress-tests/src/main are newer than $jar; rebuild it to test them." >&2
fi

java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
java_feature="$("$java_bin" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
java_opts=()
jcstress_jvm=()
if [[ "${java_feature%%.*}" -ge 22 ]]; then
    # jcstress loads JNA for CPU affinity; JDK 22+ warns about that native access in every JVM.
    java_opts+=(--enable-native-access=ALL-UNNAMED)
    jcstress_jvm+=(-jvmArgsPrepend --enable-native-access=ALL-UNNAMED)
fi

case "$mode" in
    quick) mode_args=(-m sanity -time 300 -sc false); broken_attempts=3 ;;
    long) mode_args=(-m default); broken_attempts=1 ;;
esac

for a in "${extra[@]}"; do
    if [[ "$a" == -m ]]; then mode_args=(); mode="$mode, preset replaced"; fi
done

# --- select the tests: list them, then split normal tests and Broken... twins by simple name.
all_tests="$("$java_bin" "${java_opts[@]}" -jar "$jar" -l -t "$regex" 2>/dev/null | grep -E '^[a-z][A-Za-z0-9_.]*\.[A-Z][A-Za-z0-9_]*$' || true)"
if $expect_broken; then
    tests="$(grep -E '\.Broken[A-Za-z0-9_]*$' <<<"$all_tests" || true)"
    kind=broken
else
    tests="$(grep -vE '\.Broken[A-Za-z0-9_]*$' <<<"$all_tests" || true)"
    kind=normal
fi
if [[ -z "$tests" ]]; then
    echo "run-jcstress.sh: no $kind jcstress test matches '$regex' in $jar" >&2
    exit 2
fi

out_dir="$here/target/jcstress-results/$kind"
rm -rf "$out_dir"
mkdir -p "$out_dir"

# An exact selection regex for a list of test names: ^(a\.B|c\.D)$
exact_regex() { echo "^($(sed 's/\./\\./g' <<<"$1" | paste -sd'|'))\$"; }

# Runs jcstress on the given test names; full output to $2, a short progress view to the terminal.
# Returns jcstress's exit code.
run_jcstress() {
    local names="$1" log="$2"
    echo "== jcstress ($mode, $(wc -l <<<"$names") test(s)), log: ${log#"$here"/}"
    set +e
    (cd "$out_dir" && "$java_bin" "${java_opts[@]}" -jar "$jar" "${mode_args[@]}" "${jcstress_jvm[@]}" \
        -r "${log%.log}-report" -t "$(exact_regex "$names")" "${extra[@]}") 2>&1 | tee "$log" \
        | awk '# progress: the Results line at each further tenth of the planned runs
               /^\(Results:/ { gsub(/[(),;]/, " "); planned = $2; done = $4 + $6 + $8 + $11
                               step = int(10 * done / (planned > 0 ? planned : 1))
                               if (step != last) printf "   %d of %d runs done: %d passed, %d failed, %d errors\n", done, planned, $4, $6, $8 + $11
                               last = step; next }
               /^-----/ { next }
               /\[(OK|FAILED|ERROR)\]|FATAL/ { if (!seen[$0]++) print "   " $0 }'
    local rc="${PIPESTATUS[0]}"
    set -e
    verdicts "${log%.log}-report/index.html"
    return "$rc"
}

# One line per test from the HTML report's "All tests" table: verdict, name, order of samples.
verdicts() {
    [[ -f "$1" ]] || return 0
    awk '/<h3>All tests<\/h3>/ { on = 1 }
         on && match($0, /">[^<]+<\/a><\/td>/) { name = substr($0, RSTART + 2, RLENGTH - 11) }
         on && name != "" && match($0, /<sup>[0-9]+<\/sup><\/td><td class="[a-z]+">[A-Z_ ]+</) {
             n = split(substr($0, RSTART, RLENGTH), f, /[<>]/)
             printf "   %-8s %s (about 10^%s samples)\n", f[n - 1], name, f[3]; name = "" }' "$1"
}

# The last "(Results: N planned; P passed, F failed, S soft errs, H hard errs)" line of a log.
summary() { grep -E '^\(Results:' "$1" | tail -1; }

if ! $expect_broken; then
    log="$out_dir/jcstress.log"
    rc=0
    run_jcstress "$tests" "$log" || rc=$?
    sum="$(summary "$log")"
    if grep -q 'FATAL' "$log"; then
        echo "FAILED: jcstress reported a fatal error (see $log)" >&2
        exit 1
    fi
    if [[ $rc -ne 0 ]]; then
        echo "FAILED: jcstress exit code $rc; $sum" >&2
        # One line per test and outcome, with the number of JVM configurations that saw it.
        grep -E 'Observed forbidden state|had (failed|timed out)' "$log" | sed -E 's/ \[[^]]*\]:/:/' \
            | sort | uniq -c | sed 's/^ */  configurations: /' >&2 || true
        exit 1
    fi
    if ! grep -qE '^\(Results: [1-9][0-9]* planned; [0-9]+ passed, 0 failed, [0-9]+ soft errs, 0 hard errs\)' <<<"$sum"; then
        echo "FAILED: unexpected jcstress summary: '$sum' (see $log)" >&2
        exit 1
    fi
    echo "OK: $(wc -l <<<"$tests") jcstress test(s), no forbidden outcome, no error. $sum"
    exit 0
fi

# --- --expect-broken: every twin must be caught, i.e. show an "Observed forbidden state".
caught_in() { grep -oE '^[a-z][A-Za-z0-9_.]*\.Broken[A-Za-z0-9_]* \[[^]]*\]: Observed forbidden state' "$1" | cut -d' ' -f1 | sort -u; }

# A termination twin (Mode.Termination) is caught by a thread that never ends: jcstress waits about
# 30 s for it in every JVM configuration before it gives the fork up, two at a time, so its eight
# configurations cost two minutes for a verdict the first one gives (a missed wake-up hangs under
# every JIT). In --quick such twins run alone in one configuration (jcstress -jvmArgs); --long keeps
# every configuration for them too.
termination=""
if [[ "$mode" == quick ]]; then
    while read -r t; do
        [[ -n "$t" ]] && grep -q 'Mode\.Termination' "$here/src/main/java/${t//.//}.java" 2>/dev/null && termination+="$t"$'\n'
    done <<<"$tests"
    termination="$(sed '/^$/d' <<<"$termination")"
fi
others="$(comm -23 <(sort -u <<<"$tests") <(sort -u <<<"$termination") | sed '/^$/d')"
# The termination twins mostly wait (for a thread that never ends), so in --quick they run beside
# the other twins, in a directory of their own (jcstress names its result file by the second it
# started in), their progress printed when both are done.
termination_pid=""
if [[ -n "$termination" ]]; then
    termination_log="$out_dir/jcstress-termination.log"
    (
        out_dir="$out_dir/termination"
        mkdir -p "$out_dir"
        extra+=(-jvmArgs "-Xmx256m")
        run_jcstress "$termination" "$termination_log" || true
    ) >"$out_dir/jcstress-termination.progress" 2>&1 &
    termination_pid=$!
fi
caught=""
if [[ -n "$others" ]]; then
    log="$out_dir/jcstress.log"
    # A twin's verdict needs one configuration that shows its bug, not all eight: in --quick the
    # first pass runs every twin in one configuration (C1, the JVM's default flags otherwise); a
    # twin it misses is retried with every configuration of the preset below, so a miss costs
    # time, never the verdict.
    saved_extra=("${extra[@]}")
    [[ "$mode" == quick ]] && extra+=(-jvmArgs "-XX:TieredStopAtLevel=1")
    run_jcstress "$others" "$log" || true
    extra=("${saved_extra[@]}")
    caught="$(caught_in "$log")"
fi
if [[ -n "$termination_pid" ]]; then
    wait "$termination_pid" || true
    cat "$out_dir/jcstress-termination.progress"
    caught="$(printf '%s\n%s\n' "$caught" "$(caught_in "$termination_log")" | sed '/^$/d' | sort -u)"
fi
missing="$(comm -23 <(sort -u <<<"$tests") <(sort -u <<<"$caught"))"
attempt=1
while [[ -n "$missing" && $attempt -lt $broken_attempts ]]; do
    attempt=$((attempt + 1))
    log="$out_dir/jcstress-attempt$attempt.log"
    echo "== not caught yet, attempt $attempt of $broken_attempts: $(paste -sd' ' <<<"$missing")"
    run_jcstress "$missing" "$log" || true
    caught="$(printf '%s\n%s\n' "$caught" "$(caught_in "$log")" | sed '/^$/d' | sort -u)"
    missing="$(comm -23 <(sort -u <<<"$tests") <(sort -u <<<"$caught"))"
done

while read -r t; do
    [[ -n "$t" ]] && echo "caught: $t"
done <<<"$caught"
if [[ -n "$missing" ]]; then
    echo "FAILED: Broken twin(s) NOT caught after $broken_attempts attempt(s): the test cannot be shown to find the bug it targets:" >&2
    sed 's/^/  /' <<<"$missing" >&2
    exit 1
fi
echo "OK: all $(wc -l <<<"$tests") Broken twin(s) caught (each showed a forbidden outcome)."
