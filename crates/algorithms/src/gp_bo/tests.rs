//! The typed settings of GP-UCB and EI: their defaults, and round trips through the registry with
//! the batch parameters changed.

use super::{Ei, GpUcb, LogEi, QLogNei, SaasboMap, UcbSchedule};
use crate::testing::resolve;
use bosweep_core::params::Settings;
use bosweep_model::{FitChoice, KernelFamily};
use bosweep_toolkit::GpSettings;
use bosweep_toolkit::acquisition::RefineGradient;
use bosweep_toolkit::pending::PendingStrategy;

#[test]
fn defaults_are_the_papers_and_botorchs() {
    assert_eq!(GpUcb::default().pending, PendingStrategy::KrigingBeliever);
    assert_eq!(GpUcb::default().bucb_c, 0.1);
    assert_eq!(Ei::default().pending, PendingStrategy::KrigingBeliever);
    assert_eq!(QLogNei::default().gp, LogEi::default().gp);
    assert_eq!(
        (
            QLogNei::default().mc_samples,
            QLogNei::default().prune_baseline
        ),
        (512, true)
    );
}

/// LogEI differs from EI in the defaults of its model only (BoTorch's kernel without an
/// outputscale, its fit, its start and its noise floor); both take Ax's maximiser (1024 raw
/// candidates and 20 restarts, on analytic gradients), which GP-UCB does not.
#[test]
fn logei_has_botorchs_model_defaults() {
    let (log_ei, ei) = (LogEi::default(), Ei::default());
    assert_eq!(log_ei.gp.fit, FitChoice::MapDimensionScaled);
    assert_eq!(log_ei.gp.min_noise_var, 1e-4);
    assert_eq!((ei.gp.fit, ei.gp.min_noise_var), (FitChoice::Map, 1e-6));
    assert_eq!(
        (ei.gp.kernel, ei.gp.outputscale, ei.gp.start_at_prior_mode),
        (KernelFamily::Matern52, true, false)
    );
    let ei_on_botorchs_model = GpSettings {
        kernel: KernelFamily::SquaredExponential,
        outputscale: false,
        fit: FitChoice::MapDimensionScaled,
        start_at_prior_mode: true,
        min_noise_var: 1e-4,
        ..ei.gp.clone()
    };
    assert_eq!(log_ei.gp, ei_on_botorchs_model);
    assert_eq!(log_ei.maximizer, ei.maximizer);
    let ucb = GpUcb::default().maximizer;
    let ucbs_maximizer_as_botorchs = ucb
        .clone()
        .grid_size(1024)
        .top_k(20)
        .gradient(RefineGradient::Analytic);
    assert_eq!(ei.maximizer, ucbs_maximizer_as_botorchs);
    assert_eq!(ucb.gradient, RefineGradient::Central);
    let changed = LogEi::default()
        .gp(|gp| gp.fit(FitChoice::Mle))
        .pending(PendingStrategy::LocalPenalization);
    assert_eq!(LogEi::read(&resolve(&changed)), changed);
}

/// SAASBO-MAP is qLogNEI with BoTorch's sampling and maximiser on the MAP SAAS model: a
/// Matérn-5/2 kernel with an outputscale, the SAAS fit, BoTorch's starts (lengthscales 1,
/// outputscale 10, noise 1e-2, its floor 1e-4) and one fit from them at every step.
#[test]
fn saasbo_map_is_qlognei_on_botorchs_map_saas_model() {
    let (saas, q) = (SaasboMap::default(), QLogNei::default());
    assert_eq!(saas.maximizer, q.maximizer);
    assert_eq!(
        (saas.mc_samples, saas.prune_baseline),
        (q.mc_samples, q.prune_baseline)
    );
    let gp = &saas.gp;
    assert_eq!(
        (gp.kernel, gp.fit),
        (KernelFamily::Matern52, FitChoice::MapSaas)
    );
    assert!(gp.outputscale);
    assert_eq!(
        (
            gp.lengthscale,
            gp.signal_var,
            gp.noise_var,
            gp.min_noise_var
        ),
        (1.0, 10.0, 1e-2, 1e-4)
    );
    assert_eq!((gp.fit_restarts, gp.warm_start), (0, false));
    let changed = SaasboMap::default()
        .mc_samples(128)
        .gp(|gp| gp.fit_restarts(2));
    assert_eq!(SaasboMap::read(&resolve(&changed)), changed);
}

#[test]
fn batch_settings_round_trip() {
    let ucb = GpUcb::default()
        .beta_schedule(UcbSchedule::Srinivas)
        .delta(0.2)
        .pending(PendingStrategy::LocalPenalization)
        .bucb_c(0.7);
    assert_eq!(GpUcb::read(&resolve(&ucb)), ucb);
    let ucb = GpUcb::default().ucb_multiplier(1.5).bucb_c(0.0);
    assert_eq!(GpUcb::read(&resolve(&ucb)), ucb);
    let ei = Ei::default().pending(PendingStrategy::LocalPenalization);
    assert_eq!(Ei::read(&resolve(&ei)), ei);
    assert_ne!(ei, Ei::default());
}
