use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::algorithm::BaxusAlgorithm;
use super::embedding::Embedding;
use super::schedule::{SplitSchedule, initial_target_dim, planned_splits};
use super::settings::Baxus;
use crate::testing::resolve;
use bosweep_core::params::Settings;
use bosweep_engine::CpuEngine;
use bosweep_model::KernelFamily;
use bosweep_problems::Domain;
use bosweep_toolkit::{Algorithm, AlgorithmError, AlgorithmSettings, AskContext, Feedback};

/// Every input dimension lies in exactly one of `target_dim` bins, whose sizes differ by at
/// most one.
fn assert_partition(embedding: &Embedding, input_dim: usize, target_dim: usize) {
    let bins = embedding.bins();
    assert_eq!(bins.len(), target_dim);
    assert_eq!(embedding.target_dim(), target_dim);
    let mut all: Vec<usize> = bins.iter().flatten().copied().collect();
    all.sort_unstable();
    assert_eq!(all, (0..input_dim).collect::<Vec<_>>(), "{bins:?}");
    let sizes: Vec<usize> = bins.iter().map(Vec::len).collect();
    let (least, most) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
    assert!(*least >= 1 && most - least <= 1, "bin sizes {sizes:?}");
}

/// `Sᵀz` in the unit cube takes each input coordinate from its bin, as `z_j` (sign +1) or
/// `1 − z_j` (sign −1): at `z = 0` the image holds only 0 (sign +1) and 1 (sign −1), at `z = 1`
/// its complement, and elsewhere every coordinate is its bin's value or that value's complement
/// as the signs at 0 say. Returns how many signs are +1.
fn assert_signed_image(embedding: &Embedding, rng: &mut ChaCha8Rng) -> usize {
    let d = embedding.target_dim();
    let at_zero = embedding.up(&vec![0.0; d]);
    assert!(at_zero.iter().all(|&x| x == 0.0 || x == 1.0), "{at_zero:?}");
    let at_one = embedding.up(&vec![1.0; d]);
    assert!(at_zero.iter().zip(&at_one).all(|(a, b)| a + b == 1.0));
    let z: Vec<f64> = (0..d).map(|_| rng.random::<f64>()).collect();
    let image = embedding.up(&z);
    for (j, bin) in embedding.bins().iter().enumerate() {
        for &i in bin {
            let expected = if at_zero[i] == 0.0 { z[j] } else { 1.0 - z[j] };
            assert_eq!(image[i], expected, "input {i} of bin {j}");
        }
    }
    at_zero.iter().filter(|&&x| x == 0.0).count()
}

/// Random embeddings partition the input dimensions into near-equal bins with signs ±1 (both
/// present among 100); at `d = D` the embedding is the identity.
#[test]
fn an_embedding_puts_each_input_dimension_in_one_bin_with_a_sign() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for (input_dim, target_dim) in [(100, 2), (50, 3), (30, 7), (7, 3), (10, 9)] {
        let embedding = Embedding::new(input_dim, target_dim, &mut rng);
        assert_eq!(embedding.input_dim(), input_dim);
        assert_partition(&embedding, input_dim, target_dim);
        let positive = assert_signed_image(&embedding, &mut rng);
        if input_dim == 100 {
            assert!(0 < positive && positive < 100, "{positive} positive signs");
        }
    }
    let identity = Embedding::new(5, 5, &mut rng);
    let z = [0.1, 0.2, 0.3, 0.4, 0.5];
    assert_eq!(identity.up(&z), z.to_vec());
    assert_eq!(Embedding::new(5, 8, &mut rng).target_dim(), 5);
}

/// Splits with b = 3 take 100 input dimensions from 2 bins to 8, 32 and 100, and 50 from 3 to
/// 12, 48 and 50 (bins of 5 split 2, 1, 1, 1; the two left with 2 split in two); the bins stay a
/// near-equal partition, and every target point lifted into the new space has the same image
/// as before the split.
#[test]
fn splits_are_nested_and_reach_the_input_dimension() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for (input_dim, dims) in [(100, vec![2, 8, 32, 100]), (50, vec![3, 12, 48, 50])] {
        let mut embedding = Embedding::new(input_dim, dims[0], &mut rng);
        for &next in &dims[1..] {
            let before = embedding.clone();
            let split = embedding.split(3, &mut rng);
            assert_partition(&embedding, input_dim, next);
            assert_signed_image(&embedding, &mut rng);
            for _ in 0..20 {
                let z: Vec<f64> = (0..before.target_dim())
                    .map(|_| rng.random::<f64>())
                    .collect();
                let lifted = split.lift(&z);
                assert_eq!(lifted.len(), next);
                assert_eq!(embedding.up(&lifted), before.up(&z));
            }
        }
        // At the input dimension no bin can split.
        let full = embedding.clone();
        embedding.split(3, &mut rng);
        assert_eq!(embedding, full);
    }
}

