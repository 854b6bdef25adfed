use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::algorithm::{CmaesAlgorithm, mirror};
use super::settings::Cmaes;
use super::strategy::{Distribution, StrategyParameters};
use crate::testing::resolve;
use bosweep_core::params::Settings;
use bosweep_engine::CpuEngine;
use bosweep_problems::Domain;
use bosweep_toolkit::{Algorithm, AlgorithmSettings, AskContext, Feedback};

fn close(ours: f64, reference: f64, what: &str) {
    assert!(
        (ours - reference).abs() <= 1e-12 * reference.abs(),
        "{what}: {ours} against {reference}"
    );
}

/// pycma 3.3's defaults for one dimension, as `benches/peers/cmaes_reference.py` prints them.
struct Pycma {
    n: usize,
    lambda: usize,
    weights: &'static [f64],
    mueff: f64,
    cs: f64,
    damps: f64,
    cc: f64,
    c1: f64,
    cmu: f64,
}

const PYCMA: [Pycma; 3] = [
    Pycma {
        n: 2,
        lambda: 6,
        weights: &[0.6370425712412168, 0.28457025743803294, 0.07838717132075033],
        mueff: 2.0286114646100617,
        cs: 0.5731731629916698,
        damps: 1.5731731629916696,
        cc: 0.6245545390268264,
        c1: 0.1548153998964136,
        cmu: 0.08559277942666424,
    },
    Pycma {
        n: 10,
        lambda: 10,
        weights: &[
            0.45627264690340597,
            0.2707530970017852,
            0.16223111715866978,
            0.08523354710016448,
            0.025509591835974777,
        ],
        mueff: 3.1672992814107017,
        cs: 0.3196142529106334,
        damps: 1.3196142529106334,
        cc: 0.29499038303562225,
        c1: 0.015283824524751714,
        cmu: 0.02355177665041747,
    },
    Pycma {
        n: 40,
        lambda: 15,
        weights: &[
            0.34479619859202054,
            0.22986413239468034,
            0.16263318353883477,
            0.11493206619734017,
            0.07793220508496224,
            0.04770111734149459,
            0.02214109685066719,
        ],
        mueff: 4.5409152090759575,
        cs: 0.13758496613517535,
        damps: 1.1375849661351753,
        cc: 0.09300921663424917,
        c1: 0.0011694327252618397,
        cmu: 0.003405219643706347,
    },
];

/// The strategy parameters are Hansen's Table 1, computed here independently, and agree with
/// pycma where pycma uses the same constants. pycma 3.3 differs in three: its
/// `c_σ = (μ_eff + 2)/(n + μ_eff + 3)` (Table 1: `+ 5`), hence its `d_σ`, and its `c_μ` has
/// `μ_eff − 2 + 1/μ_eff + 0.25` in the numerator (its `rankmu_offset`); those are tested
/// against Table 1, and pycma's numbers against pycma's own formulas, so that the difference is
/// exactly these constants.
#[test]
fn strategy_parameters_are_table_1_and_pycma() {
    for reference in &PYCMA {
        let n = reference.n as f64;
        let lambda = StrategyParameters::default_lambda(reference.n);
        assert_eq!(lambda, reference.lambda);
        assert_eq!(lambda, 4 + (3.0 * n.ln()) as usize);
        let p = StrategyParameters::new(reference.n, lambda);
        assert_eq!(p.mu, lambda / 2);
        assert_eq!(p.weights.len(), reference.weights.len());
        for (i, (&ours, &theirs)) in p.weights.iter().zip(reference.weights).enumerate() {
            close(ours, theirs, &format!("n = {n} w_{}", i + 1));
            let raw = |j: usize| ((lambda as f64 + 1.0) / 2.0).ln() - (j as f64).ln();
            let sum: f64 = (1..=p.mu).map(raw).sum();
            close(ours, raw(i + 1) / sum, "weight formula");
        }
        close(p.weights.iter().sum(), 1.0, "Σ w");
        let mueff = 1.0 / p.weights.iter().map(|w| w * w).sum::<f64>();
        close(p.mueff, mueff, "μ_eff formula");
        close(p.mueff, reference.mueff, "μ_eff");

        let cs = (mueff + 2.0) / (n + mueff + 5.0);
        close(p.cs, cs, "c_σ");
        let ds = 1.0 + 2.0 * f64::max(0.0, ((mueff - 1.0) / (n + 1.0)).sqrt() - 1.0) + cs;
        close(p.ds, ds, "d_σ");
        let cc = (4.0 + mueff / n) / (n + 4.0 + 2.0 * mueff / n);
        close(p.cc, cc, "c_c");
        close(p.cc, reference.cc, "c_c against pycma");
        let c1 = 2.0 / ((n + 1.3) * (n + 1.3) + mueff);
        close(p.c1, c1, "c_1");
        close(p.c1, reference.c1, "c_1 against pycma");
        let cmu = f64::min(
            1.0 - c1,
            2.0 * (mueff - 2.0 + 1.0 / mueff) / ((n + 2.0) * (n + 2.0) + mueff),
        );
        close(p.cmu, cmu, "c_μ");
        let chi = n.sqrt() * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n));
        close(p.chi_n, chi, "E‖N(0, I)‖");

        // pycma's own constants give its numbers.
        let pycma_cs = (mueff + 2.0) / (n + mueff + 3.0);
        close(reference.cs, pycma_cs, "pycma c_σ");
        close(
            reference.damps,
            1.0 + 2.0 * f64::max(0.0, ((mueff - 1.0) / (n + 1.0)).sqrt() - 1.0) + pycma_cs,
            "pycma d_σ",
        );
        close(
            reference.cmu,
            f64::min(
                1.0 - c1,
                2.0 * (0.25 + mueff - 2.0 + 1.0 / mueff) / ((n + 2.0) * (n + 2.0) + mueff),
            ),
            "pycma c_μ",
        );
    }
}

