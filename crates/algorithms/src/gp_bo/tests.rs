//! The typed settings of GP-UCB and EI against the registry: defaults, and round trips with the
//! batch parameters changed.

use super::{Ei, GpUcb, PendingStrategy};
use crate::testing::{registry_defaults, resolve};

#[test]
fn defaults_are_the_registry_defaults() {
    assert_eq!(resolve(&GpUcb::default()), registry_defaults("gp-ucb"));
    assert_eq!(resolve(&Ei::default()), registry_defaults("ei"));
    assert_eq!(GpUcb::default().pending, PendingStrategy::KrigingBeliever);
    assert_eq!(GpUcb::default().bucb_c, 0.1);
    assert_eq!(Ei::default().pending, PendingStrategy::KrigingBeliever);
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
