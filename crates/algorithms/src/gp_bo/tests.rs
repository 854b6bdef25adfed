//! The typed settings of GP-UCB and EI against the registry: defaults, and round trips with the
//! batch parameters changed.

use super::{Ei, GpSettings, GpUcb, LogEi, PendingStrategy, QLogNei};
use crate::testing::{registry_defaults, resolve};
use bosweep_model::FitChoice;

#[test]
fn defaults_are_the_registry_defaults() {
    assert_eq!(resolve(&GpUcb::default()), registry_defaults("gp-ucb"));
    assert_eq!(resolve(&Ei::default()), registry_defaults("ei"));
    assert_eq!(GpUcb::default().pending, PendingStrategy::KrigingBeliever);
    assert_eq!(GpUcb::default().bucb_c, 0.1);
    assert_eq!(Ei::default().pending, PendingStrategy::KrigingBeliever);
    assert_eq!(resolve(&LogEi::default()), registry_defaults("logei"));
    assert_eq!(resolve(&QLogNei::default()), registry_defaults("qlognei"));
    assert_eq!(QLogNei::default().gp, LogEi::default().gp);
    assert_eq!(
        (
            QLogNei::default().mc_samples,
            QLogNei::default().prune_baseline
        ),
        (512, true)
    );
}

/// LogEI differs from EI in the model's defaults only: BoTorch's fit and noise floor.
#[test]
fn logei_has_botorchs_model_defaults() {
    let (log_ei, ei) = (LogEi::default(), Ei::default());
    assert_eq!(log_ei.gp.fit, FitChoice::MapDimensionScaled);
    assert_eq!(log_ei.gp.min_noise_var, 1e-4);
    assert_eq!((ei.gp.fit, ei.gp.min_noise_var), (FitChoice::Map, 1e-6));
    let ei_on_botorchs_model = GpSettings {
        fit: FitChoice::MapDimensionScaled,
        min_noise_var: 1e-4,
        ..ei.gp.clone()
    };
    assert_eq!(log_ei.gp, ei_on_botorchs_model);
    assert_eq!(log_ei.maximizer, ei.maximizer);
    let changed = LogEi::default()
        .fit(FitChoice::Mle)
        .pending(PendingStrategy::LocalPenalization);
    assert_eq!(LogEi::from_params(&resolve(&changed)), changed);
}

#[test]
fn batch_settings_round_trip() {
    let ucb = GpUcb::default()
        .srinivas(0.2)
        .pending(PendingStrategy::LocalPenalization)
        .bucb_c(0.7);
    assert_eq!(GpUcb::from_params(&resolve(&ucb)), ucb);
    let ucb = GpUcb::default().ucb_multiplier(1.5).bucb_c(0.0);
    assert_eq!(GpUcb::from_params(&resolve(&ucb)), ucb);
    let ei = Ei::default().pending(PendingStrategy::LocalPenalization);
    assert_eq!(Ei::from_params(&resolve(&ei)), ei);
    assert_ne!(ei, Ei::default());
}
