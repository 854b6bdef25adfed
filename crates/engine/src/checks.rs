//! Argument-consistency checks shared by both backends, so that both reject the same inputs
//! with the same messages.

use super::{EngineError, ImprovementSmoothing, PairReduction, Points, SampleCells, SamplePaths};
use bosweep_model::{GpState, Kernel, scaled_coordinates};

fn dims_match(what: &str, got: usize, want: usize) -> Result<(), EngineError> {
    if got == want {
        Ok(())
    } else {
        Err(EngineError::invalid(format!(
            "{what} have {got} columns, expected {want}"
        )))
    }
}

/// One value per item: `got` values (`what`) given for `want` items (`of`).
fn counts_match(got: usize, what: &str, want: usize, of: &str) -> Result<(), EngineError> {
    if got == want {
        Ok(())
    } else {
        Err(EngineError::invalid(format!(
            "{got} {what} for {want} {of}"
        )))
    }
}

pub fn cross_covariance(kernel: &Kernel, a: &Points, b: &Points) -> Result<(), EngineError> {
    dims_match("first point set's points", a.dim(), kernel.input_dim())?;
    dims_match("second point set's points", b.dim(), kernel.input_dim())?;
    scaled_coordinates("first point set", kernel, a, 0)?;
    scaled_coordinates("second point set", kernel, b, 0)
}

pub fn posterior(gps: &[&GpState], candidates: &Points) -> Result<(), EngineError> {
    for gp in gps {
        dims_match("candidates", candidates.dim(), gp.train().dim())?;
        scaled_coordinates("candidates", gp.kernel(), candidates, 0)?;
    }
    Ok(())
}

pub fn pair_values(
    gp: &GpState,
    decisions: &Points,
    contexts: &Points,
    beta: f64,
) -> Result<(), EngineError> {
    dims_match(
        "decision + context points",
        decisions.dim() + contexts.dim(),
        gp.train().dim(),
    )?;
    scaled_coordinates("decisions", gp.kernel(), decisions, 0)?;
    scaled_coordinates("context samples", gp.kernel(), contexts, decisions.dim())?;
    if gp.kernel().time_decay().is_some() {
        return Err(EngineError::invalid(
            "pair reductions take a kernel without time decay",
        ));
    }
    if contexts.is_empty() {
        return Err(EngineError::invalid(
            "pair reduction needs at least one context sample",
        ));
    }
    if !beta.is_finite() {
        return Err(EngineError::invalid(format!(
            "beta is {beta} (must be finite)"
        )));
    }
    Ok(())
}

pub fn pairs(
    gp: &GpState,
    decisions: &Points,
    contexts: &Points,
    beta: f64,
    reduction: &PairReduction<'_>,
) -> Result<(), EngineError> {
    pair_values(gp, decisions, contexts, beta)?;
    if let PairReduction::WorstCaseTv { delta, infimum } = reduction {
        if !(delta.is_finite() && *delta >= 0.0) {
            return Err(EngineError::invalid(format!(
                "TV radius delta is {delta} (must be finite and non-negative)"
            )));
        }
        counts_match(
            infimum.len(),
            "infimum values",
            decisions.rows(),
            "decisions",
        )?;
        // An infinite infimum meets a zero weight when δ ≥ 2 (0 · ∞ = NaN; found by fuzzing).
        if let Some(i) = infimum.iter().position(|v| !v.is_finite()) {
            return Err(EngineError::invalid(format!(
                "infimum value {i} is {} (must be finite)",
                infimum[i]
            )));
        }
    }
    Ok(())
}

pub fn kde(
    data: &Points,
    bandwidths: &[f64],
    weights: Option<&[f64]>,
    queries: &Points,
) -> Result<(), EngineError> {
    if data.is_empty() {
        return Err(EngineError::invalid("KDE of an empty data set"));
    }
    dims_match("queries", queries.dim(), data.dim())?;
    if bandwidths.len() != data.dim() {
        return Err(EngineError::invalid(format!(
            "{} bandwidths for {}-dimensional data",
            bandwidths.len(),
            data.dim()
        )));
    }
    if let Some((d, h)) = bandwidths
        .iter()
        .enumerate()
        .find(|(_, h)| !(h.is_finite() && **h > 0.0))
    {
        return Err(EngineError::invalid(format!(
            "bandwidth {d} is {h} (must be positive and finite)"
        )));
    }
    if let Some(w) = weights {
        counts_match(w.len(), "weights", data.rows(), "data points")?;
        if let Some(i) = w.iter().position(|v| !(v.is_finite() && *v >= 0.0)) {
            return Err(EngineError::invalid(format!(
                "weight {i} is {} (must be finite and non-negative)",
                w[i]
            )));
        }
        if w.iter().sum::<f64>() <= 0.0 {
            return Err(EngineError::invalid("KDE weights sum to zero"));
        }
    }
    Ok(())
}

/// The smallest and largest kernel-regression bandwidths: their squares are normal f64 numbers.
pub const MIN_BANDWIDTH: f64 = 1e-150;
pub const MAX_BANDWIDTH: f64 = 1e150;