/// The initial target dimension and its planned splits, from the reference's
/// `_adjust_init_target_dim` (LeoIV/BAxUS, `baxus/baxus.py`) evaluated by hand: e.g. at D = 100,
/// b = 3, d0 = 1, 2, 3 plan round(log₄ 100) = 3, round(log₄ 50) = 3, round(log₄ 33.3) = 3 splits
/// reaching 64, 128, 192, which miss 100 by 36, 28 and 92: d_init = 2. At D = 50 the misses are
/// 14 (64), 18 (32) and 2 (48): d_init = 3, where BoTorch's tutorial gives 1.
#[test]
fn the_initial_target_dimension_is_the_references() {
    for (input_dim, new_bins, expected, splits) in [
        (100, 3, 2, 3),
        (50, 3, 3, 2),
        (30, 3, 2, 2),
        (25, 3, 2, 2),
        (10, 3, 2, 1),
        // The tutorial's example: 500 dimensions, d_init = 2 and 4 splits.
        (500, 3, 2, 4),
        // One new bin: d0 ranges over {1} alone.
        (100, 1, 1, 7),
        // Base 6: misses 116 (216), 28 (72), 8 (108), 44 (144), 80 (180).
        (100, 5, 3, 2),
        // round(log₄ 2) = round(0.5) = 0 with Python's halves to even: d0 = 1 misses by 1,
        // d0 = 2 hits 2.
        (2, 3, 2, 0),
        (3, 3, 3, 0),
        (1, 3, 1, 0),
    ] {
        let d_init = initial_target_dim(input_dim, new_bins);
        assert_eq!(d_init, expected, "D = {input_dim}, b = {new_bins}");
        assert_eq!(planned_splits(input_dim, d_init, new_bins), splits);
    }
}

/// The reference's failure tolerance (`failtol` of `baxus/baxus.py`) at D = 100, b = 3,
/// d0 = 2, n = 3 splits, γ = 2 log_{1/2}(0.5⁷/0.8) = 13.356: the split budget of dimension d is
/// B·d·3/510, B the evaluations left (510 = 2 (4⁴ − 1)). With B = 480: 5.65, 22.59, 90.35 for
/// d = 2, 8, 32, so ⌈·/γ⌉ = 1, 2, 7; with B = 980: 11.53, 46.12, 184.47, so 1, 4, 14; at
/// d = D, max(4, D) = 100. A budget the designs overspend gives 1.
#[test]
fn the_failure_tolerance_is_the_references() {
    let lengths = (0.8, 0.5f64.powi(7));
    for (evaluations, expected) in [(480.0, [1, 2, 7, 100]), (980.0, [1, 4, 14, 100])] {
        let schedule = SplitSchedule::new(100, 2, 3, evaluations, lengths);
        let tolerances: Vec<usize> = [2, 8, 32, 100]
            .iter()
            .map(|&d| schedule.failure_tolerance(d))
            .collect();
        assert_eq!(tolerances, expected, "B = {evaluations}");
        assert!((schedule.split_budget(8) - evaluations * 24.0 / 510.0).abs() < 1e-12);
        // The shares of the planned spaces 2, 8, 32, 128 add up to the budget.
        let total: f64 = [2, 8, 32, 128]
            .iter()
            .map(|&d| schedule.split_budget(d))
            .sum();
        assert!((total - evaluations).abs() < 1e-9, "{total}");
    }
    let overspent = SplitSchedule::new(100, 2, 3, -5.0, lengths);
    assert_eq!(overspent.failure_tolerance(32), 1);
    // D = 50 from d0 = 3 (n = 2, 3·(4³ − 1) = 189), B = 90: the split budgets of d = 3, 12, 48
    // are 4.29, 17.14, 68.57, so ⌈·/γ⌉ = 1, 2, 6.
    let fifty = SplitSchedule::new(50, 3, 3, 90.0, lengths);
    let tolerances: Vec<usize> = [3, 12, 48]
        .iter()
        .map(|&d| fifty.failure_tolerance(d))
        .collect();
    assert_eq!(tolerances, [1, 2, 6]);
    assert_eq!(fifty.failure_tolerance(50), 50);
    // L_min = L_init: γ = 0, the reference's max(4, d).
    let flat = SplitSchedule::new(100, 2, 3, 480.0, (0.5, 0.5));
    assert_eq!(flat.failure_tolerance(2), 4);
}

/// Drives the algorithm by hand on `[0, 1]^D`, keeping what it was told.
struct Bench {
    algorithm: BaxusAlgorithm,
    engine: CpuEngine,
    domain: Domain,
    rng: ChaCha8Rng,
    told: Vec<(Vec<f64>, f64)>,
}

