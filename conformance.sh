#!/usr/bin/env bash
# conformance.sh: real Flink 2.3.0 jobs on a MiniCluster with traced user functions, each run
# judged from the Java side (the cut of every completed checkpoint, the output) and by TLC
# (docs/conformance.md). Builds the conformance module if needed, then runs it from
# conformance/target/classes plus the class path Maven wrote (Flink does not shade well).
# Exit codes: 0 accepted, 1 a run rejected (or a broken twin not caught), 2 usage, 3 environment.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"


command -v java >/dev/null 2>&1 || { echo "conformance.sh: java not found: install a JDK 17+" >&2; exit 3; }
command -v mvn >/dev/null 2>&1 || { echo "conformance.sh: mvn not found: install Maven 3.8+" >&2; exit 3; }

cp_file=conformance/target/classpath.txt
stamp=conformance/target/built.stamp
newest_src=""
# Built when a source is newer than the last build: this script's stamp, or else the class path
# file that Maven's package phase writes (a `mvn verify` of the whole project, as in the test
# command, builds the module too; rebuilding it then would rewrite tools.jar under the steps that
# run beside this one).
ref=$stamp
[ -f "$ref" ] || ref=$cp_file
[ -f "$ref" ] && newest_src=$(find conformance/src/main tools/src/main reference-impl/src/main conformance/pom.xml -newer "$ref" \( -name '*.java' -o -name pom.xml \) 2>/dev/null | head -1)
if [ ! -f "$ref" ] || [ ! -f "$cp_file" ] || [ -n "$newest_src" ]; then
  mkdir -p conformance/target
  echo "conformance.sh: building the conformance module (mvn package, tests skipped)" >&2
  mvn -B -q -ntp -pl conformance -am package -DskipTests >conformance/target/build.log 2>&1 \
    || { echo "conformance.sh: build failed, see conformance/target/build.log" >&2; tail -20 conformance/target/build.log >&2; exit 3; }
  touch "$stamp"
fi
mkdir -p target/conformance
# Flink logs to a file, warnings and up: the terminal shows the verdicts alone.
exec java -Xmx1g -XX:+UseSerialGC \
  -Dorg.slf4j.simpleLogger.logFile=target/conformance/flink.log -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "conformance/target/classes:$(cat "$cp_file")" dev.consistentcut.conformance.Main "$@"
