//! The typed settings of every member: their defaults, values through the registry and back,
//! and the switches each sets.

use super::*;
use crate::testing::resolve;
use crate::{GammaSchedule, ThetaLoss};
use bosweep_core::params::Settings;
use bosweep_toolkit::acquisition::{MaximizerSettings, RefineGradient};
use bosweep_toolkit::{AlgorithmSettings, Optimizer};

/// A GP-UCB step with every field away from its default.
fn changed_gp() -> UheGpSettings {
    UheGpSettings {
        ucb_beta: 4.0,
        loss: ThetaLoss::Mle,
        lengthscale: 0.5,
        signal_var: 2.0,
        noise_var: 0.05,
        random_starts: 5,
        maximizer: MaximizerSettings {
            grid_size: 512,
            top_k: 4,
            refine: false,
            max_iters: 30,
            gradient: RefineGradient::Analytic,
        },
    }
}

fn changed_pairs() -> Exp3PairSettings {
    Exp3PairSettings {
        gamma_schedule: GammaSchedule::Constant,
        gamma: 0.3,
        scaling: RewardScaling {
            reward_clip: RewardClip::Unit,
        },
    }
}

#[test]
fn defaults_are_the_papers_and_ours() {
    let defaults: [&dyn AlgorithmSettings; 8] = [
        &UheBo::default(),
        &RaBo::default(),
        &RandomExp3::default(),
        &MapGpUcb::default(),
        &McmcGpUcb::default(),
        &AGpUcb::default(),
        &WangDeFreitas::default(),
        &Portfolio::default(),
    ];
    let names: Vec<&str> = defaults.iter().map(|s| s.name()).collect();
    let family: Vec<&str> = ENTRIES.iter().map(|e| e.name).collect();
    assert_eq!(names, family);
    let uhe = UheBo::default();
    assert_eq!(
        (uhe.gp.ucb_beta, uhe.gp.loss, uhe.gp.maximizer.top_k),
        (1.96, ThetaLoss::Map, 10)
    );
    assert_eq!(
        (uhe.pseudo.m_factor, uhe.pairs.gamma_schedule),
        (2.0, GammaSchedule::Paper)
    );
    assert_eq!(uhe.pairs.gamma_at(1), super::super::uhe_gamma(1));
    assert_eq!(uhe.gp.maximizer.grid_size, 0);
    assert_eq!(uhe.gp.grid_size(3), 3000);
    assert_eq!(McmcGpUcb::default().mcmc_burn_in, 200);
    assert_eq!(AGpUcb::default().agp_exponent, 0.9);
    assert_eq!(WangDeFreitas::default().wdf_kappa, 0.1);
    assert_eq!(
        Portfolio::default().portfolio_arms,
        PortfolioArms::RandomUcb
    );
}

#[test]
fn settings_with_every_field_changed_round_trip() {
    let uhe = UheBo {
        gp: changed_gp(),
        pseudo: PseudoData { m_factor: 3.5 },
        pairs: changed_pairs(),
    };
    assert_eq!(UheBo::read(&resolve(&uhe)), uhe);
    assert_eq!(uhe.pairs.gamma_at(1), 0.3);
    let ra = RaBo {
        gp: changed_gp(),
        pseudo: PseudoData { m_factor: 0.5 },
    };
    assert_eq!(RaBo::read(&resolve(&ra)), ra);
    let random = RandomExp3 {
        gp: changed_gp(),
        pseudo: PseudoData { m_factor: 0.5 },
        pairs: changed_pairs(),
    };
    assert_eq!(RandomExp3::read(&resolve(&random)), random);
    let map = MapGpUcb { gp: changed_gp() };
    assert_eq!(MapGpUcb::read(&resolve(&map)), map);
    let mcmc = McmcGpUcb {
        gp: changed_gp(),
        mcmc_burn_in: 50,
        mcmc_samples: 4,
        mcmc_thin: 2,
        slice_width: 0.5,
    };
    assert_eq!(McmcGpUcb::read(&resolve(&mcmc)), mcmc);
    let agp = AGpUcb {
        gp: changed_gp(),
        agp_exponent: 0.7,
        agp_ratio: 1.5,
    };
    assert_eq!(AGpUcb::read(&resolve(&agp)), agp);
    let wdf = WangDeFreitas {
        gp: changed_gp(),
        wdf_kappa: 0.2,
        wdf_shrink: 0.5,
        wdf_max_steps: 7,
    };
    assert_eq!(WangDeFreitas::read(&resolve(&wdf)), wdf);
    let portfolio = Portfolio {
        gp: changed_gp(),
        scaling: RewardScaling {
            reward_clip: RewardClip::Unit,
        },
        portfolio_arms: PortfolioArms::EiPiUcb,
        pi_xi: 0.1,
    };
    assert_eq!(Portfolio::read(&resolve(&portfolio)), portfolio);
}

