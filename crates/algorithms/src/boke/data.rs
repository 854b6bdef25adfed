//! Observations kept twice: in the problem's coordinates (recommendations, exact re-sampling)
//! and in unit-cube coordinates, where every kernel and bandwidth of BOKE lives.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use bosweep_engine::{EngineError, Points};
use bosweep_problems::Domain;
use bosweep_toolkit::History;

/// The history with its unit-cube image. `tell` does not see the domain, so points are mapped
/// lazily, at the next `ask` or recommendation, once the domain is known.
#[derive(Clone, Debug, Default)]
pub struct UnitHistory {
    raw: History,
    units: Vec<f64>,
    mapped: usize,
    domain: Option<Domain>,
}

impl UnitHistory {
    pub fn push(&mut self, x: &[f64], y: f64) {
        self.raw.push(x, y);
    }

    pub fn len(&self) -> usize {
        self.raw.len()
    }

    pub fn raw(&self) -> &History {
        &self.raw
    }

    pub fn ys(&self) -> &[f64] {
        self.raw.ys()
    }

    pub fn domain(&self) -> Option<&Domain> {
        self.domain.as_ref()
    }

    /// Remembers the domain and maps every new point into the unit cube.
    pub fn sync(&mut self, domain: &Domain) {
        if self.domain.is_none() {
            self.domain = Some(domain.clone());
        }
        while self.mapped < self.raw.len() {
            self.units.extend(domain.to_unit(self.raw.x(self.mapped)));
            self.mapped += 1;
        }
    }

    /// The unit-cube points (call [`UnitHistory::sync`] first).
    pub fn units(&self) -> Result<Points, EngineError> {
        let dim = self.domain.as_ref().map_or(1, Domain::dim);
        Points::new(self.units.clone(), dim)
    }

    /// The unit-cube images of the `count` observations of largest y (ties: earlier first).
    pub fn best_units(&self, count: usize) -> Vec<Vec<f64>> {
        let ys = self.raw.ys();
        let mut order: Vec<usize> = (0..self.mapped).collect();
        order.sort_by(|&a, &b| ys[b].total_cmp(&ys[a]).then(a.cmp(&b)));
        let dim = self.domain.as_ref().map_or(1, Domain::dim);
        order
            .into_iter()
            .take(count)
            .map(|i| self.units[i * dim..(i + 1) * dim].to_vec())
            .collect()
    }
}

/// The paper's Latin-hypercube initial design (Zhu et al. 2025, §5), proposed by the algorithm itself: the run
/// loop's own initial design is scrambled Sobol, so the paper's protocol runs with `init = 0`
/// and `lhs_init = n0`. The whole design is drawn from the run's generator at the first ask,
/// before any noise draw, so every algorithm of a seed starts from the same design.
#[derive(Clone, Debug, Default)]
pub struct LatinHypercube {
    size: usize,
    points: Option<Vec<Vec<f64>>>,
    next: usize,
}

impl LatinHypercube {
    pub fn new(size: usize) -> Self {
        Self {
            size,
            points: None,
            next: 0,
        }
    }

    /// The next design point in the problem's coordinates, or `None` once the design is spent.
    pub fn next(&mut self, domain: &Domain, rng: &mut ChaCha8Rng) -> Option<Vec<f64>> {
        if self.next >= self.size {
            return None;
        }
        let size = self.size;
        let points = self
            .points
            .get_or_insert_with(|| latin_hypercube(size, domain.dim(), rng));
        let x = domain.from_unit(&points[self.next]);
        self.next += 1;
        Some(x)
    }
}

/// `n` points in `[0, 1]^d`, one in each of the `n` strata of every coordinate: an independent
/// random permutation of the strata per coordinate, uniform within each cell.
pub fn latin_hypercube(n: usize, dim: usize, rng: &mut ChaCha8Rng) -> Vec<Vec<f64>> {
    let strata: Vec<Vec<usize>> = (0..dim)
        .map(|_| {
            let mut perm: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                perm.swap(i, rng.random_range(0..=i));
            }
            perm
        })
        .collect();
    (0..n)
        .map(|i| {
            (0..dim)
                .map(|j| (strata[j][i] as f64 + rng.random::<f64>()) / n as f64)
                .collect()
        })
        .collect()
}
