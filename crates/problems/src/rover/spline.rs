//! The smoothing spline curve scipy's `splprep(points, k=3)` fits through planar points, with
//! its defaults (chord-length parameters, unit weights, `s = m − √(2m)`), and its evaluation
//! (`splev`).
//!
//! The rover problem is defined by that curve, so its values depend on FITPACK's exact
//! procedure: its parameters, where it puts knots, and the smoothing parameter its rational
//! iteration stops at. No Rust crate reproduces `splprep`: `splinefit` (0.4.1) offers FITPACK's
//! `curfit`, `concur` and `clocur` but not `parcur` (`concur` fits end-point derivative
//! constraints with other code, `fpcons`), and `rusty-fitpack` has only `splrep`. This module is
//! therefore a port of Dierckx's `parcur` with `iopt = 0` (its driver `fppara` and the routines it
//! calls: `fpbspl`, `fpgivs`, `fprota`, `fpback`, `fpknot`, `fpdisc`, `fprati`) and of `splev`,
//! for cubic planar curves, following FITPACK's operations in their order so that the results
//! agree with scipy's to rounding. Weights are all 1 (scipy's default), so FITPACK's
//! multiplications by them are left out: they are exact.
//!
//! FITPACK first fits the least-squares cubic polynomial curve (knots 0, 0, 0, 0, 1, 1, 1, 1). If
//! its residual sum `fp0` exceeds `s`, it adds knots (each in the knot interval with the largest
//! residual sum, at a data parameter) until the least-squares spline's residual falls below `s`,
//! then finds the smoothing parameter `p` at which the penalised fit (the jumps of the third
//! derivative at the interior knots, weighted by `1/p`) has residual `s` within `0.001·s`.

/// The spline degree (`k = 3`).
const K: usize = 3;
/// The number of B-splines that are non-zero at a point, FITPACK's `k1`.
const K1: usize = K + 1;
/// The bandwidth of the smoothing system, FITPACK's `k2`.
const K2: usize = K + 2;
/// The knots of the polynomial curve: `k + 1` at each end and none inside.
const NMIN: usize = 2 * K1;
/// The relative tolerance on `|fp − s|` (parcur's `tol`). FITPACK writes it, like the step
/// factors below, as a single-precision literal (`0.1e-02`), so its value in double precision is
/// the float's, not 0.001's; scipy's compiled FITPACK holds these widened floats.
const TOL: f64 = 0.001_f32 as f64;
/// The iterations allowed for the smoothing parameter (parcur's `maxit`).
const MAXIT: usize = 20;
/// fppara's `con1`, `con9` and `con4`: the factors by which `p` moves while it does not yet
/// bracket the root.
const CON1: f64 = 0.1_f32 as f64;
const CON9: f64 = 0.9_f32 as f64;
const CON4: f64 = 0.04_f32 as f64;

/// A point of the plane.
pub(super) type Point = [f64; 2];

/// A planar cubic spline curve on `[0, 1]` in B-spline form.
#[derive(Debug)]
pub(super) struct Curve {
    knots: Vec<f64>,
    /// One coefficient per B-spline (`knots.len() − 4`) for each coordinate.
    coefficients: [Vec<f64>; 2],
}

impl Curve {
    /// The curve `splprep(points, k=3)` fits through `points` (at least one).
    ///
    /// Two kinds of input that scipy refuses get a curve too. Consecutive equal points (scipy
    /// needs strictly increasing parameters) are fitted as they are, with equal parameters: the
    /// limit of fits to ever closer points. Where the points form fewer than four runs of equal
    /// points (or are fewer than four: scipy needs more than k), the cubic least-squares curve is
    /// not unique, as every cubic through the runs' points at their parameters fits exactly; the
    /// curve is then the one of lowest degree: the point, the segment, or the parabola.
    pub(super) fn smoothing(points: &[Point]) -> Self {
        let u = chord_parameters(points);
        let runs: Vec<(f64, Point)> = u
            .iter()
            .zip(points)
            .enumerate()
            .filter(|&(i, (v, _))| i == 0 || *v != u[i - 1])
            .map(|(_, (&v, &p))| (v, p))
            .collect();
        if runs.len() > K {
            Fitter::new(points, u).fit()
        } else {
            Self::polynomial(lowest_degree(&runs))
        }
    }

