//! Which evaluated point RAHBO reports (Makarova et al., NeurIPS 2021: Corollary 1.1, or the
//! final models' bound of the figures), as a pure function of the per-point scores, so that each
//! rule is checked on hand-built values.

use super::settings::ReportRule;

/// Index of the largest score, the earliest among ties; `None` when there is none.
pub fn first_argmax(scores: &[f64]) -> Option<usize> {
    (0..scores.len()).reduce(|b, i| if scores[i] > scores[b] { i } else { b })
}

/// The scores of the evaluated points that a report rule compares.
pub struct ReportScores<'a> {
    /// `lcb^MV_t(x_t)` stored in the round each point was chosen (`None` for the initial design).
    pub stored_lcb: &'a [Option<f64>],
    /// Each method's lcb under the latest models (`None` before any model exists).
    pub final_lcb: Option<&'a [f64]>,
    /// Sample means `m̂` of the evaluated points.
    pub means: &'a [f64],
    /// Sample variances `ŝ²` of the evaluated points.
    pub variances: &'a [f64],
    /// The risk coefficient α of the empirical `m̂ − α·ŝ²`.
    pub alpha: f64,
}

/// The index of the reported point under `rule`, the earliest among ties. Rules without their
/// scores yet (no model, no chosen round) fall back to the empirical `m̂ − α·ŝ²`.
pub fn reported_index(rule: ReportRule, scores: &ReportScores<'_>) -> Option<usize> {
    let empirical = || -> Vec<f64> {
        scores
            .means
            .iter()
            .zip(scores.variances)
            .map(|(m, v)| m - scores.alpha * v)
            .collect()
    };
    let values: Vec<f64> = match (rule, scores.final_lcb) {
        (ReportRule::FinalLcb, Some(lcb)) => lcb.to_vec(),
        (ReportRule::Corollary, _) if scores.stored_lcb.iter().any(Option::is_some) => scores
            .stored_lcb
            .iter()
            .map(|l| l.unwrap_or(f64::NEG_INFINITY))
            .collect(),
        (ReportRule::BestObserved, _) => scores.means.to_vec(),
        _ => empirical(),
    };
    first_argmax(&values)
}
