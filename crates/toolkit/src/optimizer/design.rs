//! The initial design of a run: the points evaluated before the algorithm is first asked,
//! drawn from the design stream so that every algorithm of a sweep replicate starts from the
//! same points.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::acquisition::{Bounds, SobolGrid};
use crate::algorithm::AlgorithmError;
use bosweep_problems::{Domain, Problem};

/// The initial design: `count` scrambled-Sobol points in the box, or `count` distinct members
/// of the allowed set at step 1 (all of them if it has fewer), or for a time-varying allowed set
/// one member of the set at each step.
pub fn initial_design(
    problem: &dyn Problem,
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Vec<f64>>, AlgorithmError> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if problem.time_varying() && problem.allowed_set(1).is_some() {
        return time_varying_design(problem, count, rng);
    }
    if let Some(set) = problem.allowed_set(1) {
        let mut rows: Vec<usize> = (0..set.rows()).collect();
        for i in 0..count.min(rows.len()) {
            let j = rng.random_range(i..rows.len());
            rows.swap(i, j);
        }
        return Ok(rows
            .iter()
            .take(count)
            .map(|&i| set.row(i).to_vec())
            .collect());
    }
    box_design(problem.domain(), count, rng)
}

/// `count` scrambled-Sobol points in `domain`, the scrambling drawn from `rng`: the initial
/// design of a problem with no allowed set.
pub fn box_design(
    domain: &Domain,
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Vec<f64>>, AlgorithmError> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let bounds = Bounds::new(domain.lower().to_vec(), domain.upper().to_vec())?;
    let grid = SobolGrid::new(bounds, count, rng.random())?;
    Ok((0..count).map(|i| grid.point(i)).collect())
}

/// The initial design of a problem whose allowed set changes with time: the point of step `t`
/// is drawn from the allowed set at `t`, among its members not drawn yet where there are any.
fn time_varying_design(
    problem: &dyn Problem,
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Vec<f64>>, AlgorithmError> {
    let mut design: Vec<Vec<f64>> = Vec::with_capacity(count);
    for t in 1..=count {
        let Some(set) = problem.allowed_set(t).filter(|s| s.rows() > 0) else {
            return Err(AlgorithmError::Config(format!(
                "{}: the allowed set at step {t} is empty",
                problem.name()
            )));
        };
        let fresh: Vec<usize> = (0..set.rows())
            .filter(|&i| !design.iter().any(|x| x.as_slice() == set.row(i)))
            .collect();
        let row = if fresh.is_empty() {
            rng.random_range(0..set.rows())
        } else {
            fresh[rng.random_range(0..fresh.len())]
        };
        design.push(set.row(row).to_vec());
    }
    Ok(design)
}
