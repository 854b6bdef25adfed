//! An ask/tell loop around your own objective: GP-UCB with κ = 2 minimising the six-hump
//! camel, 40 evaluations (the first 10 an initial Sobol design).
//!
//! ```sh
//! cargo run --release -p bosweep-examples --bin ask_tell
//! ```

use bosweep::algorithms::{GpUcb, Optimizer};

fn camel(x: &[f64]) -> f64 {
    let (a, b) = (x[0], x[1]);
    (4.0 - 2.1 * a * a + a.powi(4) / 3.0) * a * a + a * b + (-4.0 + 4.0 * b * b) * b * b
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut opt = Optimizer::builder(GpUcb::default().ucb_multiplier(2.0))
        .bounds(&[(-3.0, 3.0), (-2.0, 2.0)])
        .seed(1)
        .minimize()
        .build()?;
    for _ in 0..40 {
        for x in opt.ask(1)? {
            opt.tell(&x, camel(&x))?;
        }
    }
    let best = opt.recommend().expect("values were told");
    println!(
        "recommended ({:+.4}, {:+.4}), camel = {:.5}",
        best[0],
        best[1],
        camel(best)
    );
    println!("the minimum is −1.03163 at (±0.0898, ∓0.7126)");
    Ok(())
}
