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
