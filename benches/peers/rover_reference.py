"""The 60-D rover trajectory problem (Wang et al. 2018, "Batched Large-scale Bayesian
Optimization in High-dimensional Spaces", the large domain as TuRBO and later papers run it)
computed with numpy and scipy at fixed inputs: the reference values of the `rover` tests
(tests/library/rover.rs) and of the spline module's unit test
(crates/problems/src/rover/spline.rs), printed as Rust literals.

    python3 -m venv /tmp/rovervenv && /tmp/rovervenv/bin/pip install scipy==1.17.1 numpy==2.4.6
    /tmp/rovervenv/bin/python benches/peers/rover_reference.py

The recipe is the reference code's (zi-w/Ensemble-Bayesian-Optimization,
test_functions/rover_function.py and rover_utils.py): `create_large_domain(force_start=False,
force_goal=False, start_miss_cost=l2cost, goal_miss_cost=l2cost)` with
`l2cost(x, p) = 10 * ||x - p||_1`, wrapped by `ConstantOffsetFn(domain, 5.0)`. The 30 points are
fitted by `splprep(points, k=3)` (scipy's defaults: chord-length parameters, s = m - sqrt(2m)),
the curve is evaluated at 1000 equally spaced parameters, and each sample costs 20 inside one of
the 113 tree boxes or outside the unit square, plus 0.05 everywhere. The reference adds
N(0, 1e-4) noise to the parameters before fitting; here, as in bosweep, that jitter is off.

Each case's comment gives fp0 (the residual of the least-squares cubic polynomial curve:
scipy's fp for a huge s) against s, and the number of knots of the fit: 8 knots is that
polynomial; more means FITPACK added knots and searched for the smoothing parameter. Inside the
box fp0 <= 30 * 2 * 0.6**2 = 21.6 < s = 22.25 always (the constant curve at the points' mean
already fits that well), so the cases that take the knot-adding branch lie outside the box.
"""

import warnings

import numpy as np
from scipy.interpolate import make_lsq_spline, splev, splprep

CENTRES = np.array([
    [0.43143755, 0.20876147],
    [0.38485367, 0.39183579],
    [0.02985961, 0.22328303],
    [0.7803707, 0.3447003],
    [0.93685657, 0.56297285],
    [0.04194252, 0.23598362],
    [0.28049582, 0.40984475],
    [0.6756053, 0.70939481],
    [0.01926493, 0.86972335],
    [0.5993437, 0.63347932],
    [0.57807619, 0.40180792],
    [0.56824287, 0.75486851],
    [0.35403502, 0.38591056],
    [0.72492026, 0.59969313],
    [0.27618746, 0.64322757],
    [0.54029566, 0.25492943],
    [0.30903526, 0.60166842],
    [0.2913432, 0.29636879],
    [0.78512072, 0.62340245],
    [0.29592116, 0.08400595],
    [0.87548394, 0.04877622],
    [0.21714791, 0.9607346],
    [0.92624074, 0.53441687],
    [0.53639253, 0.45127928],
    [0.99892031, 0.79537837],
    [0.84621631, 0.41891986],
    [0.39432819, 0.06768617],
    [0.92365693, 0.72217512],
    [0.95520914, 0.73956575],
    [0.820383, 0.53880139],
    [0.22378049, 0.9971974],
    [0.34023233, 0.91014706],
    [0.64960636, 0.35661133],
    [0.29976464, 0.33578931],
    [0.43202238, 0.11563227],
    [0.66764947, 0.52086962],
    [0.45431078, 0.94582745],
    [0.12819915, 0.33555344],
    [0.19287232, 0.8112075],
    [0.61214791, 0.71940626],
    [0.4522542, 0.47352186],
    [0.95623345, 0.74174186],
    [0.17340293, 0.89136853],
    [0.04600255, 0.53040724],
    [0.42493468, 0.41006649],
    [0.37631485, 0.88033853],
    [0.66951947, 0.29905739],
    [0.4151516, 0.77308712],
    [0.55762991, 0.26400156],
    [0.6280609, 0.53201974],
    [0.92727447, 0.61054975],
    [0.93206587, 0.42107549],
    [0.63885574, 0.37540613],
    [0.15303425, 0.57377797],
    [0.8208471, 0.16566631],
    [0.14889043, 0.35157346],
    [0.71724622, 0.57110725],
    [0.32866327, 0.8929578],
    [0.74435871, 0.47464421],
    [0.9252026, 0.21034329],
    [0.57039306, 0.54356078],
    [0.56611551, 0.02531317],
    [0.84830056, 0.01180542],
    [0.51282028, 0.73916524],
    [0.58795481, 0.46527371],
    [0.83259048, 0.98598188],
    [0.00242488, 0.83734691],
    [0.72505789, 0.04846931],
    [0.07312971, 0.30147979],
    [0.55250344, 0.23891255],
    [0.51161315, 0.46466442],
    [0.802125, 0.93440495],
    [0.9157825, 0.32441602],
    [0.44927665, 0.53380074],
    [0.67708372, 0.67527231],
    [0.81868924, 0.88356194],
    [0.48228814, 0.88668497],
    [0.39805433, 0.99341196],
    [0.86671752, 0.79016975],
    [0.01115417, 0.6924913],
    [0.34272199, 0.89543756],
    [0.40721675, 0.86164495],
    [0.26317679, 0.37334193],
    [0.74446787, 0.84782643],
    [0.55560143, 0.46405104],
    [0.73567977, 0.12776233],
    [0.28080322, 0.26036748],
    [0.17507419, 0.95540673],
    [0.54233783, 0.1196808],
    [0.76670967, 0.88396285],
    [0.61297539, 0.79057776],
    [0.9344029, 0.86252764],
    [0.48746839, 0.74942784],
    [0.18657635, 0.58127321],
    [0.10377802, 0.71463978],
    [0.7771771, 0.01463505],
    [0.7635042, 0.45498358],
    [0.83345861, 0.34749363],
    [0.38273809, 0.51890558],
    [0.33887574, 0.82842507],
    [0.02073685, 0.41776737],
    [0.68754547, 0.96430979],
    [0.4704215, 0.92717361],
    [0.72666234, 0.63241306],
    [0.48494401, 0.72003268],
    [0.52601215, 0.81641253],
    [0.71426732, 0.47077212],
    [0.00258906, 0.30377501],
    [0.35495269, 0.98585155],
    [0.65507544, 0.03458909],
    [0.10550588, 0.62032937],
    [0.60259145, 0.87110846],
    [0.04959159, 0.535785],
])
LOW = CENTRES - 0.025
HIGH = CENTRES + 0.025
START = np.array([0.05, 0.05])
GOAL = np.array([0.95, 0.95])
SAMPLES = 1000


