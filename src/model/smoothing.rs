//! Isotropic smoothing kernels `Ψ(‖u − u'‖ / h)` of kernel regression (`specs/boke.md` §2.2).

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

impl SmoothingKernel {
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "gaussian" => Self::Gaussian,
            "epanechnikov" => Self::Epanechnikov,
            "uniform" => Self::Uniform,
            _ => return None,
        })
    }

    /// The kernel weight at `z2 = ‖u−u'‖²/h²`.
    pub fn weight(self, z2: f64) -> f64 {
        match self {
            Self::Gaussian => (-0.5 * z2).exp(),
            Self::Epanechnikov => (1.0 - z2).max(0.0),
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
