//! A GP posterior over a million candidates: fit a GP (MAP, BoTorch's priors) to 100 noisy
//! observations of Branin, then evaluate its posterior mean and variance at 2^20 scrambled-Sobol
//! points in one engine call and report where it expects the minimum and where it is least sure.
//!
//! ```sh
//! cargo run --release -p bosweep-examples --bin gp_posterior         # a hardware GPU if any
//! cargo run --release -p bosweep-examples --bin gp_posterior -- cpu  # or cpu / gpu
//! ```

use std::time::Instant;

use bosweep::acquisition::{Bounds, SobolGrid};
use bosweep::compute::{DeviceChoice, Points, Precision, select_engine};
use bosweep::model::{FitMode, FitOptions, Kernel, KernelKind, Priors};
use bosweep::surrogate::{GpModel, ModelOptions};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn branin(x: &[f64]) -> f64 {
    let (a, b, c) = (
        1.0,
        5.1 / (4.0 * std::f64::consts::PI.powi(2)),
        5.0 / std::f64::consts::PI,
    );
    let (r, s, t) = (6.0, 10.0, 1.0 / (8.0 * std::f64::consts::PI));
    a * (x[1] - b * x[0] * x[0] + c * x[0] - r).powi(2) + s * (1.0 - t) * x[0].cos() + s
}

fn argmin(values: &[f64]) -> usize {
    (0..values.len())
        .min_by(|&a, &b| values[a].total_cmp(&values[b]))
        .expect("a million candidates")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let device: DeviceChoice = std::env::args()
        .nth(1)
        .as_deref()
        .unwrap_or("auto")
        .parse()?;
    let engine = select_engine(device, Precision::F32, None)?;
    let (lower, upper) = ([-5.0, 0.0], [10.0, 15.0]);

    // 100 noisy observations, uniform in the box.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let rows: Vec<Vec<f64>> = (0..100)
        .map(|_| vec![rng.random_range(-5.0..10.0), rng.random_range(0.0..15.0)])
        .collect();
    let y: Vec<f64> = rows
        .iter()
        .map(|x| branin(x) + 0.1 * rng.random::<f64>())
        .collect();
    let train = Points::from_rows(&rows)?;

    let fit = FitOptions {
        mode: FitMode::Map {
            priors: Priors::botorch(),
        },
        ..FitOptions::default()
    };
    let options = ModelOptions::for_box(&lower, &upper)?.with_fit(fit);
    let start = Instant::now();
    let kernel = Kernel::new(KernelKind::Matern52, vec![0.2, 0.2], 1.0)?;
    let model = GpModel::fit(&train, &y, kernel, &options)?;
    println!(
        "fitted 100 points in {:.3} s",
        start.elapsed().as_secs_f64()
    );

    let candidates =
        SobolGrid::new(Bounds::new(lower.to_vec(), upper.to_vec())?, 1 << 20, 1)?.all();
    let start = Instant::now();
    let posterior = model.predict(engine.as_ref(), &candidates)?;
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "posterior at {} candidates on {}: {seconds:.3} s",
        candidates.rows(),
        engine.describe()
    );

    // Branin is minimised: the model's best guess is the lowest posterior mean; the largest
    // standard deviation is where it knows least.
    let lowest = argmin(&posterior.mean);
    let x = candidates.row(lowest);
    println!(
        "lowest posterior mean {:.4} at ({:.4}, {:.4}); Branin there is {:.4} (minimum 0.3979)",
        posterior.mean[lowest],
        x[0],
        x[1],
        branin(x)
    );
    let std: Vec<f64> = posterior.std().map(|s| -s).collect();
    let widest = candidates.row(argmin(&std));
    println!(
        "largest posterior std {:.4} at ({:.4}, {:.4})",
        -std[argmin(&std)],
        widest[0],
        widest[1]
    );
    Ok(())
}
