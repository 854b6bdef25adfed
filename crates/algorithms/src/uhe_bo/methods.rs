//! How each member's settings set the switches ([`Variant`]) of the family's one algorithm
//! ([`UheBoRunner`]).

use super::algorithm::{Arms, FitData, UheBoRunner, Variant};
use super::estimators::{AdaptiveScaling, Mcmc, PointEstimate, ShrinkingBound, ThetaEstimator};
use super::settings::{
    AGpUcb, MapGpUcb, McmcGpUcb, Portfolio, RaBo, RandomExp3, UheBo, UheGpSettings, WangDeFreitas,
};
use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

/// The family's algorithm with the GP-UCB step `gp` and the three switches; `params` (the
/// settings they come from) go to the trace header.
fn runner(
    params: Params,
    gp: UheGpSettings,
    arms: Arms,
    fit_data: FitData,
    estimator: impl ThetaEstimator + 'static,
) -> Result<Box<dyn Algorithm>, AlgorithmError> {
    let variant = Variant {
        gp,
        arms,
        fit_data,
        estimator: Box::new(estimator),
    };
    Ok(Box::new(UheBoRunner::new(params, variant)))
}

impl Method for UheBo {
    const NAME: &'static str = "uhe-bo";
    const DESCRIPTION: &'static str = "UHE-BO (Ha et al. 2023, arXiv:2306.06844): EXP3 over pairs {random+UCB, UCB+UCB}, θ by MAP on nearest-neighbour pseudo-data, GP-UCB μ + √β σ";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        runner(
            params,
            self.gp,
            Arms::Pairs(self.pairs),
            FitData::Pseudo {
                m_factor: self.pseudo.m_factor,
            },
            PointEstimate,
        )
    }
}

impl Method for RaBo {
    const NAME: &'static str = "ra-bo";
    const DESCRIPTION: &'static str = "RA-BO (UHE-BO ablation): random point at every odd step, GP-UCB at every even step, θ on pseudo-data";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        runner(
            params,
            self.gp,
            Arms::AlwaysRandom,
            FitData::Pseudo {
                m_factor: self.pseudo.m_factor,
            },
            PointEstimate,
        )
    }
}

impl Method for RandomExp3 {
    const NAME: &'static str = "random-exp3";
    const DESCRIPTION: &'static str =
        "Random+EXP3 (UHE-BO ablation): UHE-BO's EXP3 arm schedule, θ by MAP on the real data";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        runner(
            params,
            self.gp,
            Arms::Pairs(self.pairs),
            FitData::Real,
            PointEstimate,
        )
    }
}

impl Method for MapGpUcb {
    const NAME: &'static str = "map-gp-ucb";
    const DESCRIPTION: &'static str = "MAP-GP-UCB (UHE-BO's baseline): GP-UCB μ + √β σ every step, θ by MAP with Gamma(1e-3, 10) priors, best observed y recommended";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        runner(
            params,
            self.gp,
            Arms::AlwaysAcquisition,
            FitData::Real,
            PointEstimate,
        )
    }
}

impl Method for McmcGpUcb {
    const NAME: &'static str = "mcmc-gp-ucb";
    const DESCRIPTION: &'static str = "MCMC-GP-UCB (UHE-BO's baseline): θ slice-sampled from its posterior (200 burn-in sweeps, 10 samples), UCB averaged over the samples";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        runner(
            params,
            self.gp,
            Arms::AlwaysAcquisition,
            FitData::Real,
            Mcmc::new(
                self.mcmc_burn_in,
                self.mcmc_samples,
                self.mcmc_thin,
                self.slice_width,
            ),
        )
    }
}

impl Method for AGpUcb {
    const NAME: &'static str = "a-gp-ucb";
    const DESCRIPTION: &'static str = "A-GP-UCB (Berkenkamp et al. 2019, UHE-BO's baseline): MAP lengthscales divided by a growing g(t), p(t) = t^0.9";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        runner(
            params,
            self.gp,
            Arms::AlwaysAcquisition,
            FitData::Real,
            AdaptiveScaling::new(self.agp_exponent, self.agp_ratio),
        )
    }
}

impl Method for WangDeFreitas {
    const NAME: &'static str = "wang-de-freitas";
    const DESCRIPTION: &'static str = "Wang & de Freitas 2014 (UHE-BO's baseline): MAP under a lengthscale bound shrunk until σ(x_next) ≥ κ = 0.1";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        runner(
            params,
            self.gp,
            Arms::AlwaysAcquisition,
            FitData::Real,
            ShrinkingBound::new(self.wdf_kappa, self.wdf_shrink, self.wdf_max_steps),
        )
    }
}

impl Method for Portfolio {
    const NAME: &'static str = "portfolio";
    const DESCRIPTION: &'static str = "Portfolio (Hoffman et al. 2011, UHE-BO's baseline): EXP3 each step over {random, GP-UCB} (or GP-Hedge's {EI, PI, UCB}), reward the posterior mean at the chosen point";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        runner(
            params,
            self.gp,
            Arms::Portfolio {
                arms: self.portfolio_arms,
                pi_xi: self.pi_xi,
                reward_clip: self.scaling.reward_clip,
            },
            FitData::Real,
            PointEstimate,
        )
    }
}
