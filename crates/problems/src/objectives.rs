//! What a problem with several objectives declares beside its box: each objective's sense and,
//! where its source publishes them, the hypervolume's reference point, the maximum hypervolume
//! and a sample of the true Pareto front (docs/conventions.md, "Several objectives").

use std::sync::Arc;

use super::{ProblemError, Sense};

/// The objectives of a problem with m ≥ 2 of them. Problems with one objective declare none
/// ([`crate::Problem::objectives`] is `None`), so that everything single-objective stays as it
/// is.
#[derive(Clone, Debug, PartialEq)]
pub struct Objectives {
    senses: Vec<Sense>,
    reference_point: Option<Vec<f64>>,
    max_hypervolume: Option<f64>,
    front: Option<Arc<Vec<Vec<f64>>>>,
}

impl Objectives {
    /// m ≥ 2 objectives with the given senses, nothing else known yet.
    pub fn new(senses: Vec<Sense>) -> Result<Self, ProblemError> {
        if senses.len() < 2 {
            return Err(ProblemError::config(format!(
                "a multi-objective problem needs at least 2 objectives, got {}",
                senses.len()
            )));
        }
        Ok(Self {
            senses,
            reference_point: None,
            max_hypervolume: None,
            front: None,
        })
    }

    /// With the hypervolume's reference point, in the objectives' own units and senses.
    pub fn with_reference_point(mut self, point: Vec<f64>) -> Result<Self, ProblemError> {
        self.check_vector("reference point", &point)?;
        self.reference_point = Some(point);
        Ok(self)
    }

    /// With the hypervolume of the true Pareto front with respect to the reference point.
    pub fn with_max_hypervolume(mut self, value: f64) -> Result<Self, ProblemError> {
        if !(value.is_finite() && value > 0.0) {
            return Err(ProblemError::config(format!(
                "maximum hypervolume {value} (must be finite and positive)"
            )));
        }
        self.max_hypervolume = Some(value);
        Ok(self)
    }

    /// With a sample of the true Pareto front (each point in the objectives' own senses), which
    /// IGD+ is measured against.
    pub fn with_front(mut self, front: Vec<Vec<f64>>) -> Result<Self, ProblemError> {
        if front.is_empty() {
            return Err(ProblemError::config("the true front's sample is empty"));
        }
        for point in &front {
            self.check_vector("front point", point)?;
        }
        self.front = Some(Arc::new(front));
        Ok(self)
    }

    fn check_vector(&self, what: &str, point: &[f64]) -> Result<(), ProblemError> {
        if point.len() != self.count() {
            return Err(ProblemError::config(format!(
                "{what} {point:?} has {} entries for {} objectives",
                point.len(),
                self.count()
            )));
        }
        if let Some(v) = point.iter().find(|v| !v.is_finite()) {
            return Err(ProblemError::config(format!(
                "{what} {point:?} has the non-finite entry {v}"
            )));
        }
        Ok(())
    }

    /// The number of objectives m.
    pub fn count(&self) -> usize {
        self.senses.len()
    }

    /// Each objective's sense.
    pub fn senses(&self) -> &[Sense] {
        &self.senses
    }

    /// The reference point, where known.
    pub fn reference_point(&self) -> Option<&[f64]> {
        self.reference_point.as_deref()
    }

    /// The maximum hypervolume, where known.
    pub fn max_hypervolume(&self) -> Option<f64> {
        self.max_hypervolume
    }

    /// The true front's sample, where known.
    pub fn front(&self) -> Option<&[Vec<f64>]> {
        self.front.as_deref().map(Vec::as_slice)
    }

    /// `values` in minimisation form, where every indicator is computed: maximised objectives
    /// negated.
    pub fn to_minimization(&self, values: &[f64]) -> Vec<f64> {
        values
            .iter()
            .zip(&self.senses)
            .map(|(v, s)| -s.to_maximization(*v))
            .collect()
    }

    /// `values` in maximisation form, as algorithms see them: minimised objectives negated.
    pub fn to_maximization(&self, values: &[f64]) -> Vec<f64> {
        values
            .iter()
            .zip(&self.senses)
            .map(|(v, s)| s.to_maximization(*v))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_checked_and_forms_convert() {
        assert!(Objectives::new(vec![Sense::Minimize]).is_err());
        let o = Objectives::new(vec![Sense::Minimize, Sense::Maximize]).unwrap();
        assert!(o.clone().with_reference_point(vec![1.0]).is_err());
        assert!(o.clone().with_reference_point(vec![1.0, f64::NAN]).is_err());
        assert!(o.clone().with_max_hypervolume(0.0).is_err());
        assert!(o.clone().with_front(vec![]).is_err());
        let o = o
            .with_reference_point(vec![4.0, -1.0])
            .unwrap()
            .with_max_hypervolume(2.5)
            .unwrap()
            .with_front(vec![vec![1.0, 2.0]])
            .unwrap();
        assert_eq!(o.count(), 2);
        assert_eq!(o.reference_point(), Some(&[4.0, -1.0][..]));
        assert_eq!(o.to_minimization(&[3.0, 2.0]), vec![3.0, -2.0]);
        assert_eq!(o.to_maximization(&[3.0, 2.0]), vec![-3.0, 2.0]);
        assert_eq!(o.front().unwrap().len(), 1);
    }
}
