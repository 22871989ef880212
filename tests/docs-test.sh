#!/usr/bin/env bash
# tests/docs-test.sh: the handbook's commands work as written. Every fenced block of README.md
# and docs/*.md whose info string is `sh runnable` is run, in a fresh clone of the committed tree
# in a temporary directory, the blocks of one file in order in one shell (so a `cd` or a variable
# carries to the next block, as it does for a reader), each under `set -e -o pipefail`. Blocks
# marked `sh long` are listed as skipped; unmarked blocks are not commands to run.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
  cat <<'USAGE'
Usage: tests/docs-test.sh [--keep] [--self-test] [FILE.md...]

Runs every ```sh runnable block of README.md and docs/*.md (or of the files named, paths
relative to the repository) in a fresh clone of the committed tree, in a temporary directory;
blocks marked ```sh long are skipped and listed.
  --keep        keep the temporary clone (its path is printed)
  DOCS_TEST_TIMEOUT=N  seconds the blocks of one file may take together (default 900)
  --self-test   show that a broken block is caught: a document with a failing command and one
                naming a missing file must each fail, naming the block; a good one must pass
Exit codes: 0 every block ran and exited 0; 1 a block failed (the file and line of the block
are named); 2 bad usage; 3 an environment problem (git, bash or the clone).
USAGE
}

keep=0; self_test=0; files=()
BLOCK_TIMEOUT=${DOCS_TEST_TIMEOUT:-900}   # seconds for the blocks of one file
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --keep) keep=1 ;;
    --self-test) self_test=1 ;;
    -*) echo "docs-test: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) files+=("$1") ;;
  esac
  shift
done

command -v git >/dev/null 2>&1 || { echo "docs-test: git not found" >&2; exit 3; }

# extract FILE.md OUT.sh: write a script running FILE's runnable blocks; print "skip FILE:LINE"
# for each long block. Each block is announced with its line, and a failure names it.
extract() {
  awk -v doc="$1" '
    BEGIN { inblock = 0 }
    /^```/ {
      if (inblock) { inblock = 0; next }
      info = substr($0, 4)
      if (info ~ /^sh[ \t]+runnable[ \t]*$/) { inblock = 1; printf "__block_start %s %d\n", doc, NR; next }
      if (info ~ /^sh[ \t]+long[ \t]*$/) { printf "echo \"docs-test: skipped (long) %s:%d\"\n", doc, NR }
      next
    }
    inblock { print }
  ' "$ROOT_DOCS/$1"
}

# run_doc FILE.md: run its runnable blocks in a fresh bash in the clone; 0 ok, 1 a block failed.
run_doc() {
  local doc=$1 script
  script=$(mktemp "$WORK/script.XXXXXX")
  {
    echo 'set -e -o pipefail'
    echo '__block_start() { __doc=$1; __line=$2; echo "docs-test: running $1:$2"; }'
    echo 'trap '\''echo "docs-test: FAILED $__doc:$__line (exit $?)" >&2'\'' ERR'
    extract "$doc"
  } > "$script"
  if ! grep -q '^__block_start ' "$script"; then
    return 0
  fi
  # A block that waits for something that never comes must fail, not stall the test command.
  (cd "$CLONE" && timeout "$BLOCK_TIMEOUT" bash "$script"); local rc=$?
  [ $rc -ne 124 ] || echo "docs-test: FAILED $doc: its blocks did not finish within ${BLOCK_TIMEOUT}s" >&2
  return $rc
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/docs-test.XXXXXX") || { echo "docs-test: cannot create a temporary directory" >&2; exit 3; }
cleanup() { if [ $keep -eq 1 ]; then echo "docs-test: kept $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT

if [ $self_test -eq 1 ]; then
  mkdir -p "$WORK/docs" "$WORK/clone"
  CLONE=$WORK/clone; ROOT_DOCS=$WORK/docs
  printf '# good\n\n```sh runnable\necho hello > greeting.txt\n```\n\n```sh runnable\ngrep -q hello greeting.txt\n```\n\n```sh long\nfalse\n```\n' > "$WORK/docs/good.md"
  printf '# failing\n\ntext\n\n```sh runnable\ntrue\nfalse\necho not reached\n```\n' > "$WORK/docs/failing.md"
  printf '# stalled\n\n```sh runnable\nsleep 30\n```\n' > "$WORK/docs/stalled.md"
  printf '# missing file\n\n```sh runnable\ncat no-such-file.txt\n```\n' > "$WORK/docs/missing.md"
  fail=0
  out=$(run_doc good.md 2>&1) && echo "$out" | grep -q "skipped (long) good.md:11" \
    && echo "docs-test self-test: good blocks pass, the long one is skipped: ok" \
    || { echo "docs-test self-test: the good document failed:"; echo "$out"; fail=1; }
  out=$(run_doc failing.md 2>&1); rc=$?
  if [ $rc -ne 0 ] && echo "$out" | grep -q "FAILED failing.md:5" && ! echo "$out" | grep -q "not reached"; then
    echo "docs-test self-test: a failing command is caught, naming failing.md:5: ok"
  else echo "docs-test self-test: a failing command not caught (exit $rc):"; echo "$out"; fail=1; fi
  out=$(run_doc missing.md 2>&1); rc=$?
  if [ $rc -ne 0 ] && echo "$out" | grep -q "FAILED missing.md:3"; then
    echo "docs-test self-test: a missing file is caught, naming missing.md:3: ok"
  else echo "docs-test self-test: a missing file not caught (exit $rc):"; echo "$out"; fail=1; fi
  out=$(BLOCK_TIMEOUT=2 run_doc stalled.md 2>&1); rc=$?
  if [ $rc -ne 0 ] && echo "$out" | grep -q "FAILED stalled.md: its blocks did not finish within 2s"; then
    echo "docs-test self-test: a block that never finishes is stopped and named: ok"
  else echo "docs-test self-test: a stalled block not caught (exit $rc):"; echo "$out"; fail=1; fi
  exit $fail
fi

if [ ${#files[@]} -eq 0 ]; then
  files=(README.md)
  for f in "$ROOT"/docs/*.md; do files+=("docs/$(basename "$f")"); done
fi
for f in "${files[@]}"; do
  [ -f "$ROOT/$f" ] || { echo "docs-test: $f: no such file" >&2; exit 2; }
done

CLONE=$WORK/clone
git clone -q "$ROOT" "$CLONE" 2>"$WORK/clone.log" || { echo "docs-test: git clone of $ROOT failed: $(cat "$WORK/clone.log")" >&2; exit 3; }
ROOT_DOCS=$CLONE
echo "docs-test: fresh clone of $(git -C "$CLONE" log -1 --format=%h) in $CLONE"
failed=0
for f in "${files[@]}"; do
  run_doc "$f" || failed=$((failed + 1))
done
if [ $failed -eq 0 ]; then echo "docs-test: every runnable block of ${#files[@]} file(s) ran: ok"; exit 0; fi
echo "docs-test: $failed file(s) with a failing block" >&2
exit 1
