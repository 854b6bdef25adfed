#!/bin/bash
# The quick sweep side by side, one after the other: the CPU backend; the GPU for every call,
# each call on its own (BOSWEEP_COALESCE=off) and with concurrent runs' posterior calls
# coalesced (the default); the GPU routed by size with the default crossovers; the GPU routed by this machine's
# calibration (quick ladder); the CPU backend again. Prints each one's wall seconds and where
# its engine calls went. Run from the repository root after `cargo build --release`:
#
#   bash benches/routing.sh [OUT_DIR]      # default: target/routing-bench
#
# The calibration is stored under OUT_DIR/cache (BOSWEEP_CACHE_DIR), not the user's cache.
set -euo pipefail
B=target/release/bosweep
OUT=${1:-target/routing-bench}
export BOSWEEP_CACHE_DIR=$OUT/cache
rm -rf "$OUT" && mkdir -p "$OUT"
run() {
    local name=$1
    shift
    local start end
    start=$(date +%s.%N)
    "$B" "$@" sweep sweeps/quick.toml --out "$OUT/$name" > "$OUT/$name.log" 2>&1
    end=$(date +%s.%N)
    printf '%-18s %7.2f s  %s\n' "$name" "$(echo "$end - $start" | bc)" \
        "$(grep -o 'Engine calls[^.]*' "$OUT/$name/report.md" || true)"
}
run cpu --device cpu
BOSWEEP_COALESCE=off run gpu-each-call --device gpu
run gpu-coalesced --device gpu
run routed-default --device gpu --route auto
"$B" --device gpu calibrate --ladder quick > "$OUT/calibration.csv" 2> "$OUT/calibration.log"
cat "$OUT/calibration.log"
run routed-calibrated --device gpu --route auto
run cpu-again --device cpu
