//! A log acquisition averaged over the models of a fully Bayesian ensemble, as BoTorch averages
//! one over a fully Bayesian model's MCMC draws: `ln((1/M) Σ_m exp a_m(x))`, the log of the
//! mean acquisition (`average_over_ensemble_models` with `_log`; for an MC acquisition such as
//! qLogNEI, its sample reduction over the samples and the models at once, which is the same
//! number when every model has as many samples).

use super::{Acquisition, AnalyticGradient, ValueGradient};
use bosweep_core::stats::{log_mean_exp, log_mean_exp_weights};
use bosweep_engine::{Engine, EngineError, Points};

/// The log-mean-exp of the members' log acquisitions (see the module docs).
pub struct LogMeanExpEnsemble<A> {
    members: Vec<A>,
}

impl<A: Acquisition> LogMeanExpEnsemble<A> {
    /// The ensemble of `members`: at least one, all of one input dimension.
    pub fn new(members: Vec<A>) -> Result<Self, EngineError> {
        let Some(first) = members.first() else {
            return Err(EngineError::invalid(
                "an ensemble acquisition needs a member",
            ));
        };
        let dim = first.dim();
        if let Some(m) = members.iter().position(|a| a.dim() != dim) {
            return Err(EngineError::invalid(format!(
                "ensemble member {m} takes {} inputs, member 0 takes {dim}",
                members[m].dim()
            )));
        }
        Ok(Self { members })
    }
}

impl<A: Acquisition> Acquisition for LogMeanExpEnsemble<A> {
    fn dim(&self) -> usize {
        self.members[0].dim()
    }

    fn evaluate(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        let per_member = self
            .members
            .iter()
            .map(|a| a.evaluate(engine, candidates))
            .collect::<Result<Vec<_>, _>>()?;
        let mut column = vec![0.0; per_member.len()];
        Ok((0..candidates.rows())
            .map(|i| {
                for (slot, values) in column.iter_mut().zip(&per_member) {
                    *slot = values[i];
                }
                log_mean_exp(&column)
            })
            .collect())
    }

    /// The members' gradients weighted by the log-mean-exp's slopes, where every member has an
    /// analytic gradient; `None` otherwise.
    fn analytic_gradient(&self) -> Result<Option<Box<dyn AnalyticGradient + '_>>, EngineError> {
        let mut members = Vec::with_capacity(self.members.len());
        for member in &self.members {
            match member.analytic_gradient()? {
                Some(gradient) => members.push(gradient),
                None => return Ok(None),
            }
        }
        Ok(Some(Box::new(EnsembleGradient { members })))
    }
}

/// [`LogMeanExpEnsemble`]'s value and gradient: `∇ = Σ_m w_m ∇a_m` with `w` the softmax of the
/// members' values.
struct EnsembleGradient<'a> {
    members: Vec<Box<dyn AnalyticGradient + 'a>>,
}

impl AnalyticGradient for EnsembleGradient<'_> {
    fn objective(&self) -> ValueGradient<'_> {
        let mut objectives: Vec<ValueGradient<'_>> =
            self.members.iter().map(|m| m.objective()).collect();
        let mut values = vec![0.0; objectives.len()];
        Box::new(move |x: &[f64]| {
            let mut gradients = Vec::with_capacity(objectives.len());
            for (slot, objective) in values.iter_mut().zip(&mut objectives) {
                let (value, gradient) = objective(x)?;
                *slot = value;
                gradients.push(gradient);
            }
            let value = log_mean_exp(&values);
            let mut gradient = vec![0.0; x.len()];
            if value.is_finite() {
                for (w, member) in log_mean_exp_weights(&values).iter().zip(&gradients) {
                    for (total, g) in gradient.iter_mut().zip(member) {
                        *total += w * g;
                    }
                }
            }
            Ok((value, gradient))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bosweep_engine::CpuEngine;

    /// `a(x) = c − (x − centre)²`, with its gradient.
    struct Bowl {
        centre: f64,
        top: f64,
    }

    impl Acquisition for Bowl {
        fn dim(&self) -> usize {
            1
        }

        fn evaluate(&self, _: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
            Ok(candidates
                .iter()
                .map(|x| self.top - (x[0] - self.centre).powi(2))
                .collect())
        }

        fn analytic_gradient(&self) -> Result<Option<Box<dyn AnalyticGradient + '_>>, EngineError> {
            Ok(Some(Box::new(self)))
        }
    }

    impl AnalyticGradient for &Bowl {
        fn objective(&self) -> ValueGradient<'_> {
            Box::new(move |x: &[f64]| {
                Ok((
                    self.top - (x[0] - self.centre).powi(2),
                    vec![-2.0 * (x[0] - self.centre)],
                ))
            })
        }
    }

    fn ensemble() -> LogMeanExpEnsemble<Bowl> {
        LogMeanExpEnsemble::new(vec![
            Bowl {
                centre: 0.2,
                top: -1.0,
            },
            Bowl {
                centre: 0.7,
                top: -3.0,
            },
        ])
        .unwrap()
    }

    #[test]
    fn the_value_is_the_log_of_the_members_mean_acquisition() {
        let x = Points::new(vec![0.5], 1).unwrap();
        let got = ensemble().evaluate(&CpuEngine::new(), &x).unwrap()[0];
        let (a, b) = (-1.0 - 0.09f64, -3.0 - 0.04f64);
        let expect = ((a.exp() + b.exp()) / 2.0).ln();
        assert!((got - expect).abs() < 1e-14, "{got} vs {expect}");
    }

    #[test]
    fn the_gradient_matches_central_differences_and_the_value() {
        let ensemble = ensemble();
        let gradient = ensemble.analytic_gradient().unwrap().unwrap();
        let mut objective = gradient.objective();
        let engine = CpuEngine::new();
        let at = |x: f64| {
            ensemble
                .evaluate(&engine, &Points::new(vec![x], 1).unwrap())
                .unwrap()[0]
        };
        for x in [0.0, 0.45, 0.9] {
            let (value, slope) = objective(&[x]).unwrap();
            assert!((value - at(x)).abs() < 1e-14);
            let h = 1e-6;
            let numeric = (at(x + h) - at(x - h)) / (2.0 * h);
            assert!(
                (slope[0] - numeric).abs() < 1e-8,
                "{} vs {numeric}",
                slope[0]
            );
        }
    }

    #[test]
    fn an_empty_ensemble_is_refused() {
        let empty: Vec<Bowl> = Vec::new();
        assert!(LogMeanExpEnsemble::new(empty).is_err());
    }
}
