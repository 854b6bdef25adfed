//! `bosweep.GP`: a Gaussian process fitted to numpy data (or with given hyperparameters) and its
//! posterior on any device, as `bosweep gp predict` computes them.

use bosweep_algorithms::surrogate::{DataFitStart, GpModel, InputTransform, OutputTransform};
use bosweep_engine::{PairReduction, Points};
use bosweep_model::{FitChoice, GpSpec, GpState, Kernel, KernelKind, Noise};
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use super::arrays::{ArrayPair, array, points, values};
use super::errors::{invalid, to_py};
use super::ops::engine;

enum Model {
    /// Hyperparameters fitted in normalised units ([`GpModel::fit_to_data`]).
    Fitted(Box<GpModel>),
    /// Hyperparameters as given, in the data's units.
    Fixed(Box<GpState>),
}

/// A GP on `x` (n × d) and `y` (n): `fit` = "map" (BoTorch's Gamma priors, the default),
/// "map-dsp" (dimension-scaled priors), "map-saas" (the SAAS prior of BoTorch's MAP SAAS
/// model), "mle" (ML-II) or "fixed" (the given `lengthscale`,
/// `signal_var` and `noise_var`); where fitted, the given values are the starting point.
/// `kernel` is one of se, matern12, matern32, matern52, rq.
#[pyclass(name = "GP", module = "bosweep")]
pub struct Gp {
    model: Model,
    dim: usize,
}

