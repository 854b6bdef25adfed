#!/usr/bin/env bash
# Where a GP method's step goes (docs/engine/performance.md, "Per-step costs"): one run each of
# ei, logei, qlognei, turbo and uhe-bo on BBOB f15 (Rastrigin, instance 1) in 10-D and 20-D, 200
# evaluations after 2·d design points, then the table of benches/step_profile.py (the steps at
# n = 190-199 against their floating-point floors).
#
#   bash benches/step_profile.sh [OUT_DIR]        (default target/step-profile)
set -euo pipefail
out=${1:-target/step-profile}
mkdir -p "$out"
cargo build --release -q
bin=target/release/bosweep
for dim in 10 20; do
  for algo in ei logei qlognei turbo uhe-bo; do
    start=$(date +%s%N)
    "$bin" --device cpu run --algo "$algo" --problem bbob --problem-param dim="$dim" \
      --problem-param function=15 --budget 200 --init $((2 * dim)) --seed 1 \
      --out "$out/$algo-d$dim.jsonl" 2>/dev/null
    python3 -c "print(($(date +%s%N) - $start) / 1e9)" > "$out/$algo-d$dim.seconds"
  done
done
"${PYTHON:-target/pyenv/bin/python}" benches/step_profile.py "$out"