    /// The cubic polynomial curve on `[0, 1]` with Bézier control points `control`: its B-spline
    /// coefficients on the knots 0, 0, 0, 0, 1, 1, 1, 1.
    fn polynomial(control: [Point; K1]) -> Self {
        Self {
            knots: vec![0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0],
            coefficients: [0, 1].map(|d| control.iter().map(|p| p[d]).collect()),
        }
    }

    /// The point at parameter `x` (`splev`, extrapolating beyond `[0, 1]`).
    pub(super) fn at(&self, x: f64) -> Point {
        let t = &self.knots;
        let nk1 = t.len() - K1;
        let l = knot_interval(t, nk1, x);
        let h = basis(t, l, x);
        self.coefficients.each_ref().map(|c| {
            let mut sp = 0.0;
            for (j, hj) in h.iter().enumerate() {
                sp += c[l - K + j] * hj;
            }
            sp
        })
    }
}

/// The cubic Bézier control points of the polynomial of lowest degree through one, two or three
/// `(parameter, point)` pairs whose parameters run from 0 to 1: the constant, the segment, or
/// the parabola with control points `a, m, c` that passes through the middle point `b` at its
/// parameter `v`, raised to degree 3.
fn lowest_degree(runs: &[(f64, Point)]) -> [Point; K1] {
    let (_, a) = runs[0];
    let (_, c) = runs[runs.len() - 1];
    let m = match runs {
        [_] => return [a; K1],
        [_, _] => [0, 1].map(|d| 0.5 * (a[d] + c[d])),
        _ => {
            let (v, b) = runs[1];
            let w = 1.0 - v;
            [0, 1].map(|d| (b[d] - a[d] * w * w - c[d] * v * v) / (2.0 * v * w))
        }
    };
    let third = |end: Point| [0, 1].map(|d| (end[d] + 2.0 * m[d]) / 3.0);
    [a, third(a), third(c), c]
}

/// parcur's parameters (`ipar = 0`): cumulative chord lengths over their total; all 0 where the
/// total is 0 (equal points).
fn chord_parameters(points: &[Point]) -> Vec<f64> {
    let mut u = Vec::with_capacity(points.len());
    u.push(0.0);
    for pair in points.windows(2) {
        let (dx, dy) = (pair[1][0] - pair[0][0], pair[1][1] - pair[0][1]);
        let last = u[u.len() - 1];
        u.push(last + (dx * dx + dy * dy).sqrt());
    }
    let total = u[u.len() - 1];
    if total != 0.0 {
        for v in &mut u[1..] {
            *v /= total;
        }
    }
    u
}

/// The knot interval `t[l] <= x < t[l + 1]` (0-based `l` in `K..nk1`), the last one for `x` at or
/// beyond its end: the interval FITPACK's searches settle on for sorted knots.
fn knot_interval(t: &[f64], nk1: usize, x: f64) -> usize {
    let mut l = K;
    while l + 1 < nk1 && x >= t[l + 1] {
        l += 1;
    }
    l
}

/// The `K + 1` B-splines that are non-zero at `x` in knot interval `l` (fpbspl: de Boor and Cox's
/// recurrence, with scipy's guard that gives zero weight across coincident knots).
fn basis(t: &[f64], l: usize, x: f64) -> [f64; K1] {
    let mut h = [0.0; K1];
    h[0] = 1.0;
    for j in 1..=K {
        let hh = h;
        h[0] = 0.0;
        for i in 1..=j {
            let (li, lj) = (l + i, l + i - j);
            if t[li] == t[lj] {
                h[i] = 0.0;
                continue;
            }
            let f = hh[i - 1] / (t[li] - t[lj]);
            h[i - 1] += f * (t[li] - x);
            h[i] = f * (x - t[lj]);
        }
    }
    h
}