def fit(points):
    """splprep with its defaults, as the reference calls it; also fp0, s, fp, ier and the
    number of knots."""
    m = len(points)
    s = m - np.sqrt(2 * m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, fp0, _, _ = splprep(points.T, k=3, s=1e300, full_output=1)
        (tck, u), fp, ier, _ = splprep(points.T, k=3, full_output=1)
    return tck, u, {"fp0": fp0, "s": s, "fp": fp, "ier": ier, "knots": len(tck[0])}


def path_value(samples):
    """5 minus the cost of the sampled path: the trapezoidal integral of the sample costs plus
    the start and goal misses."""
    in_tree = ((LOW[None] <= samples[:, None]) & (samples[:, None] < HIGH[None])).all(axis=2)
    in_square = ((0.0 <= samples) & (samples < 1.0)).all(axis=1)
    costs = 20.0 * (in_tree.any(axis=1) | ~in_square) + 0.05
    lengths = np.linalg.norm(samples[1:] - samples[:-1], axis=1)
    total = np.sum(lengths * 0.5 * (costs[:-1] + costs[1:]))
    total += 10 * np.linalg.norm(samples[0] - START, 1)
    total += 10 * np.linalg.norm(samples[-1] - GOAL, 1)
    return -total + 5.0


def rover(x):
    tck, _, info = fit(x.reshape(-1, 2))
    samples = np.vstack(splev(np.linspace(0, 1.0, SAMPLES, endpoint=True), tck)).T
    return path_value(samples), info


def rover_with_repeats(x):
    """The value where consecutive points repeat, which splprep refuses (its chord-length
    parameters must increase strictly: ier = 10): the least-squares cubic polynomial curve on
    the same, repeating, parameters, the limit of the reference's jittered fit. Valid only where
    fp0 <= s, which holds for every point of the box."""
    points = x.reshape(-1, 2)
    chords = np.sqrt(np.sum(np.diff(points, axis=0) ** 2, axis=1))
    u = np.concatenate([[0.0], np.cumsum(chords)])
    u = u / u[-1]
    knots = np.r_[[0.0] * 4, [1.0] * 4]
    curve = make_lsq_spline(u, points, knots, k=3)
    fp0 = np.sum((curve(u) - points) ** 2)
    m = len(points)
    assert fp0 <= m - np.sqrt(2 * m)
    samples = curve(np.linspace(0, 1.0, SAMPLES, endpoint=True))
    return path_value(samples), fp0


def rover_lowest_degree(x):
    """The value where the points form fewer than four runs of equal points, which splprep
    refuses and whose jittered fit has no limit: bosweep's convention, the polynomial of lowest
    degree through the runs' points at their chord-length parameters."""
    points = x.reshape(-1, 2)
    chords = np.sqrt(np.sum(np.diff(points, axis=0) ** 2, axis=1))
    u = np.concatenate([[0.0], np.cumsum(chords)])
    if u[-1] > 0:
        u = u / u[-1]
    first = np.r_[True, np.diff(u) != 0]
    coefficients = np.polyfit(u[first], points[first], first.sum() - 1)
    parameters = np.linspace(0, 1.0, SAMPLES, endpoint=True)
    samples = np.vstack([np.polyval(coefficients[:, d], parameters) for d in range(2)]).T
    return path_value(samples), first.sum()


def literal(values):
    return "[" + ", ".join(repr(float(v)) for v in values) + "]"


def case(name, x, value, note):
    print(f"    // {note}")
    print(f'    ("{name}", {literal(x)}, {float(value)!r}),')


rng = np.random.default_rng(2018)
cases = [(f"uniform {i}", rng.uniform(-0.1, 1.1, 60)) for i in range(5)]
cases.append(("straight line", np.linspace(START, GOAL, 30).ravel()))
corners = np.array([[-0.1, -0.1], [1.1, -0.1], [1.1, 1.1], [-0.1, 1.1]])
cases.append(("box corners", np.resize(corners, (30, 2)).ravel()))
cases.append(("alternating corners", np.resize(corners[[0, 2, 1, 3]], (30, 2)).ravel()))
revisits = np.array([[0.1, 0.2], [0.8, 0.3], [0.5, 0.9]])
cases.append(("revisited points", np.resize(revisits, (30, 2)).ravel()))
# Outside the box: fp0 > s, so FITPACK adds knots.
theta = np.linspace(0, 4 * np.pi, 30)
circle = np.c_[0.5 + 1.5 * np.cos(theta), 0.5 + 1.5 * np.sin(theta)]
cases.append(("double circle", circle.ravel()))
wave = np.c_[np.linspace(-3, 4, 30), 3 * np.sin(np.linspace(0, 3 * np.pi, 30))]
cases.append(("sine wave", wave.ravel()))
cases.append(("square loop", np.resize([[-1.0, -1.0], [2, -1], [2, 2], [-1, 2]], (30, 2)).ravel()))
cases.append(("zigzag", np.resize([[-2.0, -2.0], [3, 3]], (30, 2)).ravel()))
cases.append(("wide uniform", np.random.default_rng(2).uniform(-5, 6, 60)))

print("// benches/peers/rover_reference.py: (name, x, value)")
print("const CASES: &[(&str, [f64; 60], f64)] = &[")
for name, x in cases:
    value, info = rover(x)
    note = (f"fp0 = {info['fp0']:.6f}, s = {info['s']:.6f}: {info['knots']} knots, "
            f"fp = {info['fp']:.6f}, ier = {info['ier']}")
    case(name, x, value, note)
# Fifteen points, each twice in a row: splprep refuses them; the polynomial on repeating
# parameters, checked against splprep with every second copy nudged by 1e-9.
doubled = np.repeat(np.resize(revisits, (15, 2)) + np.linspace(0, 0.1, 15)[:, None], 2, axis=0)
value, fp0 = rover_with_repeats(doubled.ravel())
nudged, _ = rover((doubled + 1e-9 * (np.arange(30) % 2)[:, None]).ravel())
note = f"fp0 = {fp0:.6f}; splprep with every second copy nudged by 1e-9: {float(nudged)!r}"
case("consecutive repeats", doubled.ravel(), value, note)
# Fewer than four runs of equal points: the point, the segment, the parabola.
for name, runs, counts in [
    ("thirty equal points", [[0.5, 0.3]], [30]),
    ("two runs", [[0.2, 0.1], [0.9, 0.7]], [10, 20]),
    ("three runs", [[0.1, 0.3], [0.6, 0.95], [0.9, 0.4]], [5, 20, 5]),
]:
    x = np.repeat(runs, counts, axis=0).ravel()
    value, count = rover_lowest_degree(x)
    case(name, x, value, f"{count} run(s) of equal points: the polynomial of degree {count - 1}")
print("];")

# One smoothing fit for the spline module's test: knots, coefficients, parameters and fp.
(t, c, k), u, info = fit(wave)
print()
print(f"// the sine wave: splprep(points, k=3), {info['knots']} knots, ier = {info['ier']}")
print(f"const KNOTS: [f64; {len(t)}] = {literal(t)};")
print(f"const COEFFICIENTS: [[f64; {len(t) - 4}]; 2] = [")
print(f"    {literal(c[0][: len(t) - 4])},")
print(f"    {literal(c[1][: len(t) - 4])},")
print("];")
print(f"const POINTS: [f64; 60] = {literal(wave.ravel())};")
print(f"const PARAMETERS: [f64; 30] = {literal(u)};")
print(f"const FP: f64 = {info['fp']!r};")
