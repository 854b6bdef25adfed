//! An ask/tell loop around your own objective: any registered algorithm, driven step by step
//! from code instead of through `bosweep run`. The objective here is a closure (the
//! six-hump camel, minimised); the algorithm is GP-UCB with κ = 2.
//!
//! ```sh
//! cargo run --release --example ask_tell
//! ```
//!
//! Algorithms work in the maximisation sense: a minimised objective is told as `−f`.

use bosweep::acquisition::{Bounds, SobolGrid};
use bosweep::algorithms::{self, AskContext, Feedback};
use bosweep::compute::CpuEngine;
use bosweep::params::ParamValue;
use bosweep::problems::Domain;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn camel(x: &[f64]) -> f64 {
    let (a, b) = (x[0], x[1]);
    (4.0 - 2.1 * a * a + a.powi(4) / 3.0) * a * a + a * b + (-4.0 + 4.0 * b * b) * b * b
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (lower, upper) = (vec![-3.0, -2.0], vec![3.0, 2.0]);
    let domain = Domain::new(lower.clone(), upper.clone())?;
    let engine = CpuEngine::new();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut algorithm =
        algorithms::build("gp-ucb", &[("ucb_multiplier", ParamValue::Number(2.0))])?;

    let tell = |algorithm: &mut dyn algorithms::Algorithm, x: &[f64], t: usize| {
        let y = -camel(x);
        algorithm.tell(&Feedback {
            x,
            y,
            repeats: &[y],
            context: None,
            t,
        })
    };

    // An initial design of 6 scrambled-Sobol points, then 34 steps the algorithm chooses.
    let design = SobolGrid::new(Bounds::new(lower, upper)?, 6, 1)?.all();
    for (i, x) in design.iter().enumerate() {
        tell(algorithm.as_mut(), x, i + 1)?;
    }
    for t in design.rows() + 1..=40 {
        let mut ctx = AskContext {
            engine: &engine,
            reference: &engine,
            domain: &domain,
            allowed: None,
            t,
            rng: &mut rng,
        };
        let proposal = algorithm.ask(&mut ctx)?;
        tell(algorithm.as_mut(), &proposal.x, t)?;
        if t % 8 == 0 {
            let best = algorithm.recommend(&engine)?;
            println!(
                "step {t:2}: recommends ({:+.4}, {:+.4}), camel = {:.5}",
                best[0],
                best[1],
                camel(&best)
            );
        }
    }
    println!("the minimum is −1.03163 at (±0.0898, ∓0.7126)");
    Ok(())
}