/// The Givens rotation that zeroes `piv` against the diagonal element `ww` (fpgivs); `ww`
/// becomes the rotated element. Returns `(cos, sin)`.
fn givens(piv: f64, ww: &mut f64) -> (f64, f64) {
    let store = piv.abs();
    let dd = if store >= *ww {
        let r = *ww / piv;
        store * (1.0 + r * r).sqrt()
    } else {
        let r = piv / *ww;
        *ww * (1.0 + r * r).sqrt()
    };
    let rotation = (*ww / dd, piv / dd);
    *ww = dd;
    rotation
}

/// Applies a Givens rotation to the pair `(a, b)` (fprota).
fn rotate((cos, sin): (f64, f64), a: &mut f64, b: &mut f64) {
    let (old_a, old_b) = (*a, *b);
    *b = cos * old_b + sin * old_a;
    *a = cos * old_a - sin * old_b;
}

/// Solves `R c = z` in place (`c` holds `z` on entry) for the upper triangular `R` of bandwidth
/// `W` stored by rows in its first `n` rows (fpback).
fn back_substitute<const W: usize>(r: &[[f64; W]], n: usize, c: &mut [f64]) {
    c[n - 1] /= r[n - 1][0];
    for i in (0..n - 1).rev() {
        let mut store = c[i];
        for l in 1..=(W - 1).min(n - 1 - i) {
            store -= c[i + l] * r[i][l];
        }
        c[i] = store / r[i][0];
    }
}

/// The root of the rational function `(u·p + v)/(p + w)` through `(p1, f1)`, `(p2, f2)` and
/// `(p3, f3)` (`p3 ≤ 0` standing for infinity), after which the bracket `f1 > 0 > f3` is narrowed
/// by `(p2, f2)` (fprati).
fn rational_root(
    (p1, f1): (&mut f64, &mut f64),
    (p2, f2): (f64, f64),
    (p3, f3): (&mut f64, &mut f64),
) -> f64 {
    let p = if *p3 > 0.0 {
        let h1 = *f1 * (f2 - *f3);
        let h2 = f2 * (*f3 - *f1);
        let h3 = *f3 * (*f1 - f2);
        -(*p1 * p2 * h3 + p2 * *p3 * h1 + *p3 * *p1 * h2) / (*p1 * h1 + p2 * h2 + *p3 * h3)
    } else {
        (*p1 * (*f1 - *f3) * f2 - p2 * (f2 - *f3) * *f1) / ((*f1 - f2) * *f3)
    };
    if f2 < 0.0 {
        (*p3, *f3) = (p2, f2);
    } else {
        (*p1, *f1) = (p2, f2);
    }
    p
}

/// fppara's state: the data, the knots so far, and the triangularised systems.
struct Fitter<'a> {
    x: &'a [Point],
    u: Vec<f64>,
    s: f64,
    /// The knots of the interpolating spline, `m + k + 1`, where knot adding stops. (splprep's
    /// storage bound `nest = m + 2k` lies beyond it, so FITPACK's `ier = 1` never occurs.)
    nmax: usize,
    /// The number of knots in use.
    n: usize,
    t: Vec<f64>,
    /// The rotated right-hand sides of the least-squares system, per coordinate.
    z: [Vec<f64>; 2],
    /// The B-spline coefficients, per coordinate.
    c: [Vec<f64>; 2],
    /// The triangularised observation matrix of the least-squares spline.
    a: Vec<[f64; K1]>,
    /// The jumps of the B-splines' third derivatives at the interior knots (fpdisc).
    b: Vec<[f64; K2]>,
    /// `a` extended by the rows of `b`, triangularised for the current `p`.
    g: Vec<[f64; K2]>,
    /// The non-zero B-splines at each data parameter.
    q: Vec<[f64; K1]>,
    /// The residual sum in each knot interval.
    fpint: Vec<f64>,
    /// The number of data parameters strictly inside each knot interval.
    nrdata: Vec<usize>,
}

