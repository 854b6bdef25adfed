//! The WGSL sources in `shaders/`, assembled per precision and compiled once per engine.

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
    PathMaxima,
    PathReduce,
    HypervolumeImprovement,
}

impl Shader {
    pub const ALL: [Shader; 12] = [
        Self::CrossCovariance,
        Self::PairCovariance,
        Self::PosteriorQuad,
        Self::PosteriorFinish,
        Self::PairReduce,
        Self::Kde,
        Self::KernelRegression,
        Self::Nearest,
        Self::TopK,
        Self::PathMaxima,
        Self::PathReduce,
        Self::HypervolumeImprovement,
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
            Self::PathMaxima => "path_maxima",
            Self::PathReduce => "path_reduce",
            Self::HypervolumeImprovement => "hypervolume_improvement",
        }
    }

    /// The shader's own WGSL file.
    pub(super) fn body(self) -> &'static str {
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
            Self::PathMaxima => include_str!("../../../../shaders/path_maxima.wgsl"),
            Self::PathReduce => include_str!("../../../../shaders/path_reduce.wgsl"),
            Self::HypervolumeImprovement => {
                include_str!("../../../../shaders/hypervolume_improvement.wgsl")
            }
        }
    }

    /// Whether the shader calls the shared kernel profiles.
    pub(super) fn uses_kernel_profile(self) -> bool {
        matches!(
            self,
            Self::CrossCovariance | Self::PairCovariance | Self::PathMaxima
        )
    }
}
