//! The parameter block of each compute shader, declared once, here.
//!
//! Every shader reads a uniform `Params` of 12 `u32` then 4 reals at binding 0. Each shader's
//! fields are declared below as a typed struct; [`wgsl_source`](super::source::wgsl_source)
//! writes the matching WGSL `struct Params` (padded to the common layout) into the shader's
//! prelude, so the WGSL files use the names without declaring them and the host and the device
//! cannot disagree on their order. [`Batch::dispatch`](super::batch::Batch::dispatch) takes the
//! typed struct, whose type picks the shader.

use super::shaders::Shader;

/// One parameter block: 12 `u32` then 4 reals (each shader's fields: below).
pub const PARAM_U32S: usize = 12;
pub const PARAM_REALS: usize = 4;

/// One dispatch's parameters, encoded per precision when the batch is submitted.
#[derive(Clone, Copy, Debug, Default)]
pub struct Params {
    pub u: [u32; PARAM_U32S],
    pub r: [f64; PARAM_REALS],
}

impl Params {
    pub fn ints(values: &[u32]) -> Self {
        let mut p = Self::default();
        p.u[..values.len()].copy_from_slice(values);
        p
    }

    pub fn with_reals(mut self, values: &[f64]) -> Self {
        self.r[..values.len()].copy_from_slice(values);
        self
    }
}

/// A shader's parameter block.
pub trait ShaderParams {
    /// The shader these parameters are for.
    const SHADER: Shader;
    /// Names of the `u32` fields, in block order.
    const INTS: &'static [&'static str];
    /// Names of the real fields, in block order.
    const REALS: &'static [&'static str];
    /// The values in the common block layout.
    fn block(&self) -> Params;
}