impl<'a> Fitter<'a> {
    fn new(x: &'a [Point], u: Vec<f64>) -> Self {
        let m = x.len();
        let nmax = m + K1;
        let mf = m as f64;
        Self {
            x,
            u,
            s: mf - (2.0 * mf).sqrt(),
            nmax,
            n: NMIN,
            t: vec![0.0; nmax],
            z: [vec![0.0; nmax], vec![0.0; nmax]],
            c: [vec![0.0; nmax], vec![0.0; nmax]],
            a: vec![[0.0; K1]; nmax],
            b: vec![[0.0; K2]; nmax],
            g: vec![[0.0; K2]; nmax],
            q: vec![[0.0; K1]; m],
            fpint: vec![0.0; nmax],
            nrdata: vec![0; nmax],
        }
    }

    /// fppara with `iopt = 0`, `s > 0`: knots are added while the least-squares spline's
    /// residual exceeds `s`; then, unless the least-squares polynomial already fits within `s`,
    /// the smoothing parameter is searched for.
    fn fit(mut self) -> Curve {
        let m = self.x.len();
        let acc = TOL * self.s;
        let (mut fp0, mut fpold, mut nplus) = (0.0, 0.0, 0_usize);
        self.nrdata[0] = m - 2;
        // Each pass adds a knot, or returns, or leaves for the smoothing; at n = nmax the knots
        // become the interpolation knots and the next pass ends it. (FITPACK bounds the passes
        // by m, which they never reach: n grows from 8 to at most m + 4.)
        let fpms = loop {
            let polynomial = self.n == NMIN;
            let nrint = self.n - NMIN + 1;
            let fp = self.least_squares();
            if polynomial {
                fp0 = fp;
            }
            let fpms = fp - self.s;
            if fpms.abs() < acc {
                return self.curve();
            }
            if fpms < 0.0 {
                break fpms;
            }
            if self.n == self.nmax {
                return self.curve();
            }
            nplus = if polynomial {
                1
            } else {
                let mut npl1 = nplus * 2;
                if fpold - fp > acc {
                    // Fortran's conversion truncates; `as` also saturates, and maps NaN to 0.
                    npl1 = (nplus as f64 * fpms / (fpold - fp)) as usize;
                }
                (nplus * 2).min(npl1.max(nplus / 2).max(1))
            };
            fpold = fp;
            self.interval_residuals(nrint);
            let mut nrint = nrint;
            for _ in 0..nplus {
                if !self.add_knot(&mut nrint) {
                    return self.curve();
                }
                if self.n == self.nmax {
                    self.interpolation_knots();
                    break;
                }
            }
        };
        if self.n == NMIN {
            return self.curve();
        }
        self.smooth(fp0, fpms, acc);
        self.curve()
    }

    /// The least-squares spline for the current knots: builds the observation matrix row by row,
    /// rotating each row into the triangle `a`, and solves for the coefficients. Returns the
    /// residual sum `fp`.
    fn least_squares(&mut self) -> f64 {
        let (n, nk1) = (self.n, self.n - K1);
        for j in 0..K1 {
            self.t[j] = 0.0;
            self.t[n - 1 - j] = 1.0;
        }
        for z in &mut self.z {
            z.fill(0.0);
        }
        self.a[..nk1].fill([0.0; K1]);
        let mut fp = 0.0;
        let mut l = K;
        for (it, (&ui, point)) in self.u.iter().zip(self.x).enumerate() {
            let mut xi = *point;
            while !(ui < self.t[l + 1] || l == nk1 - 1) {
                l += 1;
            }
            let mut h = basis(&self.t, l, ui);
            self.q[it] = h;
            for i in 0..K1 {
                let row = l - K + i;
                let piv = h[i];
                if piv == 0.0 {
                    continue;
                }
                let rotation = givens(piv, &mut self.a[row][0]);
                for (x, z) in xi.iter_mut().zip(&mut self.z) {
                    rotate(rotation, x, &mut z[row]);
                }
                for (hi, ai) in h[i + 1..].iter_mut().zip(&mut self.a[row][1..]) {
                    rotate(rotation, hi, ai);
                }
            }
            fp += xi[0] * xi[0];
            fp += xi[1] * xi[1];
        }
        for (c, z) in self.c.iter_mut().zip(&self.z) {
            c[..nk1].copy_from_slice(&z[..nk1]);
            back_substitute(&self.a, nk1, c);
        }
        fp
    }

