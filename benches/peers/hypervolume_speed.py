"""moocore's hypervolume against bosweep's on the same points, timed the same way.

    pip install numpy==2.4.6 moocore==0.3.2
    python benches/peers/hypervolume_speed.py            # builds and runs bosweep's side too
    python benches/peers/hypervolume_speed.py --no-build # moocore only

The points are those of `crates/core/examples/hypervolume_speed.rs`: n points on the positive
orthant of the unit sphere in m objectives (mutually non-dominated), from the Kronecker
sequence frac((i + 1/2)·√p) over the first primes p, each point divided by its norm; the
reference point is 1.1 in every objective. Sizes: 10⁴ points in 2 and 3 objectives, 10³ in 4 and
5, 300 in 6. Both sides compute the same floating-point operations in the same order, so the
points are identical and the hypervolumes agree to rounding, which the table checks.

Timing, on both sides: one untimed call, then calls until two seconds have passed (at least 5,
at most 1000); the median. moocore's time includes its Python call (converting the NumPy array
and checking it), a few microseconds; bosweep's is the Rust call alone, validation included.
Prints a markdown table: the sizes, both hypervolumes, both median times and their ratio.
"""

import argparse
import math
import subprocess
import time

import moocore
import numpy as np

SIZES = [(2, 10_000), (3, 10_000), (4, 1_000), (5, 1_000), (6, 300)]
PRIMES = [2.0, 3.0, 5.0, 7.0, 11.0, 13.0, 17.0, 19.0]
REFERENCE = 1.1


def sphere(n, m):
    """The example's points, in its order of operations."""
    rows = []
    for i in range(n):
        u = [math.modf((i + 0.5) * math.sqrt(p))[0] for p in PRIMES[:m]]
        squares = 0.0
        for x in u:
            squares += x * x
        norm = math.sqrt(squares)
        rows.append([x / norm for x in u])
    return np.array(rows)


def median_seconds(call):
    call()
    seconds = []
    started = time.perf_counter()
    while len(seconds) < 5 or (time.perf_counter() - started < 2.0 and len(seconds) < 1000):
        t = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - t)
    seconds.sort()
    return seconds[len(seconds) // 2]


def bosweep_side():
    """Runs the Rust example (built in release) and reads its lines."""
    command = ["cargo", "run", "--quiet", "--release", "-p", "bosweep-core"]
    out = subprocess.run(
        [*command, "--example", "hypervolume_speed"], check=True, capture_output=True, text=True
    ).stdout
    results = {}
    for line in out.splitlines():
        fields = dict(field.split("=") for field in line.split())
        results[(int(fields["m"]), int(fields["n"]))] = (
            float(fields["hypervolume"]),
            float(fields["seconds"]),
        )
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-build", action="store_true", help="time moocore only")
    args = parser.parse_args()
    ours = {} if args.no_build else bosweep_side()
    print(f"moocore {moocore.__version__}, numpy {np.__version__}\n")
    print("| m | n | hypervolume (moocore) | moocore (ms) | bosweep (ms) | bosweep / moocore |")
    print("|---|---|---|---|---|---|")
    for m, n in SIZES:
        points = sphere(n, m)
        ref = np.full(m, REFERENCE)
        volume = float(moocore.hypervolume(points, ref=ref))
        seconds = median_seconds(lambda: moocore.hypervolume(points, ref=ref))
        if (m, n) in ours:
            their_volume, their_seconds = ours[(m, n)]
            assert abs(their_volume - volume) <= 1e-12 * volume, (m, n, their_volume, volume)
            cells = f"{their_seconds * 1e3:.3f} | {their_seconds / seconds:.2f}"
        else:
            cells = "– | –"
        print(f"| {m} | {n} | {volume:.12f} | {seconds * 1e3:.3f} | {cells} |")


if __name__ == "__main__":
    main()