impl Bench {
    fn new(settings: &Baxus, dim: usize) -> Self {
        Self {
            algorithm: BaxusAlgorithm::new(resolve(settings), settings.clone()),
            engine: CpuEngine::new(),
            domain: Domain::cube(0.0, 1.0, dim).unwrap(),
            rng: ChaCha8Rng::seed_from_u64(3),
            told: Vec::new(),
        }
    }

    fn try_ask(&mut self, pending: &[Vec<f64>]) -> Result<Vec<f64>, AlgorithmError> {
        let mut ctx = AskContext {
            engine: &self.engine,
            reference: &self.engine,
            domain: &self.domain,
            allowed: None,
            t: 2,
            pending,
            rng: &mut self.rng,
        };
        Ok(self.algorithm.ask(&mut ctx)?.x)
    }

    fn ask(&mut self, pending: &[Vec<f64>]) -> Vec<f64> {
        let x = self.try_ask(pending).unwrap();
        assert!(self.domain.contains(&x), "{x:?}");
        x
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
        self.told.push((x.to_vec(), y));
    }

    fn extra(&mut self, key: &str) -> serde_json::Value {
        self.algorithm.extra()[key].clone()
    }
}

/// A smooth value to maximise in the first two coordinates.
fn value(x: &[f64]) -> f64 {
    -((x[0] - 0.3).powi(2) + (x[1] - 0.7).powi(2))
}

/// In 10 dimensions (d_init = 2: round(log₄ 5) = 1 split reaches 8, 2 from 10, as d0 = 3's 12),
/// planned for 30 evaluations, 5 of them the run's design (points of the whole box) and 5 its
/// own design: 20 left for the splits.
fn started(settings: &Baxus) -> Bench {
    let mut bench = Bench::new(&settings.clone().budget(30), 10);
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for _ in 0..5 {
        let x: Vec<f64> = (0..10).map(|_| rng.random::<f64>()).collect();
        bench.tell(&x, value(&x));
    }
    for _ in 0..5 {
        let x = bench.ask(&[]);
        assert_eq!(bench.extra("phase"), "design");
        bench.tell(&x, value(&x));
    }
    assert_eq!(
        bench.algorithm.data_images().len(),
        5,
        "the run's design is not data"
    );
    bench
}

/// Failing every step: with B = 20 the tolerance is 1 at d = 2 (split budget 20·2·3/30 = 4,
/// ⌈4/13.36⌉) and 2 at d = 8 (16/13.36), so 7 halvings from 0.8 below 0.5⁷ take 7 failures,
/// then 14: the target dimension goes 2, 8, 10 (the bins of 5 split 2, 1, 1, 1, then the two of
/// 2 in two), the region restarts at L = 0.8 on the lifted data, whose images are the points
/// told, and at D = 10 the tolerance is max(4, 10).
#[test]
fn a_collapsed_region_splits_the_target_space_on_lifted_data() {
    let mut bench = started(&Baxus::default().n_candidates(64));
    let mut dims = Vec::new();
    let mut told = bench.algorithm.data_images();
    for _ in 0..21 {
        let x = bench.ask(&[]);
        assert_eq!(bench.extra("phase"), "region");
        dims.push(bench.extra("target_dim").as_u64().unwrap());
        bench.tell(&x, -10.0);
        told.push((x, -10.0));
    }
    assert_eq!(dims, [vec![2; 7], vec![8; 14]].concat());
    let x = bench.ask(&[]);
    assert_eq!(bench.extra("phase"), "region", "a split needs no design");
    assert_eq!(
        (bench.extra("target_dim"), bench.extra("splits")),
        (10.into(), 2.into())
    );
    assert_eq!(bench.extra("length"), 0.8);
    assert_eq!(bench.extra("failure_tolerance"), 10);
    assert_eq!(bench.algorithm.data_images(), told);
    bench.tell(&x, -10.0);
    // The best of the whole run, the run's design included, stays the recommendation.
    let best = bench
        .told
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap()
        .0
        .clone();
    assert_eq!(bench.algorithm.recommend(&bench.engine).unwrap(), best);
}

