//! Observations kept twice: in the problem's coordinates (recommendations, exact re-sampling)
//! and in unit-cube coordinates, where every kernel and bandwidth of BOKE lives (§2.1).

use super::super::History;
use crate::compute::{EngineError, Points};
use crate::problems::Domain;

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
