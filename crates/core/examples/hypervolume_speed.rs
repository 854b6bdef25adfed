//! Times `pareto::hypervolume` on points spread over the positive orthant of the unit sphere
//! (mutually non-dominated), reference point 1.1 in every objective: 10⁴ points in two and
//! three objectives, 10³ in four and five, 300 in six. `benches/peers/hypervolume_speed.py`
//! builds the same points and times moocore on them.
//!
//! ```sh
//! cargo run --release -p bosweep-core --example hypervolume_speed
//! ```
//!
//! Prints one line per size, `m=… n=… hypervolume=… seconds=… calls=…`: the hypervolume and
//! the median seconds of the timed calls (after one untimed call, as many calls as fit in two
//! seconds, at least 5 and at most 1000).

use bosweep_core::pareto::{Front, hypervolume};
use std::time::Instant;

/// The sizes timed: (objectives, points).
const SIZES: [(usize, usize); 5] = [(2, 10_000), (3, 10_000), (4, 1_000), (5, 1_000), (6, 300)];

/// `n` points on the sphere's positive orthant in `m` objectives: a Kronecker sequence in the
/// unit cube (the fractional parts of `(i + ½)·√pⱼ` for the first primes), each point divided
/// by its norm. Deterministic, so that the Python peer builds the same points.
fn sphere(n: usize, m: usize) -> Vec<f64> {
    const PRIMES: [f64; 8] = [2.0, 3.0, 5.0, 7.0, 11.0, 13.0, 17.0, 19.0];
    let mut values = Vec::with_capacity(n * m);
    for i in 0..n {
        let u: Vec<f64> = PRIMES[..m]
            .iter()
            .map(|p| ((i as f64 + 0.5) * p.sqrt()).fract())
            .collect();
        let norm = u.iter().map(|x| x * x).sum::<f64>().sqrt();
        values.extend(u.iter().map(|x| x / norm));
    }
    values
}

fn main() {
    for (m, n) in SIZES {
        let values = sphere(n, m);
        let front = Front::new(&values, m).expect("finite points");
        let reference = vec![1.1; m];
        let volume = hypervolume(front, &reference).expect("a valid reference point");
        let mut seconds = Vec::new();
        let started = Instant::now();
        while seconds.len() < 5 || (started.elapsed().as_secs_f64() < 2.0 && seconds.len() < 1000) {
            let t = Instant::now();
            std::hint::black_box(hypervolume(front, &reference).expect("valid"));
            seconds.push(t.elapsed().as_secs_f64());
        }
        seconds.sort_by(f64::total_cmp);
        let median = seconds[seconds.len() / 2];
        println!(
            "m={m} n={n} hypervolume={volume:?} seconds={median:e} calls={}",
            seconds.len()
        );
    }
}