#[test]
fn mirroring_reflects_into_the_unit_interval() {
    for (v, mirrored) in [
        (0.25, 0.25),
        (-0.25, 0.25),
        (1.25, 0.75),
        (2.25, 0.25),
        (-1.75, 0.25),
    ] {
        assert!((mirror(v) - mirrored).abs() < 1e-15, "{v}");
    }
}

/// One algorithm asked and told on a fixed 3-d box with a fixed stream.
struct Bench {
    algorithm: CmaesAlgorithm,
    domain: Domain,
    engine: CpuEngine,
    rng: ChaCha8Rng,
}

impl Bench {
    fn new(settings: &Cmaes) -> Self {
        let params = resolve(settings);
        let mut bench = Self {
            algorithm: CmaesAlgorithm::new(params, settings.clone()),
            domain: Domain::new(vec![-2.0, 0.0, 1.0], vec![2.0, 1.0, 5.0]).unwrap(),
            engine: CpuEngine::new(),
            rng: ChaCha8Rng::seed_from_u64(7),
        };
        bench.tell(&[0.5, 0.5, 2.0], -3.0);
        bench
    }

    fn ask(&mut self) -> Vec<f64> {
        let mut ctx = AskContext {
            engine: &self.engine,
            reference: &self.engine,
            domain: &self.domain,
            allowed: None,
            t: 2,
            pending: &[],
            rng: &mut self.rng,
        };
        self.algorithm.ask(&mut ctx).unwrap().x
    }

    fn tell(&mut self, x: &[f64], y: f64) {
        let feedback = Feedback {
            x,
            y,
            repeats: &[y],
            context: None,
            t: 1,
            objectives: &[],
            constraints: &[],
        };
        self.algorithm.tell(&feedback).unwrap();
    }

    fn distribution(&self) -> &Distribution {
        self.algorithm.distribution.as_ref().unwrap()
    }
}

/// A smooth value to maximise.
fn value(x: &[f64]) -> f64 {
    -x.iter().map(|v| (v - 0.3) * (v - 0.3)).sum::<f64>()
}

/// A generation updates once its λ members are all told, whatever the order: told reversed,
/// the state is the in-order one; extra points asked beyond the population are evaluated (the
/// recommendation sees them) but leave the update alone.
#[test]
fn a_generation_updates_once_every_member_is_told_in_any_order() {
    let mut in_order = Bench::new(&Cmaes::default());
    let mut reversed = Bench::new(&Cmaes::default());
    let mut with_extras = Bench::new(&Cmaes::default());
    let lambda = StrategyParameters::default_lambda(3);
    assert_eq!(lambda, 7);
    for round in 0..2 {
        let members: Vec<Vec<f64>> = (0..lambda).map(|_| in_order.ask()).collect();
        assert_eq!(
            (0..lambda).map(|_| reversed.ask()).collect::<Vec<_>>(),
            members
        );
        let before = in_order.distribution().generation();
        for (i, x) in members.iter().enumerate() {
            assert_eq!(in_order.distribution().generation(), before);
            in_order.tell(x, value(x));
            let back = &members[lambda - 1 - i];
            reversed.tell(back, value(back));
        }
        assert_eq!(in_order.distribution().generation(), before + 1);
        assert_eq!(reversed.distribution(), in_order.distribution());
        if round > 0 {
            // The extras drew from the stream: later generations' members differ.
            continue;
        }
        assert_eq!(
            (0..lambda).map(|_| with_extras.ask()).collect::<Vec<_>>(),
            members
        );
        let extras: Vec<Vec<f64>> = (0..2).map(|_| with_extras.ask()).collect();
        assert!(extras.iter().all(|x| !members.contains(x)));
        assert!(extras.iter().all(|x| with_extras.domain.contains(x)));
        for x in &extras {
            with_extras.tell(x, 10.0);
        }
        for x in &members {
            with_extras.tell(x, value(x));
        }
        assert_eq!(with_extras.distribution(), in_order.distribution());
        let engine = CpuEngine::new();
        assert_eq!(with_extras.algorithm.recommend(&engine).unwrap(), extras[0]);
    }
    let extra = in_order.algorithm.extra();
    assert_eq!(extra["generation"], 2);
    assert_eq!(extra["lambda"], 7);
    assert_eq!(extra["restarts"], 0);
}

/// The first mean is the best told point, in the unit cube; σ is `sigma0` there.
#[test]
fn the_first_mean_is_the_best_told_point() {
    let mut bench = Bench::new(&Cmaes::default().sigma0(0.1));
    bench.tell(&[1.0, 0.25, 4.0], -1.0);
    bench.ask();
    let d = bench.distribution();
    assert_eq!(d.mean.as_slice(), &[0.75, 0.25, 0.75]);
    assert_eq!(d.sigma(), 0.1);
}

#[test]
fn settings_round_trip_and_are_checked() {
    let changed = Cmaes::default()
        .sigma0(0.2)
        .popsize(20)
        .ipop(false)
        .max_restarts(3)
        .tol_x(1e-9)
        .tol_fun(1e-7);
    assert_eq!(Cmaes::read(&resolve(&changed)), changed);
    let err = Cmaes::default().sigma0(0.0).build().err().unwrap();
    assert!(err.to_string().contains("parameter sigma0 = 0"), "{err}");
    let err = Cmaes::default().popsize(1).build().err().unwrap();
    assert!(err.to_string().contains("parameter popsize = 1"), "{err}");
}
