# tests/lib/tools-build.sh: sourced by the test scripts that run the tools' and the engine's
# classes (trace validation, spec-to-engine replay). Builds them with Maven only when they are
# missing or older than a source: in the test command the first step has just built them, and a
# second up-to-date Maven build still costs a JVM, the plugins' checks and a new shaded jar.

# tools_stale FILE...: 0 if a FILE is missing or a Java source or pom of the engine, the model
# checker or the tools is newer than the first FILE (the newest build output the caller reads).
tools_stale() {
  local f
  for f in "$@"; do [ -f "$f" ] || return 0; done
  [ -n "$(find "$ROOT/reference-impl/src" "$ROOT/tools/src" "$ROOT/model-checker/src" \
            "$ROOT/pom.xml" "$ROOT/reference-impl/pom.xml" "$ROOT/tools/pom.xml" "$ROOT/model-checker/pom.xml" \
            -newer "$1" -print -quit 2>/dev/null)" ]
}

# tools_build LOG: the tools and what they need (jar, classes and test classes; tests not run),
# output to LOG. 3 (environment) if Maven is missing or the build fails.
tools_build() {
  command -v mvn >/dev/null 2>&1 || { echo "$(basename "$0"): mvn not found: install Maven 3.8+" >&2; return 3; }
  echo "--- building the tools and the engine (jar, classes and test classes; tests not run) ---"
  (cd "$ROOT" && mvn -B -q -ntp -DskipTests package -pl tools -am) >"$1" 2>&1 \
    || { cat "$1" >&2; echo "$(basename "$0"): build failed (above)" >&2; return 3; }
}

# tools_archive JAR TRAIN...: sets TOOLS_SHARE to the JVM flag that maps a class-data archive of
# JAR's classes (a dynamic CDS archive, as TLC's: docs/spec.md), made once per java and jar by one
# run of `java -cp JAR TRAIN...` and put in place only after `java -Xshare:on` mapped it; empty
# (the JVM starts without it) where it cannot be made, or with MODEL_CHECK_CDS=off. For commands
# run with `-cp JAR` alone: another class path does not match the archive.
tools_archive() {
  local jar=$1; shift
  TOOLS_SHARE=()
  [ "${MODEL_CHECK_CDS:-}" != off ] || return 0
  local java key dir archive tmp
  java=$(readlink -f "$(command -v java)") || return 0
  key=$(printf '%s|%s|%s' "$java" "$(readlink -f "$jar")" "$(stat -c %s-%Y "$jar" "$java" 2>/dev/null | tr '\n' ' ')" | cksum | cut -d' ' -f1)
  dir="$(dirname "$jar")/cds"; archive="$dir/tools-$key.jsa"
  if [ ! -f "$archive" ] && [ ! -f "$archive.none" ]; then
    mkdir -p "$dir" && tmp=$(mktemp -d "$dir/train.XXXXXX") || return 0
    if java -XX:ArchiveClassesAtExit="$tmp/tools.jsa" -XX:TieredStopAtLevel=1 -cp "$jar" "$@" >"$tmp/run.log" 2>&1 \
        && java -Xshare:on -XX:SharedArchiveFile="$tmp/tools.jsa" -cp "$jar" -version >>"$tmp/run.log" 2>&1; then
      mv -f "$tmp/tools.jsa" "$archive"
    else
      mv -f "$tmp/run.log" "$archive.none"   # tried once: the reason, and the JVM starts without it
    fi
    rm -rf "$tmp"
  fi
  [ -f "$archive" ] && TOOLS_SHARE=(-XX:SharedArchiveFile="$archive")
  return 0
}
