//! UHE-BO's settings, read once from the variant's declared parameters when it is built: the
//! steps use typed fields, never parameter names.

use bosweep_core::params::Params;

/// EXP3's exploration rate over pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum GammaSchedule {
    /// `γ_t = sqrt(4 ln 2 / ((e − 1) t))` (Algorithm 1).
    Uhe,
    Constant(f64),
}

/// What every variant shares, and the variant-specific settings it declares.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Settings {
    /// β of the UCB `μ + √β σ`.
    pub ucb_beta: f64,
    /// MAP with UHE-BO's priors (`loss = "map"`), else ML-II.
    pub map: bool,
    pub lengthscale: f64,
    pub signal_var: f64,
    pub noise_var: f64,
    pub random_starts: usize,
    /// Sobol grid of the acquisition maximiser; `0`: `max(1000 d, 2000)`.
    pub grid_size: usize,
    pub top_k: usize,
    pub refine: bool,
    pub max_iters: usize,
    /// Pseudo-points per observation (pseudo-data variants).
    pub m_factor: Option<f64>,
    /// EXP3 over pairs (UHE-BO, Random+EXP3).
    pub gamma: GammaSchedule,
    /// Clip scaled rewards to [0, 1].
    pub clip_rewards: bool,
    /// Portfolio's arms: 2 (random, UCB) or 3 (GP-Hedge's EI, PI, UCB).
    pub portfolio_arms: usize,
    /// PI's margin ξ (GP-Hedge).
    pub pi_xi: f64,
}

impl Settings {
    pub fn of(params: &Params) -> Self {
        let number = |name: &str| params.declares(name).then(|| params.number(name));
        let choice = |name: &str| params.declares(name).then(|| params.choice(name));
        Self {
            ucb_beta: params.number("ucb_beta"),
            map: params.choice("loss") != "mle",
            lengthscale: params.number("lengthscale"),
            signal_var: params.number("signal_var"),
            noise_var: params.number("noise_var"),
            random_starts: params.integer("random_starts"),
            grid_size: params.integer("grid_size"),
            top_k: params.integer("top_k"),
            refine: params.choice("refine") == "true",
            max_iters: params.integer("max_iters"),
            m_factor: number("m_factor"),
            gamma: match choice("gamma_schedule") {
                Some("constant") => GammaSchedule::Constant(params.number("gamma")),
                _ => GammaSchedule::Uhe,
            },
            clip_rewards: choice("reward_clip") == Some("unit"),
            portfolio_arms: match choice("portfolio_arms") {
                Some("ei-pi-ucb") => 3,
                _ => 2,
            },
            pi_xi: number("pi_xi").unwrap_or(0.0),
        }
    }
}

/// The MCMC baseline's chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct McmcSettings {
    pub burn_in: usize,
    pub samples: usize,
    pub thin: usize,
    pub slice_width: f64,
}

impl McmcSettings {
    pub fn of(params: &Params) -> Self {
        Self {
            burn_in: params.integer("mcmc_burn_in"),
            samples: params.integer("mcmc_samples"),
            thin: params.integer("mcmc_thin"),
            slice_width: params.number("slice_width"),
        }
    }
}

/// A-GP-UCB's schedule `p(t) = t^exponent` and its grid ratio.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct AdaptiveSettings {
    pub exponent: f64,
    pub ratio: f64,
}

impl AdaptiveSettings {
    pub fn of(params: &Params) -> Self {
        Self {
            exponent: params.number("agp_exponent"),
            ratio: params.number("agp_ratio"),
        }
    }
}

/// Wang & de Freitas' target std κ, shrink factor and steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ShrinkSettings {
    pub kappa: f64,
    pub shrink: f64,
    pub max_steps: usize,
}

impl ShrinkSettings {
    pub fn of(params: &Params) -> Self {
        Self {
            kappa: params.number("wdf_kappa"),
            shrink: params.number("wdf_shrink"),
            max_steps: params.integer("wdf_max_steps"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find;
    use bosweep_core::params::ParamValue;

    fn settings(name: &str, given: &[(&str, ParamValue)]) -> Settings {
        let entry = find(name).unwrap();
        Settings::of(&Params::resolve("algorithm", entry.name, entry.parameters, given).unwrap())
    }

    #[test]
    fn each_variant_reads_what_it_declares_and_defaults_the_rest() {
        let uhe = settings(
            "uhe-bo",
            &[
                ("gamma_schedule", "constant".into()),
                ("gamma", ParamValue::Number(0.3)),
                ("refine", "false".into()),
            ],
        );
        assert_eq!(uhe.gamma, GammaSchedule::Constant(0.3));
        assert!(uhe.m_factor.is_some() && !uhe.refine && uhe.map);
        assert_eq!(uhe.portfolio_arms, 2);
        let hedge = settings("portfolio", &[("portfolio_arms", "ei-pi-ucb".into())]);
        assert_eq!((hedge.portfolio_arms, hedge.m_factor), (3, None));
        assert_eq!(hedge.gamma, GammaSchedule::Uhe);
        let mle = settings("map-gp-ucb", &[("loss", "mle".into())]);
        assert!(!mle.map && !mle.clip_rewards);
    }
}
