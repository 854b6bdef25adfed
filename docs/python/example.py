"""bosweep from Python, start to finish (docs/guide/python.md shows its output).

    pip install ./crates/python
    python docs/python/example.py
"""
import math
import tempfile

import numpy as np

import bosweep

rng = np.random.default_rng(0)

# 1. A GP fitted by MAP (BoTorch's priors) and its posterior over 200 000 candidates.
x = rng.random((40, 2))
y = np.sin(6 * x[:, 0]) * np.cos(4 * x[:, 1])
gp = bosweep.GP(x, y, kernel="matern52", fit="map")
print(gp)
mean, var = gp.predict(rng.random((200_000, 2)), device="auto")
print(f"posterior over {mean.size} candidates: mean in [{mean.min():.3f}, {mean.max():.3f}], "
      f"largest std {math.sqrt(var.max()):.3f}")

# 2. A KDE and a kernel regression over the same data.
density = bosweep.kde(x, x[:3], bandwidths=np.array([0.1, 0.1]), device="cpu")
nw_mean, log_w = bosweep.kernel_regression(x, y, x[:3], bandwidth=0.15, device="cpu")
print("KDE at the first 3 points:", np.round(density, 4))
print("Nadaraya-Watson mean there:", np.round(nw_mean, 4), "targets:", np.round(y[:3], 4))


# 3. Ask/tell: bosweep's UHE-BO on a function only Python knows (Branin, minimised).
def branin(p):
    a, b = p
    return ((b - 5.1 / (4 * math.pi**2) * a**2 + 5 / math.pi * a - 6) ** 2
            + 10 * (1 - 1 / (8 * math.pi)) * math.cos(a) + 10)


opt = bosweep.Optimizer("uhe-bo", bounds=[(-5, 10), (0, 15)], seed=1, init=5)
for _ in range(30):
    point = opt.ask()
    opt.tell(point, branin(point))
best = opt.recommend()
print(f"UHE-BO after 30 evaluations recommends {np.round(best, 3)}: "
      f"f = {branin(best):.4f} (optimum 0.3979)")

# 4. A whole run as `bosweep run` makes it: the trace, one dict per step.
trace = bosweep.run("gp-ucb", "hartmann6", budget=30, init=10, seed=1)
header, steps = trace[0]["header"], trace[1:]
print(f"{header['algorithm']} on {header['problem']}: simple regret "
      f"{steps[9]['simple_regret']:.3f} after the design, {steps[-1]['simple_regret']:.3f} at 30")

# 5. A sweep with a Python function as the objective (three replicates of two algorithms,
#    resumable like `bosweep sweep`), then every step as columns: pandas.DataFrame(table).

out = tempfile.mkdtemp(prefix="bosweep-example-")
done = bosweep.sweep(
    {
        "seed": 1,
        "replicates": 3,
        "budget": 25,
        "init": 5,
        "algorithm": [{"name": "gp-ucb"}, {"name": "random"}],
        "problem": [{"name": "callable", "function": branin, "bounds": "-5:10,0:15"}],
    },
    out=out,
    device="cpu",
    report=False,
)
table = bosweep.load_sweep(done["dir"])
last = table["evals"] == 25
for name in ("gp-ucb", "random"):
    best = table["best_value"][last & (np.array(table["algorithm"]) == name)]
    print(f"sweep, {name} on branin (a Python function): best value after 25 evaluations "
          f"{best.mean():.4f} (mean of {best.size} replicates)")

# 6. SBO-KDE's acquisition from a GP on (decision, context): the mean of the UCB over 256
#    context samples for 10 000 decisions at once.
xc = rng.random((60, 3))
gp = bosweep.GP(xc, np.sin(5 * xc[:, 0]) - (xc[:, 1] - xc[:, 2]) ** 2)
ucb = gp.pair_reduce(rng.random((10_000, 2)), rng.random((256, 1)), beta=2.0, reduction="mean")
print(f"mean UCB over 256 contexts at 10 000 decisions: best {ucb.max():.3f}")