    /// The squared residual of data point `it` under the current coefficients, the B-splines at
    /// its parameter taken from `q` with coefficients from `offset`.
    fn residual(&self, it: usize, offset: usize) -> f64 {
        let mut term = 0.0;
        for (c, x) in self.c.iter().zip(self.x[it]) {
            let mut fac = 0.0;
            for (j, qj) in self.q[it].iter().enumerate() {
                fac += c[offset + j] * qj;
            }
            let r = fac - x;
            term += r * r;
        }
        term
    }

    /// The residual sums of the `nrint` knot intervals, into `fpint`: a data point on an interior
    /// knot counts half to each side.
    fn interval_residuals(&mut self, nrint: usize) {
        let nk1 = self.n - K1;
        let (mut fpart, mut i, mut next) = (0.0, 0, K1);
        for it in 0..self.x.len() {
            let new = !(self.u[it] < self.t[next] || next >= nk1);
            if new {
                next += 1;
            }
            let term = self.residual(it, next - K1);
            fpart += term;
            if new {
                let store = term * 0.5;
                self.fpint[i] = fpart - store;
                i += 1;
                fpart = store;
            }
        }
        self.fpint[nrint - 1] = fpart;
    }

    /// The residual sum `f(p)` of the current (smoothing) coefficients.
    fn residual_sum(&self) -> f64 {
        let nk1 = self.n - K1;
        let (mut fp, mut next) = (0.0, K1);
        for it in 0..self.x.len() {
            if !(self.u[it] < self.t[next] || next >= nk1) {
                next += 1;
            }
            fp += self.residual(it, next - K1);
        }
        fp
    }

    /// Adds one knot at a data parameter near the middle of the knot interval with the largest
    /// residual sum among those with data inside (fpknot, `istart = 1`). `false`, where no
    /// interval has both, leaves the knots as they are: FITPACK has no answer there (it would
    /// read an unset interval).
    fn add_knot(&mut self, nrint: &mut usize) -> bool {
        let mut fpmax = 0.0;
        let mut chosen = None;
        let mut jbegin = 1;
        for j in 1..=*nrint {
            let jpoint = self.nrdata[j - 1];
            if !(fpmax >= self.fpint[j - 1] || jpoint == 0) {
                fpmax = self.fpint[j - 1];
                chosen = Some((j, jpoint, jbegin));
            }
            jbegin += jpoint + 1;
        }
        let Some((number, maxpt, maxbeg)) = chosen else {
            return false;
        };
        let ihalf = maxpt / 2 + 1;
        let nrx = maxbeg + ihalf;
        let next = number + 1;
        for jj in (next..=*nrint).rev() {
            self.fpint[jj] = self.fpint[jj - 1];
            self.nrdata[jj] = self.nrdata[jj - 1];
            self.t[jj + K] = self.t[jj + K - 1];
        }
        self.nrdata[number - 1] = ihalf - 1;
        self.nrdata[next - 1] = maxpt - ihalf;
        let am = maxpt as f64;
        self.fpint[number - 1] = fpmax * self.nrdata[number - 1] as f64 / am;
        self.fpint[next - 1] = fpmax * self.nrdata[next - 1] as f64 / am;
        self.t[next + K - 1] = self.u[nrx - 1];
        self.n += 1;
        *nrint += 1;
        true
    }

    /// The interior knots of the interpolating spline (`n = m + k + 1`), where knot adding ends
    /// up: for odd `k`, the data parameters but the first and last two.
    fn interpolation_knots(&mut self) {
        let interior = self.x.len() - K1;
        self.t[K1..K1 + interior].copy_from_slice(&self.u[2..2 + interior]);
    }

