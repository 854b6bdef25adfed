//! SAASBO's settings: BoTorch's defaults, and a round trip through the registry.

use super::Saasbo;
use crate::QLogNei;
use crate::testing::resolve;
use bosweep_core::params::Settings;
use bosweep_model::NutsSchedule;

/// NUTS as `fit_fully_bayesian_model_nuts` runs it, qLogNEI's sampling and maximiser.
#[test]
fn defaults_are_botorchs() {
    let (saas, q) = (Saasbo::default(), QLogNei::default());
    assert_eq!(saas.schedule(), NutsSchedule::default());
    assert_eq!(
        (
            saas.warmup,
            saas.samples,
            saas.thinning,
            saas.max_tree_depth
        ),
        (512, 256, 16, 6)
    );
    assert_eq!(
        (saas.mc_samples, saas.prune_baseline, &saas.maximizer),
        (q.mc_samples, q.prune_baseline, &q.maximizer)
    );
}

#[test]
fn settings_round_trip() {
    let changed = Saasbo::default()
        .warmup(64)
        .samples(32)
        .thinning(8)
        .max_tree_depth(4);
    assert_eq!(Saasbo::read(&resolve(&changed)), changed);
    assert_eq!(changed.schedule().kept(), 4);
}
