//! The fully Bayesian SAAS model of a run's history, as BoTorch's
//! `SaasFullyBayesianSingleTaskGP` fitted by `fit_fully_bayesian_model_nuts`: the inputs mapped
//! from the problem's box to the unit cube and the outputs standardised (the SAASBO tutorial's
//! `Standardize(m=1)`), the hyperparameters drawn by NUTS
//! ([`bosweep_model::sample_saas_posterior`]), and one GP conditioned on the data per kept draw.

use rand::RngExt;

use bosweep_core::stats::describe;

use bosweep_model::{
    FitMode, FitOptions, Kernel, KernelKind, NoiseSpec, NutsSchedule, SaasSamples,
    sample_saas_posterior,
};

use crate::algorithm::{AlgorithmError, AskContext, History};
use crate::surrogate::{GpModel, ModelOptions};

/// One GP per kept NUTS draw, on the same data and transforms, and what the chain did.
#[derive(Clone, Debug)]
pub struct SaasEnsemble {
    /// The models, in draw order.
    pub members: Vec<GpModel>,
    /// The chain's draws (hyperparameters in model units) and diagnostics.
    pub samples: SaasSamples,
}

impl SaasEnsemble {
    /// Each input's median lengthscale over the draws, in the problem's units (BoTorch's
    /// `median_lengthscale`, scaled by the box's widths).
    pub fn median_lengthscales(&self) -> Vec<f64> {
        let per_member: Vec<Vec<f64>> = self
            .members
            .iter()
            .map(GpModel::lengthscales_original)
            .collect();
        let dim = per_member.first().map_or(0, Vec::len);
        (0..dim)
            .map(|d| {
                let column: Vec<f64> = per_member.iter().map(|l| l[d]).collect();
                describe(&column).map_or(f64::NAN, |summary| summary.median)
            })
            .collect()
    }
}

/// The fully Bayesian SAAS model of `history` (see the module docs), its chain seeded by the
/// ask's random stream.
pub fn fit_saas_ensemble(
    history: &History,
    schedule: &NutsSchedule,
    ctx: &mut AskContext<'_>,
) -> Result<SaasEnsemble, AlgorithmError> {
    let dim = ctx.domain.dim();
    // The data in model units, conditioned once with placeholder hyperparameters.
    let placeholder = Kernel::new(KernelKind::Matern52, vec![1.0; dim], 1.0)?;
    let options =
        ModelOptions::for_box(ctx.domain.lower(), ctx.domain.upper())?.with_fit(FitOptions {
            mode: FitMode::Fixed,
            noise: NoiseSpec::Fitted { initial: 1.0 },
            ..FitOptions::default()
        });
    let base = GpModel::fit(&history.points()?, history.ys(), placeholder, &options)?;
    let state = base.state();
    let samples =
        sample_saas_posterior(state.train(), state.targets(), schedule, ctx.rng.random())?;
    let members = samples
        .draws
        .iter()
        .map(|draw| base.with_hyperparameters(draw.kernel()?, draw.noise, draw.mean))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SaasEnsemble { members, samples })
}
