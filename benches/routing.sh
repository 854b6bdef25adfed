#!/bin/bash
# Sweep throughput on each engine configuration, one after the other, for two sweeps: the quick
# sweep (80 small runs) and benches/bbob-d10.toml (256 runs of two GP methods in 10-D, budget
# 100). The configurations: the CPU backend; the GPU for every call, each call on its own
# (BOSWEEP_COALESCE=off) and with concurrent runs' calls coalesced (the default); the GPU routed
# by size with the default crossovers, with and without coalescing; the GPU routed by this
# machine's calibration (quick ladder); the CPU backend again. Prints each one's runs, wall
# seconds, runs per second, the GPU's calls and passes over the device per run, and where the
# engine calls went. Run from the repository root after `cargo build --release`:
#
#   bash benches/routing.sh [OUT_DIR]      # default: target/routing-bench
#
# SWEEPS (default "quick bbob") picks the sweeps. GPU_SHARD (default 1/64) is the share of the BBOB sweep that the every-call-on-the-GPU
# configurations run: on lavapipe all 256 runs would take hours. Use GPU_SHARD=1/1 on a real
# GPU. THREADS (default: one per core) sets the runs in flight. The calibration is stored under
# OUT_DIR/cache (BOSWEEP_CACHE_DIR), not the user's cache.
set -euo pipefail
B=target/release/bosweep
OUT=${1:-target/routing-bench}
GPU_SHARD=${GPU_SHARD:-1/64}
THREADS=${THREADS:-}
SWEEPS=${SWEEPS:-quick bbob}
export BOSWEEP_CACHE_DIR=$OUT/cache
rm -rf "$OUT" && mkdir -p "$OUT"
printf '%-26s %5s %9s %8s %18s  %s\n' configuration runs seconds 'runs/s' 'GPU calls/passes' \
    'engine calls (report)'
# run NAME CONFIG SHARD BOSWEEP-ARGS...: one sweep (SHARD "all" or k/n), timed.
run() {
    local name=$1 config=$2 shard=$3
    shift 3
    local args=(sweep "$config" --out "$OUT/$name")
    [[ $shard != all ]] && args+=(--shard "$shard")
    [[ -n $THREADS ]] && args+=(--threads "$THREADS")
    local start end seconds runs gpu
    start=$(date +%s.%N)
    "$B" "$@" "${args[@]}" > "$OUT/$name.log" 2>&1
    end=$(date +%s.%N)
    seconds=$(echo "$end - $start" | bc)
    runs=$(grep -o '[0-9]* completed now' "$OUT/$name.log" | cut -d' ' -f1)
    gpu=$(sed -n 's/.*the GPU ran \([0-9]*\) calls in \([0-9]*\) passes.*/\1 \2/p' "$OUT/$name.log")
    if [[ -n $gpu ]]; then
        gpu=$(echo "$gpu $runs" | awk '{printf "%.1f / %.1f", $1 / $3, $2 / $3}')
    else
        gpu=-
    fi
    printf '%-26s %5s %9.2f %8.2f %18s  %s\n' "$name" "$runs" "$seconds" \
        "$(echo "$runs / $seconds" | bc -l)" "$gpu" \
        "$(grep -o 'Engine calls[^.]*' "$OUT/$name/report.md" || true)"
}
Q=sweeps/quick.toml
if [[ $SWEEPS == *quick* ]]; then
run quick-cpu $Q all --device cpu
BOSWEEP_COALESCE=off run quick-gpu-each-call $Q all --device gpu
run quick-gpu-coalesced $Q all --device gpu
BOSWEEP_COALESCE=off run quick-routed $Q all --device gpu --route auto
run quick-routed-coalesced $Q all --device gpu --route auto
"$B" --device gpu calibrate --ladder quick > "$OUT/calibration.csv" 2> "$OUT/calibration.log"
grep -v XDG_RUNTIME "$OUT/calibration.log" || true
run quick-routed-calibrated $Q all --device gpu --route auto
run quick-cpu-again $Q all --device cpu
fi
F=benches/bbob-d10.toml
S=${GPU_SHARD/\//of}
if [[ $SWEEPS == *bbob* ]]; then
run "bbob-cpu-$S" $F "$GPU_SHARD" --device cpu
BOSWEEP_COALESCE=off run "bbob-gpu-each-call-$S" $F "$GPU_SHARD" --device gpu
run "bbob-gpu-coalesced-$S" $F "$GPU_SHARD" --device gpu
run bbob-cpu $F all --device cpu
BOSWEEP_COALESCE=off run bbob-routed $F all --device gpu --route auto
run bbob-routed-coalesced $F all --device gpu --route auto
fi