#[test]
fn setters_change_their_fields() {
    let uhe = UheBo::default()
        .gp(|gp| gp.ucb_beta(3.0))
        .pseudo(|p| p.m_factor(4.0))
        .pairs(|p| p.gamma_schedule(GammaSchedule::Constant).gamma(0.2));
    assert_eq!(
        (uhe.gp.ucb_beta, uhe.pseudo.m_factor, uhe.pairs.gamma_at(5)),
        (3.0, 4.0, 0.2)
    );
    assert_eq!(McmcGpUcb::default().mcmc_samples(3).mcmc_samples, 3);
    assert_eq!(
        Portfolio::default()
            .portfolio_arms(PortfolioArms::EiPiUcb)
            .portfolio_arms,
        PortfolioArms::EiPiUcb
    );
}

#[test]
fn out_of_range_values_are_refused_by_name() {
    let message = |settings: &dyn AlgorithmSettings| match settings.build() {
        Ok(_) => panic!("{} built out of range", settings.name()),
        Err(e) => e.to_string(),
    };
    let beta = message(&UheBo::default().gp(|gp| gp.ucb_beta(-1.0)));
    assert!(
        beta.contains("uhe-bo") && beta.contains("ucb_beta"),
        "{beta}"
    );
    let chain = message(&McmcGpUcb::default().mcmc_samples(0));
    assert!(chain.contains("mcmc_samples"), "{chain}");
    let gamma = message(
        &RandomExp3::default().pairs(|p| p.gamma_schedule(GammaSchedule::Constant).gamma(2.0)),
    );
    assert!(gamma.contains("parameter gamma "), "{gamma}");
    let kappa = message(&WangDeFreitas::default().wdf_kappa(-0.1));
    assert!(kappa.contains("wdf_kappa"), "{kappa}");
}

/// Minimises `(x₀ − 0.3)² + (x₁ + 0.2)²` on [−1, 1]² for `steps` steps after 4 initial
/// points: every point asked, with its value, and the recommendation.
fn run(settings: UheBo, steps: usize) -> (Vec<(Vec<f64>, f64)>, Vec<f64>) {
    let mut opt = Optimizer::builder(settings)
        .bounds(&[(-1.0, 1.0); 2])
        .seed(11)
        .init(4)
        .minimize()
        .build()
        .unwrap();
    let mut told = Vec::new();
    for _ in 0..4 + steps {
        for x in opt.ask(1).unwrap() {
            let y = (x[0] - 0.3).powi(2) + (x[1] + 0.2).powi(2);
            opt.tell(&x, y).unwrap();
            told.push((x, y));
        }
    }
    (told, opt.recommend().unwrap().to_vec())
}

#[test]
fn the_optimizer_runs_uhe_bo_reproducibly_and_recommends_the_best_point() {
    let settings = UheBo::default()
        .pseudo(|p| p.m_factor(1.0))
        .gp(|gp| gp.maximizer(|m| m.grid_size(256)));
    let (told, recommended) = run(settings.clone(), 6);
    assert_eq!(told.len(), 10);
    assert!(
        told.iter()
            .all(|(x, _)| x.iter().all(|v| (-1.0..=1.0).contains(v)))
    );
    let best = told
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(x, _)| x.clone())
        .unwrap();
    assert_eq!(recommended, best);
    assert_eq!(run(settings, 6), (told, recommended));
}