#[pymethods]
impl Gp {
    #[new]
    #[pyo3(signature = (x, y, kernel="matern52", fit="map", lengthscale=None, signal_var=None, noise_var=None, mean=0.0, rq_alpha=1.0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        x: PyReadonlyArray2<'_, f64>,
        y: PyReadonlyArray1<'_, f64>,
        kernel: &str,
        fit: &str,
        lengthscale: Option<Vec<f64>>,
        signal_var: Option<f64>,
        noise_var: Option<f64>,
        mean: f64,
        rq_alpha: f64,
    ) -> PyResult<Self> {
        let inputs = points("x", x)?;
        let targets = values("y", y)?;
        if targets.len() != inputs.rows() {
            return Err(invalid(format!(
                "y: {} values for the {} rows of x",
                targets.len(),
                inputs.rows()
            )));
        }
        let kind = KernelKind::parse(kernel, rq_alpha).ok_or_else(|| {
            invalid(format!(
                "kernel: unknown kernel '{kernel}' (expected one of {})",
                KernelKind::NAMES
            ))
        })?;
        let dim = inputs.dim();
        let lengthscales = lengthscale
            .map(|l| match l.len() {
                1 => Ok(vec![l[0]; dim]),
                n if n == dim => Ok(l),
                n => Err(invalid(format!(
                    "lengthscale: {n} values for {dim} input columns (give one, or one per column)"
                ))),
            })
            .transpose()?;
        let fit: FitChoice = fit.parse().map_err(|e| invalid(format!("fit: {e}")))?;
        if fit == FitChoice::Fixed {
            let required = |name: &str, v: Option<f64>| {
                v.ok_or_else(|| {
                    invalid(format!(
                        "{name} is required with fit=\"fixed\" (or fit the hyperparameters: \
                         fit=\"map\")"
                    ))
                })
            };
            let lengthscales = lengthscales.ok_or_else(|| {
                invalid("lengthscale is required with fit=\"fixed\" (or fit=\"map\")")
            })?;
            let kernel = Kernel::new(kind, lengthscales, required("signal_var", signal_var)?)
                .map_err(to_py)?;
            let noise = Noise::Homoscedastic(required("noise_var", noise_var)?);
            let state = py
                .detach(|| {
                    GpState::fit(
                        inputs,
                        &targets,
                        GpSpec::new(kernel, noise.clone()).mean(mean),
                    )
                })
                .map_err(to_py)?;
            return Ok(Self {
                model: Model::Fixed(Box::new(state)),
                dim,
            });
        }
        let mode = fit.mode(dim);
        let start = DataFitStart {
            lengthscales,
            signal_variance: signal_var,
            noise_variance: noise_var,
        };
        let model = py
            .detach(|| GpModel::fit_to_data(kind, &inputs, &targets, mode, &start))
            .map_err(to_py)?;
        Ok(Self {
            model: Model::Fitted(Box::new(model)),
            dim,
        })
    }

    /// The posterior mean and variance of the latent function at the rows of `x`.
    #[pyo3(signature = (x, device="auto", precision="f32"))]
    fn predict<'py>(
        &self,
        py: Python<'py>,
        x: PyReadonlyArray2<'py, f64>,
        device: &str,
        precision: &str,
    ) -> PyResult<ArrayPair<'py>> {
        let candidates: Points = points("x", x)?;
        if candidates.dim() != self.dim {
            return Err(invalid(format!(
                "x: {} columns, the GP was fitted on {}",
                candidates.dim(),
                self.dim
            )));
        }
        let engine = engine(device, precision)?;
        let posterior = py
            .detach(|| match &self.model {
                Model::Fitted(model) => model.predict(engine.as_ref(), &candidates),
                Model::Fixed(state) => engine.posterior(state, &candidates),
            })
            .map_err(to_py)?;
        Ok((array(py, posterior.mean), array(py, posterior.variance)))
    }

    /// For each decision (row of `decisions`), `μ(x, c_j) + β σ(x, c_j)` over the context
    /// samples `c_j` (rows of `contexts`) reduced with `reduction`: "mean" (SBO-KDE), "min"
    /// (DRBO-KDE's infimum) or "worst-case-tv" (the mean's worst case over the total-variation
    /// ball of radius `delta`, the infimum per decision in `infimum`). The GP's inputs are
    /// (decision, context) concatenated; values in the data's units.
    #[pyo3(signature = (decisions, contexts, beta=2.0, reduction="mean", delta=None, infimum=None, device="auto", precision="f32"))]
    #[allow(clippy::too_many_arguments)]
    fn pair_reduce<'py>(
        &self,
        py: Python<'py>,
        decisions: PyReadonlyArray2<'py, f64>,
        contexts: PyReadonlyArray2<'py, f64>,
        beta: f64,
        reduction: &str,
        delta: Option<f64>,
        infimum: Option<PyReadonlyArray1<'py, f64>>,
        device: &str,
        precision: &str,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let decisions = points("decisions", decisions)?;
        let contexts = points("contexts", contexts)?;
        if decisions.dim() + contexts.dim() != self.dim {
            return Err(invalid(format!(
                "decisions and contexts: {} + {} columns, the GP was fitted on {}",
                decisions.dim(),
                contexts.dim(),
                self.dim
            )));
        }
        let infimum = infimum.map(|i| values("infimum", i)).transpose()?;
        let (decisions, contexts, outputs) = match &self.model {
            Model::Fitted(model) => {
                let split = |t: &InputTransform, x: &Points, range| t.columns(range).forward(x);
                let (d, c) = (decisions.dim(), contexts.dim());
                let (decisions, contexts) = match model.input_transform() {
                    Some(t) => (
                        split(t, &decisions, 0..d).map_err(to_py)?,
                        split(t, &contexts, d..d + c).map_err(to_py)?,
                    ),
                    None => (decisions, contexts),
                };
                (decisions, contexts, model.output_transform())
            }
            Model::Fixed(_) => (decisions, contexts, OutputTransform::IDENTITY),
        };
        // In model units the infimum is standardised like the targets; the reductions commute
        // with the increasing affine map back.
        let infimum: Option<Vec<f64>> =
            infimum.map(|i| i.iter().map(|v| outputs.forward(*v)).collect());
        let reduction = match (reduction, delta, &infimum) {
            ("mean", None, None) => PairReduction::Mean,
            ("min", None, None) => PairReduction::Min,
            ("worst-case-tv", Some(delta), Some(infimum)) => {
                PairReduction::WorstCaseTv { delta, infimum }
            }
            ("mean" | "min", _, _) => {
                return Err(invalid(format!(
                    "reduction \"{reduction}\" takes neither delta nor infimum"
                )));
            }
            ("worst-case-tv", _, _) => {
                return Err(invalid(
                    "reduction \"worst-case-tv\" needs delta and infimum (one per decision)",
                ));
            }
            (other, _, _) => {
                return Err(invalid(format!(
                    "reduction: unknown \"{other}\" (expected mean, min or worst-case-tv)"
                )));
            }
        };
        let engine = engine(device, precision)?;
        let state = match &self.model {
            Model::Fitted(model) => model.state(),
            Model::Fixed(state) => state,
        };
        let reduced = py
            .detach(|| engine.pair_reduce(state, &decisions, &contexts, beta, reduction))
            .map_err(to_py)?;
        Ok(array(
            py,
            reduced.into_iter().map(|z| outputs.inverse(z)).collect(),
        ))
    }

    /// The lengthscales in the data's units.
    #[getter]
    fn lengthscales(&self) -> Vec<f64> {
        match &self.model {
            Model::Fitted(model) => model.lengthscales_original(),
            Model::Fixed(state) => state.kernel().lengthscales().to_vec(),
        }
    }

    /// The signal variance s² in the data's units.
    #[getter]
    fn signal_variance(&self) -> f64 {
        match &self.model {
            Model::Fitted(model) => model.signal_variance_original(),
            Model::Fixed(state) => state.kernel().signal_variance(),
        }
    }

    /// The observation noise variance in the data's units.
    #[getter]
    fn noise_variance(&self) -> f64 {
        let noise = match &self.model {
            Model::Fitted(model) => model.noise_original(),
            Model::Fixed(state) => state.noise().clone(),
        };
        match noise {
            Noise::Homoscedastic(v) => v,
            Noise::PerPoint(v) => v.iter().sum::<f64>() / v.len().max(1) as f64,
        }
    }

    /// The constant prior mean in the data's units.
    #[getter]
    fn mean(&self) -> f64 {
        match &self.model {
            Model::Fitted(model) => model.mean_original(),
            Model::Fixed(state) => state.mean(),
        }
    }

    /// The log marginal likelihood of the targets in the data's units.
    #[getter]
    fn log_marginal_likelihood(&self) -> f64 {
        match &self.model {
            Model::Fitted(model) => model.log_marginal_likelihood_original(),
            Model::Fixed(state) => state.log_marginal_likelihood(),
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "GP(lengthscales={:?}, signal_variance={}, noise_variance={}, mean={})",
            self.lengthscales(),
            self.signal_variance(),
            self.noise_variance(),
            self.mean()
        )
    }
}