/// Declares a shader's parameter struct: `u32` fields, then `;`, then real fields.
macro_rules! shader_params {
    ($(#[$doc:meta])* $name:ident for $shader:ident {
        $($(#[$udoc:meta])* $u:ident),* ; $($(#[$rdoc:meta])* $r:ident),* $(,)?
    }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name {
            $($(#[$udoc])* pub $u: u32,)*
            $($(#[$rdoc])* pub $r: f64,)*
        }

        impl ShaderParams for $name {
            const SHADER: Shader = Shader::$shader;
            const INTS: &'static [&'static str] = &[$(stringify!($u)),*];
            const REALS: &'static [&'static str] = &[$(stringify!($r)),*];
            fn block(&self) -> Params {
                Params::ints(&[$(self.$u),*]).with_reals(&[$(self.$r),*])
            }
        }
    };
}

shader_params! {
    /// `cross_covariance.wgsl`: kernel values (or scaled squared distances) between two point
    /// sets, or parts of their columns.
    CrossCovarianceParams for CrossCovariance {
        rows_a, rows_b,
        /// Row stride of a.
        dim_a,
        /// Row stride of b.
        dim_b,
        /// First column of a that enters the distance.
        a_off,
        /// First column of b that enters the distance.
        b_off,
        /// Number of distance columns; the time column, if any, follows them.
        cols,
        /// First entry of `inv_ls` for those columns.
        ls_off,
        kind,
        /// 1: output r² only; 2: time decay; 4: the decay factor is 0^|Δt| (ε = 1).
        flags,
        stride_a, stride_b;
        signal_var, rq_alpha,
        /// ½ ln(1 − ε).
        log_rho,
    }
}

shader_params! {
    /// `pair_covariance.wgsl`: kernel values of (decision, context) pairs from their two
    /// distance parts.
    PairCovarianceParams for PairCovariance {
        decisions, samples, n, kind, ld;
        signal_var, rq_alpha,
    }
}

shader_params! {
    /// `posterior_quad.wgsl`: partial sums of `‖L⁻¹ k‖²` over one panel of L⁻¹'s rows.
    PosteriorQuadParams for PosteriorQuad {
        ld,
        /// Candidates in this chunk.
        count,
        /// Training points.
        n,
        /// First row of L⁻¹ in this panel.
        j0,
        /// End of the panel's rows.
        j1,
        /// First partial-sum row of this panel.
        part_off,
        /// Packed index of row j0: j0 (j0 + 1) / 2.
        panel_base;
    }
}

shader_params! {
    /// `posterior_finish.wgsl`: mean and variance (mode 0) or the UCB (mode 1) per candidate.
    PosteriorFinishParams for PosteriorFinish {
        ld, count, n, groups, mode;
        prior_mean, kxx, inv_lambda, beta,
    }
}

shader_params! {
    /// `pair_reduce.wgsl`: one decision's UCBs over the context samples reduced to one value.
    PairReduceParams for PairReduce {
        rows, samples, mode, k;
        delta,
    }
}

shader_params! {
    /// `kde.wgsl`: log-density of a Gaussian-product KDE per query.
    KdeParams for Kde {
        n, m, dim;
        log_norm,
    }
}

shader_params! {
    /// `kernel_regression.wgsl`: Nadaraya–Watson mean and weight sum per query.
    KernelRegressionParams for KernelRegression {
        n, m, dim, kind;
    }
}

shader_params! {
    /// `hypervolume_improvement.wgsl`: the smoothed log hypervolume improvement of every
    /// (candidate, sample) draw over its sample's cells.
    HypervolumeImprovementParams for HypervolumeImprovement {
        /// Candidates in this chunk.
        count,
        samples,
        /// Objectives.
        m;
        tau_relu, tau_max,
        /// `ln τ_relu`.
        log_tau_relu,
    }
}

shader_params! {
    /// `nearest.wgsl`: index of the nearest data point per query.
    NearestParams for Nearest {
        n, m, dim;
    }
}

shader_params! {
    /// `top_k.wgsl`: one pass of block-wise top-k selection.
    TopKParams for TopK {
        len, keep;
    }
}

shader_params! {
    /// `path_maxima.wgsl`: sample paths at a chunk of candidates and each workgroup's best
    /// candidate per path.
    PathMaximaParams for PathMaxima {
        /// Candidates in this chunk.
        count,
        dim,
        features,
        /// Training points.
        n,
        /// Paths in all (the weights' row length).
        paths,
        /// Global index of the chunk's first candidate.
        first,
        /// Length of the sorted list of excluded candidates.
        excluded,
        /// Partial bests per path, over all chunks.
        groups_total,
        /// First partial best of this chunk.
        group_offset,
        kind;
        mean,
        /// √(2 s² / F).
        amplitude,
        signal_var,
    }
}

shader_params! {
    /// `path_reduce.wgsl`: each path's best of its partial bests.
    PathReduceParams for PathReduce {
        /// Partial bests per path.
        groups;
    }
}

/// The WGSL declaration of `P`'s block: its fields, padded to the common layout.
fn wgsl_struct<P: ShaderParams>() -> String {
    assert!(P::INTS.len() <= PARAM_U32S && P::REALS.len() <= PARAM_REALS);
    let mut text = String::from("struct Params {\n");
    for name in P::INTS {
        text.push_str(&format!("    {name}: u32,\n"));
    }
    for i in P::INTS.len()..PARAM_U32S {
        text.push_str(&format!("    _u{i}: u32,\n"));
    }
    for name in P::REALS {
        text.push_str(&format!("    {name}: real,\n"));
    }
    for i in P::REALS.len()..PARAM_REALS {
        text.push_str(&format!("    _r{i}: real,\n"));
    }
    text.push_str("}\n");
    text
}

/// The `struct Params` declaration of `shader`.
pub fn wgsl_params(shader: Shader) -> String {
    match shader {
        Shader::CrossCovariance => wgsl_struct::<CrossCovarianceParams>(),
        Shader::PairCovariance => wgsl_struct::<PairCovarianceParams>(),
        Shader::PosteriorQuad => wgsl_struct::<PosteriorQuadParams>(),
        Shader::PosteriorFinish => wgsl_struct::<PosteriorFinishParams>(),
        Shader::PairReduce => wgsl_struct::<PairReduceParams>(),
        Shader::Kde => wgsl_struct::<KdeParams>(),
        Shader::KernelRegression => wgsl_struct::<KernelRegressionParams>(),
        Shader::Nearest => wgsl_struct::<NearestParams>(),
        Shader::TopK => wgsl_struct::<TopKParams>(),
        Shader::PathMaxima => wgsl_struct::<PathMaximaParams>(),
        Shader::PathReduce => wgsl_struct::<PathReduceParams>(),
        Shader::HypervolumeImprovement => wgsl_struct::<HypervolumeImprovementParams>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generated declarations are what the shaders compiled against before they moved
    /// here: every block is 12 `u32` then 4 reals, named fields first.
    #[test]
    fn every_block_has_the_common_layout_and_its_names() {
        for shader in Shader::ALL {
            let text = wgsl_params(shader);
            assert_eq!(text.matches(": u32,").count(), PARAM_U32S, "{text}");
            assert_eq!(text.matches(": real,").count(), PARAM_REALS, "{text}");
        }
        let finish = wgsl_params(Shader::PosteriorFinish);
        assert!(finish.starts_with("struct Params {\n    ld: u32,\n    count: u32,"));
        assert!(finish.contains("    _u11: u32,\n    prior_mean: real,"));
        let p = PosteriorFinishParams {
            ld: 7,
            mode: 1,
            beta: 2.5,
            ..Default::default()
        }
        .block();
        assert_eq!((p.u[0], p.u[4], p.r[3]), (7, 1, 2.5));
    }
}
