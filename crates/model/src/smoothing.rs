//! Isotropic smoothing kernels `Ψ(‖u − u'‖ / h)` of kernel regression (Zhu et al.,
//! *Bayesian Optimization by Kernel Regression and Density-based Exploration*, Section 3.1).

/// The smoothing kernels of BOKE, each with `Ψ(0) = 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmoothingKernel {
    /// `exp(−‖u−u'‖² / (2h²))`, evaluated in log space (softmax weights).
    Gaussian,
    /// `max(1 − ‖u−u'‖²/h², 0)`.
    Epanechnikov,
    /// `1{‖u−u'‖ ≤ h}`.
    Uniform,
}

impl bosweep_core::params::Choice for SmoothingKernel {
    const WORDS: &'static [&'static str] = &["gaussian", "epanechnikov", "uniform"];
    const VALUES: &'static [Self] = &[Self::Gaussian, Self::Epanechnikov, Self::Uniform];
}

impl SmoothingKernel {
    /// The kernel weight at `z2 = ‖u−u'‖²/h²` (0 where `z2` is NaN).
    ///
    /// Inlined and written as selects rather than `f64::max`, whose NaN rule has no single
    /// vector instruction: the CPU engine calls it in its SIMD regression loop.
    #[inline(always)]
    pub fn weight(self, z2: f64) -> f64 {
        match self {
            Self::Gaussian => (-0.5 * z2).exp(),
            Self::Epanechnikov => {
                let w = 1.0 - z2;
                if w > 0.0 { w } else { 0.0 }
            }
            Self::Uniform => {
                if z2 <= 1.0 {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }
}

/// The bandwidth schedules of kernel regression (Zhu et al., BOKE, Section 5): the bandwidth
/// shrinks with the number of observations t so that the estimate stays consistent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BandwidthSchedule {
    /// `h_t = c · t^{−1/(d+4)}` (Eq. 5.1).
    Scott(BandwidthScale),
    /// `h_t = c · (t (d+2) / 4)^{−1/(d+4)}` (Eq. 5.2).
    Silverman(BandwidthScale),
    /// The same `h` at every t.
    Fixed(f64),
}

/// The constant `c` of a schedule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BandwidthScale {
    /// A given constant. The paper states only `h_t ∝ t^{−1/(d+4)}`; bosweep's default is
    /// `1/√12 ≈ 0.2887`, the standard deviation of a uniform design on [0, 1], since
    /// scikit-learn's literal rules' 1 is far too wide on the unit cube.
    Constant(f64),
    /// `sqrt((1/d) Σ_j Var(U[:, j]))` of the data (population variance), at least 1e-3.
    Data,
}

impl BandwidthSchedule {
    /// BOKE's default: Scott with `c = 1/√12` on unit-cube inputs.
    pub fn default_scott() -> Self {
        Self::Scott(BandwidthScale::Constant(1.0 / 12f64.sqrt()))
    }

    /// The bandwidth for the `t` rows of `data` (unit-cube coordinates).
    pub fn bandwidth(self, data: &bosweep_core::data::Points) -> f64 {
        let t = data.rows().max(1) as f64;
        let d = data.dim() as f64;
        let scale = |s: BandwidthScale| match s {
            BandwidthScale::Constant(c) => c,
            BandwidthScale::Data => pooled_std(data).max(1e-3),
        };
        match self {
            Self::Scott(s) => scale(s) * t.powf(-1.0 / (d + 4.0)),
            Self::Silverman(s) => scale(s) * (t * (d + 2.0) / 4.0).powf(-1.0 / (d + 4.0)),
            Self::Fixed(h) => h,
        }
    }
}

/// `sqrt` of the mean over columns of the population variance of each column.
fn pooled_std(data: &bosweep_core::data::Points) -> f64 {
    let n = data.rows() as f64;
    if data.is_empty() {
        return 0.0;
    }
    let dim = data.dim();
    let total: f64 = (0..dim)
        .map(|j| {
            let mean = data.iter().map(|r| r[j]).sum::<f64>() / n;
            data.iter().map(|r| (r[j] - mean).powi(2)).sum::<f64>() / n
        })
        .sum();
    (total / dim as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::{BandwidthScale, BandwidthSchedule};
    use bosweep_core::data::Points;

    fn design(t: usize, d: usize) -> Points {
        Points::new((0..t * d).map(|i| (i % 7) as f64 / 7.0).collect(), d).unwrap()
    }

    /// Reference values of Eqs. 5.1–5.2 with `c = 1/√12` and with scikit-learn's `c = 1`, to 1e-9.
    #[test]
    fn schedules_match_hand_computed_values() {
        let scott = BandwidthSchedule::default_scott();
        for (t, d, want) in [
            (5, 1, 0.2092258670),
            (10, 2, 0.1966720797),
            (50, 2, 0.1503999561),
            (100, 6, 0.1821416963),
            (30, 8, 0.2174282343),
        ] {
            let h = scott.bandwidth(&design(t, d));
            assert!((h - want).abs() < 1e-9, "t={t} d={d}: {h} vs {want}");
        }
        let unit = BandwidthScale::Constant(1.0);
        let h = BandwidthSchedule::Scott(unit).bandwidth(&design(10, 2));
        assert!((h - 0.6812920691).abs() < 1e-9);
        let h = BandwidthSchedule::Silverman(unit).bandwidth(&design(10, 1));
        assert!((h - 0.6683250620).abs() < 1e-9);
        // For d = 2 Scott and Silverman coincide: (t·4/4)^(−1/6).
        let s = BandwidthSchedule::Silverman(unit).bandwidth(&design(10, 2));
        assert!((s - 0.6812920691).abs() < 1e-9);
        assert_eq!(BandwidthSchedule::Fixed(0.3).bandwidth(&design(10, 2)), 0.3);
    }

    #[test]
    fn data_scale_is_the_pooled_population_std() {
        // Column 0: {0, 1} (var 1/4); column 1: {0, 0} (var 0) → c = sqrt(1/8).
        let data = Points::new(vec![0.0, 0.0, 1.0, 0.0], 2).unwrap();
        let h = BandwidthSchedule::Scott(BandwidthScale::Data).bandwidth(&data);
        assert!((h - (1.0f64 / 8.0).sqrt() * 2f64.powf(-1.0 / 6.0)).abs() < 1e-15);
        let flat = Points::new(vec![0.5; 4], 2).unwrap();
        assert!(
            (BandwidthSchedule::Scott(BandwidthScale::Data).bandwidth(&flat)
                - 1e-3 * 2f64.powf(-1.0 / 6.0))
            .abs()
                < 1e-15
        );
    }
}
