#!/usr/bin/env bash
# Distributed TLC on the loopback address: ./model-check.sh --distributed runs a model with one
# TLCServer and two TLCWorkers on 127.0.0.1 and must give the single-process verdict and the
# same number of distinct states.  Its broken twin: the same distributed run of a model that
# must fail (BugOffsetEarly), under a manifest row that wrongly expects a pass, must exit 1
# with the error TLC found: the distributed verdict can fail.
#
# Only 127.0.0.1 is used.  Where the script may create a network namespace (unshare -n, as root),
# the whole run happens inside one that has nothing but the loopback interface, so not even
# the RMI registry (which Java binds to every interface) is reachable from outside.
# Every TLC run has a timeout: a hang is a named failure.  About 45 s on 2 cores.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/target/distributed-tlc"
rm -rf "$OUT"; mkdir -p "$OUT"
MODEL=AlignedDiamond
fail=0

# The single-process verdict (this also resolves the TLC jar through Maven, before any namespace).
timeout 300 env MODEL_CHECK_OUT_DIR="$OUT/single" "$ROOT/model-check.sh" --model $MODEL --workers 1 >"$OUT/single.log" 2>&1
rc=$?
single=$(grep -E "^$MODEL," "$OUT/single/results.csv" 2>/dev/null | cut -d, -f4,7)
[ $rc -eq 0 ] && [ -n "$single" ] || { echo "distributed-tlc: the single-process run of $MODEL failed (exit $rc)"; cat "$OUT/single.log"; exit 1; }

# Runs model-check.sh --distributed with the given arguments, inside a loopback-only network
# namespace when one can be made.
if unshare -n true 2>/dev/null; then
  ISOLATION="a network namespace with only the loopback interface"
  distributed() { timeout 300 unshare -n sh -c 'ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up; exec "$@"' sh \
                    "$ROOT/model-check.sh" --distributed --workers-hosts 127.0.0.1,127.0.0.1 --server-host 127.0.0.1 "$@"; }
else
  ISOLATION="the host's network (no namespace allowed): server and workers still use only 127.0.0.1"
  PORT=$((20000 + $$ % 20000))
  distributed() { timeout 300 "$ROOT/model-check.sh" --distributed --workers-hosts 127.0.0.1,127.0.0.1 \
                    --server-host 127.0.0.1 --port $PORT "$@"; }
fi
echo "distributed-tlc: server and 2 workers on 127.0.0.1, in $ISOLATION"

MODEL_CHECK_OUT_DIR="$OUT/dist" distributed --model $MODEL >"$OUT/dist.log" 2>&1
rc=$?
dist=$(grep -E "^$MODEL," "$OUT/dist/results.csv" 2>/dev/null | cut -d, -f4,7)
if [ $rc -eq 0 ] && [ "$dist" = "$single" ]; then
  echo "distributed-tlc: $MODEL distributed = single-process (verdict,distinct states: $dist): ok"
else
  echo "distributed-tlc: $MODEL distributed gave '$dist' (exit $rc), single-process '$single'"; cat "$OUT/dist.log"; fail=1
fi

# The broken twin: a manifest that wrongly expects BugOffsetEarly to pass.
# MODEL_CHECK_MANIFEST's configs are paths under spec/: the row's config gets its folder.
awk -F'\t' -v OFS='\t' '/^[[:space:]]*(#|$)/ { print; next } $1 == "BugOffsetEarly" { $1 = "BugOffsetEarlyExpectedPass"; $3 = "aligned/" $3; $4 = "pass"; print }' \
  "$ROOT/spec/aligned/models.tsv" >"$OUT/twin.tsv"
MODEL_CHECK_MANIFEST="$OUT/twin.tsv" MODEL_CHECK_OUT_DIR="$OUT/twin" distributed --model BugOffsetEarlyExpectedPass >"$OUT/twin.log" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q -- '-> error-found,.*FAILED' "$OUT/twin.log"; then
  echo "distributed-tlc: twin (a failing model expected to pass) -> exit 1, TLC found the error: ok"
else
  echo "distributed-tlc: twin -> exit $rc, expected 1 with error-found"; cat "$OUT/twin.log"; fail=1
fi
exit $fail
