//! How BAxUS spends its budget on the nested target spaces (Papenmeier et al., NeurIPS 2022,
//! Section 3.2), with the reference implementation's formulas (LeoIV/BAxUS, `baxus/baxus.py`:
//! `_adjust_init_target_dim` and the `failtol` property), so that with `b` new bins per split the
//! last split lands as close to the input dimension `D` as it can, and each target space gets a
//! share of the evaluations proportional to its dimension.
//!
//! BoTorch's BAxUS tutorial (`tutorials/baxus/baxus.ipynb`, `BaxusState`) simplifies both: its
//! `d_init` fixes the number of splits at `round(log_{b+1} D)` before choosing `d_init` (at
//! `D = 50`, `b = 3` it starts at 1 where the reference starts at 3), and its failure tolerance
//! is `⌊budget/k⌋` with `k = ⌊log_{1/2}(L_min/L_init)⌋` halvings where the reference's is
//! `⌈budget/γ⌉` with `γ = 2 log_{1/2}(L_min/L_init)`. Here the reference's hold.

/// Python's `round`, which the reference rounds with: halves go to the even neighbour.
fn round(x: f64) -> f64 {
    x.round_ties_even()
}

/// `log_base(x)` as Python's `math.log(x, base)` computes it.
fn log(x: f64, base: f64) -> f64 {
    x.ln() / base.ln()
}

/// `n = round(log_{b+1}(D / d0))`: the splits that take `d0` target dimensions closest to `D`,
/// each multiplying the dimension by `b + 1`.
pub(super) fn planned_splits(input_dim: usize, initial: usize, new_bins: usize) -> i32 {
    round(log(
        input_dim as f64 / initial as f64,
        (new_bins + 1) as f64,
    )) as i32
}

/// The initial target dimension: the `d0 ∈ {1, …, b}` whose planned splits end nearest `D`,
/// `argmin |round((b+1)^{n(d0)} d0) − D|` with `n` of [`planned_splits`], the lowest among ties
/// (the reference's `_adjust_init_target_dim`, its default), at most `D`.
pub(super) fn initial_target_dim(input_dim: usize, new_bins: usize) -> usize {
    let miss = |d0: usize| {
        let reached = round(
            ((new_bins + 1) as f64).powi(planned_splits(input_dim, d0, new_bins)) * d0 as f64,
        );
        (reached - input_dim as f64).abs()
    };
    let mut best = 1;
    for d0 in 2..=new_bins {
        if miss(d0) < miss(best) {
            best = d0;
        }
    }
    best.min(input_dim)
}

/// The failure tolerance of each target space, from the evaluations left for the splits.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SplitSchedule {
    input_dim: usize,
    initial: usize,
    new_bins: usize,
    /// The evaluations the splits share: the budget less those spent before the first region
    /// (the reference's `max_evals` less `n_init`); negative when the designs overspend it.
    evaluations: f64,
    /// `γ = 2 log_{1/2}(L_min / L_init)`: the reference's divisor of a split's budget.
    gamma: f64,
}

impl SplitSchedule {
    /// The schedule from `initial` target dimensions towards `input_dim` with `new_bins` new bins
    /// per split, `evaluations` left for the splits, for a region that starts at `length_init`
    /// and collapses below `length_min`.
    pub fn new(
        input_dim: usize,
        initial: usize,
        new_bins: usize,
        evaluations: f64,
        (length_init, length_min): (f64, f64),
    ) -> Self {
        Self {
            input_dim,
            initial,
            new_bins,
            evaluations,
            gamma: 2.0 * log(length_min / length_init, 0.5),
        }
    }

    /// The evaluations planned for target dimension `d`: `B d (1 − β) / (d0 (1 − β^{n+1}))`,
    /// `β = b + 1`, `n` the planned splits from `d0`, so that the shares of `d0, d0 β, …, d0 βⁿ`
    /// add up to `B`.
    pub fn split_budget(&self, target_dim: usize) -> f64 {
        let base = (self.new_bins + 1) as f64;
        let splits = planned_splits(self.input_dim, self.initial, self.new_bins);
        self.evaluations * target_dim as f64 * (1.0 - base)
            / (self.initial as f64 * (1.0 - base.powi(splits + 1)))
    }

    /// Consecutive failures one point at a time that halve the region in `d` target dimensions:
    /// `max(4, D)` at `d = D` (TuRBO's), else `max(1, min(⌈split_budget(d)/γ⌉, max(4, d)))`, so
    /// that the region collapses, and the space splits, about when its share is spent.
    pub fn failure_tolerance(&self, target_dim: usize) -> usize {
        let most = target_dim.max(4);
        if target_dim == self.input_dim || self.gamma == 0.0 {
            return most;
        }
        let tolerance = (self.split_budget(target_dim) / self.gamma).ceil();
        tolerance.min(most as f64).max(1.0) as usize
    }
}
