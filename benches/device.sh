#!/bin/bash
# The hardware-GPU check in one script, for a GPU machine without Rust or network (a cloud box,
# a cluster node): the library tests (every CPU/GPU parity test among them) with
# BOSWEEP_REQUIRE_GPU=1, `bosweep --device gpu bench --preset large`, and the sweep-throughput
# benchmark (benches/routing.sh) with every run of both sweeps on every configuration.
#
#   bash benches/device.sh prepare   # here: stripped binaries into target/device (about 50 MB)
#   bash benches/device.sh run       # there, from the repository root, target/device copied
#                                    # along; results in $OUT (default target/device-out)
#
# Where the machine has no Vulkan loader (`ldconfig -p | grep libvulkan` prints nothing), unpack
# one into / first (Debian's libvulkan1). DEVICE_TIMEOUT (default 240 s) bounds each part.
set -uo pipefail
case ${1:-} in
prepare)
    set -e
    cargo build --release
    mkdir -p target/device
    strip -o target/device/bosweep target/release/bosweep
    test=$(cargo test --test library --no-run --message-format=json 2>/dev/null |
        sed -n 's/.*"executable":"\([^"]*library-[^"]*\)".*/\1/p' | tail -1)
    strip -o target/device/library "$test"
    ls -la target/device
    ;;
run)
    OUT=${OUT:-target/device-out}
    T=${DEVICE_TIMEOUT:-240}
    mkdir -p "$OUT" target/release
    cp target/device/bosweep target/release/bosweep
    B=target/release/bosweep
    nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
    "$B" devices > "$OUT/devices.txt" 2>&1
    cat "$OUT/devices.txt"
    BOSWEEP_REQUIRE_GPU=1 timeout "$T" target/device/library --test-threads 4 \
        > "$OUT/library-tests.txt" 2>&1
    echo "library tests: exit $?, $(grep -E '^test result' "$OUT/library-tests.txt")"
    timeout "$T" "$B" --device gpu bench --preset large > "$OUT/bench-large.csv" \
        2> "$OUT/bench-large.log"
    echo "bench --preset large: exit $?"
    cat "$OUT/bench-large.csv"
    GPU_SHARD=1/1 timeout "$T" bash benches/routing.sh "$OUT/routing" > "$OUT/routing.txt" 2>&1
    echo "routing: exit $?"
    cat "$OUT/routing.txt"
    ;;
*)
    echo "usage: bash benches/device.sh prepare|run" >&2
    exit 2
    ;;
esac
