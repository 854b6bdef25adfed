"""Seconds per iteration vs t for the BOKE cost study (standard library only):

    python3 docs/papers/boke_seconds.py /tmp/boke-seconds \
        [--svg docs/papers/boke/seconds-vs-t.svg]

Reads every trace under <dir>/runs/*.jsonl (the sweep sweeps/papers/boke-seconds.toml).
Per algorithm: the seconds of each optimisation step (model_seconds + acq_seconds) against the
data-set size t at that step (iter - 1), smoothed by a running median over 51 steps (the box is
shared, so single steps are noisy); the smoothed value at t = 250, 500, 1000, 2000; and the
growth exponent, the least-squares slope of log(seconds) on log(t) over the smoothed curve for
t >= 200 (and for t >= 1000). Writes a log-log SVG plot.
"""
import json
import math
import sys
from pathlib import Path

WINDOW = 25
FIT_FROM = 200
REPORT_AT = (250, 500, 1000, 2000)
COLOURS = {"boke": "#1f77b4", "boke-plus": "#2ca02c", "kr-ucb": "#d62728", "gp-ucb-fixed": "#9467bd"}


def load(directories):
    curves = {}
    for directory in directories:
        for path in sorted(Path(directory, "runs").glob("*.jsonl*")):
            lines = [json.loads(line) for line in path.open()]
            algo = lines[0]["header"]["algorithm"]
            algo = algo["name"] if isinstance(algo, dict) else algo
            steps = [(r["iter"] - 1, r["model_seconds"] + r["acq_seconds"])
                     for r in lines[1:] if r.get("phase") == "opt"]
            curves[algo] = steps
    return curves


def smooth(steps):
    out = []
    for i, (t, _) in enumerate(steps):
        window = sorted(s for _, s in steps[max(0, i - WINDOW): i + WINDOW + 1])
        out.append((t, window[len(window) // 2]))
    return out


def slope(points, start=FIT_FROM):
    xs = [math.log(t) for t, s in points if t >= start and s > 0]
    ys = [math.log(s) for t, s in points if t >= start and s > 0]
    if len(xs) < 2:
        return float("nan")
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def svg(curves, path):
    width, height, left, right, top, bottom = 760, 460, 70, 230, 40, 50
    ts = [t for c in curves.values() for t, s in c if s > 0]
    ss = [s for c in curves.values() for t, s in c if s > 0]
    lx0, lx1 = math.log10(min(ts)), math.log10(max(ts)) + 0.02
    ly0, ly1 = math.floor(math.log10(min(ss))), math.ceil(math.log10(max(ss)))

    def px(t):
        return left + (math.log10(t) - lx0) / (lx1 - lx0) * (width - left - right)

    def py(s):
        return height - bottom - (math.log10(s) - ly0) / (ly1 - ly0) * (height - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="22" font-size="14">Seconds per iteration vs t '
           '(Goldstein–Price log, CPU backend, 1 thread)</text>']
    ticks = [m * 10 ** e for e in range(0, 6) for m in (1, 2, 5) if lx0 <= math.log10(m * 10 ** e) <= lx1]
    for t in ticks:
        x = px(t)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - bottom}" stroke="#ddd"/>')
        out.append(f'<text x="{x - 10:.1f}" y="{height - bottom + 18}">{t}</text>')
    for e in range(ly0, ly1 + 1):
        y = py(10 ** e)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 40}" y="{y + 4:.1f}">1e{e}</text>')
    out.append(f'<text x="{(width - right) / 2}" y="{height - 12}">t (observations)</text>')
    out.append(f'<text x="14" y="{top + 200}" transform="rotate(-90 14 {top + 200})">seconds per iteration</text>')
    # Reference slopes through the end of the lowest curve's start: ∝ t and ∝ t².
    t0, t1 = 10 ** lx0, 10 ** (lx1 - 0.02)
    s0 = 10 ** (ly0 + 0.3)
    for power, name in ((1, "∝ t"), (2, "∝ t²")):
        s1 = s0 * (t1 / t0) ** power
        if s1 > 10 ** ly1:
            t1p = t0 * (10 ** ly1 / s0) ** (1 / power)
            s1 = 10 ** ly1
        else:
            t1p = t1
        out.append(f'<line x1="{px(t0):.1f}" y1="{py(s0):.1f}" x2="{px(t1p):.1f}" y2="{py(s1):.1f}" '
                   'stroke="#888" stroke-dasharray="5,4"/>')
        out.append(f'<text x="{px(t1p) - 30:.1f}" y="{py(s1) + 14:.1f}" fill="#666">{name}</text>')
    for i, (algo, points) in enumerate(sorted(curves.items())):
        colour = COLOURS.get(algo, "black")
        d = " ".join(f"{px(t):.1f},{py(s):.1f}" for t, s in points if s > 0)
        out.append(f'<polyline points="{d}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
        y = top + 20 + 20 * i
        out.append(f'<line x1="{width - right + 10}" y1="{y}" x2="{width - right + 30}" y2="{y}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{width - right + 35}" y="{y + 4}">{algo} (slope {slope(points):.2f})</text>')
    out.append(f'<text x="{width - right + 10}" y="{top + 120}" fill="#666">slope: log-log fit, t ≥ {FIT_FROM}</text>')
    out.append(f'<text x="{width - right + 10}" y="{top + 138}" fill="#666">curves: running median, {2 * WINDOW + 1} steps</text>')
    out.append("</svg>")
    Path(path).write_text("\n".join(out) + "\n")


def main(argv):
    target = "docs/papers/boke/seconds-vs-t.svg"
    if "--svg" in argv:
        i = argv.index("--svg")
        target = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    curves = {algo: smooth(steps) for algo, steps in load(argv).items()}
    print("| algorithm | max t | " + " | ".join(f"s/iter at t={t}" for t in REPORT_AT)
          + f" | slope (t ≥ {FIT_FROM}) | slope (t ≥ 1000) |")
    print("|---|---|" + "---|" * len(REPORT_AT) + "---|---|")
    for algo, points in sorted(curves.items()):
        at = dict(points)
        # The last step of a budget-2000 run has t = 1999 observations.
        near = [at.get(t, at.get(t - 1)) for t in REPORT_AT]
        cells = [f"{v:.3g}" if v is not None else "–" for v in near]
        print(f"| {algo} | {points[-1][0]} | " + " | ".join(cells)
              + f" | {slope(points):.2f} | {slope(points, 1000):.2f} |")
    svg(curves, target)
    print(f"wrote {target}")


if __name__ == "__main__":
    main(sys.argv[1:])
