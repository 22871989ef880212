#!/usr/bin/env bash
# model-check.sh: runs TLC on the models listed in the manifests (every models.tsv under spec/) and
# checks that each one does what its manifest says: passes, or violates exactly the invariant or
# property it names. See --help.
#
# A thin wrapper: the runner is the Java module model-checker/ (dev.consistentcut.modelcheck),
# which is also the one place TLC's command line is assembled. This script only builds the
# runner's jar when it is missing or older than its sources, then hands over to it.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
JAR="$ROOT/model-checker/target/model-checker.jar"

# The spec mutation harness needs no runner of its own: it calls this script per mutant.
[ "${1:-}" != "--mutants" ] || { shift; exec "$ROOT/tests/spec-mutants.sh" "$@"; }

env_die() { echo "model-check.sh: $*" >&2; exit 3; }   # setup or environment

if [ -n "${JAVA:-}" ]; then RUNNER_JAVA=$JAVA
elif [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then RUNNER_JAVA="$JAVA_HOME/bin/java"
elif command -v java >/dev/null 2>&1; then RUNNER_JAVA=java
else env_die "java not found: install a JDK (17 or newer) or set JAVA_HOME"; fi
JAVA_PATH=$(command -v "$RUNNER_JAVA" 2>/dev/null) || env_die "JAVA=$RUNNER_JAVA: no such executable"
# A java that is there but does not start (a broken JDK; one older than 17 cannot load the runner)
# exits 1, which reads as a verdict: it is tried first, an environment error (3). A java that
# started is remembered (by path, until it changes), so that a run does not pay a JVM start for it.
JAVA_OK="$ROOT/model-checker/target/.java-ok"
if ! { [ "$JAVA_OK" -nt "$JAVA_PATH" ] && [ "$(cat "$JAVA_OK" 2>/dev/null)" = "$JAVA_PATH" ]; }; then
  version=$("$RUNNER_JAVA" -version 2>&1) || env_die "JAVA=$RUNNER_JAVA does not start: $(head -1 <<<"$version")"
  v=$(sed -n 's/.* version "\([^"]*\)".*/\1/p' <<<"$version" | head -1); v=${v#1.}; major=${v%%[!0-9]*}
  [ -n "$major" ] && [ "$major" -lt 17 ] && env_die "JAVA=$RUNNER_JAVA is Java $major; the runner needs 17 or newer"
  mkdir -p "$ROOT/model-checker/target" && echo "$JAVA_PATH" >"$JAVA_OK.$$" && mv -f "$JAVA_OK.$$" "$JAVA_OK"
fi

# The jar is rebuilt when a source of the module (or its pom, or the parent's) is newer than it,
# so that an edit of the runner takes effect on the next run. Not offline (-o): a fresh clone
# resolves the module's dependencies once.
stale() {
  [ ! -f "$JAR" ] && return 0
  [ -n "$(find "$ROOT/model-checker/src/main" "$ROOT/model-checker/pom.xml" "$ROOT/pom.xml" -newer "$JAR" -print -quit 2>/dev/null)" ]
}
build() {
  command -v mvn >/dev/null 2>&1 || env_die "mvn not found: install Maven 3.8+ (it builds the runner, model-checker/)"
  echo "Building the model checker's runner (model-checker/) ..." >&2
  (cd "$ROOT" && mvn -q -B -pl model-checker -am package -DskipTests >&2) || env_die "could not build model-checker/ (output above)"
}
if stale; then
  # Runs started at once (the spec mutants' --jobs) build once: the others wait and find it fresh.
  mkdir -p "$ROOT/model-checker/target"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$ROOT/model-checker/target/.build.lock"
    flock 9
    if stale; then build; fi
    exec 9>&-
  else
    build
  fi
fi

# A run reads a copy put in place by rename: a rebuild while a run is going on (an edit of the
# runner, a second run) replaces the copy, and the running JVM keeps reading the jar it opened.
RUN_JAR="$ROOT/model-checker/target/model-check-run.jar"
if [ ! -f "$RUN_JAR" ] || [ "$JAR" -nt "$RUN_JAR" ]; then
  cp "$JAR" "$RUN_JAR.$$" && mv -f "$RUN_JAR.$$" "$RUN_JAR" || env_die "cannot write $RUN_JAR"
fi

# The runner's own JVM: C1 alone and the serial collector; it parses, starts TLCs and waits (each
# TLC's JVM gets its own flags). exec: a signal reaches the JVM, whose shutdown hook ends its TLCs.
exec "$RUNNER_JAVA" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Dmodel-check.root="$ROOT" -jar "$RUN_JAR" "$@"
