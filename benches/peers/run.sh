#!/usr/bin/env bash
# Times bosweep's peers (BoTorch/GPyTorch, scikit-learn, SciPy, botorch-rust) on the work of
# `bosweep bench` and prints one markdown table with the peer/bosweep ratios. See README.md.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"

# Versions installed and timed (2026-11-25, CPython 3.11, x86_64 Linux). torch from PyPI: its
# Linux x86_64 wheel is the CUDA build (with nvidia-* wheels); PyPI has no CPU-only torch wheel
# for this platform.
PINS=(
  "torch==2.15.0"
  "gpytorch==1.15.2"
  "linear_operator==0.6.1"
  "botorch==0.18.1"
  "scikit-learn==1.9.1"
  "scipy==1.17.1"
  "numpy==2.4.6"
  "botorch-rust==0.3.0"
  "threadpoolctl==3.8.0"
)

usage() {
  cat <<EOF
Usage: benches/peers/run.sh [options]

Runs \`bosweep bench --preset PRESET --ops OPS --repeats N\`, then the same work in the peers
(benches/peers/peers.py, in a virtual environment this script makes), and prints a markdown table.

Options:
  --ops LIST        comma-separated operations: posterior, kde, gp-ucb-step
                    [default: posterior,kde,gp-ucb-step]
  --peers LIST      comma-separated peers: botorch, sklearn, scipy, botorch_rs [default: all]
  --device D        cpu or cuda: device of the torch-based peers (BoTorch, botorch-rust); with
                    cuda, bosweep runs with --device gpu [default: cpu]
  --preset P        quick, standard or large (bosweep's presets) [default: standard]
  --repeats N       timed calls after one warm-up call; the median is reported [default: 3]
  --limit S         seconds one peer call may take before its size is cut short (the warm-up
                    call alone is reported, larger gp-ucb-step sizes skipped) [default: 120]
  --threads T       threads of every pool (torch, BLAS/OpenMP, botorch-rust, bosweep's rayon)
                    [default: nproc]
  --omp-wait-policy P
                    OMP_WAIT_POLICY of the peers: passive (idle OpenMP workers sleep, as
                    rayon's do), active, or default (leave it unset: libgomp spins for a
                    while) [default: passive; see README.md]
  --out-dir DIR     where bosweep.txt, peers.json and table.md go
                    [default: benches/peers/results/<UTC time>]
  --no-build        use target/release/bosweep as it is (default: cargo build --release first,
                    a no-op when it is up to date); BOSWEEP_BIN=path uses that binary
  --no-install      use the virtual environment as it is
  -h, --help        this text

Environment: BOSWEEP_PEERS_VENV (virtual environment, default benches/peers/.venv),
PYTHON (interpreter that makes it, default python3, 3.11 or newer), BOSWEEP_BIN.
EOF
}

die() { echo "run.sh: error: $*" >&2; exit 1; }
need_value() { [[ $# -ge 2 && -n "$2" ]] || die "$1 needs a value (see --help)"; }

OPS="posterior,kde,gp-ucb-step"
PEERS="botorch,sklearn,scipy,botorch_rs"
DEVICE="cpu"
PRESET="standard"
REPEATS=3
LIMIT=120
THREADS=""
WAIT_POLICY="passive"
OUT_DIR=""
BUILD=1
INSTALL=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ops) need_value "$@"; OPS="$2"; shift 2 ;;
    --peers) need_value "$@"; PEERS="$2"; shift 2 ;;
    --device) need_value "$@"; DEVICE="$2"; shift 2 ;;
    --preset) need_value "$@"; PRESET="$2"; shift 2 ;;
    --repeats) need_value "$@"; REPEATS="$2"; shift 2 ;;
    --limit) need_value "$@"; LIMIT="$2"; shift 2 ;;
    --threads) need_value "$@"; THREADS="$2"; shift 2 ;;
    --omp-wait-policy) need_value "$@"; WAIT_POLICY="$2"; shift 2 ;;
    --out-dir) need_value "$@"; OUT_DIR="$2"; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    --no-install) INSTALL=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done

# Arguments.
for op in ${OPS//,/ }; do
  case "$op" in
    posterior|kde|gp-ucb-step) ;;
    *) die "--ops: unknown operation '$op' (expected posterior, kde, gp-ucb-step: the ones a peer can do)" ;;
  esac
done
for p in ${PEERS//,/ }; do
  case "$p" in
    botorch|sklearn|scipy|botorch_rs) ;;
    *) die "--peers: unknown peer '$p' (expected botorch, sklearn, scipy, botorch_rs)" ;;
  esac
done
case "$DEVICE" in
  cpu) BOSWEEP_DEVICE=cpu ;;
  cuda) BOSWEEP_DEVICE=gpu ;;
  *) die "--device: '$DEVICE' (expected cpu or cuda)" ;;
esac
case "$PRESET" in quick|standard|large) ;; *) die "--preset: '$PRESET' (expected quick, standard or large)" ;; esac
[[ "$REPEATS" =~ ^[1-9][0-9]*$ ]] || die "--repeats: '$REPEATS' (expected a positive integer)"
[[ "$LIMIT" =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--limit: '$LIMIT' (expected seconds)"
if [[ -z "$THREADS" ]]; then THREADS="$(nproc)"; fi
[[ "$THREADS" =~ ^[1-9][0-9]*$ ]] || die "--threads: '$THREADS' (expected a positive integer)"
case "$WAIT_POLICY" in
  passive|active) export OMP_WAIT_POLICY="${WAIT_POLICY^^}" ;;
  default) unset OMP_WAIT_POLICY ;;
  *) die "--omp-wait-policy: '$WAIT_POLICY' (expected passive, active or default)" ;;
esac
if [[ -z "$OUT_DIR" ]]; then OUT_DIR="$HERE/results/$(date -u +%Y%m%dT%H%M%SZ)"; fi

# Threads: one setting for every pool, peers and bosweep alike.
export BOSWEEP_PEERS_THREADS="$THREADS"
export OMP_NUM_THREADS="$THREADS" MKL_NUM_THREADS="$THREADS" OPENBLAS_NUM_THREADS="$THREADS"
export BLIS_NUM_THREADS="$THREADS" VECLIB_MAXIMUM_THREADS="$THREADS"
export NUMEXPR_NUM_THREADS="$THREADS" RAYON_NUM_THREADS="$THREADS"
export PYTHONWARNINGS="${PYTHONWARNINGS:-ignore::FutureWarning}"

# Python environment.
VENV="${BOSWEEP_PEERS_VENV:-$HERE/.venv}"
PY="$VENV/bin/python"
if [[ ! -x "$PY" ]]; then
  [[ "$INSTALL" == 1 ]] || die "--no-install: no virtual environment at $VENV"
  BASE_PY="${PYTHON:-python3}"
  command -v "$BASE_PY" >/dev/null || die "no '$BASE_PY' on PATH (set PYTHON to a Python 3.11+)"
  "$BASE_PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "$BASE_PY is $("$BASE_PY" -V 2>&1); the peers need Python 3.11 or newer"
  echo "run.sh: creating virtual environment $VENV" >&2
  "$BASE_PY" -m venv "$VENV" || die "python -m venv $VENV failed (Debian: apt-get install python3-venv)"
fi
STAMP="$VENV/.bosweep-peers-pins"
if [[ "$INSTALL" == 1 ]] && [[ ! -f "$STAMP" || "$(cat "$STAMP")" != "${PINS[*]}" ]]; then
  echo "run.sh: installing ${PINS[*]} (torch brings about 5 GiB of CUDA wheels)" >&2
  start=$SECONDS
  "$PY" -m pip install --disable-pip-version-check --quiet "${PINS[@]}" \
    || die "pip install failed (PyPI reachable? disk space: $(df -h "$VENV" | awk 'NR==2{print $4}') free)"
  echo "${PINS[*]}" >"$STAMP"
  echo "run.sh: installed in $((SECONDS - start)) s; $VENV is $(du -sh "$VENV" | cut -f1)" >&2
fi
"$PY" -c 'import torch, gpytorch, botorch, sklearn, scipy, numpy, botorch_rs, threadpoolctl' 2>/dev/null \
  || die "the virtual environment $VENV lacks a peer package (run without --no-install)"
if [[ "$DEVICE" == cuda ]]; then
  "$PY" -c 'import torch, sys; sys.exit(not torch.cuda.is_available())' \
    || die "--device cuda: torch sees no CUDA device"
fi

# bosweep.
if [[ -n "${BOSWEEP_BIN:-}" ]]; then
  BIN="$BOSWEEP_BIN"
elif [[ "$BUILD" == 1 ]]; then
  command -v cargo >/dev/null || die "no cargo on PATH (or pass --no-build / BOSWEEP_BIN)"
  echo "run.sh: cargo build --release --bin bosweep" >&2
  (cd "$ROOT" && cargo build --release --bin bosweep) || die "cargo build --release failed"
  BIN="$ROOT/target/release/bosweep"
else
  BIN="$ROOT/target/release/bosweep"
fi
[[ -x "$BIN" ]] || die "no bosweep binary at $BIN (build it: cargo build --release)"

mkdir -p "$OUT_DIR" || die "cannot create $OUT_DIR"
OUT_DIR="$(cd "$OUT_DIR" && pwd)"

echo "# bosweep vs peers: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -m), $(nproc) CPUs, threads $THREADS, OMP_WAIT_POLICY ${OMP_WAIT_POLICY:-unset}"
echo "# commit $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?'); load before: $(uptime | sed 's/.*load average/load average/')"
echo

# bosweep first, then the peers.
BOSWEEP_CMD=("$BIN" --device "$BOSWEEP_DEVICE" bench --preset "$PRESET" --ops "$OPS" --repeats "$REPEATS")
echo "run.sh: ${BOSWEEP_CMD[*]}" >&2
"${BOSWEEP_CMD[@]}" >"$OUT_DIR/bosweep.txt" || die "bosweep bench failed (see above)"
cat "$OUT_DIR/bosweep.txt" >&2

PEERS_CMD=("$PY" "$HERE/peers.py" measure --ops "$OPS" --peers "$PEERS" --device "$DEVICE"
           --preset "$PRESET" --repeats "$REPEATS" --limit "$LIMIT" --out "$OUT_DIR/peers.json")
echo "run.sh: ${PEERS_CMD[*]}" >&2
"${PEERS_CMD[@]}" || die "peers.py measure failed (see above)"

"$PY" "$HERE/peers.py" table --bosweep "$OUT_DIR/bosweep.txt" --peers "$OUT_DIR/peers.json" \
  >"$OUT_DIR/table.md" || die "peers.py table failed"
echo "load after: $(uptime | sed 's/.*load average: //')" >>"$OUT_DIR/table.md"
cat "$OUT_DIR/table.md"
echo
echo "run.sh: results in $OUT_DIR" >&2