/// With `length_min = 0.5` one halving collapses the region, and the tolerances are 3 at d = 2
/// (γ = 2 log_{1/2}(0.625) = 1.356, ⌈4/1.356⌉) and 8 at d = 8 (min(⌈16/1.356⌉, 8)): after 3, 8
/// and 10 failures, the last at D = 10, the search restarts from a fresh 5-point design on the
/// identity embedding, the data forgotten.
#[test]
fn at_the_input_dimension_a_collapse_restarts_from_a_design() {
    let mut bench = started(&Baxus::default().n_candidates(32).length_min(0.5));
    let mut tolerances = Vec::new();
    for _ in 0..21 {
        let x = bench.ask(&[]);
        tolerances.push(bench.extra("failure_tolerance").as_u64().unwrap());
        bench.tell(&x, -10.0);
    }
    assert_eq!(tolerances, [vec![3; 3], vec![8; 8], vec![10; 10]].concat());
    assert_eq!(bench.extra("restarts"), 0);
    for step in 0..5 {
        let x = bench.ask(&[]);
        assert_eq!(bench.extra("phase"), "design", "step {step}");
        assert_eq!(bench.algorithm.data_images().len(), step);
        bench.tell(&x, value(&x));
    }
    assert_eq!(
        (bench.extra("restarts"), bench.extra("target_dim")),
        (1.into(), 10.into())
    );
    bench.ask(&[]);
    assert_eq!(bench.extra("phase"), "region");
}

/// Two points out at a time (q = 2): the tolerance at d = 2 is ⌈3/2⌉ = 2 failed pairs. A point
/// asked before the split and told after it joins the new space's data, its image unchanged,
/// without moving the new region's counters.
#[test]
fn a_point_asked_before_a_split_joins_the_lifted_data() {
    let mut bench = started(&Baxus::default().n_candidates(32).length_min(0.5));
    let a = bench.ask(&[]);
    let b = bench.ask(std::slice::from_ref(&a));
    assert_eq!(
        (bench.extra("batch"), bench.extra("failure_tolerance")),
        (2.into(), 2.into())
    );
    assert_ne!(a, b);
    bench.tell(&a, -10.0);
    let c = bench.ask(std::slice::from_ref(&b));
    bench.tell(&b, -10.0);
    assert_eq!(bench.extra("failures"), 1);
    let d = bench.ask(std::slice::from_ref(&c));
    bench.tell(&c, -10.0);
    let e = bench.ask(std::slice::from_ref(&d));
    bench.tell(&d, -10.0);
    // The pair {c, d} failed: 0.8 halves below 0.5; the next ask splits.
    let f = bench.ask(std::slice::from_ref(&e));
    assert_eq!(
        (bench.extra("target_dim"), bench.extra("splits")),
        (8.into(), 1.into())
    );
    let before = bench.algorithm.data_images().len();
    bench.tell(&e, -10.0);
    let images = bench.algorithm.data_images();
    assert_eq!(images.len(), before + 1);
    assert_eq!(images[before], (e, -10.0));
    assert_eq!(bench.extra("failures"), 0);
    bench.tell(&f, -10.0);
    assert_eq!(bench.extra("failures"), 0, "f waits for its pair");
}

/// The same seed gives the same points; without a budget, from the setting or a run, the
/// first ask says what to set; the trace's fields are there.
#[test]
fn asks_repeat_from_the_seed_and_need_a_budget() {
    let settings = Baxus::default().n_candidates(64);
    let run = || {
        let mut bench = started(&settings);
        (0..6)
            .map(|_| {
                let x = bench.ask(&[]);
                bench.tell(&x, value(&x));
                x
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
    let mut bench = Bench::new(&settings, 10);
    let err = bench.try_ask(&[]).unwrap_err();
    assert!(err.to_string().contains("set budget"), "{err}");
    bench.algorithm.plan_budget(40);
    bench.ask(&[]);
    let mut bench = started(&settings);
    bench.ask(&[]);
    let extra = bench.algorithm.extra();
    for key in [
        "target_dim",
        "length",
        "successes",
        "failures",
        "failure_tolerance",
        "batch",
        "splits",
        "restarts",
        "phase",
        "jitter",
    ] {
        assert!(extra.contains_key(key), "{key}: {extra:?}");
    }
}

#[test]
fn settings_defaults_are_the_references_and_round_trip() {
    let defaults = Baxus::default();
    assert_eq!(
        (
            defaults.new_bins,
            defaults.budget,
            defaults.design,
            defaults.n_candidates,
            defaults.length_init,
            defaults.length_min,
            defaults.length_max,
            defaults.success_tolerance,
        ),
        (3, 0, 0, 0, 0.8, 0.5f64.powi(7), 1.6, 3)
    );
    assert_eq!(defaults.gp.kernel, KernelFamily::Matern52);
    let changed = Baxus::default()
        .new_bins(2)
        .budget(300)
        .design(12)
        .n_candidates(300)
        .length_init(0.5)
        .length_min(0.01)
        .length_max(1.0)
        .success_tolerance(2)
        .gp(|gp| gp.kernel(KernelFamily::Matern32));
    assert_eq!(Baxus::read(&resolve(&changed)), changed);
    let err = Baxus::default().length_init(2.0).build().err().unwrap();
    assert!(err.to_string().contains("length_init = 2"), "{err}");
}
