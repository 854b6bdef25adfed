#!/usr/bin/env python3
"""Tables and SVG plots for the PE-GP-UCB paper sweeps (standard library only).

    python3 docs/papers/pe-gp-ucb-analysis.py SWEEP_DIR OUT_PREFIX [TRUE_PRIOR_LABEL]

Reads SWEEP_DIR/runs/*.jsonl (bosweep traces) and writes OUT_PREFIX-regret.svg (cumulative
regret vs step, mean ± standard error over seeds; -regret-gp.svg without random search), OUT_PREFIX-survivors.svg (surviving priors
vs step for the eliminating methods) and prints a markdown table: final cumulative regret,
share of steps selecting each method's most used prior and the true prior, surviving priors.
"""

import collections
import glob
import json
import math
import sys

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#7f7f7f", "#9467bd", "#8c564b"]


def load(sweep):
    runs = collections.defaultdict(list)
    for path in sorted(glob.glob(f"{sweep}/runs/*.jsonl")):
        with open(path) as f:
            lines = [json.loads(l) for l in f]
        header, steps = lines[0]["header"], lines[1:]
        params = header["algorithm_parameters"]
        label = header["algorithm"]
        extra_keys = [k for k in ("beta_scale", "delta") if k in params and params[k] != {"beta_scale": 1, "delta": 0.1}[k]]
        if extra_keys:
            label += "[" + ",".join(f"{k}={params[k]}" for k in extra_keys) + "]"
        runs[label].append(steps)
    return runs


def mean_se(values):
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, 0.0
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return m, math.sqrt(var / n)


def curves(runs, key):
    out = {}
    for label, traces in runs.items():
        length = min(len(t) for t in traces)
        out[label] = [mean_se([key(t[i]) for t in traces]) for i in range(length)]
    return out


def svg(curves_by_label, title, ylabel, path):
    w, h, left, right, top, bottom = 640, 400, 60, 170, 30, 40
    xs = max(len(c) for c in curves_by_label.values())
    ymax = max(m + s for c in curves_by_label.values() for m, s in c) or 1.0
    ymin = min(0.0, min(m - s for c in curves_by_label.values() for m, s in c))
    sx = lambda i: left + (w - left - right) * i / max(xs - 1, 1)
    sy = lambda v: top + (h - top - bottom) * (1 - (v - ymin) / (ymax - ymin))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<text x="{w / 2 - 100}" y="18" font-size="14">{title}</text>',
             f'<line x1="{left}" y1="{sy(ymin)}" x2="{w - right}" y2="{sy(ymin)}" stroke="black"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{h - bottom}" stroke="black"/>',
             f'<text x="{w / 2 - 30}" y="{h - 8}">step t</text>',
             f'<text x="12" y="{top + 10}" >{ylabel}</text>']
    for k in range(5):
        v = ymin + (ymax - ymin) * k / 4
        parts.append(f'<text x="{left - 45}" y="{sy(v) + 4}">{v:.3g}</text>')
    for k in range(5):
        i = round((xs - 1) * k / 4)
        parts.append(f'<text x="{sx(i) - 8}" y="{h - bottom + 15}">{i + 1}</text>')
    for n, (label, c) in enumerate(sorted(curves_by_label.items())):
        colour = COLOURS[n % len(COLOURS)]
        upper = " ".join(f"{sx(i):.1f},{sy(m + s):.1f}" for i, (m, s) in enumerate(c))
        lower = " ".join(f"{sx(i):.1f},{sy(m - s):.1f}" for i, (m, s) in reversed(list(enumerate(c))))
        parts.append(f'<polygon points="{upper} {lower}" fill="{colour}" fill-opacity="0.2" stroke="none"/>')
        line = " ".join(f"{sx(i):.1f},{sy(m):.1f}" for i, (m, _) in enumerate(c))
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<line x1="{w - right + 10}" y1="{top + 20 * n}" x2="{w - right + 30}" y2="{top + 20 * n}" stroke="{colour}" stroke-width="3"/>')
        parts.append(f'<text x="{w - right + 35}" y="{top + 20 * n + 4}">{label}</text>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts))


def main():
    sweep, prefix = sys.argv[1], sys.argv[2]
    true_prior = sys.argv[3] if len(sys.argv) > 3 else None
    runs = load(sweep)
    regret = curves(runs, lambda s: s["cumulative_regret"])
    svg(regret, "cumulative regret (mean ± s.e.)", "R_t", f"{prefix}-regret.svg")
    zoom = {k: v for k, v in regret.items() if k != "random"}
    svg(zoom, "cumulative regret without random (mean ± s.e.)", "R_t", f"{prefix}-regret-gp.svg")
    eliminating = {k: v for k, v in runs.items() if k.startswith(("pe-gp-ucb", "regret-balancing"))}
    survivors = curves(eliminating, lambda s: len(s["extra"]["surviving_priors"]))
    svg(survivors, "surviving priors (mean ± s.e.)", "|U_t|", f"{prefix}-survivors.svg")
    print("| algorithm | runs | R_T mean | s.e. | R_T / T | most selected prior (share) | true prior share | surviving priors at T |")
    print("|---|--:|--:|--:|--:|---|--:|--:|")
    for label in sorted(runs):
        traces = runs[label]
        final = [t[-1]["cumulative_regret"] for t in traces]
        m, se = mean_se(final)
        length = len(traces[0])
        selected = collections.Counter(s["extra"].get("selected_label") for t in traces for s in t)
        total = sum(selected.values())
        if None in selected:
            top, share_true, surv = "—", "—", "—"
        else:
            p, c = selected.most_common(1)[0]
            top = f"{p} ({c / total:.2f})"
            share_true = "—" if true_prior is None else f"{selected[true_prior] / total:.2f}"
            sv = [len(t[-1]["extra"]["surviving_priors"]) for t in traces]
            surv = f"{sum(sv) / len(sv):.1f}"
            if true_prior is not None and not label.startswith("oracle"):
                lost = sum(1 for t in traces if int(true_prior.split()[-1]) not in t[-1]["extra"]["surviving_priors"])
                surv += f" (true prior eliminated in {lost})"
        print(f"| `{label}` | {len(traces)} | {m:.2f} | {se:.2f} | {m / length:.3f} | {top} | {share_true} | {surv} |")
    hist = {label: collections.Counter(s["extra"].get("selected_label") for t in traces for s in t)
            for label, traces in runs.items()}
    print()
    print("Selected-prior shares (all steps and seeds):")
    print()
    for label in sorted(hist):
        if None in hist[label]:
            continue
        total = sum(hist[label].values())
        shares = ", ".join(f"{p}: {c / total:.2f}" for p, c in sorted(hist[label].items()) if c / total >= 0.005)
        print(f"- `{label}`: {shares}")


if __name__ == "__main__":
    main()
