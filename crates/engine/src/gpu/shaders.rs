//! The WGSL sources in `shaders/`, assembled per precision and compiled once per engine.

use super::Precision;

/// Every compute shader the GPU backend runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shader {
    CrossCovariance,
    PairCovariance,
    PosteriorQuad,
    PosteriorFinish,
    PairReduce,
    Kde,
    KernelRegression,
    Nearest,
    TopK,
}

impl Shader {
    pub const ALL: [Shader; 9] = [
        Self::CrossCovariance,
        Self::PairCovariance,
        Self::PosteriorQuad,
        Self::PosteriorFinish,
        Self::PairReduce,
        Self::Kde,
        Self::KernelRegression,
        Self::Nearest,
        Self::TopK,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::CrossCovariance => "cross_covariance",
            Self::PairCovariance => "pair_covariance",
            Self::PosteriorQuad => "posterior_quad",
            Self::PosteriorFinish => "posterior_finish",
            Self::PairReduce => "pair_reduce",
            Self::Kde => "kde",
            Self::KernelRegression => "kernel_regression",
            Self::Nearest => "nearest",
            Self::TopK => "top_k",
        }
    }

    fn body(self) -> &'static str {
        match self {
            Self::CrossCovariance => include_str!("../../../../shaders/cross_covariance.wgsl"),
            Self::PairCovariance => include_str!("../../../../shaders/pair_covariance.wgsl"),
            Self::PosteriorQuad => include_str!("../../../../shaders/posterior_quad.wgsl"),
            Self::PosteriorFinish => include_str!("../../../../shaders/posterior_finish.wgsl"),
            Self::PairReduce => include_str!("../../../../shaders/pair_reduce.wgsl"),
            Self::Kde => include_str!("../../../../shaders/kde.wgsl"),
            Self::KernelRegression => include_str!("../../../../shaders/kernel_regression.wgsl"),
            Self::Nearest => include_str!("../../../../shaders/nearest.wgsl"),
            Self::TopK => include_str!("../../../../shaders/top_k.wgsl"),
        }
    }

    fn uses_kernel_profile(self) -> bool {
        matches!(self, Self::CrossCovariance | Self::PairCovariance)
    }

    /// The full WGSL text: precision prelude, the shader's parameter block, shared kernel
    /// profiles where needed, then the body.
    pub fn source(self, precision: Precision) -> String {
        let prelude = match precision {
            Precision::F32 => include_str!("../../../../shaders/prelude_f32.wgsl"),
            Precision::F64 => include_str!("../../../../shaders/prelude_f64.wgsl"),
        };
        let profile = if self.uses_kernel_profile() {
            include_str!("../../../../shaders/kernel_profile.wgsl")
        } else {
            ""
        };
        let params = super::params::wgsl_params(self);
        format!("{prelude}\n{params}\n{profile}\n{}", self.body())
    }
}