    /// The jumps of the B-splines' third derivatives at the interior knots, into `b`, scaled by
    /// the mean knot interval (fpdisc). Written with FITPACK's 1-based indices.
    fn discontinuity_jumps(&mut self) {
        let t = |i: usize| self.t[i - 1];
        let (n, k1, k2, k) = (self.n, K1, K2, K);
        let nk1 = n - k1;
        let nrint = nk1 - k;
        let fac = nrint as f64 / (t(nk1 + 1) - t(k1));
        let mut h = [0.0; 2 * K1 + 1];
        for l in k2..=nk1 {
            let lmk = l - k1;
            for j in 1..=k1 {
                h[j] = t(l) - t(l + j - k2);
                h[j + k1] = t(l) - t(l + j);
            }
            for (j, lp) in (1..=k2).zip(lmk..) {
                let mut prod = h[j];
                for hk in &h[j + 1..=j + k] {
                    prod = prod * hk * fac;
                }
                self.b[lmk - 1][j - 1] = (t(lp + k1) - t(lp)) / prod;
            }
        }
    }

    /// The smoothing spline: the rows of `b`, weighted by `1/p`, are rotated into the least-squares
    /// triangle, and `p` is moved by rational interpolation until the residual sum is within
    /// `acc` of `s` (or the iterations run out, or `f(p)` stops behaving as theory says, where
    /// FITPACK returns the last fit too). `fp0` is the polynomial's residual sum and `fpms` the
    /// least-squares spline's minus `s`.
    fn smooth(&mut self, fp0: f64, fpms: f64, acc: f64) {
        let nk1 = self.n - K1;
        let n8 = self.n - NMIN;
        self.discontinuity_jumps();
        let (mut p1, mut f1) = (0.0, fp0 - self.s);
        let (mut p3, mut f3) = (-1.0, fpms);
        let mut p = 0.0;
        for row in &self.a[..nk1] {
            p += row[0];
        }
        p = nk1 as f64 / p;
        let (mut ich1, mut ich3) = (false, false);
        for iter in 1..=MAXIT {
            let pinv = 1.0 / p;
            for (c, z) in self.c.iter_mut().zip(&self.z) {
                c.copy_from_slice(z);
            }
            for (g, a) in self.g.iter_mut().zip(&self.a).take(nk1) {
                g[..K1].copy_from_slice(a);
                g[K1] = 0.0;
            }
            for it in 0..n8 {
                let mut h = self.b[it].map(|v| v * pinv);
                let mut xi = [0.0; 2];
                for j in it..nk1 {
                    let rotation = givens(h[0], &mut self.g[j][0]);
                    for (x, c) in xi.iter_mut().zip(&mut self.c) {
                        rotate(rotation, x, &mut c[j]);
                    }
                    if j == nk1 - 1 {
                        break;
                    }
                    let i2 = if j + 1 > n8 { nk1 - 1 - j } else { K1 };
                    for i in 0..i2 {
                        rotate(rotation, &mut h[i + 1], &mut self.g[j][i + 1]);
                        h[i] = h[i + 1];
                    }
                    h[i2] = 0.0;
                }
            }
            for c in &mut self.c {
                back_substitute(&self.g, nk1, c);
            }
            let f2 = self.residual_sum() - self.s;
            if f2.abs() < acc || iter == MAXIT {
                return;
            }
            let p2 = p;
            // Until f(p) has been seen on both sides of s, p moves by the factor CON4.
            if !ich3 {
                if f2 - f3 > acc {
                    ich3 = f2 < 0.0;
                } else {
                    // p is too large.
                    (p3, f3) = (p2, f2);
                    p *= CON4;
                    if p <= p1 {
                        p = p1 * CON9 + p2 * CON1;
                    }
                    continue;
                }
            }
            if !ich1 {
                if f1 - f2 > acc {
                    ich1 = f2 > 0.0;
                } else {
                    // p is too small.
                    (p1, f1) = (p2, f2);
                    p /= CON4;
                    if p3 >= 0.0 && p >= p3 {
                        p = p2 * CON1 + p3 * CON9;
                    }
                    continue;
                }
            }
            if f2 >= f1 || f2 <= f3 {
                return;
            }
            p = rational_root((&mut p1, &mut f1), (p2, f2), (&mut p3, &mut f3));
        }
    }