pub fn kernel_regression(
    data: &Points,
    targets: &[f64],
    bandwidth: f64,
    queries: &Points,
) -> Result<(), EngineError> {
    nearest(data, queries)?;
    counts_match(targets.len(), "targets", data.rows(), "data points")?;
    if let Some(i) = targets.iter().position(|v| !v.is_finite()) {
        return Err(EngineError::invalid(format!(
            "target {i} is {}",
            targets[i]
        )));
    }
    // Distances are scaled by 1/h²: outside this range h² under- or overflows and 0·∞ = NaN.
    if !(MIN_BANDWIDTH..=MAX_BANDWIDTH).contains(&bandwidth) {
        return Err(EngineError::invalid(format!(
            "bandwidth is {bandwidth} (must lie in [{MIN_BANDWIDTH:e}, {MAX_BANDWIDTH:e}])"
        )));
    }
    Ok(())
}

pub fn nearest(data: &Points, queries: &Points) -> Result<(), EngineError> {
    if data.is_empty() {
        return Err(EngineError::invalid("no data points to search"));
    }
    dims_match("queries", queries.dim(), data.dim())
}

pub fn values(values: &[f64]) -> Result<(), EngineError> {
    match values.iter().position(|v| v.is_nan()) {
        Some(i) => Err(EngineError::invalid(format!("value {i} is NaN"))),
        None => Ok(()),
    }
}

/// `what` has `got` values, `want` expected, every one finite.
fn finite_values(what: &str, values: &[f64], want: usize) -> Result<(), EngineError> {
    if values.len() != want {
        return Err(EngineError::invalid(format!(
            "{} {what} given, expected {want}",
            values.len()
        )));
    }
    match values.iter().position(|v| !v.is_finite()) {
        Some(i) => Err(EngineError::invalid(format!(
            "{what} value {i} is {} (must be finite)",
            values[i]
        ))),
        None => Ok(()),
    }
}

pub fn sample_paths(
    paths: &SamplePaths<'_>,
    candidates: &Points,
    excluded: &[usize],
) -> Result<(), EngineError> {
    let kernel = paths.kernel;
    if !SamplePaths::supports(kernel.kind()) {
        return Err(EngineError::invalid(format!(
            "sample paths need a kernel with a spectral density (se, matern32 or matern52), \
             not {:?}",
            kernel.kind()
        )));
    }
    if kernel.time_decay().is_some() {
        return Err(EngineError::invalid(
            "sample paths take a kernel without time decay",
        ));
    }
    let (features, dim, n, s) = (
        paths.features(),
        paths.dim(),
        paths.train.rows(),
        paths.paths,
    );
    if features == 0 || s == 0 {
        return Err(EngineError::invalid(format!(
            "sample paths need at least one feature and one path (got {features} features, \
             {s} paths)"
        )));
    }
    dims_match("frequencies", paths.frequencies.dim(), dim)?;
    counts_match(paths.frequencies.rows(), "frequencies", features, "phases")?;
    dims_match("training inputs", paths.train.dim(), dim)?;
    dims_match("candidates", candidates.dim(), dim)?;
    finite_values("phases", paths.phases, features)?;
    finite_values("prior weights", paths.prior_weights, features * s)?;
    finite_values("update weights", paths.update_weights, n * s)?;
    if !paths.mean.is_finite() {
        return Err(EngineError::invalid(format!(
            "the prior mean is {} (must be finite)",
            paths.mean
        )));
    }
    scaled_coordinates("candidates", kernel, candidates, 0)?;
    scaled_coordinates("training inputs", kernel, paths.train, 0)?;
    let m = candidates.rows();
    if let Some(&i) = excluded.iter().find(|&&i| i >= m) {
        return Err(EngineError::invalid(format!(
            "excluded candidate {i} of {m}"
        )));
    }
    let mut distinct = excluded.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() >= m {
        return Err(EngineError::invalid(format!(
            "no candidate left to maximise over ({m} candidates, {} excluded)",
            distinct.len()
        )));
    }
    Ok(())
}

pub fn hypervolume_improvement(
    cells: &SampleCells,
    draws: &[f64],
    smoothing: ImprovementSmoothing,
) -> Result<(), EngineError> {
    let (m, samples) = (cells.m(), cells.samples());
    if m < 2 || samples == 0 {
        return Err(EngineError::invalid(format!(
            "hypervolume improvement needs at least 2 objectives and one sample (got {m} \
             objectives, {samples} samples)"
        )));
    }
    if !draws.len().is_multiple_of(m * samples) {
        return Err(EngineError::invalid(format!(
            "hypervolume improvement: {} draws are not candidates × {samples} samples × {m} \
             objectives",
            draws.len()
        )));
    }
    if let Some(bad) = draws.iter().find(|v| !v.is_finite()) {
        return Err(EngineError::invalid(format!(
            "hypervolume improvement: a candidate's draw is {bad} (must be finite)"
        )));
    }
    let (tau_relu, tau_max) = (smoothing.tau_relu, smoothing.tau_max);
    if !(tau_relu > 0.0 && tau_max > 0.0 && tau_relu.is_finite() && tau_max.is_finite()) {
        return Err(EngineError::invalid(format!(
            "hypervolume improvement: temperatures {tau_relu} and {tau_max} must be positive \
             and finite"
        )));
    }
    if let Some(s) = (0..samples).find(|&s| cells.offsets()[s] == cells.offsets()[s + 1]) {
        return Err(EngineError::invalid(format!(
            "hypervolume improvement: sample {s} has no cell (a non-dominated region is never \
             empty)"
        )));
    }
    Ok(())
}
