"""Writes fraud_standin.csv, the shipped stand-in for the Kaggle credit-card fraud data of the
RAHBO paper's random-forest task (Makarova et al. 2021, App. A.7), which cannot be shipped or
downloaded.

Like the original: time-ordered transactions over two days, features V1..V28 and Amount, a rare
fraud class whose signature drifts over time (so time-shifted validation folds disagree). Smaller
(1500 rows) and with about 6% fraud instead of 0.2%, so that each of the 5 folds has a few frauds.
Deterministic: python3 make_fraud_standin.py > fraud_standin.csv
"""
import math
import random

rng = random.Random(20210621)
N, FRAUD_RATE, DAY = 1500, 0.06, 86400.0
SHIFT = [-2.8, 2.3, -2.0, 1.6, -1.3, 1.1, 0.7, -0.5]

rows = []
for _ in range(N):
    t = rng.uniform(0.0, 2.0 * DAY)
    night = 0.5 + 0.5 * math.cos(2.0 * math.pi * t / DAY)  # more fraud around midnight
    fraud = rng.random() < FRAUD_RATE * (0.5 + night)
    drift = 0.6 + 0.8 * t / (2.0 * DAY)  # the fraud signature strengthens over the two days
    v = [rng.gauss(0.0, 1.0) for _ in range(28)]
    if fraud:
        for j, s in enumerate(SHIFT):
            v[j] += s * drift * rng.uniform(0.5, 1.5)
        v[8] = 0.5 * v[0] + 0.5 * rng.gauss(0.0, 1.0)
    amount = math.exp(rng.gauss(3.5 if not fraud else 4.2, 1.0))
    rows.append((t, v, amount, int(fraud)))

rows.sort(key=lambda r: r[0])
print("time," + ",".join(f"v{j + 1}" for j in range(28)) + ",amount,class")
for t, v, amount, c in rows:
    print(f"{t:.0f}," + ",".join(f"{x:.2f}" for x in v) + f",{amount:.2f},{c}")