    /// The fitted curve: the knots in use and their coefficients.
    fn curve(mut self) -> Curve {
        let nk1 = self.n - K1;
        self.t.truncate(self.n);
        let [mut cx, mut cy] = self.c;
        cx.truncate(nk1);
        cy.truncate(nk1);
        Curve {
            knots: self.t,
            coefficients: [cx, cy],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `sine wave` of `benches/peers/rover_reference.py`: thirty points outside the rover's
    /// box, whose polynomial fit misses by more than s, so FITPACK adds a knot and searches
    /// for the smoothing parameter.
    // the sine wave: splprep(points, k=3), 9 knots, ier = 0
    #[rustfmt::skip]
    const KNOTS: [f64; 9] = [0.0, 0.0, 0.0, 0.0, 0.5061175003880451, 1.0, 1.0, 1.0, 1.0];
    #[rustfmt::skip]
    const COEFFICIENTS: [[f64; 5]; 2] = [
        [-3.107811967438089, -1.773053013914337, 0.5127823994976799, 2.8041142677761095, 4.10841473211757],
        [1.2310791839870363, 4.263167912086065, -7.5459420193769375, 4.305141020956328, 1.2011867459532826],
    ];
    #[rustfmt::skip]
    const POINTS: [f64; 60] = [-3.0, 0.0, -2.7586206896551726, 0.95790459040794, -2.5172413793103448, 1.8155226455812956, -2.2758620689655173, 2.4830669944706716, -2.0344827586206895, 2.8906499775576693, -1.793103448275862, 2.9956002415533716, -1.5517241379310345, 2.786930159450374, -1.3103448275862069, 2.286486165382909, -1.0689655172413792, 1.546661571531065, -0.8275862068965516, 0.6449113206330714, -0.5862068965517242, -0.3243570552718264, -0.34482758620689635, -1.2596673046807938, -0.10344827586206895, -2.06309837656027, 0.1379310344827589, -2.6505361333380693, 0.3793103448275863, -2.9604795676245783, 0.6206896551724141, -2.960479567624578, 0.8620689655172415, -2.6505361333380684, 1.1034482758620694, -2.06309837656027, 1.3448275862068968, -1.2596673046807925, 1.5862068965517242, -0.3243570552718248, 1.8275862068965516, 0.6449113206330743, 2.06896551724138, 1.5466615715310663, 2.3103448275862073, 2.2864861653829096, 2.5517241379310347, 2.786930159450375, 2.793103448275862, 2.9956002415533716, 3.0344827586206895, 2.890649977557668, 3.275862068965518, 2.4830669944706707, 3.517241379310345, 1.8155226455812947, 3.7586206896551726, 0.95790459040794, 4.0, 1.102182119232618e-15];
    #[rustfmt::skip]
    const PARAMETERS: [f64; 30] = [0.0, 0.050071940082698364, 0.09523174303246304, 0.1312122496012574, 0.1552228841157914, 0.16856434198614992, 0.18473743750875585, 0.21290037917379218, 0.25234597045729096, 0.299662958774236, 0.35029364027267457, 0.3992558369399482, 0.44177825303780244, 0.47396991679804445, 0.49388249961195496, 0.5061175003880451, 0.5260300832019557, 0.5582217469621976, 0.600744163060052, 0.6497063597273255, 0.7003370412257642, 0.7476540295427092, 0.7870996208262079, 0.8152625624912442, 0.8314356580138501, 0.8447771158842086, 0.8687877503987427, 0.9047682569675369, 0.9499280599173017, 1.0];
    #[rustfmt::skip]
    const FP: f64 = 22.252240530137108;

    fn points(flat: &[f64]) -> Vec<Point> {
        flat.chunks_exact(2).map(|p| [p[0], p[1]]).collect()
    }

    fn assert_close(got: &[f64], expected: &[f64], tol: f64, what: &str) {
        assert_eq!(got.len(), expected.len(), "{what}: {got:?}");
        for (g, e) in got.iter().zip(expected) {
            assert!(
                (g - e).abs() <= tol * (1.0 + e.abs()),
                "{what}: {got:?} vs {expected:?}"
            );
        }
    }

    #[test]
    fn smoothing_fit_matches_scipy() {
        let points = points(&POINTS);
        let u = chord_parameters(&points);
        assert_close(&u, &PARAMETERS, 1e-15, "parameters");
        let curve = Curve::smoothing(&points);
        assert_close(&curve.knots, &KNOTS, 1e-12, "knots");
        for (c, expected) in curve.coefficients.iter().zip(&COEFFICIENTS) {
            assert_close(c, expected, 1e-12, "coefficients");
        }
        let fp: f64 = points
            .iter()
            .zip(&u)
            .map(|(p, &ui)| {
                let q = curve.at(ui);
                (q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2)
            })
            .sum();
        assert!((fp - FP).abs() <= 1e-9 * FP, "fp {fp} vs scipy's {FP}");
    }

    /// Points that alternate between two far corners: knots are added until the spline
    /// interpolates (n = m + 4), whose interior knots are the parameters but the first and last
    /// two, and the smoothing spline on them fits within s.
    #[test]
    fn knot_adding_ends_at_the_interpolation_knots() {
        let points: Vec<Point> = (0..30)
            .map(|i| if i % 2 == 0 { [-2.0, -2.0] } else { [3.0, 3.0] })
            .collect();
        let u = chord_parameters(&points);
        let curve = Curve::smoothing(&points);
        assert_eq!(curve.knots.len(), 30 + K1);
        assert_eq!(curve.knots[K1..30], u[2..28]);
    }

    #[test]
    fn points_inside_a_small_box_give_the_polynomial() {
        let points: Vec<Point> = (0..30)
            .map(|i| [(i % 7) as f64 / 6.0, (i % 5) as f64 / 4.0])
            .collect();
        let curve = Curve::smoothing(&points);
        assert_eq!(curve.knots, [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]);
    }

    /// Consecutive equal points, which FITPACK refuses, are fitted with equal parameters.
    #[test]
    fn consecutive_equal_points_share_a_parameter() {
        let repeated = [
            [0.0, 0.0],
            [0.0, 0.0],
            [1.0, 0.5],
            [1.0, 0.5],
            [2.0, 0.0],
            [3.0, 1.0],
        ];
        let u = chord_parameters(&repeated);
        assert!(
            u[0] == u[1] && u[1] < u[2] && u[2] == u[3] && u[5] == 1.0,
            "{u:?}"
        );
        let curve = Curve::smoothing(&repeated);
        assert_eq!(curve.knots.len(), NMIN);
        assert!(curve.at(0.5).iter().all(|v| v.is_finite()));
    }

    /// Fewer than four runs of equal points: the point, the segment, the parabola, each
    /// through the runs' points at their parameters.
    #[test]
    fn fewer_than_four_runs_give_the_curve_of_lowest_degree() {
        let point = Curve::smoothing(&[[0.3, 0.4]; 30]);
        for x in [0.0, 0.37, 1.0] {
            assert_eq!(point.at(x), [0.3, 0.4]);
        }
        let (a, b, c) = ([0.0, 0.0], [3.0, 4.0], [3.0, 0.0]);
        let segment = Curve::smoothing(&[a, a, b, b, b]);
        for (x, expected) in [(0.0, a), (0.25, [0.75, 1.0]), (1.0, b)] {
            let p = segment.at(x);
            assert!((p[0] - expected[0]).abs() < 1e-15 && (p[1] - expected[1]).abs() < 1e-15);
        }
        // Chords 5 and 4: b sits at parameter 5/9.
        let parabola = Curve::smoothing(&[a, b, b, c]);
        for (x, expected) in [(0.0, a), (5.0 / 9.0, b), (1.0, c)] {
            let p = parabola.at(x);
            assert!((p[0] - expected[0]).abs() < 1e-14 && (p[1] - expected[1]).abs() < 1e-14);
        }
        let three = Curve::smoothing(&[a, b, c]);
        assert!((three.at(5.0 / 9.0)[1] - 4.0).abs() < 1e-14);
    }
}
